import { and, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, eventDates, issuedProducts, jobs, orders, paymentRefunds, refundRequests, sandboxPayments, ticketTypes } from "#server/db/schema";
import { approveBankTransfer } from "#server/bank-transfers/bank-transfers";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { ledgerOfOrder, organizationBalance } from "#server/ledger/ledger";
import { createOrder } from "#server/orders/orders";
import { displayStatus } from "#server/orders/status";
import { PROVIDER_REFUND_JOB } from "#server/payments/refunds";
import { buildSignedNotification, payInSandbox } from "#server/payment-notifications/sandbox";
import { handleMercadoPagoNotification } from "#server/payment-notifications/webhook";
import { ticketsOfOrder } from "#server/tickets/issue";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createProducer, createPublishedEvent, createTransferAccount } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { isValidCbu } from "#common/cbu";
import { approveRefund, getRefundRequest, listMyRefundableOrders, listRefundRequests, markRefundTransferred, rejectRefund, requestRefund, REFUND_MESSAGES, withdrawalDeadline } from "./refunds";
import { getOrganizationOrder, listOrganizationOrders } from "./sales";

const TZ = "America/Argentina/Buenos_Aires";
const VALID_CBU = "0170099220000067797370";
let n = 0;

/** A paid order (sandbox), its tickets delivered at `deliveredAt`, for an event `days` away. */
async function paidOrder(options: { days?: number; deliveredAt?: Date; qty?: number; bankTransfer?: boolean } = {}) {
  n += 1;
  const producer = await createProducer();
  const { event, date } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    days: options.days ?? 40,
    ticketTypes: [{ name: "General", price: 1_000_000, stock: 10, ...(options.bankTransfer ? { paymentMethod: "BankAccount" } : {}) }],
  });
  const db = await getDb();
  if (options.bankTransfer) await createTransferAccount(producer.ctx, producer.organization.id);
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const email = `Compra${n}-${Math.random().toString(36).slice(2, 7)}@Example.com`;
  const deliveredAt = options.deliveredAt ?? new Date();
  const { order, billing } = await createOrder(await ctxAs(ANONYMOUS, deliveredAt), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: options.qty ?? 2 }],
    payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: options.bankTransfer ? "BANK_TRANSFER" : "MERCADO_PAGO",
  });
  if (options.bankTransfer) {
    // The organizer confirms the money arrived (server/bank-transfers).
    const approved = await approveBankTransfer({ ...producer.ctx, now: deliveredAt }, { billingId: billing.id });
    expect(approved.outcome).toBe("approved");
  } else {
    const paid = await payInSandbox(db, billing.id, "approved", deliveredAt);
    expect(paid?.result.outcome).toBe("approved");
  }
  return { db, producer, event, date, ticket, order, billing, email };
}

async function state(orderId: string, billingId: string) {
  const db = await getDb();
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const [billing] = await db.select().from(billings).where(eq(billings.id, billingId));
  const tickets = await ticketsOfOrder(db, orderId);
  return { order, billing, tickets, display: displayStatus(order.status, billing.status) };
}

async function soldOf(ticketTypeId: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  return row.sold;
}

/** `days` calendar days after `from` (Buenos Aires), at hh:mm. */
function baDay(from: Date, days: number, hour: number, minute = 0) {
  return DateTime.fromJSDate(from).setZone(TZ).plus({ days }).set({ hour, minute, second: 0, millisecond: 0 }).toJSDate();
}

describe("withdrawalDeadline", () => {
  it("ends on the 10th calendar day after delivery, or 24 hours before the event if earlier", () => {
    const delivered = DateTime.fromISO("2026-03-02T23:30", { zone: TZ }).toJSDate();
    const far = DateTime.fromISO("2026-06-01T21:00", { zone: TZ }).toJSDate();
    expect(DateTime.fromJSDate(withdrawalDeadline(delivered, far)).setZone(TZ).toISO()).toBe("2026-03-12T23:59:59.999-03:00");
    const soon = DateTime.fromISO("2026-03-05T21:00", { zone: TZ }).toJSDate();
    expect(withdrawalDeadline(delivered, soon).toISOString()).toBe(DateTime.fromISO("2026-03-04T21:00", { zone: TZ }).toJSDate().toISOString());
  });

  it("checks CBU/CVU check digits", () => {
    expect(isValidCbu(VALID_CBU)).toBe(true);
    expect(isValidCbu("0170099220000067797371")).toBe(false);
    expect(isValidCbu("017009922000006779737")).toBe(false);
  });
});

