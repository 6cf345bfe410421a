import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { formatMoney } from "#common/money";
import { billingAccessToken } from "#server/auth/billing-access";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { emailAttachments, emailLog, invoices, jobs, ticketTypes } from "#server/db/schema";
import { runDueJobs } from "#server/jobs/queue";
import { refund } from "#server/orders/lifecycle";
import { createOrder } from "#server/orders/orders";
import { getPurchaseInvoicePdf, invoiceDownloadsOf, myInvoiceDownloads } from "#server/orders/purchase-invoices";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { jobHandlers } from "#server/worker/handlers";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { arcaForThisFile, arcaMock } from "#tests/support/msw/arca";
import { drawnText } from "#tests/support/pdf-text";
import { INVOICE_EMAIL_KIND, SEND_INVOICE_EMAIL_JOB, sendInvoiceEmail } from "./emails";
import { ISSUE_INVOICE_JOB } from "./invoices";

// ARCA (homologación) configured for this file (env() is read lazily); the issuer's printed data too.
arcaForThisFile(() => ({
  ARCA_POINT_OF_SALE: "9",
  ARCA_TIMEOUT_MS: "1500",
  PLATFORM_LEGAL_NAME: "Tribuna Tickets S.A.S.",
  PLATFORM_ADDRESS: "Av. Corrientes 1234, CABA",
  PLATFORM_ACTIVITY_START: "01/03/2024",
}));

const onlyInvoicing = { [ISSUE_INVOICE_JOB]: jobHandlers[ISSUE_INVOICE_JOB], [SEND_INVOICE_EMAIL_JOB]: jobHandlers[SEND_INVOICE_EMAIL_JOB] };

/** Runs the invoicing and invoice-email jobs due at `now`, as the worker does. */
async function runJobs(kinds: string[], now = new Date()) {
  return runDueJobs(await getDb(), onlyInvoicing, now, 50, { kinds });
}

async function emailJobsOf(invoiceId: string) {
  return (await getDb()).select().from(jobs).where(and(eq(jobs.kind, SEND_INVOICE_EMAIL_JOB), sql`${jobs.payload}->>'invoiceId' = ${invoiceId}`));
}

async function attachmentsOf(emailId: string) {
  return (await getDb()).select().from(emailAttachments).where(eq(emailAttachments.emailLogId, emailId));
}

