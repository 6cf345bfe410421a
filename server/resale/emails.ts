import type { ResaleListingRow } from "#server/db/schema";
import type { DbOrTx } from "#server/db/client";
import { sendEmail, type EmailMessage } from "#server/email/send";
import { emailLayout, escapeHtml } from "#server/email/templates";
import { appUrl } from "#server/env";
import { formatMoney } from "#common/money";

/*
 * The seller's three emails (docs/resale.md): listed, sold, money back. The
 * buyer gets the usual tickets email (onPaid's job). Written in the caller's
 * transaction, in a savepoint: a failed email never undoes the step.
 */

export const RESALE_LISTED_EMAIL = "resale-listed";
export const RESALE_SOLD_EMAIL = "resale-sold";
export const RESALE_REFUNDED_EMAIL = "resale-refunded";

const moneyLine = (l: ResaleListingRow) =>
  l.fee > 0
    ? `Precio ${formatMoney(l.price)}, menos el cargo por reventa del organizador (${formatMoney(l.fee)}): te devolvemos ${formatMoney(l.payout)}.`
    : `Precio ${formatMoney(l.price)}: te devolvemos ${formatMoney(l.payout)}.`;

const howBack = (method: string | null) =>
  method === "organizer"
    ? "Como no pagaste con Mercado Pago, te lo devuelve el organizador por transferencia; si tenés dudas, escribile respondiendo este correo."
    : "Vuelve al mismo medio con el que pagaste en Mercado Pago; según tu banco, puede tardar unos días en verse.";

export async function emailListed(tx: DbOrTx, listing: ResaleListingRow, to: { eventName: string; to: string }) {
  const title = `Publicaste tu entrada para ${to.eventName}`;
  await sendSafely(tx, {
    to: to.to,
    kind: RESALE_LISTED_EMAIL,
    organizationId: listing.organizationId,
    subject: title,
    html: emailLayout(
      title,
      `<p>Tu entrada está en la reventa oficial. ${escapeHtml(moneyLine(listing))}</p>
<p>Hasta que alguien la compre, tu QR sigue sirviendo y podés cancelar la publicación desde <a href="${escapeHtml(`${appUrl()}/cuenta/mis-tickets`)}">Mis tickets</a>. Cuando se venda, tu QR deja de servir y la persona que la compró recibe uno nuevo.</p>`,
      "Si no fuiste vos, cancelá la publicación y escribinos respondiendo este correo.",
    ),
    text: `${title}. ${moneyLine(listing)} Hasta que se venda tu QR sigue sirviendo y podés cancelar desde Mis tickets. Cuando se venda, tu QR deja de servir.`,
  });
}

export async function emailSold(tx: DbOrTx, listing: ResaleListingRow, to: { eventName: string; to: string }) {
  const title = `Vendiste tu entrada para ${to.eventName}`;
  await sendSafely(tx, {
    to: to.to,
    kind: RESALE_SOLD_EMAIL,
    organizationId: listing.organizationId,
    subject: title,
    html: emailLayout(title, `<p>Alguien compró tu entrada en la reventa oficial. El QR que tenías ya no sirve para entrar.</p><p>${escapeHtml(moneyLine(listing))} ${escapeHtml(howBack(listing.payoutMethod))}</p>`),
    text: `${title}. El QR que tenías ya no sirve para entrar. ${moneyLine(listing)} ${howBack(listing.payoutMethod)}`,
  });
}

export async function emailRefunded(tx: DbOrTx, listing: ResaleListingRow, to: { eventName: string; to: string }) {
  const title = `Te devolvimos ${formatMoney(listing.payout)} por tu entrada revendida`;
  await sendSafely(tx, {
    to: to.to,
    kind: RESALE_REFUNDED_EMAIL,
    organizationId: listing.organizationId,
    subject: title,
    html: emailLayout(title, `<p>Mercado Pago ya procesó la devolución de ${escapeHtml(formatMoney(listing.payout))} por tu entrada para ${escapeHtml(to.eventName)}. Según tu banco, puede tardar unos días en verse.</p>`),
    text: `${title} para ${to.eventName}. Según tu banco, puede tardar unos días en verse.`,
  });
}

async function sendSafely(tx: DbOrTx, message: EmailMessage) {
  try {
    await tx.transaction((sp) => sendEmail(sp, message));
  } catch (error) {
    console.error(error);
  }
}