describe("requestRefund", () => {
  it("inside the window (day 10): refunds at once — billing refunded, tickets voided, stock back, provider refund queued, ledger nets zero", async () => {
    const delivered = new Date(Date.now() - 60_000);
    const { db, order, billing, ticket, email } = await paidOrder({ deliveredAt: delivered });
    expect(await soldOf(ticket.id)).toBe(2);
    const ctx = await ctxAs(ANONYMOUS, baDay(delivered, 10, 20));
    const result = await requestRefund(ctx, { orderCode: order.code.toLowerCase(), email: email.toUpperCase(), reason: "No puedo ir" });
    expect(result.outcome).toBe("refunded");
    expect(result.request.code).toMatch(/^DEV-[2-9A-Z]{6}$/);
    expect(result.request.automatic).toBe(true);
    const s = await state(order.id, billing.id);
    expect(s.display).toBe("refunded");
    expect(s.tickets.map((t) => t.status)).toEqual(["voided", "voided"]);
    expect(await soldOf(ticket.id)).toBe(0);
    const [refund] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.billingId, billing.id));
    expect(refund).toMatchObject({ amount: billing.amount, status: "pending" });
    const queued = await db.select().from(jobs).where(eq(jobs.kind, PROVIDER_REFUND_JOB));
    expect(queued.some((j) => (j.payload as { paymentRefundId?: string }).paymentRefundId === refund.id)).toBe(true);
    const ledger = await ledgerOfOrder(db, order.id);
    expect(ledger.map((e) => e.kind).sort()).toEqual(["payment", "refund", "service_fee", "service_fee_refund"]);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    expect(await organizationBalance(db, order.organizationId)).toBe(0);
    await assertLedgerMatches(db, order.id);
    const mails = await emailsTo(email, "refund-approved");
    expect(mails[0].text).toContain(result.request.code);

    // Asking again answers with the same request; nothing is refunded twice.
    const again = await requestRefund(ctx, { orderCode: order.code, email });
    expect(again).toMatchObject({ existing: true, outcome: "refunded" });
    expect(again.request.code).toBe(result.request.code);
    await assertLedgerMatches(db, order.id);

    // The provider's "refunded" notification that follows changes nothing.
    await db.update(sandboxPayments).set({ status: "refunded" }).where(eq(sandboxPayments.id, billing.providerReference ?? (await state(order.id, billing.id)).billing.providerReference!));
    const [paid] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(paid.providerReference!))).outcome).toBe("already-applied");
    await assertLedgerMatches(db, order.id);
  });

  it("outside the window (day 11): waits for the organizer, tickets still valid", async () => {
    const delivered = new Date(Date.now() - 60_000);
    const { db, order, billing, email } = await paidOrder({ deliveredAt: delivered });
    const result = await requestRefund(await ctxAs(ANONYMOUS, baDay(delivered, 11, 0, 30)), { orderCode: order.code, email });
    expect(result.outcome).toBe("pending");
    expect(result.request.status).toBe("pending");
    const s = await state(order.id, billing.id);
    expect(s.display).toBe("approved");
    expect(s.tickets.every((t) => t.status === "redeemable")).toBe(true);
    expect((await emailsTo(email, "refund-requested"))[0].text).toContain(result.request.code);
    await assertLedgerMatches(db, order.id);
    // The buyer looks it up with the management code and email.
    const view = await getRefundRequest(await ctxAs(), { code: result.request.code.toLowerCase(), email });
    expect(view).toMatchObject({ status: "pending", orderCode: order.code });
    await expect(getRefundRequest(await ctxAs(), { code: result.request.code, email: "otra@example.com" })).rejects.toMatchObject({ code: "NOT_FOUND", message: REFUND_MESSAGES.requestNotFound });
  });

  it("25 hours before the event is automatic; 23 hours before goes to the organizer", async () => {
    const a = await paidOrder({ days: 5 });
    const early = await requestRefund(await ctxAs(ANONYMOUS, new Date(a.date.startsAt.getTime() - 25 * 3600_000)), { orderCode: a.order.code, email: a.email });
    expect(early.outcome).toBe("refunded");
    const b = await paidOrder({ days: 5 });
    const late = await requestRefund(await ctxAs(ANONYMOUS, new Date(b.date.startsAt.getTime() - 23 * 3600_000)), { orderCode: b.order.code, email: b.email });
    expect(late.outcome).toBe("pending");
    await assertLedgerMatches(a.db, a.order.id);
    await assertLedgerMatches(b.db, b.order.id);
  });

  it("a wrong email or code gets the same generic answer, and repeated failures are rate limited", async () => {
    const { order, email } = await paidOrder();
    const ctx = await ctxAs(ANONYMOUS, new Date(), `198.51.100.${n}`);
    await expect(requestRefund(ctx, { orderCode: order.code, email: "otra@example.com" })).rejects.toMatchObject({ code: "NOT_FOUND", message: REFUND_MESSAGES.notFound });
    await expect(requestRefund(ctx, { orderCode: "TRB-ZZZZZZ", email })).rejects.toMatchObject({ code: "NOT_FOUND", message: REFUND_MESSAGES.notFound });
    await expect(requestRefund(ctx, { orderCode: "", email: "no-es-email" })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    for (let i = 0; i < 4; i++) await expect(requestRefund(ctx, { orderCode: "TRB-ZZZZZZ", email })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(requestRefund(ctx, { orderCode: order.code, email })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("refuses an unpaid order (generic), a redeemed ticket and a refunded order with clear answers", async () => {
    const { db, order, email, billing } = await paidOrder();
    const [one] = await ticketsOfOrder(db, order.id);
    await db.update(issuedProducts).set({ status: "redeemed", redeemedAt: new Date() }).where(eq(issuedProducts.id, one.id));
    await expect(requestRefund(await ctxAs(), { orderCode: order.code, email })).rejects.toMatchObject({ code: "CONFLICT", message: REFUND_MESSAGES.redeemed });
    await db.update(issuedProducts).set({ status: "redeemable", redeemedAt: null }).where(eq(issuedProducts.id, one.id));
    // Refunded from Mercado Pago's side first: the request says so.
    await db.update(sandboxPayments).set({ status: "refunded" }).where(eq(sandboxPayments.billingId, billing.id));
    const [paid] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(paid.providerReference!))).outcome).toBe("refunded");
    await expect(requestRefund(await ctxAs(), { orderCode: order.code, email })).rejects.toMatchObject({ code: "CONFLICT", message: REFUND_MESSAGES.alreadyRefunded });

    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 500_000, stock: 5 }] });
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const draft = await createOrder(await ctxAs(), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "impaga@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await expect(requestRefund(await ctxAs(), { orderCode: draft.order.code, email: "impaga@example.com" })).rejects.toMatchObject({ code: "NOT_FOUND", message: REFUND_MESSAGES.notFound });
  });

  it("bank transfer: asks for a valid CBU/CVU and leaves a manual transfer the organizer marks done", async () => {
    const { db, order, billing, email, producer } = await paidOrder({ bankTransfer: true });
    await expect(requestRefund(await ctxAs(), { orderCode: order.code, email })).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { cbu: [REFUND_MESSAGES.cbuRequired] } });
    await expect(requestRefund(await ctxAs(), { orderCode: order.code, email, cbu: "0170099220000067797371" })).rejects.toMatchObject({ fieldErrors: { cbu: [REFUND_MESSAGES.cbuInvalid] } });
    const result = await requestRefund(await ctxAs(), { orderCode: order.code, email, cbu: "0170 0992 2000 0067 7973 70" });
    expect(result).toMatchObject({ outcome: "refunded", request: { method: "bank_transfer", cbu: VALID_CBU, transferredAt: null } });
    expect((await state(order.id, billing.id)).display).toBe("refunded");
    expect(await db.select().from(paymentRefunds).where(eq(paymentRefunds.billingId, billing.id))).toEqual([]);
    await assertLedgerMatches(db, order.id);
    const toTransfer = await listRefundRequests(producer.ctx, { organizationId: producer.organization.id, status: "transfer" });
    expect(toTransfer.map((r) => r.code)).toEqual([result.request.code]);
    const marked = await markRefundTransferred(producer.ctx, { id: result.request.id });
    expect(marked.transferredAt).toBeInstanceOf(Date);
    await expect(markRefundTransferred(producer.ctx, { id: result.request.id })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await emailsTo(email, "refund-transferred")).toHaveLength(1);
  });
});

