import { formatMoney } from "#common/money";
import { purchaseWords, type PurchaseKind } from "#common/order-words";
import { emailLayout, escapeHtml as escape } from "#server/email/templates";
import { brand } from "#common/brand";
import { appUrl } from "#server/env";

/** The buyer's emails about a withdrawal, one per step. */
const layout = (title: string, body: string) => emailLayout(title, body, "");

export interface RefundEmailData {
  code: string;
  orderCode: string;
  eventName: string;
  amount: number;
  method: "provider" | "bank_transfer";
  statusUrl: string;
  /** What the purchase holds (tickets, menu items or both): the words follow it (common/order-words.ts). */
  kind?: PurchaseKind;
}

/** The buyer's page of a withdrawal request (its management code). */
export function refundStatusUrl(code: string) {
  return `${appUrl()}/cuenta/devoluciones?gestion=${encodeURIComponent(code)}`;
}

const wordsOf = (kind: PurchaseKind | undefined) => purchaseWords(kind ?? "ticket");

function mail(kind: string, subject: string, title: string, paragraphs: string[], d: RefundEmailData) {
  const html = layout(
    title,
    `${paragraphs.map((p) => `<p>${escape(p)}</p>`).join("")}
<p style="font-size:24px;letter-spacing:2px;font-weight:bold;color:${brand.email.heading}">${escape(d.code)}</p>
<p><a href="${escape(d.statusUrl)}" style="color:${brand.email.link}">Ver el estado de tu devolución</a></p>`,
  );
  const text = `${title}\n\n${paragraphs.join("\n\n")}\n\nCódigo de gestión: ${d.code}\nEstado: ${d.statusUrl}`;
  return { kind, subject, html, text };
}

const howMoneyReturns = (d: RefundEmailData) =>
  d.method === "bank_transfer"
    ? `Te vamos a transferir ${formatMoney(d.amount)} al CBU/CVU que nos diste. Te avisamos cuando la transferencia esté hecha.`
    : `Te devolvemos ${formatMoney(d.amount)} por el mismo medio con el que pagaste. Según tu banco o tarjeta puede tardar unos días en verse.`;

export function refundDoneEmail(d: RefundEmailData, automatic: boolean) {
  return mail(
    "refund-approved",
    `Devolución aprobada: compra ${d.orderCode}`,
    "Tu devolución está aprobada",
    [
      automatic
        ? `Pediste la devolución de tu compra ${d.orderCode} para ${d.eventName} dentro del plazo legal, así que la aprobamos en el momento.`
        : `La organización aprobó la devolución de tu compra ${d.orderCode} para ${d.eventName}.`,
      `${wordsOf(d.kind).yours} quedaron anuladas y ${wordsOf(d.kind).voidedUse}.`,
      howMoneyReturns(d),
    ],
    d,
  );
}

export function refundPendingEmail(d: RefundEmailData) {
  return mail(
    "refund-requested",
    `Recibimos tu solicitud de devolución: compra ${d.orderCode}`,
    "Recibimos tu solicitud de devolución",
    [
      `Tu solicitud para la compra ${d.orderCode} (${d.eventName}) está fuera del plazo legal de arrepentimiento, así que lo revisa la organización del evento.`,
      `Te escribimos apenas decida. Mientras tanto, ${wordsOf(d.kind).yours.toLowerCase()} siguen valiendo.`,
    ],
    d,
  );
}

export function refundRejectedEmail(d: RefundEmailData, reason: string) {
  return mail(
    "refund-rejected",
    `Devolución rechazada: compra ${d.orderCode}`,
    "La organización rechazó tu devolución",
    [`La organización de ${d.eventName} rechazó la devolución de tu compra ${d.orderCode}.`, `Motivo: ${reason}`, `${wordsOf(d.kind).yours} siguen valiendo.`],
    d,
  );
}

export function refundTransferredEmail(d: RefundEmailData) {
  return mail(
    "refund-transferred",
    `Te transferimos la devolución: compra ${d.orderCode}`,
    "Transferencia hecha",
    [`La organización marcó como transferidos ${formatMoney(d.amount)} al CBU/CVU que nos diste, por la compra ${d.orderCode} (${d.eventName}).`],
    d,
  );
}

/**
 * The buyer's email when the payment provider undid an approved payment on
 * its side (a refund made from Mercado Pago's panel, or a chargeback): the
 * tickets no longer get in.
 */
export function paymentReversedEmail(d: { orderCode: string; eventName: string; amount: number; chargeback: boolean; kind?: PurchaseKind }) {
  const words = wordsOf(d.kind);
  const title = d.chargeback ? "Tu compra tuvo un contracargo" : "Te devolvimos tu compra";
  const paragraphs = d.chargeback
    ? [
        `Tu banco o tarjeta desconoció el pago de la compra ${d.orderCode} para ${d.eventName} (${formatMoney(d.amount)}), así que ${words.the} quedaron anuladas y ${words.voidedUse}.`,
        "Si no fuiste vos quien lo pidió, comunicate con tu banco.",
      ]
    : [
        `El pago de la compra ${d.orderCode} para ${d.eventName} (${formatMoney(d.amount)}) fue devuelto por el medio de pago, así que ${words.the} quedaron anuladas y ${words.voidedUse}.`,
        "Según tu banco o tarjeta, el dinero puede tardar unos días en verse.",
      ];
  return {
    kind: d.chargeback ? "payment-charged-back" : "payment-refunded",
    subject: `${title} (${d.orderCode})`,
    html: layout(title, paragraphs.map((p) => `<p>${escape(p)}</p>`).join("")),
    text: `${title}\n\n${paragraphs.join("\n\n")}`,
  };
}
