import { paymentsMode } from "#server/env";
import { productUnit, purchaseWords, type ProductKind } from "#common/order-words";
import { brand } from "#common/brand";

/** While payments are simulated every email about a purchase says so, first thing (and the PDF tickets too). */
export const TEST_MODE_NOTICE = "Modo de prueba: los pagos son simulados y estos QR no valen en el evento.";

/** Emails about access (sign-in link, recovery code) say nothing of purchases: no notice there. */
const ACCESS_EMAIL_KINDS = new Set(["sign-in-link", "recovery-code", "email-verification", "campaign", "campaign-test"]);

/** The message with TEST_MODE_NOTICE first in its text and HTML, while payments are simulated and when it is about a purchase. */
export function withTestModeNotice<T extends { kind: string; html: string; text?: string }>(message: T): T {
  if (paymentsMode() !== "sandbox" || ACCESS_EMAIL_KINDS.has(message.kind)) return message;
  const strip = `<p style="margin:0;padding:10px 12px;background:${brand.testMode.background};color:${brand.testMode.text};font-family:Arial,sans-serif;font-size:13px;font-weight:bold;text-align:center">${escapeHtml(TEST_MODE_NOTICE)}</p>`;
  return {
    ...message,
    html: /<body[^>]*>/.test(message.html) ? message.html.replace(/(<body[^>]*>)/, `$1${strip}`) : `${strip}${message.html}`,
    ...(message.text !== undefined ? { text: `${TEST_MODE_NOTICE}\n\n${message.text}` } : {}),
  };
}

/**
 * Minimal, inline-styled HTML that every mail client shows the same. `title`
 * is escaped here; `body` is HTML the caller built with `escapeHtml`. The
 * closing line fits emails a person asked for (sign-in, recovery); the ones
 * about a purchase pass their own.
 */
export function emailLayout(title: string, body: string, footer = "Si no pediste este correo, podés ignorarlo."): string {
  return `<!doctype html><html lang="es"><body style="margin:0;background:${brand.email.page};font-family:Arial,sans-serif;color:${brand.email.text}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" style="max-width:520px;background:${brand.email.card};border-radius:12px;padding:24px">
<tr><td><p style="color:${brand.email.link};font-size:20px;font-weight:bold;margin:0 0 16px">Tribuna</p>
<h1 style="font-size:20px;margin:0 0 16px;color:${brand.email.heading}">${escapeHtml(title)}</h1>${body}${footer ? `
<p style="font-size:12px;color:${brand.email.muted};margin-top:24px">${escapeHtml(footer)}</p>` : ""}</td></tr></table>
</td></tr></table></body></html>`;
}

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function signInLinkEmail(link: string, userFound: boolean) {
  const action = userFound ? "Ingresar a Tribuna" : "Crear mi cuenta en Tribuna";
  return {
    subject: userFound ? "Tu enlace para ingresar a Tribuna" : "Terminá de crear tu cuenta en Tribuna",
    html: emailLayout(
      action,
      `<p>Tocá el botón para continuar. El enlace vence en 30 minutos y sirve una sola vez.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:${brand.email.button};color:${brand.email.buttonText};padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${action}</a></p>
<p style="font-size:12px;color:${brand.email.muted};word-break:break-all">${escapeHtml(link)}</p>`,
    ),
    text: `${action}: ${link}\nEl enlace vence en 30 minutos y sirve una sola vez.`,
  };
}

export function recoveryCodeEmail(code: string) {
  return {
    subject: `Tu código para recuperar la contraseña: ${code}`,
    html: emailLayout(
      "Recuperá tu contraseña",
      `<p>Ingresá este código en Tribuna para elegir una contraseña nueva. Vence en 15 minutos.</p>
<p style="font-size:32px;letter-spacing:8px;font-weight:bold;color:${brand.email.heading}">${escapeHtml(code)}</p>`,
    ),
    text: `Tu código para recuperar la contraseña es ${code}. Vence en 15 minutos.`,
  };
}

/** Named tickets (decision 202): said once, above the tickets, in the email and its text version. */
const NAMED_NOTICE = "Las entradas son nominativas: en la puerta piden el documento de cada titular, que tiene que coincidir con el de su entrada. Si alguien no puede ir, enviale la entrada desde Mis tickets con su nombre y documento.";

export interface TicketsEmailInput {
  eventName: string;
  /** Already in Buenos Aires time (`formatEventStart`): "Sábado 20 de diciembre de 2026 · 21:30 h". */
  when: string;
  venue: string;
  orderCode: string;
  /** The purchase page, with the buyer's access token. */
  link: string;
  /**
   * One per product; `qrSrc` is what the <img> loads (a `cid:` of an attached PNG). `kind`: an entrada (shown
   * at the door) or a consumición of the menu (decision 106, shown at the bar); the email's words follow it.
   */
  tickets: {
    holderName: string;
    holderDocument?: string | null;
    /** Reserved seating: "Platea · Fila F · Asiento 12" (common/seating.ts seatLabel); absent for general admission. */
    seat?: string | null;
    ticketTypeName: string;
    kind?: ProductKind;
    qrSrc: string;
    /** Absolute links to add the ticket to Apple Wallet / Google Wallet (docs/wallet.md); null: that wallet is not set up. */
    wallet?: { apple: string | null; google: string | null } | null;
  }[];
  /** An invitation (gift order): who invites, said in the title instead of "¡Listo!". */
  invitedBy?: string;
  /** A live-QR event whose static QR counts later (server/tickets/pdf.ts staticQrNote): said above the tickets. */
  staticQrNote?: string | null;
}

