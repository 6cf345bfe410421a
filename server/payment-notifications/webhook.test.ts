import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ANONYMOUS, type Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, issuedProducts, ledgerEntries, orders, paymentNotifications, paymentRefunds, ticketTypes } from "#server/db/schema";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { ledgerOfOrder, organizationBalance } from "#server/ledger/ledger";
import { createOrder, expireOrder } from "#server/orders/orders";
import { displayStatus } from "#server/orders/status";
import { ticketsOfOrder } from "#server/tickets/issue";
import { ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { paymentUrlFor, SandboxProvider } from "#server/payments/sandbox-provider";
import { getPaymentProvider } from "#server/payments/providers";
import { buildSignedNotification, payInSandbox } from "./sandbox";
import { handleMercadoPagoNotification } from "./webhook";

const PAYER = {
  firstName: "Sofía",
  lastName: "Peña",
  email: "sofia@example.com",
  documentType: "dni",
  documentNumber: "30123456",
  phoneNumber: "+54 11 5555-1234",
};

async function setup(options: { stock?: number; qty?: number; price?: number } = {}) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    ticketTypes: [{ name: "General", price: options.price ?? 1_000_000, stock: options.stock ?? 100 }],
  });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const ctx = await ctxAs(ANONYMOUS);
  const buy = (qty = options.qty ?? 2, c: Ctx = ctx) =>
    createOrder(c, { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  const { order, billing } = await buy();
  return { db, ctx, event, ticket, order, billing, buy, organizationId: producer.organization.id };
}

async function stateOf(orderId: string, billingId: string) {
  const db = await getDb();
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const [billing] = await db.select().from(billings).where(eq(billings.id, billingId));
  const tickets = await ticketsOfOrder(db, orderId);
  const ledger = await ledgerOfOrder(db, orderId);
  return { order, billing, tickets, ledger, display: displayStatus(order.status, billing.status) };
}

async function soldOf(ticketTypeId: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  return row.sold;
}

describe("sandbox provider", () => {
  it("points checkout to the sandbox page and reads its payments back", async () => {
    const { db, billing, order } = await setup();
    const provider = getPaymentProvider(db);
    expect(provider.name).toBe("sandbox");
    expect(await provider.createCheckout(billing, order)).toEqual({ paymentUrl: `http://localhost:3000/sandbox/mercadopago/${billing.id}` });
    expect(paymentUrlFor(billing.id)).toBe(`http://localhost:3000/sandbox/mercadopago/${billing.id}`);
    const payment = await new SandboxProvider(db).recordPayment(billing, "rejected");
    expect(await provider.getPayment(payment.id)).toEqual({ id: payment.id, status: "rejected", externalReference: billing.id, amount: billing.amount });
    expect(await provider.getPayment("999")).toBeNull();
    await assertLedgerMatches(db, order.id);
  });
});

describe("handleMercadoPagoNotification", () => {
  it("rejects a forged or unsigned notification with 401, logs it and changes nothing", async () => {
    const { db, order, billing } = await setup();
    const payment = await new SandboxProvider(db).recordPayment(billing, "approved");
    const genuine = buildSignedNotification(payment.id);
    const headers = genuine.headers as Record<string, string>;
    const forged = { ...genuine, headers: { ...headers, "x-signature": headers["x-signature"].replace(/v1=./, (m) => (m.endsWith("0") ? "v1=1" : "v1=0")) } };
    expect(await handleMercadoPagoNotification(db, forged)).toEqual({ status: 401, outcome: "forged" });
    const unsigned = { ...genuine, headers: { "x-request-id": headers["x-request-id"] } };
    expect((await handleMercadoPagoNotification(db, unsigned)).status).toBe(401);
    // A valid signature for another payment id does not carry over.
    const other = buildSignedNotification("123");
    expect((await handleMercadoPagoNotification(db, { ...genuine, headers: other.headers })).status).toBe(401);

    const s = await stateOf(order.id, billing.id);
    expect([s.order.status, s.billing.status, s.tickets.length, s.ledger.length]).toEqual(["draft", "pending", 0, 0]);
    const logged = await db.select().from(paymentNotifications).where(eq(paymentNotifications.dataId, payment.id));
    expect(logged).toHaveLength(3);
    expect(logged.every((l) => !l.signatureValid && l.outcome === "forged")).toBe(true);
    await assertLedgerMatches(db, order.id);
  });

  it("approves: billing approved, order billed, one ticket per unit, ledger payment and fee", async () => {
    const { db, order, billing, organizationId } = await setup({ qty: 3 });
    const paid = await payInSandbox(db, billing.id, "approved");
    expect(paid?.result).toEqual({ status: 200, outcome: "approved", billingId: billing.id });
    const s = await stateOf(order.id, billing.id);
    expect(s.display).toBe("approved");
    expect(s.order.status).toBe("billed");
    expect(s.billing.providerReference).toBe(paid!.paymentId);
    expect(s.tickets).toHaveLength(3);
    expect(new Set(s.tickets.map((t) => t.code)).size).toBe(3);
    expect(s.tickets.every((t) => t.status === "redeemable" && t.holderName === "Sofía Peña" && t.holderEmail === PAYER.email && t.code.length >= 22)).toBe(true);
    expect(s.ledger.map((e) => [e.kind, e.amount])).toEqual([
      ["payment", order.total],
      ["service_fee", -order.serviceFee],
    ]);
    expect(await organizationBalance(db, organizationId)).toBe(order.total - order.serviceFee);
    await assertLedgerMatches(db, order.id);
  });

  it("applies the same approval delivered five times (sequentially) once", async () => {
    const { db, order, billing } = await setup({ qty: 2 });
    const payment = await new SandboxProvider(db).recordPayment(billing, "approved");
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push((await handleMercadoPagoNotification(db, buildSignedNotification(payment.id))).outcome);
    expect(outcomes).toEqual(["approved", "already-applied", "already-applied", "already-applied", "already-applied"]);
    const s = await stateOf(order.id, billing.id);
    expect([s.display, s.tickets.length, s.ledger.length]).toEqual(["approved", 2, 2]);
    await assertLedgerMatches(db, order.id);
  });

  it("a second approved payment of a billing already paid (two tabs) is given back once through the provider; the order and the ledger stay", async () => {
    const { db, order, billing } = await setup({ qty: 1 });
    const first = await new SandboxProvider(db).recordPayment(billing, "approved");
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(first.id))).outcome).toBe("approved");
    const second = await new SandboxProvider(db).recordPayment(billing, "approved");
    expect(second.id).not.toBe(first.id);
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await handleMercadoPagoNotification(db, buildSignedNotification(second.id))).outcome);
    expect(outcomes).toEqual(["duplicate-payment-refunded", "already-applied", "already-applied"]);
    const refunds = await db.select().from(paymentRefunds).where(eq(paymentRefunds.billingId, billing.id));
    expect(refunds).toMatchObject([{ providerPaymentId: second.id, amount: billing.amount, status: "pending" }]);
    // The first payment still holds: approved billing, billed order, tickets and ledger untouched.
    const s = await stateOf(order.id, billing.id);
    expect([s.display, s.order.status, s.billing.providerReference, s.tickets.length]).toEqual(["approved", "billed", first.id, 1]);
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(first.id))).outcome).toBe("already-applied");
    await assertLedgerMatches(db, order.id);
  });

  describe.runIf(hasPostgresServer)("concurrency (PostgreSQL)", () => {
    it("applies the same approval delivered five times at once exactly once", async () => {
      const { db, order, billing, ticket } = await setup({ qty: 4 });
      const payment = await new SandboxProvider(db).recordPayment(billing, "approved");
      const results = await Promise.all(Array.from({ length: 5 }, () => handleMercadoPagoNotification(db, buildSignedNotification(payment.id))));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(results.filter((r) => r.outcome === "approved")).toHaveLength(1);
      expect(results.filter((r) => r.outcome === "already-applied")).toHaveLength(4);
      const s = await stateOf(order.id, billing.id);
      expect([s.display, s.tickets.length, s.ledger.length]).toEqual(["approved", 4, 2]);
      expect(await soldOf(ticket.id)).toBe(4);
      await assertLedgerMatches(db, order.id);
    });

    it("an approval racing the hold's expiry ends approved with the stock held once", async () => {
      for (let i = 0; i < 3; i++) {
        const { db, ctx, order, billing, ticket } = await setup({ qty: 2, stock: 10 });
        const payment = await new SandboxProvider(db).recordPayment(billing, "approved");
        const later = { ...ctx, now: new Date(Date.now() + 16 * 60_000) };
        const [expired, ...results] = await Promise.all([
          expireOrder(later, order.id),
          ...Array.from({ length: 3 }, () => handleMercadoPagoNotification(db, buildSignedNotification(payment.id))),
        ]);
        expect(["expired", "skipped"]).toContain(expired);
        expect(results.filter((r) => r.outcome === "approved" || r.outcome === "orphan-honoured")).toHaveLength(1);
        expect(await soldOf(ticket.id)).toBe(2);
        const s = await stateOf(order.id, billing.id);
        expect([s.display, s.tickets.length]).toEqual(["approved", 2]);
        await assertLedgerMatches(db, order.id);
      }
    });

    it("a late approval racing itself re-holds the stock once", async () => {
      const { db, ctx, order, billing, ticket } = await setup({ qty: 2, stock: 10 });
      expect(await expireOrder({ ...ctx, now: new Date(Date.now() + 16 * 60_000) }, order.id)).toBe("expired");
      const payment = await new SandboxProvider(db).recordPayment(billing, "approved");
      const results = await Promise.all(Array.from({ length: 5 }, () => handleMercadoPagoNotification(db, buildSignedNotification(payment.id))));
      expect(results.filter((r) => r.outcome === "orphan-honoured")).toHaveLength(1);
      expect(await soldOf(ticket.id)).toBe(2);
      const s = await stateOf(order.id, billing.id);
      expect([s.display, s.tickets.length]).toEqual(["approved", 2]);
      await assertLedgerMatches(db, order.id);
    });
  });

  it("a rejection after the approval does not undo it", async () => {
    const { db, order, billing } = await setup();
    expect((await payInSandbox(db, billing.id, "approved"))?.result.outcome).toBe("approved");
    expect((await payInSandbox(db, billing.id, "rejected"))?.result.outcome).toBe("no-change");
    const s = await stateOf(order.id, billing.id);
    expect([s.display, s.tickets.length]).toEqual(["approved", 2]);
    await assertLedgerMatches(db, order.id);
  });

  it("a rejection leaves the billing pending and a later approval still goes through", async () => {
    const { db, order, billing } = await setup();
    expect((await payInSandbox(db, billing.id, "rejected"))?.result.outcome).toBe("no-change");
    let s = await stateOf(order.id, billing.id);
    expect([s.order.status, s.billing.status, s.display, s.tickets.length, s.ledger.length]).toEqual(["draft", "pending", "pending", 0, 0]);
    await assertLedgerMatches(db, order.id);
    expect((await payInSandbox(db, billing.id, "approved"))?.result.outcome).toBe("approved");
    s = await stateOf(order.id, billing.id);
    expect([s.display, s.tickets.length]).toEqual(["approved", 2]);
    await assertLedgerMatches(db, order.id);
  });

  it("a rejection after the order expired changes nothing", async () => {
    const { db, ctx, order, billing } = await setup();
    await expireOrder({ ...ctx, now: new Date(Date.now() + 16 * 60_000) }, order.id);
    expect((await payInSandbox(db, billing.id, "rejected"))?.result.outcome).toBe("no-change");
    const s = await stateOf(order.id, billing.id);
    expect(s.display).toBe("expired");
    await assertLedgerMatches(db, order.id);
  });

  it("honours a late approval after expiry when stock remains: stock held again, tickets issued", async () => {
    const { db, ctx, order, billing, ticket } = await setup({ qty: 2, stock: 5 });
    expect(await soldOf(ticket.id)).toBe(2);
    expect(await expireOrder({ ...ctx, now: new Date(Date.now() + 16 * 60_000) }, order.id)).toBe("expired");
    expect(await soldOf(ticket.id)).toBe(0);
    let s = await stateOf(order.id, billing.id);
    expect(s.display).toBe("expired");
    await assertLedgerMatches(db, order.id);

    const paid = await payInSandbox(db, billing.id, "approved");
    expect(paid?.result.outcome).toBe("orphan-honoured");
    s = await stateOf(order.id, billing.id);
    expect([s.order.status, s.billing.status, s.display, s.tickets.length]).toEqual(["billed", "approved", "approved", 2]);
    expect(await soldOf(ticket.id)).toBe(2);
    await assertLedgerMatches(db, order.id);
    // Delivered again: nothing more.
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(paid!.paymentId))).outcome).toBe("already-applied");
    expect(await soldOf(ticket.id)).toBe(2);
    await assertLedgerMatches(db, order.id);
  });

  it("refunds a late approval when the stock is gone: no tickets, ledger nets to zero, refund recorded", async () => {
    const { db, ctx, order, billing, ticket, buy, organizationId } = await setup({ qty: 2, stock: 2 });
    await expireOrder({ ...ctx, now: new Date(Date.now() + 16 * 60_000) }, order.id);
    const second = await buy(2);
    expect(await soldOf(ticket.id)).toBe(2);

    const paid = await payInSandbox(db, billing.id, "approved");
    expect(paid?.result.outcome).toBe("orphan-refunded");
    const s = await stateOf(order.id, billing.id);
    expect([s.order.status, s.billing.status, s.display, s.tickets.length]).toEqual(["billed", "refunded", "refunded", 0]);
    expect(s.ledger.map((e) => [e.kind, e.amount])).toEqual([
      ["payment", order.total],
      ["refund", -order.total],
    ]);
    expect(s.ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    expect(await soldOf(ticket.id)).toBe(2);
    const refunds = await db.select().from(paymentRefunds).where(eq(paymentRefunds.billingId, billing.id));
    expect(refunds).toMatchObject([{ providerPaymentId: paid!.paymentId, amount: order.total, status: "pending" }]);
    await assertLedgerMatches(db, order.id);
    await assertLedgerMatches(db, second.order.id);
    expect(await organizationBalance(db, organizationId)).toBe(0);

    // Again: still once.
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(paid!.paymentId))).outcome).toBe("already-applied");
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id));
    expect(n).toBe(2);
    await assertLedgerMatches(db, order.id);
  });

  it("ignores notifications that are not about payments", async () => {
    const { db, order } = await setup();
    const n = buildSignedNotification("777");
    const result = await handleMercadoPagoNotification(db, { ...n, body: { type: "merchant_order", data: { id: "777" } }, query: undefined });
    expect(result).toEqual({ status: 200, outcome: "ignored-topic" });
    expect((await handleMercadoPagoNotification(db, n)).outcome).toBe("unknown-payment");
    const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(issuedProducts).where(eq(issuedProducts.orderId, order.id));
    expect(count).toBe(0);
    await assertLedgerMatches(db, order.id);
  });
});