describe("organizer decisions", () => {
  async function pendingRequest() {
    const delivered = new Date(Date.now() - 60_000);
    const paid = await paidOrder({ deliveredAt: delivered });
    const { request } = await requestRefund(await ctxAs(ANONYMOUS, baDay(delivered, 12, 12)), { orderCode: paid.order.code, email: paid.email });
    return { ...paid, request };
  }

  it("only the organization's money managers decide: FORBIDDEN for other organizations", async () => {
    const { request, producer } = await pendingRequest();
    const stranger = await createProducer();
    await expect(approveRefund(stranger.ctx, { id: request.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(rejectRefund(stranger.ctx, { id: request.id, reason: "No corresponde" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listRefundRequests(stranger.ctx, { organizationId: producer.organization.id, status: "pending" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(approveRefund(await ctxAs(), { id: request.id })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const pending = await listRefundRequests(producer.ctx, { organizationId: producer.organization.id, status: "pending" });
    expect(pending.map((r) => r.code)).toEqual([request.code]);
  });

  it("approve outside the window refunds through the same path; a second decision is a conflict", async () => {
    const { db, request, producer, order, billing, email } = await pendingRequest();
    const view = await approveRefund(producer.ctx, { id: request.id });
    expect(view.status).toBe("refunded");
    expect((await state(order.id, billing.id)).display).toBe("refunded");
    expect(await db.select().from(paymentRefunds).where(eq(paymentRefunds.billingId, billing.id))).toHaveLength(1);
    await assertLedgerMatches(db, order.id);
    await expect(approveRefund(producer.ctx, { id: request.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(rejectRefund(producer.ctx, { id: request.id, reason: "Tarde" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await emailsTo(email, "refund-approved")).toHaveLength(1);
    const detail = await getOrganizationOrder(producer.ctx, order.id);
    expect(detail.displayStatus).toBe("refunded");
    expect(detail.refunds[0]).toMatchObject({ code: request.code, status: "refunded" });
  });

  it("reject needs a reason, keeps the tickets, and the buyer may ask again", async () => {
    const { db, request, producer, order, billing, email } = await pendingRequest();
    await expect(rejectRefund(producer.ctx, { id: request.id, reason: "" })).rejects.toMatchObject({ fieldErrors: { reason: [REFUND_MESSAGES.rejectReason] } });
    const view = await rejectRefund(producer.ctx, { id: request.id, reason: "El evento es en dos días." });
    expect(view).toMatchObject({ status: "rejected", rejectionReason: "El evento es en dos días." });
    expect((await state(order.id, billing.id)).display).toBe("approved");
    expect((await emailsTo(email, "refund-rejected"))[0].text).toContain("El evento es en dos días.");
    await assertLedgerMatches(db, order.id);
    const again = await requestRefund(await ctxAs(), { orderCode: order.code, email });
    expect(again.existing).toBe(false);
    expect(again.request.code).not.toBe(request.code);
  });
});

describe("provider refunds and chargebacks (webhook)", () => {
  it("charged_back voids the tickets, keeps the order billed and nets the ledger to zero, once", async () => {
    const { db, order, billing, ticket } = await paidOrder();
    await db.update(sandboxPayments).set({ status: "charged_back" }).where(eq(sandboxPayments.billingId, billing.id));
    const [paid] = await db.select().from(billings).where(eq(billings.id, billing.id));
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await handleMercadoPagoNotification(db, buildSignedNotification(paid.providerReference!))).outcome);
    expect(outcomes).toEqual(["charged-back", "already-applied", "already-applied"]);
    const s = await state(order.id, billing.id);
    expect(s.order.status).toBe("billed");
    expect(s.display).toBe("charged_back");
    expect(s.tickets.every((t) => t.status === "voided")).toBe(true);
    expect(await soldOf(ticket.id)).toBe(0);
    const ledger = await ledgerOfOrder(db, order.id);
    expect(ledger.filter((e) => e.kind === "chargeback").map((e) => e.amount)).toEqual([-billing.amount]);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    await assertLedgerMatches(db, order.id);
    await expect(requestRefund(await ctxAs(), { orderCode: order.code, email: order.payer.email })).rejects.toMatchObject({ message: REFUND_MESSAGES.chargedBack });
    // The buyer is told once, whatever the number of deliveries.
    const mails = await emailsTo(order.payer.email, "payment-charged-back");
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(order.code);
  });

  it("a refund made at the provider settles a withdrawal still waiting for the organizer", async () => {
    const delivered = new Date(Date.now() - 60_000);
    const { db, order, billing, email, producer } = await paidOrder({ deliveredAt: delivered });
    const { request } = await requestRefund(await ctxAs(ANONYMOUS, baDay(delivered, 12, 12)), { orderCode: order.code, email });
    await db.update(sandboxPayments).set({ status: "refunded" }).where(eq(sandboxPayments.billingId, billing.id));
    const [paid] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(paid.providerReference!))).outcome).toBe("refunded");
    // The provider delivers again: the refund, and its email, happened once.
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(paid.providerReference!))).outcome).toBe("already-applied");
    expect((await getRefundRequest(await ctxAs(), { code: request.code, email })).status).toBe("refunded");
    // The buyer reads the provider's "payment reversed" email once, not the request's "approved" one.
    expect(await emailsTo(email, "payment-refunded")).toHaveLength(1);
    expect(await emailsTo(email, "refund-approved")).toHaveLength(0);
    // Nothing is queued at the provider: the money already went back there.
    expect(await db.select().from(paymentRefunds).where(eq(paymentRefunds.billingId, billing.id))).toEqual([]);
    await expect(approveRefund(producer.ctx, { id: request.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await assertLedgerMatches(db, order.id);
  });

  it("a refunded notification for a payment that never approved the billing changes nothing", async () => {
    const { db, order, billing } = await paidOrder();
    const [other] = await db.insert(sandboxPayments).values({ id: `x${Date.now()}`, billingId: billing.id, status: "refunded", amount: billing.amount }).returning();
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(other.id))).outcome).toBe("no-change");
    expect((await state(order.id, billing.id)).display).toBe("approved");
    await assertLedgerMatches(db, order.id);
  });

  describe.runIf(hasPostgresServer)("concurrency (PostgreSQL)", () => {
    it("concurrent refunded deliveries and a withdrawal request: one refund, one set of entries", async () => {
      const { db, order, billing, email } = await paidOrder();
      await db.update(sandboxPayments).set({ status: "refunded" }).where(eq(sandboxPayments.billingId, billing.id));
      const [paid] = await db.select().from(billings).where(eq(billings.id, billing.id));
      const results = await Promise.allSettled([
        ...Array.from({ length: 4 }, () => handleMercadoPagoNotification(db, buildSignedNotification(paid.providerReference!))),
        requestRefund(await ctxAs(), { orderCode: order.code, email }),
      ]);
      const outcomes = results.slice(0, 4).map((r) => (r.status === "fulfilled" ? r.value.outcome : "error"));
      const refundedBy = outcomes.filter((o) => o === "refunded").length + (results[4].status === "fulfilled" && results[4].value.outcome === "refunded" ? 1 : 0);
      expect(refundedBy).toBe(1);
      expect((await state(order.id, billing.id)).display).toBe("refunded");
      const ledger = await ledgerOfOrder(db, order.id);
      expect(ledger.filter((e) => e.kind === "refund")).toHaveLength(1);
      // One refund, one email: the withdrawal's if the request won, the provider's if a delivery did.
      const mails = [...(await emailsTo(email, "refund-approved")), ...(await emailsTo(email, "payment-refunded"))];
      expect(mails).toHaveLength(1);
      await assertLedgerMatches(db, order.id);
    });

    it("two organizers approving at once refund once", async () => {
      const delivered = new Date(Date.now() - 60_000);
      const { db, order, email, producer } = await paidOrder({ deliveredAt: delivered });
      const { request } = await requestRefund(await ctxAs(ANONYMOUS, baDay(delivered, 12, 12)), { orderCode: order.code, email });
      const results = await Promise.allSettled([approveRefund(producer.ctx, { id: request.id }), approveRefund(producer.ctx, { id: request.id })]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await db.select().from(refundRequests).where(and(eq(refundRequests.orderId, order.id), eq(refundRequests.status, "refunded")))).toHaveLength(1);
      expect(await emailsTo(email, "refund-approved")).toHaveLength(1);
      await assertLedgerMatches(db, order.id);
    });
  });
});

describe("sales list", () => {
  it("defaults to billed, not gift, paid orders, 10 a page, newest first; filters by event; FORBIDDEN for strangers", async () => {
    const { producer, event, order, db } = await paidOrder({ qty: 1 });
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const ids = [order.id];
    for (let i = 0; i < 9; i++) {
      const created = await createOrder(await ctxAs(ANONYMOUS, new Date(Date.now() + (i + 1) * 1000)), {
        eventSlug: event.slug,
        items: [{ ticketId: ticket.id, qty: 1 }],
        payer: { firstName: "Ana", lastName: "Gómez", email: `lista${i}@example.com`, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
        paymentMethod: "MERCADO_PAGO",
      });
      if (i < 8) {
        await payInSandbox(db, created.billing.id, "approved");
        ids.push(created.order.id);
      }
    }
    // A gift order is not in the default list.
    await db.update(orders).set({ gift: true }).where(eq(orders.id, ids[1]));
    const first = await listOrganizationOrders(producer.ctx, { organizationId: producer.organization.id });
    expect(first).toMatchObject({ total: 8, page: 0, limit: 10 });
    expect(first.items.map((o) => o.id)).toEqual(ids.filter((id) => id !== ids[1]).reverse());
    expect(first.items[0]).toMatchObject({ displayStatus: "approved", eventName: event.name, pendingRefund: false });
    const second = await listOrganizationOrders(producer.ctx, { organizationId: producer.organization.id, limit: 5, page: 1 });
    expect(second.items).toHaveLength(3);
    const gifts = await listOrganizationOrders(producer.ctx, { organizationId: producer.organization.id, gift: true });
    expect(gifts.items.map((o) => o.id)).toEqual([ids[1]]);
    const drafts = await listOrganizationOrders(producer.ctx, { organizationId: producer.organization.id, status: "draft" });
    expect(drafts.total).toBe(1);
    const otherEvent = await createPublishedEvent(producer.ctx, producer.organization.id, {});
    expect((await listOrganizationOrders(producer.ctx, { organizationId: producer.organization.id, eventId: otherEvent.event.id })).total).toBe(0);
    const stranger = await createProducer();
    await expect(listOrganizationOrders(stranger.ctx, { organizationId: producer.organization.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(getOrganizationOrder(stranger.ctx, order.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("lists the signed-in buyer's refundable orders, never someone else's paid with the same email", async () => {
    const { db, email, order } = await paidOrder();
    const buyer = await createTestUser();
    // Someone who registered with the payer's email sees nothing: the order is not theirs.
    const sameEmail = await ctxAs({ kind: "user", userId: buyer.id, email: email.toLowerCase(), roles: [] });
    expect(await listMyRefundableOrders(sameEmail)).toEqual([]);
    // Bought (or claimed through its link) with the account: listed.
    await db.update(orders).set({ buyerUserId: buyer.id }).where(eq(orders.id, order.id));
    const mine = await listMyRefundableOrders(await ctxAs(actorFor(buyer)));
    expect(mine.map((o) => o.orderCode)).toEqual([order.code]);
    expect(mine[0].inWindow).toBe(true);
  });
});

// Silence unused import warnings for helpers kept for readability.
void eventDates;
