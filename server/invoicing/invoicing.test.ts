import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { arcaTickets, billingTaxDetails, invoices, jobs, ticketTypes } from "#server/db/schema";
import { runDueJobs } from "#server/jobs/queue";
import { jobHandlers } from "#server/worker/handlers";
import { createOrder } from "#server/orders/orders";
import { startCheckout } from "#server/orders/checkout";
import { chargeBack, refund } from "#server/orders/lifecycle";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { requestRefund } from "#server/refunds/refunds";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { arcaForThisFile, arcaMock, lastNumber } from "#tests/support/msw/arca";
import { arcaConfig } from "./config";
import { ISSUE_INVOICE_JOB, issueVoucher } from "./invoices";
import { RECEIVER_IVA } from "./rules";
import { accessTicket, loginTicketRequest, RENEW_BEFORE_MS, signLoginTicketRequest } from "./wsaa";
import { listInvoicesForAdmin } from "./queries";
import { ARCA_QR_URL } from "./qr";
import { billingAccessToken } from "#server/auth/billing-access";
import { actorFor, createTestUser, ctxAs, sessionTokensFor } from "#tests/support/context";
import { gql } from "#tests/support/graphql";

// ARCA (homologación) is configured for this file with a certificate made here (env() is read lazily).
const certificate = arcaForThisFile((cert) => ({ ARCA_KEY: path.join(cert.dir, "key.pem") })); // a path to the key works too

const POS = 7;
const only = { [ISSUE_INVOICE_JOB]: jobHandlers[ISSUE_INVOICE_JOB] };

/** Runs the invoicing jobs due at `now` (only those), as the worker does. */
async function runInvoiceJobs(now = new Date()) {
  return runDueJobs(await getDb(), only, now, 50, { kinds: [ISSUE_INVOICE_JOB] });
}

