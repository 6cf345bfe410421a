import { brand } from "#common/brand";
import { formatDateTime, formatEventStart } from "#common/dates";
import { emailLayout, escapeHtml as escape } from "#server/email/templates";

interface OfferEmailInput {
  firstName: string | null;
  eventName: string;
  startsAt: Date;
  ticketName: string;
  quantity: number;
  /** How many the person asked for: a partial offer says so. */
  wanted: number;
  expiresAt: Date;
  claimUrl: string;
  /** A ticket of the official resale (somebody who cannot go sold it back), not returned stock. */
  resale?: boolean;
}

const hello = (name: string | null) => (name?.trim() ? `Hola ${name.trim()}` : "Hola");
const units = (n: number) => (n === 1 ? "1 entrada" : `${n} entradas`);

/** The email of an offer: tickets came back and are held for this person until `expiresAt`. */
export function offerEmail(input: OfferEmailInput) {
  const partial =
    input.quantity < input.wanted
      ? `<p>Pediste ${units(input.wanted)} y por ahora volvieron ${units(input.quantity)}. Si las reclamás, seguís en la lista por ${units(input.wanted - input.quantity)} más, en el mismo lugar.</p>`
      : "";
  const partialText = input.quantity < input.wanted ? `\nPediste ${units(input.wanted)} y por ahora volvieron ${units(input.quantity)}; si las reclamás, seguís en la lista por el resto.` : "";
  return {
    kind: "waitlist-offer",
    subject: `Se liberaron entradas para ${input.eventName}`,
    html: emailLayout(
      "Se liberaron entradas para vos",
      `<p>${escape(hello(input.firstName))}: estabas en la lista de espera de <strong>${escape(input.eventName)}</strong> (${escape(formatEventStart(input.startsAt))}) y te guardamos ${units(input.quantity)} «${escape(input.ticketName)}».</p>
${input.resale ? "<p>Es una entrada de la reventa oficial: alguien que no puede ir la devolvió al precio que pagó. Al pagarla te llega una entrada nueva, con un QR nuevo a tu nombre.</p>" : ""}
${partial}
<p>Te las guardamos hasta el <strong>${escape(formatDateTime(input.expiresAt))}</strong>. Para quedártelas, reclamalas y pagalas como en cualquier compra. Si no las reclamás a tiempo, pasan a la siguiente persona de la lista.</p>
<p><a href="${escape(input.claimUrl)}" style="display:inline-block;background:${brand.email.button};color:${brand.email.buttonText};padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Reclamar mis entradas</a></p>
<p style="font-size:12px;color:${brand.email.muted};word-break:break-all">${escape(input.claimUrl)}</p>`,
      "Recibís este correo porque te anotaste en la lista de espera. Podés salir de la lista desde Mis tickets.",
    ),
    text: `${hello(input.firstName)}: se liberaron entradas de ${input.eventName} (${formatEventStart(input.startsAt)}) y te guardamos ${units(input.quantity)} «${input.ticketName}» hasta el ${formatDateTime(input.expiresAt)}.${input.resale ? "\nEs una entrada de la reventa oficial: al pagarla te llega una entrada nueva, con un QR nuevo a tu nombre." : ""}${partialText}\nReclamalas y pagalas acá: ${input.claimUrl}\nSi no las reclamás a tiempo, pasan a la siguiente persona de la lista.`,
  };
}

/** The email when an offer ran out unclaimed: the tickets went to the next person; the person may join again. */
export function offerMissedEmail(input: { firstName: string | null; eventName: string; eventUrl: string }) {
  return {
    kind: "waitlist-offer-missed",
    subject: `Venció tu reserva de la lista de espera de ${input.eventName}`,
    html: emailLayout(
      "Venció tu reserva",
      `<p>${escape(hello(input.firstName))}: las entradas que te guardamos de <strong>${escape(input.eventName)}</strong> no se reclamaron a tiempo y pasaron a la siguiente persona de la lista de espera.</p>
<p>Si todavía querés ir, podés anotarte de nuevo desde la página del evento.</p>
<p><a href="${escape(input.eventUrl)}" style="display:inline-block;background:${brand.email.button};color:${brand.email.buttonText};padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Ver el evento</a></p>`,
      "",
    ),
    text: `${hello(input.firstName)}: las entradas que te guardamos de ${input.eventName} no se reclamaron a tiempo y pasaron a la siguiente persona de la lista de espera. Podés anotarte de nuevo: ${input.eventUrl}`,
  };
}
