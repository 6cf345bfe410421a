import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, ledgerEntries, ticketTypes } from "#server/db/schema";
import { createOrder, expireOrder } from "#server/orders/orders";
import { issuedProducts, sandboxPayments } from "#server/db/schema";
import { approveRefund, requestRefund } from "#server/refunds/refunds";
import { ticketsOfOrder } from "#server/tickets/issue";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { handleMercadoPagoNotification } from "#server/payment-notifications/webhook";
import { buildSignedNotification } from "#server/payment-notifications/sandbox";
import { SandboxProvider } from "#server/payments/sandbox-provider";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { assertLedgerMatches } from "./ledger-invariants";
import { ledgerOfOrder } from "#server/ledger/ledger";

async function newOrder(price = 1_000_000, stock = 10) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price, stock }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  return createOrder(await ctxAs(ANONYMOUS), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: 1 }],
    payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
}

describe("assertLedgerMatches", () => {
  it("catches a ledger that disagrees with the billing and a duplicate booking is impossible", async () => {
    const db = await getDb();
    const { order, billing } = await newOrder();
    await payInSandbox(db, billing.id, "approved");
    await assertLedgerMatches(db, order.id);
    // UNIQUE (billing, kind): the same payment cannot be booked twice.
    await expect(
      db.insert(ledgerEntries).values({ organizationId: order.organizationId, orderId: order.id, billingId: billing.id, kind: "payment", amount: order.total, description: "otra vez" }),
    ).rejects.toThrow();
    // A refund entry with no refunded billing is a mismatch.
    await db.insert(ledgerEntries).values({ organizationId: order.organizationId, orderId: order.id, billingId: billing.id, kind: "refund", amount: -order.total, description: "x" });
    await expect(assertLedgerMatches(db, order.id)).rejects.toThrow(/unexpected refund/);
  });

  it("catches an approved billing without tickets or entries", async () => {
    const db = await getDb();
    const { order, billing } = await newOrder();
    await db.update(billings).set({ status: "approved" }).where(eq(billings.id, billing.id));
    await expect(assertLedgerMatches(db, order.id)).rejects.toThrow(/issued products|not a row|payment missing/);
  });

  it("a second payment for an already paid order is refunded and nets to zero", async () => {
    const db = await getDb();
    const { order, billing } = await newOrder();
    await payInSandbox(db, billing.id, "approved");
    const [second] = await db.insert(billings).values({ orderId: order.id, provider: "sandbox", amount: billing.amount }).returning();
    const payment = await new SandboxProvider(db).recordPayment(second, "approved");
    expect((await handleMercadoPagoNotification(db, buildSignedNotification(payment.id))).outcome).toBe("second-payment-refunded");
    const entries = (await ledgerOfOrder(db, order.id)).filter((e) => e.billingId === second.id);
    expect(entries.reduce((s, e) => s + e.amount, 0)).toBe(0);
    await assertLedgerMatches(db, order.id);
  });

  it("ledger, billings and tickets agree on every path: approved, orphan honoured and refunded, withdrawn, approved by the organizer, refunded at the provider, charged back", async () => {
    const db = await getDb();
    const checked: string[] = [];
    const paid = async (stock = 10) => {
      const created = await newOrder(1_000_000, stock);
      return created;
    };
    // approved
    const a = await paid();
    await payInSandbox(db, a.billing.id, "approved");
    await assertLedgerMatches(db, a.order.id);
    checked.push("approved");
    // orphan honoured (stock left) and orphan refunded (stock gone)
    for (const stock of [10, 1]) {
      const o = await paid(stock);
      await expireOrder(await ctxAs(ANONYMOUS, new Date(Date.now() + 20 * 60_000)), o.order.id);
      if (stock === 1) {
        // Someone else bought the last ticket meanwhile.
        await db.update(ticketTypes).set({ sold: 1 }).where(eq(ticketTypes.id, o.order.items[0].ticketTypeId));
      }
      const r = await payInSandbox(db, o.billing.id, "approved");
      expect(r?.result.outcome).toBe(stock === 1 ? "orphan-refunded" : "orphan-honoured");
      await assertLedgerMatches(db, o.order.id);
      checked.push(r!.result.outcome);
    }
    // withdrawn inside the window
    const w = await paid();
    await payInSandbox(db, w.billing.id, "approved");
    expect((await requestRefund(await ctxAs(), { orderCode: w.order.code, email: "ana@example.com" })).outcome).toBe("refunded");
    await assertLedgerMatches(db, w.order.id);
    checked.push("withdrawn");
    // approved by the organizer outside the window
    const producerOrder = await createProducer();
    const { event } = await createPublishedEvent(producerOrder.ctx, producerOrder.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const late = await createOrder(await ctxAs(ANONYMOUS), { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }], payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" }, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, late.billing.id, "approved");
    const pending = await requestRefund(await ctxAs(ANONYMOUS, new Date(Date.now() + 12 * 24 * 3600_000)), { orderCode: late.order.code, email: "ana@example.com" });
    expect(pending.outcome).toBe("pending");
    await assertLedgerMatches(db, late.order.id);
    await approveRefund(producerOrder.ctx, { id: pending.request.id });
    await assertLedgerMatches(db, late.order.id);
    checked.push("organizer-approved");
    // refunded and charged back at the provider
    for (const status of ["refunded", "charged_back"] as const) {
      const p = await paid();
      const r = await payInSandbox(db, p.billing.id, "approved");
      await db.update(sandboxPayments).set({ status }).where(eq(sandboxPayments.id, r!.paymentId));
      const outcome = (await handleMercadoPagoNotification(db, buildSignedNotification(r!.paymentId))).outcome;
      expect(outcome).toBe(status === "refunded" ? "refunded" : "charged-back");
      await assertLedgerMatches(db, p.order.id);
      checked.push(outcome);
    }
    expect(checked).toEqual(["approved", "orphan-honoured", "orphan-refunded", "withdrawn", "organizer-approved", "refunded", "charged-back"]);
  });

  it("catches a refunded billing whose tickets still work", async () => {
    const db = await getDb();
    const { order, billing } = await newOrder();
    await payInSandbox(db, billing.id, "approved");
    await requestRefund(await ctxAs(), { orderCode: order.code, email: "ana@example.com" });
    const [ticket] = await ticketsOfOrder(db, order.id);
    await db.update(issuedProducts).set({ status: "redeemable" }).where(eq(issuedProducts.id, ticket.id));
    await expect(assertLedgerMatches(db, order.id)).rejects.toThrow(/live issued products/);
  });
});