let n = 0;
/** An event whose fee is the default one, and a helper that places and pays orders on it (sandbox). */
async function eventForSales(stock = 100) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 40, ticketTypes: [{ name: "General", price: 1_000_000, stock }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const pay = async (options: { taxDetails?: { cuit: string; ivaCondition: number }; documentType?: string; deliveredAt?: Date } = {}) => {
    n += 1;
    const email = `factura${n}-${Math.random().toString(36).slice(2, 7)}@example.com`;
    const at = options.deliveredAt ?? new Date();
    const { order, billing } = await createOrder(await ctxAs(ANONYMOUS, at), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email, documentType: options.documentType ?? "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    // What the Factura A form will store (not built yet): the billing's CUIT and IVA condition.
    if (options.taxDetails) await db.insert(billingTaxDetails).values({ billingId: billing.id, ...options.taxDetails });
    const paid = await payInSandbox(db, billing.id, "approved", at);
    expect(paid?.result.outcome).toBe("approved");
    return { order, billing, email };
  };
  return { db, producer, event, ticket, pay };
}

async function invoicesOf(billingId: string) {
  const db = await getDb();
  return db.select().from(invoices).where(eq(invoices.billingId, billingId)).orderBy(invoices.createdAt);
}

function requestsOf(operation: string) {
  return arcaMock.requests.filter((r) => r.operation === operation);
}

describe("WSAA", () => {
  beforeEach(async () => {
    await (await getDb()).delete(arcaTickets);
  });

  it("signs the login ticket request as CMS with the certificate and key: openssl verifies it and reads the TRA back", async () => {
    const now = new Date("2026-11-28T15:00:00Z");
    const tra = loginTicketRequest("wsfe", now);
    const cms = await signLoginTicketRequest(tra, certificate.cert, certificate.key);
    const der = path.join(certificate.dir, "tra.cms");
    fs.writeFileSync(der, Buffer.from(cms, "base64"));
    // Verifies the signature against our certificate (self-signed, so it is its own CA) and prints the signed content.
    const content = execFileSync("openssl", ["cms", "-verify", "-inform", "DER", "-in", der, "-CAfile", path.join(certificate.dir, "cert.pem"), "-purpose", "any"], { stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
    expect(content).toBe(tra);
    expect(content).toContain("<service>wsfe</service>");
    expect(content).toContain("<generationTime>2026-11-28T11:50:00-03:00</generationTime>");
    expect(content).toContain("<expirationTime>2026-11-28T12:10:00-03:00</expirationTime>");
    // Tampered content fails verification.
    const bytes = fs.readFileSync(der);
    const at = bytes.indexOf(Buffer.from("wsfe"));
    bytes.write("wsfx", at);
    fs.writeFileSync(der, bytes);
    expect(() => execFileSync("openssl", ["cms", "-verify", "-inform", "DER", "-in", der, "-CAfile", path.join(certificate.dir, "cert.pem"), "-purpose", "any"], { stdio: "ignore" })).toThrow();
  });

  it("keeps the ticket in the database until shortly before it expires, then renews it; concurrent callers ask WSAA once", async () => {
    const db = await getDb();
    const config = arcaConfig()!;
    const now = new Date();
    const tickets = await Promise.all(Array.from({ length: 5 }, () => accessTicket(db, config, now)));
    expect(arcaMock.logins).toHaveLength(1);
    expect(new Set(tickets.map((t) => t.token)).size).toBe(1);
    // The CMS WSAA received is our signed TRA.
    fs.writeFileSync(path.join(certificate.dir, "sent.cms"), Buffer.from(arcaMock.logins[0].cms, "base64"));
    const sent = execFileSync("openssl", ["cms", "-verify", "-inform", "DER", "-in", path.join(certificate.dir, "sent.cms"), "-CAfile", path.join(certificate.dir, "cert.pem"), "-purpose", "any"], { stdio: ["ignore", "pipe", "pipe"] }).toString();
    expect(sent).toContain("<service>wsfe</service>");

    const [stored] = await db.select().from(arcaTickets);
    expect(stored).toMatchObject({ environment: "homologacion", cuit: "20111111112", service: "wsfe", token: tickets[0].token });
    // An hour later: the same ticket, no new login.
    expect((await accessTicket(db, config, new Date(now.getTime() + 3600_000))).token).toBe(tickets[0].token);
    expect(arcaMock.logins).toHaveLength(1);
    // Five minutes before it expires (inside RENEW_BEFORE_MS): renewed and stored.
    const late = new Date(stored.expiresAt.getTime() - RENEW_BEFORE_MS / 2);
    const renewed = await accessTicket(db, config, late);
    expect(arcaMock.logins).toHaveLength(2);
    expect(renewed.token).not.toBe(tickets[0].token);
    const [after] = await db.select().from(arcaTickets);
    expect(after.token).toBe(renewed.token);
  });
});

describe("WSFEv1 through the job queue", () => {
  it("a paid order gets its Factura B (final consumer with DNI) with a CAE, numbered after ARCA's last", async () => {
    const { pay } = await eventForSales();
    const before = lastNumber(POS, 6);
    const { order, billing } = await pay();
    const [pending] = await invoicesOf(billing.id);
    expect(pending).toMatchObject({ kind: "invoice", status: "pending", letter: "B", voucherType: 6, pointOfSale: POS, total: order.serviceFee, receiverDocType: 96, receiverDocNumber: "30123456", receiverIvaCondition: RECEIVER_IVA.CONSUMIDOR_FINAL });
    expect(pending.net + pending.vat).toBe(order.serviceFee);
    expect(pending.vat).toBe(order.serviceFee - Math.round(order.serviceFee / 1.21));
    const db = await getDb();
    expect(await db.select().from(jobs).where(and(eq(jobs.kind, ISSUE_INVOICE_JOB)))).toEqual(expect.arrayContaining([expect.objectContaining({ payload: { invoiceId: pending.id } })]));

    await runInvoiceJobs();
    const [invoice] = await invoicesOf(billing.id);
    expect(invoice).toMatchObject({ status: "authorised", number: before + 1, observations: [], errors: [] });
    expect(invoice.cae).toMatch(/^\d{14}$/);
    expect(invoice.caeDueDate).toBe("2026-12-08");
    const [sent] = requestsOf("FECAESolicitar");
    expect(sent.body).toContain(`<ar:CondicionIVAReceptorId>5</ar:CondicionIVAReceptorId>`);
    expect(sent.body).toContain(`<ar:ImpTotal>${(order.serviceFee / 100).toFixed(2)}</ar:ImpTotal>`);
    expect(sent.body).toContain(`<ar:AlicIva><ar:Id>5</ar:Id><ar:BaseImp>${(invoice.net / 100).toFixed(2)}</ar:BaseImp>`);
    expect(sent.body).toContain("<ar:Concepto>2</ar:Concepto>");
  });

  it("a rejection keeps ARCA's codes and observations as ARCA wrote them, uses no number, and is not retried", async () => {
    const { pay } = await eventForSales();
    const before = lastNumber(POS, 6);
    const { billing } = await pay();
    const obs = { code: 10013, msg: "Para comprobantes clase A y M el campo DocTipo debe ser igual a 80 (CUIT). Para comprobantes clase B, si ImpTotal es mayor o igual a $ 10.000.000, DocTipo debe ser distinto a 99." };
    const err = { code: 10015, msg: "Factura B (CbteDesde igual a CbteHasta), DocTipo: 80, 86, 87 o 96 y DocNro informado debe ser mayor a 0." };
    arcaMock.next.push({ kind: "reject", obs: [obs], errors: [err] });
    const run = await runInvoiceJobs();
    expect(run).toMatchObject({ done: 1, failed: 0 });
    const [invoice] = await invoicesOf(billing.id);
    expect(invoice).toMatchObject({ status: "rejected", number: null, cae: null, observations: [{ code: 10013, message: obs.msg }], errors: [{ code: 10015, message: err.msg }] });
    expect(lastNumber(POS, 6)).toBe(before);
    // The next invoice takes the number the rejected one did not use.
    const next = await pay();
    await runInvoiceJobs();
    expect((await invoicesOf(next.billing.id))[0]).toMatchObject({ status: "authorised", number: before + 1 });
  });

  it("a Factura A to a Monotributo with CUIT is approved with ARCA's observations", async () => {
    const { pay } = await eventForSales();
    const before = lastNumber(POS, 1);
    const { billing } = await pay({ taxDetails: { cuit: "20301234565", ivaCondition: RECEIVER_IVA.MONOTRIBUTO } });
    const obs = { code: 10217, msg: "El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Procedimiento permanente de transición al Régimen General." };
    arcaMock.next.push({ kind: "observe", obs: [obs] });
    await runInvoiceJobs();
    const [invoice] = await invoicesOf(billing.id);
    expect(invoice).toMatchObject({ letter: "A", voucherType: 1, status: "authorised", number: before + 1, receiverDocType: 80, receiverDocNumber: "20301234565", receiverIvaCondition: 6, observations: [{ code: 10217, message: obs.msg }] });
    expect(requestsOf("FECAESolicitar")[0].body).toContain("<ar:DocTipo>80</ar:DocTipo><ar:DocNro>20301234565</ar:DocNro>");
  });

  it("a buyer who asked for Factura A at checkout (createOrder's invoice) gets a Factura A request with their CUIT and condition", async () => {
    const { db, event, ticket } = await eventForSales();
    const before = lastNumber(POS, 1);
    const started = await startCheckout(await ctxAs(ANONYMOUS), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: `facturaa-${Date.now()}@example.com`, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
      invoice: { cuit: "30-71234567-1", businessName: "Gómez Producciones SRL", ivaConditionId: RECEIVER_IVA.RESPONSABLE_INSCRIPTO },
    });
    expect((await payInSandbox(db, started.billing.id, "approved", new Date()))?.result.outcome).toBe("approved");
    await runInvoiceJobs();
    const [invoice] = await invoicesOf(started.billing.id);
    expect(invoice).toMatchObject({ letter: "A", voucherType: 1, status: "authorised", number: before + 1, receiverDocType: 80, receiverDocNumber: "30712345671", receiverIvaCondition: 1 });
    const sent = requestsOf("FECAESolicitar")[0].body;
    expect(sent).toContain("<ar:CbteTipo>1</ar:CbteTipo>");
    expect(sent).toContain("<ar:DocTipo>80</ar:DocTipo><ar:DocNro>30712345671</ar:DocNro>");
    expect(sent).toContain("<ar:CondicionIVAReceptorId>1</ar:CondicionIVAReceptorId>");
  });

  it("createOrder over GraphQL: a CUIT with a wrong check digit is BAD_USER_INPUT with reason INVALID_CUIT and holds nothing", async () => {
    const { db, event, ticket } = await eventForSales();
    const MUTATION = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId } }`;
    const input = {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "cuit@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
      invoice: { cuit: "30-71234567-2", businessName: "Gómez Producciones SRL", ivaConditionId: 1 },
    };
    const wrong = await gql(MUTATION, { variables: { input } });
    expect(wrong.body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "INVALID_CUIT", fieldErrors: { "invoice.cuit": ["Revisá el CUIT: el dígito verificador no coincide."] } });
    const [row] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, ticket.id));
    expect(row.sold).toBe(0);
    const consumer = await gql(MUTATION, { variables: { input: { ...input, invoice: { ...input.invoice, cuit: "30712345671", ivaConditionId: 5 } } } });
    expect(consumer.body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { "invoice.ivaConditionId": ["Elegí tu condición frente al IVA."] } });
    expect(consumer.body.errors?.[0]?.extensions?.reason).toBeUndefined();
  });

  it("ARCA down: the job fails and is retried later with backoff; the invoice waits with the reason", async () => {
    const { pay } = await eventForSales();
    const { billing } = await pay();
    arcaMock.down = true;
    const first = await runInvoiceJobs();
    expect(first).toMatchObject({ failed: 1 });
    const [waiting] = await invoicesOf(billing.id);
    expect(waiting.status).not.toBe("authorised");
    expect(waiting.lastError).toContain("HTTP 503");
    const db = await getDb();
    const [job] = await db.select().from(jobs).where(eq(jobs.kind, ISSUE_INVOICE_JOB)).orderBy(jobs.id).then((rows) => rows.filter((r) => (r.payload as { invoiceId: string }).invoiceId === waiting.id));
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    arcaMock.down = false;
    await runInvoiceJobs(new Date(job.runAt.getTime() + 1000));
    expect((await invoicesOf(billing.id))[0]).toMatchObject({ status: "authorised", lastError: null });
  });

  it("a ticket ARCA no longer takes (error 600) is dropped: the retry logs in again and gets the CAE", async () => {
    const { pay } = await eventForSales();
    const { billing } = await pay();
    const db = await getDb();
    const [stored] = await db.select().from(arcaTickets);
    arcaMock.refusedTokens.add(stored.token);
    const logins = arcaMock.logins.length;
    expect(await runInvoiceJobs()).toMatchObject({ failed: 1 });
    const [waiting] = await invoicesOf(billing.id);
    expect(waiting.lastError).toContain("600 ValidacionDeToken");
    expect(await db.select().from(arcaTickets)).toEqual([]);
    const outcome = await issueVoucher(db, waiting.id, new Date());
    expect(outcome).toBe("authorised");
    expect(arcaMock.logins.length).toBe(logins + 1);
  });

  it("a timeout after ARCA authorised: the retry asks ARCA (FECompConsultar) and records that CAE, never a second voucher", async () => {
    const { pay } = await eventForSales();
    const before = lastNumber(POS, 6);
    const { billing } = await pay();
    const [invoice] = await invoicesOf(billing.id);
    const db = await getDb();
    const config = { ...arcaConfig()!, timeoutMs: 300 };
    arcaMock.next.push({ kind: "hang", ms: 1500 });
    await expect(issueVoucher(db, invoice.id, new Date(), config)).rejects.toThrow(/no respondió en 300 ms/);
    const [unknown] = await invoicesOf(billing.id);
    expect(unknown).toMatchObject({ status: "sending", number: before + 1, cae: null });
    expect(lastNumber(POS, 6)).toBe(before + 1); // ARCA did authorise it

    const outcome = await issueVoucher(db, invoice.id, new Date(), config);
    expect(outcome).toBe("authorised");
    const [done] = await invoicesOf(billing.id);
    const atArca = arcaMock.vouchers.get(`${POS}/6/${before + 1}`)!;
    expect(done).toMatchObject({ status: "authorised", number: before + 1, cae: atArca.cae });
    expect(requestsOf("FECAESolicitar")).toHaveLength(1);
    expect(requestsOf("FECompConsultar")).toHaveLength(1);
    expect(lastNumber(POS, 6)).toBe(before + 1);
  });

  it("20 orders paid at once: 20 invoices numbered one after the other, no duplicate and no gap", async () => {
    const { pay } = await eventForSales(50);
    const before = lastNumber(POS, 6);
    const paid = await Promise.all(Array.from({ length: 20 }, () => pay()));
    const db = await getDb();
    const rows = await Promise.all(paid.map(async (p) => (await invoicesOf(p.billing.id))[0]));
    // Twenty senders at the same time, as twenty worker processes would.
    const outcomes = await Promise.all(rows.map((row) => issueVoucher(db, row.id, new Date())));
    expect(outcomes).toEqual(Array(20).fill("authorised"));
    const numbers = (await Promise.all(paid.map(async (p) => (await invoicesOf(p.billing.id))[0].number!))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => before + 1 + i));
    expect(lastNumber(POS, 6)).toBe(before + 20);
    // ARCA never refused a number as out of order.
    expect(requestsOf("FECAESolicitar")).toHaveLength(20);
  });
});

describe("credit notes", () => {
  async function authorisedSale(deliveredAt?: Date) {
    const sales = await eventForSales();
    const sale = await sales.pay({ deliveredAt });
    await runInvoiceJobs();
    const [invoice] = await invoicesOf(sale.billing.id);
    expect(invoice.status).toBe("authorised");
    return { ...sales, ...sale, invoice };
  }

  it("the buyer's legal withdrawal (botón de arrepentimiento) issues a Nota de crédito B referring to the invoice", async () => {
    const { order, email, invoice, billing } = await authorisedSale(new Date(Date.now() - 60_000));
    const result = await requestRefund(await ctxAs(ANONYMOUS), { orderCode: order.code, email, reason: "Me arrepentí" });
    expect(result.outcome).toBe("refunded");
    const [, note] = await invoicesOf(billing.id);
    expect(note).toMatchObject({ kind: "credit_note", letter: "B", voucherType: 8, invoiceId: invoice.id, total: invoice.total, status: "pending" });
    await runInvoiceJobs();
    const [, done] = await invoicesOf(billing.id);
    expect(done).toMatchObject({ status: "authorised", number: expect.any(Number) });
    const body = requestsOf("FECAESolicitar").at(-1)!.body;
    expect(body).toContain(`<ar:CbtesAsoc><ar:CbteAsoc><ar:Tipo>6</ar:Tipo><ar:PtoVta>${POS}</ar:PtoVta><ar:Nro>${invoice.number}</ar:Nro><ar:Cuit>20111111112</ar:Cuit>`);
    expect(arcaMock.vouchers.get(`${POS}/8/${done.number}`)?.associated).toEqual({ type: 6, number: invoice.number });
  });

  it("a refund (organizer, provider) issues the credit note too; one refunded before its invoice was authorised waits for the CAE", async () => {
    const sales = await eventForSales();
    const { billing } = await sales.pay();
    const db = await getDb();
    // Refunded before the invoice job ran.
    await db.transaction(async (tx) => {
      expect(await refund(tx, billing.id, { reason: "El organizador devolvió la compra", now: new Date(), providerRefund: "none" })).not.toBeNull();
    });
    const [invoice, note] = await invoicesOf(billing.id);
    expect(invoice.status).toBe("pending");
    expect(note).toMatchObject({ kind: "credit_note", status: "pending" });
    // The credit note alone cannot go first.
    await expect(issueVoucher(db, note.id, new Date())).rejects.toThrow(/todavía no tiene CAE/);
    await issueVoucher(db, invoice.id, new Date());
    expect(await issueVoucher(db, note.id, new Date())).toBe("authorised");
    const [authorisedInvoice, authorisedNote] = await invoicesOf(billing.id);
    expect(authorisedInvoice.status).toBe("authorised");
    expect(authorisedNote).toMatchObject({ status: "authorised", voucherType: 8 });
  });
});

describe("credit notes after a chargeback or of a rejected invoice", () => {
  it("a chargeback gives our charge back: its credit note is issued; an invoice ARCA rejected gets a rejected credit note, nothing sent", async () => {
    const sales = await eventForSales();
    const db = await getDb();
    const charged = await sales.pay();
    await runInvoiceJobs();
    await db.transaction(async (tx) => {
      expect(await chargeBack(tx, charged.billing.id, new Date())).not.toBeNull();
    });
    await runInvoiceJobs();
    const [invoice, note] = await invoicesOf(charged.billing.id);
    expect(note).toMatchObject({ kind: "credit_note", invoiceId: invoice.id, status: "authorised", voucherType: 8 });

    const refused = await sales.pay();
    arcaMock.next.push({ kind: "reject", obs: [{ code: 10013, msg: "Para comprobantes clase A y M el campo DocTipo debe ser igual a 80 (CUIT)." }] });
    await runInvoiceJobs();
    await db.transaction(async (tx) => {
      await refund(tx, refused.billing.id, { reason: "Devuelta", now: new Date(), providerRefund: "none" });
    });
    const sentBefore = requestsOf("FECAESolicitar").length;
    await runInvoiceJobs();
    const [rejectedInvoice, rejectedNote] = await invoicesOf(refused.billing.id);
    expect(rejectedInvoice.status).toBe("rejected");
    expect(rejectedNote).toMatchObject({ kind: "credit_note", status: "rejected", number: null, errors: [{ code: 0, message: expect.stringContaining("no hay nada que anular") }] });
    expect(requestsOf("FECAESolicitar")).toHaveLength(sentBefore);
  });
});

describe("reading invoices", () => {
  const QUERY = `query Billing($billingId: ID!, $token: String) { billing(billingId: $billingId, token: $token) { invoices { kind letter pointOfSale number cae caeDueDate total status observations { code message } errors { code message } qrUrl } } }`;

  it("Billing.invoices: whoever may read the billing reads its invoice (with the QR); a stranger gets NOT_FOUND", async () => {
    const sales = await eventForSales();
    const { billing, order } = await sales.pay();
    await runInvoiceJobs();
    const [invoice] = await invoicesOf(billing.id);
    const asBuyer = await gql<{ billing: { invoices: Record<string, unknown>[] } }>(QUERY, { variables: { billingId: billing.id, token: billingAccessToken(billing.id) } });
    expect(asBuyer.body.errors).toBeUndefined();
    const [read] = asBuyer.body.data!.billing.invoices;
    expect(read).toMatchObject({ kind: "invoice", letter: "B", pointOfSale: POS, number: invoice.number, cae: invoice.cae, caeDueDate: "2026-12-08", total: order.serviceFee, status: "authorised", observations: [], errors: [] });
    const qr = JSON.parse(Buffer.from(String(read.qrUrl).slice(ARCA_QR_URL.length), "base64").toString("utf8")) as Record<string, unknown>;
    expect(qr).toMatchObject({ cuit: 20111111112, ptoVta: POS, tipoCmp: 6, nroCmp: invoice.number, importe: order.serviceFee / 100, codAut: Number(invoice.cae) });

    const stranger = await createTestUser();
    const asStranger = await gql(QUERY, { tokens: await sessionTokensFor(stranger.id), variables: { billingId: billing.id } });
    expect(asStranger.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("the platform team's list shows rejected invoices with ARCA's reasons; anyone else is refused", async () => {
    const sales = await eventForSales();
    const { billing } = await sales.pay();
    arcaMock.next.push({ kind: "reject", obs: [{ code: 10242, msg: "El campo Condicion Frente al IVA del receptor no es valido para el tipo de comprobante informado." }] });
    await runInvoiceJobs();
    const admin = await createTestUser({ roles: ["admin"] });
    const list = await listInvoicesForAdmin(await ctxAs(actorFor(admin)), { status: "rejected" });
    const mine = list.items.find((i) => i.billingId === billing.id);
    expect(mine).toMatchObject({ status: "rejected", observations: [{ code: 10242 }], orderCode: expect.stringMatching(/^TRB-/) });
    expect(list.items.every((i) => i.status === "rejected")).toBe(true);
    expect(list.counts.rejected).toBeGreaterThanOrEqual(1);
    const someone = await createTestUser();
    await expect(listInvoicesForAdmin(await ctxAs(actorFor(someone)))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listInvoicesForAdmin(await ctxAs(ANONYMOUS))).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});
