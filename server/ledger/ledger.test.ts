import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { getOrganizationLedger } from "./ledger";

describe("getOrganizationLedger", () => {
  it("shows owners the balance and the entries, newest first; operators and strangers are refused", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
    const db = await getDb();
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const buy = async (qty: number) => {
      const { order, billing } = await createOrder(await ctxAs(), {
        eventSlug: event.slug,
        items: [{ ticketId: ticket.id, qty }],
        payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
        paymentMethod: "MERCADO_PAGO",
      });
      await payInSandbox(db, billing.id, "approved");
      return order;
    };
    const first = await buy(1);
    const second = await buy(2);

    const ledger = await getOrganizationLedger(producer.ctx, { organizationId: producer.organization.id, limit: 3 });
    // Two sales of $ 10.000 and $ 20.000 with a 10 % fee on top: the organizer keeps the ticket prices.
    expect(ledger.balance).toBe(3_000_000);
    expect(ledger.total).toBe(4);
    expect(ledger.items).toHaveLength(3);
    expect(ledger.items[0].orderCode).toBe(second.code);
    expect((await getOrganizationLedger(producer.ctx, { organizationId: producer.organization.id, limit: 3, page: 1 })).items.map((e) => e.orderCode)).toEqual([first.code]);

    const operator = await createTestUser();
    await db.insert(memberships).values({ organizationId: producer.organization.id, userId: operator.id, role: "operator" });
    await expect(getOrganizationLedger(await ctxAs(actorFor({ ...operator, roles: [] })), { organizationId: producer.organization.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const stranger = await createProducer();
    await expect(getOrganizationLedger(stranger.ctx, { organizationId: producer.organization.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(getOrganizationLedger(await ctxAs(), { organizationId: producer.organization.id })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});