async function paidSale(buyer?: { id: string; email: string; roles: string[] }) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 40, name: "Noche de Factura", ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const email = buyer?.email ?? `factura-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { order, billing } = await createOrder(await ctxAs(buyer ? actorFor(buyer) : ANONYMOUS), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: 1 }],
    payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  return { db, producer, order, billing, email };
}

async function invoiceOf(billingId: string, kind: "invoice" | "credit_note" = "invoice") {
  const [row] = await (await getDb()).select().from(invoices).where(and(eq(invoices.billingId, billingId), eq(invoices.kind, kind)));
  return row;
}

describe("the invoice's email (decision 219)", () => {
  it("goes once ARCA authorises the invoice, with its PDF carrying the CAE, its due date, the number and the total; never twice", async () => {
    const { order, billing, email } = await paidSale();
    // Paid, but no CAE yet: nothing about the invoice is queued or sent.
    const pending = await invoiceOf(billing.id);
    expect(pending.status).toBe("pending");
    expect(await emailJobsOf(pending.id)).toHaveLength(0);

    await runJobs([ISSUE_INVOICE_JOB]);
    const invoice = await invoiceOf(billing.id);
    expect(invoice.status).toBe("authorised");
    expect(await emailJobsOf(invoice.id)).toHaveLength(1);
    expect(await emailsTo(email, INVOICE_EMAIL_KIND.invoice)).toHaveLength(0);

    expect(await runJobs([SEND_INVOICE_EMAIL_JOB])).toMatchObject({ done: 1, failed: 0 });
    const [sent, ...more] = await emailsTo(email, INVOICE_EMAIL_KIND.invoice);
    expect(more).toHaveLength(0);
    expect(sent.subject).toBe(`Tu factura de Tribuna · compra ${order.code}`);
    const number = `0009-${String(invoice.number).padStart(8, "0")}`;
    expect(sent.text).toContain(`Comprobante: Factura B ${number}`);
    expect(sent.text).toContain(`CAE: ${invoice.cae}`);
    expect(sent.text).toContain("Vencimiento del CAE: 08/12/2026");
    expect(sent.text).toContain(`http://localhost:3000/tickets/${billing.id}?t=${billingAccessToken(billing.id)}`);
    // Tribuna's voucher, not the organizer's: out of the organization's email log.
    expect(sent.organizationId).toBeNull();

    const [file, ...others] = await attachmentsOf(sent.id);
    expect(others).toHaveLength(0);
    expect(file).toMatchObject({ filename: `factura-B-${number}.pdf`, contentType: "application/pdf" });
    const text = await drawnText(Buffer.from(file.contentBase64, "base64"));
    expect(text).toContain(`CAE Nº: ${invoice.cae}`);
    expect(text).toContain("Fecha de Vto. de CAE: 08/12/2026");
    expect(text).toContain(number);
    expect(text).toContain(formatMoney(order.serviceFee));
    expect(text).toContain("Tribuna Tickets S.A.S.");
    expect(text).toContain("Ana Gómez");
    expect(text).toContain(`compra ${order.code}`);

    // The job again, the invoice job again, the queue later: nothing more.
    expect(await sendInvoiceEmail(await getDb(), invoice.id)).toBe("already-sent");
    await runJobs([ISSUE_INVOICE_JOB, SEND_INVOICE_EMAIL_JOB], new Date(Date.now() + 3600_000));
    expect(await emailJobsOf(invoice.id)).toHaveLength(1);
    expect(await emailsTo(email, INVOICE_EMAIL_KIND.invoice)).toHaveLength(1);
  });

  it("an issue job retried (ARCA down, then a timeout after ARCA authorised) still queues one email", async () => {
    const { billing, email } = await paidSale();
    arcaMock.down = true;
    expect(await runJobs([ISSUE_INVOICE_JOB])).toMatchObject({ failed: 1 });
    arcaMock.down = false;
    // ARCA authorises but the answer never arrives: the retry finds the CAE with FECompConsultar.
    arcaMock.next.push({ kind: "hang", ms: 2500 });
    await runJobs([ISSUE_INVOICE_JOB], new Date(Date.now() + 3600_000));
    expect((await invoiceOf(billing.id)).status).toBe("sending");
    await runJobs([ISSUE_INVOICE_JOB], new Date(Date.now() + 2 * 3600_000));
    const invoice = await invoiceOf(billing.id);
    expect(invoice.status).toBe("authorised");
    expect(await emailJobsOf(invoice.id)).toHaveLength(1);
    await runJobs([SEND_INVOICE_EMAIL_JOB], new Date(Date.now() + 2 * 3600_000));
    expect(await emailsTo(email, INVOICE_EMAIL_KIND.invoice)).toHaveLength(1);
  }, 60_000);

  it("a delivery that failed (SMTP) is sent again by the next run", async () => {
    const { order, billing, email } = await paidSale();
    await runJobs([ISSUE_INVOICE_JOB]);
    const invoice = await invoiceOf(billing.id);
    await (await getDb()).insert(emailLog).values({ to: email, subject: `Tu factura de Tribuna · compra ${order.code}`, kind: INVOICE_EMAIL_KIND.invoice, html: "", text: "", status: "failed", error: "SMTP caído" });
    expect(await sendInvoiceEmail(await getDb(), invoice.id)).toBe("sent");
    expect((await emailsTo(email, INVOICE_EMAIL_KIND.invoice)).map((e) => e.status).sort()).toEqual(["failed", "logged"]);
  });

  it("a refund's credit note gets its own email once authorised, its PDF naming the invoice it cancels", async () => {
    const { db, order, billing, email } = await paidSale();
    await runJobs([ISSUE_INVOICE_JOB, SEND_INVOICE_EMAIL_JOB]);
    const invoice = await invoiceOf(billing.id);
    await db.transaction(async (tx) => {
      expect(await refund(tx, billing.id, { reason: "El organizador devolvió la compra", now: new Date(), providerRefund: "none" })).not.toBeNull();
    });
    await runJobs([ISSUE_INVOICE_JOB]);
    const note = await invoiceOf(billing.id, "credit_note");
    expect(note.status).toBe("authorised");
    await runJobs([SEND_INVOICE_EMAIL_JOB]);
    await runJobs([SEND_INVOICE_EMAIL_JOB], new Date(Date.now() + 3600_000));
    const [sent, ...more] = await emailsTo(email, INVOICE_EMAIL_KIND.credit_note);
    expect(more).toHaveLength(0);
    expect(sent.subject).toBe(`Tu nota de crédito de Tribuna · compra ${order.code}`);
    const [file] = await attachmentsOf(sent.id);
    expect(file.filename).toBe(`nota-de-credito-B-0009-${String(note.number).padStart(8, "0")}.pdf`);
    const text = await drawnText(Buffer.from(file.contentBase64, "base64"));
    expect(text).toContain("NOTA DE CRÉDITO");
    expect(text).toContain("COD. 008");
    expect(text).toContain(`CAE Nº: ${note.cae}`);
    expect(text).toContain(`Factura B 0009-${String(invoice.number).padStart(8, "0")}`);
    // The invoice's email is still the only one of its kind.
    expect(await emailsTo(email, INVOICE_EMAIL_KIND.invoice)).toHaveLength(1);
  });
});

