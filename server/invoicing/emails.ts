import { and, eq, ne, sql } from "drizzle-orm";
import { formatMoney } from "#common/money";
import type { Db } from "#server/db/client";
import { emailLog, events, invoices, orders } from "#server/db/schema";
import { withBillingToken } from "#server/auth/billing-access";
import { sendEmail } from "#server/email/send";
import { emailLayout, escapeHtml } from "#server/email/templates";
import { appUrl } from "#server/env";
import { brand } from "#common/brand";
import { invoiceDocument, voucherDay, voucherLabel } from "./pdf";

/*
 * The voucher's own email (decision 219): the purchase email leaves at payment, before ARCA's CAE exists, so
 * each invoice and credit note goes to the payer in its own email, with its PDF, once ARCA authorises it.
 */

export const SEND_INVOICE_EMAIL_JOB = "send-invoice-email";
export const INVOICE_EMAIL_KIND = { invoice: "invoice", credit_note: "credit-note" } as const;

export interface InvoiceEmailInput {
  kind: "invoice" | "credit_note";
  /** "Factura B 0007-00000042". */
  voucher: string;
  orderCode: string;
  eventName: string;
  total: number;
  cae: string;
  /** dd/mm/aaaa. */
  caeDueDate: string;
  /** The purchase page, with the buyer's access token. */
  link: string;
}

/** "Tu factura de Tribuna · compra TRB-…" / "Tu nota de crédito de Tribuna · compra TRB-…": the compra at the end makes it findable (and idempotent). */
export function invoiceEmail(input: InvoiceEmailInput) {
  const isInvoice = input.kind === "invoice";
  const subject = `${isInvoice ? "Tu factura" : "Tu nota de crédito"} de Tribuna · compra ${input.orderCode}`;
  const intro = isInvoice
    ? `Te mandamos la factura del cargo por servicio de Tribuna de tu compra ${input.orderCode} para ${input.eventName}. La tenés en el PDF adjunto.`
    : `Como se devolvió tu compra ${input.orderCode} para ${input.eventName}, anulamos la factura del cargo por servicio con esta nota de crédito. La tenés en el PDF adjunto.`;
  const facts: [string, string][] = [
    ["Comprobante", input.voucher],
    ["Importe", formatMoney(input.total)],
    ["CAE", input.cae],
    ["Vencimiento del CAE", input.caeDueDate],
  ];
  const note = "Las entradas las factura el organizador del evento; esta es solo la de nuestro cargo por servicio.";
  return {
    subject,
    html: emailLayout(
      isInvoice ? "Tu factura de Tribuna" : "Tu nota de crédito de Tribuna",
      `<p>${escapeHtml(intro)}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 16px">${facts
        .map(([label, value]) => `<tr><td style="padding:2px 12px 2px 0;color:${brand.email.muted}">${escapeHtml(label)}</td><td style="padding:2px 0;font-weight:bold">${escapeHtml(value)}</td></tr>`)
        .join("")}</table>
<p style="font-size:13px">${escapeHtml(note)}</p>
<p><a href="${escapeHtml(input.link)}" style="color:${brand.email.link}">Ver tu compra</a>: también podés descargar ${isInvoice ? "la factura" : "la nota de crédito"} desde ahí.</p>`,
      "Guardá este correo: es tu comprobante.",
    ),
    text: [
      intro,
      "",
      ...facts.map(([label, value]) => `${label}: ${value}`),
      "",
      note,
      `Tu compra: ${input.link}`,
    ].join("\n"),
  };
}

export type InvoiceEmailOutcome = "sent" | "already-sent" | "nothing-to-send";

/**
 * The job: emails one authorised voucher's PDF to the payer. Once per voucher: a run after a delivery that
 * worked (or was logged without SMTP) sends nothing; a failed delivery throws so the queue retries it.
 */
export async function sendInvoiceEmail(db: Db, invoiceId: string): Promise<InvoiceEmailOutcome> {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice || invoice.status !== "authorised" || !invoice.cae) return "nothing-to-send";
  const [order] = await db.select({ code: orders.code, payer: orders.payer, eventName: events.name }).from(orders).innerJoin(events, eq(events.id, orders.eventId)).where(eq(orders.id, invoice.orderId));
  if (!order) return "nothing-to-send";
  const to = order.payer.email.toLowerCase();
  const kind = INVOICE_EMAIL_KIND[invoice.kind];
  const message = invoiceEmail({
    kind: invoice.kind,
    voucher: voucherLabel(invoice),
    orderCode: order.code,
    eventName: order.eventName,
    total: invoice.total,
    cae: invoice.cae,
    caeDueDate: voucherDay(invoice.caeDueDate),
    link: `${appUrl()}${withBillingToken(`/tickets/${invoice.billingId}`, invoice.billingId)}`,
  });
  const [already] = await db
    .select({ id: emailLog.id })
    .from(emailLog)
    .where(and(eq(emailLog.to, to), eq(emailLog.kind, kind), ne(emailLog.status, "failed"), sql`${emailLog.subject} like ${`%· compra ${order.code}`}`));
  if (already) return "already-sent";
  const pdf = await invoiceDocument(db, invoice);
  // Tribuna's own voucher, not the organizer's business: it stays out of the organization's email log.
  const { status, logEmailId } = await sendEmail(db, { ...message, to, kind, attachments: [{ filename: pdf.filename, contentType: "application/pdf", content: pdf.content }] });
  if (status === "failed") {
    const [logged] = await db.select({ error: emailLog.error }).from(emailLog).where(eq(emailLog.id, logEmailId));
    throw new Error(`No se pudo mandar ${voucherLabel(invoice)} de ${order.code}: ${logged?.error ?? "error SMTP"}`);
  }
  return "sent";
}
