import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, ledgerEntries, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payments/sandbox";
import { handleMercadoPagoNotification } from "#server/payments/webhook";
import { buildSignedNotification } from "#server/payments/sandbox";
import { SandboxProvider } from "#server/payments/provider";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { assertLedgerMatches } from "./invariants";
import { ledgerOfOrder } from "./ledger";

async function newOrder(price = 1_000_000) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price, stock: 10 }] });
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
});