describe("downloading the invoice", () => {
  it("whoever may read the purchase downloads its authorised invoice; strangers and other billings' ids get NOT_FOUND", async () => {
    const buyer = await createTestUser();
    const { producer, billing } = await paidSale(buyer);
    const pending = await invoiceOf(billing.id);
    // Not authorised yet: no link, no PDF.
    expect(await invoiceDownloadsOf(await getDb(), { billingId: billing.id, pagePath: `/tickets/${billing.id}` })).toEqual([]);
    await expect(getPurchaseInvoicePdf(await ctxAs(actorFor(buyer)), billing.id, pending.id)).rejects.toMatchObject({ code: "NOT_FOUND" });

    await runJobs([ISSUE_INVOICE_JOB]);
    const invoice = await invoiceOf(billing.id);
    const token = billingAccessToken(billing.id);
    const byToken = await getPurchaseInvoicePdf(await ctxAs(ANONYMOUS), billing.id, invoice.id, { token });
    expect(byToken.filename).toBe(`factura-B-0009-${String(invoice.number).padStart(8, "0")}.pdf`);
    expect(await drawnText(byToken.content)).toContain(`CAE Nº: ${invoice.cae}`);
    expect((await getPurchaseInvoicePdf(await ctxAs(actorFor(buyer)), billing.id, invoice.id)).filename).toBe(byToken.filename);
    expect((await getPurchaseInvoicePdf(producer.ctx, billing.id, invoice.id)).filename).toBe(byToken.filename);

    const stranger = await createTestUser();
    await expect(getPurchaseInvoicePdf(await ctxAs(actorFor(stranger)), billing.id, invoice.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getPurchaseInvoicePdf(await ctxAs(ANONYMOUS), billing.id, invoice.id)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    // Another purchase's invoice through this one's link: not found.
    const other = await paidSale(buyer);
    await runJobs([ISSUE_INVOICE_JOB]);
    await expect(getPurchaseInvoicePdf(await ctxAs(ANONYMOUS), billing.id, (await invoiceOf(other.billing.id)).id, { token })).rejects.toMatchObject({ code: "NOT_FOUND" });

    // The links: the page's keeps its token; "Mis tickets" lists only the person's own purchases.
    expect(await invoiceDownloadsOf(await getDb(), { billingId: billing.id, pagePath: `/tickets/${billing.id}?t=${token}` })).toEqual([
      { id: invoice.id, kind: "invoice", label: "Descargar factura", path: `/tickets/${billing.id}/factura/${invoice.id}/pdf?t=${token}` },
    ]);
    const mine = await myInvoiceDownloads(await ctxAs(actorFor(buyer)), [billing.id, other.billing.id]);
    expect(mine[billing.id]).toEqual([{ id: invoice.id, kind: "invoice", label: "Descargar factura", path: `/tickets/${billing.id}/factura/${invoice.id}/pdf` }]);
    expect(await myInvoiceDownloads(await ctxAs(actorFor(stranger)), [billing.id])).toEqual({});
  });
});
