import { formatMoney } from "#app/lib/money";

/** The buyer's emails about a withdrawal, one per step. Minimal inline HTML like server/email/templates.ts. */
function layout(title: string, body: string): string {
  return `<!doctype html><html lang="es"><body style="margin:0;background:#0f1115;font-family:Arial,sans-serif;color:#e6e6e6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" style="max-width:520px;background:#171a21;border-radius:12px;padding:24px">
<tr><td><p style="color:#14b8a6;font-size:20px;font-weight:bold;margin:0 0 16px">Tribuna</p>
<h1 style="font-size:20px;margin:0 0 16px;color:#ffffff">${title}</h1>${body}</td></tr></table>
</td></tr></table></body></html>`;
}

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export interface RefundEmailData {
  code: string;
  orderCode: string;
  eventName: string;
  amount: number;
  method: "provider" | "bank_transfer";
  statusUrl: string;
}

function mail(kind: string, subject: string, title: string, paragraphs: string[], d: RefundEmailData) {
  const html = layout(
    escape(title),
    `${paragraphs.map((p) => `<p>${escape(p)}</p>`).join("")}
<p style="font-size:24px;letter-spacing:2px;font-weight:bold;color:#ffffff">${escape(d.code)}</p>
<p><a href="${escape(d.statusUrl)}" style="color:#14b8a6">Ver el estado de tu devolución</a></p>`,
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
      "Tus entradas quedaron anuladas y ya no sirven para entrar.",
      howMoneyReturns(d),
    ],
    d,
  );
}

export function refundPendingEmail(d: RefundEmailData) {
  return mail(
    "refund-requested",
    `Recibimos tu pedido de devolución: compra ${d.orderCode}`,
    "Recibimos tu pedido de devolución",
    [
      `Tu pedido para la compra ${d.orderCode} (${d.eventName}) está fuera del plazo legal de arrepentimiento, así que lo revisa la organización del evento.`,
      "Te escribimos apenas decida. Mientras tanto, tus entradas siguen valiendo.",
    ],
    d,
  );
}

export function refundRejectedEmail(d: RefundEmailData, reason: string) {
  return mail(
    "refund-rejected",
    `Devolución rechazada: compra ${d.orderCode}`,
    "La organización rechazó tu devolución",
    [`La organización de ${d.eventName} rechazó la devolución de tu compra ${d.orderCode}.`, `Motivo: ${reason}`, "Tus entradas siguen valiendo."],
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
