import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { createCoupon } from "#server/coupons/coupons";
import type { DoorAccess } from "#server/door/access";
import { redeemAtDoor } from "#server/door/redeem";
import { sendInvitation } from "#server/invitations/invitations";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { eventMetrics } from "./metrics";

const PAYER = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

describe("eventMetrics", () => {
  it("counts paid sales per day and ticket type, coupons, promoters and entries; gifts and unpaid orders stay out of sales", async () => {
    const made = await createEventWithTickets(
      [
        { name: "General", price: 1_000_000, stock: 100 },
        { name: "VIP", price: 3_000_000, stock: 10 },
      ],
      { days: 0 },
    );
    const db = await getDb();
    await createCoupon(made.ctx, { eventId: made.event.id, code: "AMIGOS", kind: "percent", percent: 10 });
    const buy = async (ticketId: string, qty: number, extra: Record<string, unknown> = {}) => {
      const { order, billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId, qty }], payer: PAYER, paymentMethod: "MERCADO_PAGO", ...extra });
      await payInSandbox(db, billing.id, "approved");
      return order;
    };
    const general = await buy(made.tickets.General.id, 2, { couponCode: "amigos" });
    await buy(made.tickets.VIP.id, 1);
    await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.VIP.id, qty: 5 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await sendInvitation(made.ctx, { eventId: made.event.id, ticketTypeId: made.tickets.General.id, email: "prensa@example.com", firstName: "Prensa", lastName: "Radio", qty: 1 });
    const [ticket] = await ticketsOfOrder(db, general.id);
    const access: DoorAccess = { event: { id: made.event.id, organizationId: made.organization.id, name: made.event.name, slug: made.event.slug }, userId: made.user.id, pinSessionId: null };
    await redeemAtDoor(made.ctx, access, { code: qrPayloadFor(ticket.code) });

    const metrics = await eventMetrics(made.ctx, made.event.id);
    expect(metrics.salesPerDay).toHaveLength(1);
    expect(metrics.salesPerDay[0]).toMatchObject({ orders: 2, tickets: 3, revenue: 1_800_000 + 3_000_000 });
    // After the coupon: the types add up to the day (they used to show 2_000_000, the price before the discount).
    expect(metrics.ticketTypes).toEqual([
      { name: "General", stock: 100, sold: 2, revenue: 1_800_000 },
      { name: "VIP", stock: 10, sold: 1, revenue: 3_000_000 },
    ]);
    expect(metrics.coupons).toEqual([{ code: "AMIGOS", uses: 1, discount: 200_000 }]);
    expect(metrics.promoters).toEqual([]);
    // The door counts every ticket that can get in, the invitation included.
    expect(metrics.entries).toMatchObject({ sold: 4, entered: 1 });
    expect(metrics.entries.perQuarterHour).toHaveLength(1);

    const stranger = await createEventWithTickets();
    await expect(eventMetrics(stranger.ctx, made.event.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("eventMetrics of one date", () => {
  it("counts only the orders for that date and their tickets; a date of another event is NOT_FOUND", async () => {
    const { eventDates } = await import("#server/db/schema");
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const db = await getDb();
    const startsAt = new Date(made.date.startsAt.getTime() + 7 * 24 * 3600_000);
    const [second] = await db.insert(eventDates).values({ eventId: made.event.id, startsAt, endsAt: new Date(startsAt.getTime() + 5 * 3600_000) }).returning();
    const buy = async (eventDateId: string, qty: number) => {
      const { billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, eventDateId, items: [{ ticketId: made.tickets.General.id, qty }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
      await payInSandbox(db, billing.id, "approved");
    };
    await buy(made.date.id, 2);
    await buy(second.id, 3);

    expect((await eventMetrics(made.ctx, made.event.id)).ticketTypes[0]).toMatchObject({ sold: 5 });
    const first = await eventMetrics(made.ctx, made.event.id, made.date.id);
    expect(first.ticketTypes[0]).toMatchObject({ sold: 2, revenue: 2_000_000 });
    expect(first.entries).toMatchObject({ sold: 2, entered: 0 });
    const later = await eventMetrics(made.ctx, made.event.id, second.id);
    expect(later.ticketTypes[0]).toMatchObject({ sold: 3 });
    expect(later.salesPerDay[0]).toMatchObject({ orders: 1, tickets: 3 });
    expect(later.entries.sold).toBe(3);

    const other = await createEventWithTickets();
    await expect(eventMetrics(made.ctx, made.event.id, other.date.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(eventMetrics(made.ctx, made.event.id, "no-es-un-id")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