/** The wallet buttons under a ticket: plain links a mail client opens in the phone's browser. */
function walletLinksHtml(wallet: { apple: string | null; google: string | null } | null | undefined): string {
  const links = [
    wallet?.apple ? { href: wallet.apple, label: "Agregar a Apple Wallet" } : null,
    wallet?.google ? { href: wallet.google, label: "Guardar en Google Wallet" } : null,
  ].filter((l) => l !== null);
  if (!links.length) return "";
  return `<p style="margin:12px 0 0">${links
    .map((l) => `<a href="${escapeHtml(l.href)}" style="display:inline-block;margin:4px;padding:10px 14px;border-radius:8px;background:${brand.email.ticketText};color:${brand.email.ticket};text-decoration:none;font-size:14px;font-weight:bold">${l.label}</a>`)
    .join("")}</p>`;
}

/** What to do with the QR, by what the purchase holds. */
const HOW_TO_USE = {
  ticket: "Mostrá el QR en la entrada, desde el celular o impreso. También te adjuntamos el PDF. Cada entrada sirve una sola vez: no la compartas.",
  menu: "Mostrá cada QR en la barra, desde el celular o impreso, y te entregan la consumición. También te adjuntamos el PDF. Cada QR sirve una sola vez.",
  mixed: "Mostrá el QR de cada entrada en la puerta y el de cada consumición en la barra, desde el celular o impreso. También te adjuntamos el PDF. Cada QR sirve una sola vez.",
} as const;

/**
 * The products after payment: one block per product with its QR, the PDF attached, and the link to the
 * purchase page. A drink order speaks of consumiciones and the bar (docs/wording.md), a mixed one of both.
 */
export function ticketsEmail(input: TicketsEmailInput) {
  const count = input.tickets.length;
  const kindOf = (t: TicketsEmailInput["tickets"][number]) => t.kind ?? "ticket";
  const words = purchaseWords(input.tickets.map(kindOf));
  const yours = count === 1 ? words.yoursCount(1) : words.yours;
  const title = input.invitedBy ? `${input.invitedBy} te invitó a ${input.eventName}` : `¡Listo! ${yours} para ${input.eventName}`;
  const blocks = input.tickets
    .map((t, i) => {
      const unit = productUnit(kindOf(t));
      return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:16px 0;background:${brand.email.ticket};border-radius:12px">
<tr><td align="center" style="padding:20px;color:${brand.email.ticketText}">
<p style="margin:0 0 4px;font-size:13px;color:${brand.email.ticketMuted}">${unit} ${i + 1} de ${count} · ${escapeHtml(t.ticketTypeName)}</p>
${t.seat ? `<p style="margin:0 0 8px;font-size:16px;font-weight:bold;color:${brand.email.ticketText}">${escapeHtml(t.seat)}</p>\n` : ""}<p style="margin:0 0 12px;font-size:18px;font-weight:bold;color:${brand.email.ticketText}">${escapeHtml(t.holderName)}</p>
${t.holderDocument ? `<p style="margin:-8px 0 12px;font-size:15px;color:${brand.email.ticketText}">${escapeHtml(t.holderDocument)}</p>` : ""}
<img src="${escapeHtml(t.qrSrc)}" width="240" height="240" alt="Código QR de la ${unit.toLowerCase()} ${i + 1}" style="display:block;width:240px;height:240px;background:${brand.email.ticket};border:0">
<p style="margin:12px 0 0;font-size:12px;color:${brand.email.ticketMuted}">Compra ${escapeHtml(input.orderCode)}</p>
${walletLinksHtml(t.wallet)}
</td></tr></table>`;
    })
    .join("\n");
  return {
    subject: `${input.invitedBy ? (count === 1 ? "Tu invitación" : "Tus invitaciones") : yours} para ${input.eventName} · ${input.orderCode}`,
    html: emailLayout(
      title,
      `<p style="margin:0 0 4px">${escapeHtml(input.when)}</p>
<p style="margin:0 0 16px">${escapeHtml(input.venue)}</p>
<p>${HOW_TO_USE[words.kind]}</p>
${input.tickets.some((t) => t.holderDocument) ? `<p>${NAMED_NOTICE}</p>` : ""}
${input.staticQrNote ? `<p><strong>${escapeHtml(input.staticQrNote)}</strong></p>` : ""}
${blocks}
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;background:${brand.email.button};color:${brand.email.buttonText};padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Ver mis ${words.plural}</a></p>
<p style="font-size:12px;color:${brand.email.muted};word-break:break-all">${escapeHtml(input.link)}</p>`,
      `Guardá este correo: tiene tus ${words.plural} y el link a tu compra.`,
    ),
    text: [
      title,
      input.when,
      input.venue,
      `Compra ${input.orderCode}`,
      "",
      ...input.tickets.flatMap((t, i) => [
        `${productUnit(kindOf(t))} ${i + 1} de ${count}: ${t.ticketTypeName}${t.seat ? ` · ${t.seat}` : ""} — ${t.holderName}${t.holderDocument ? ` (${t.holderDocument})` : ""}`,
        ...(t.wallet?.apple ? [`  Agregar a Apple Wallet: ${t.wallet.apple}`] : []),
        ...(t.wallet?.google ? [`  Guardar en Google Wallet: ${t.wallet.google}`] : []),
      ]),
      "",
      ...(input.tickets.some((t) => t.holderDocument) ? [NAMED_NOTICE, ""] : []),
      ...(input.staticQrNote ? [input.staticQrNote, ""] : []),
      `Mostrá el QR ${words.showAt}. Lo tenés en el PDF adjunto y acá: ${input.link}`,
    ].join("\n"),
  };
}
