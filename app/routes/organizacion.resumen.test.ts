import { describe, expect, it } from "vitest";
import { formatMoney } from "#common/money";
import { getDb } from "#server/db/client";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets, createPublishedEvent } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import * as resumen from "./organizacion.resumen";

describe("/organizacion/resumen", () => {
  it("shows today's, the week's and all sales, and sends to what needs a decision", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const { billing } = await createOrder(await ctxAs(), {
      eventSlug: made.event.slug,
      items: [{ ticketId: made.tickets.General.id, qty: 2 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(await getDb(), billing.id, "approved");
    const page = await run(resumen.loader, getRequest("/organizacion/resumen", { cookies: await sessionCookiesFor(made.user.id) }));
    expect(page.data.sales.periods).toEqual([
      { label: "Hoy", orders: 1, tickets: 2, menuItems: 0, revenue: formatMoney(2_000_000) },
      { label: "Últimos 7 días", orders: 1, tickets: 2, menuItems: 0, revenue: formatMoney(2_000_000) },
      { label: "Total", orders: 1, tickets: 2, menuItems: 0, revenue: formatMoney(2_000_000) },
    ]);
    expect(page.data.sales).toMatchObject({ pendingTransfers: 0, refundsToDecide: 0 });
  });

  it("with an event picked in the filter, shows only that event's sales and the event itself", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const other = await createPublishedEvent(made.ctx, made.organization.id, { name: "Otra noche", ticketTypes: [{ name: "Campo", price: 2_500_000, stock: 50 }] });
    const db = await getDb();
    const { ticketTypes } = await import("#server/db/schema");
    const { eq } = await import("drizzle-orm");
    const [campo] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, other.event.id));
    const payer = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    for (const [slug, ticketId, qty] of [[made.event.slug, made.tickets.General.id, 2], [other.event.slug, campo.id, 3]] as const) {
      const { billing } = await createOrder(await ctxAs(), { eventSlug: slug, items: [{ ticketId, qty }], payer, paymentMethod: "MERCADO_PAGO" });
      await payInSandbox(db, billing.id, "approved");
    }
    const cookies = await sessionCookiesFor(made.user.id);
    const all = await run(resumen.loader, getRequest("/organizacion/resumen", { cookies }));
    expect(all.data.sales.periods[2]).toEqual({ label: "Total", orders: 2, tickets: 5, menuItems: 0, revenue: formatMoney(2_000_000 + 7_500_000) });
    const one = await run(resumen.loader, getRequest(`/organizacion/resumen?eventId=${other.event.id}`, { cookies }));
    expect(one.data.sales.periods[2]).toEqual({ label: "Total", orders: 1, tickets: 3, menuItems: 0, revenue: formatMoney(7_500_000) });
    expect(one.data.events.map((e: { id: string; sold: number }) => [e.id, e.sold])).toEqual([[other.event.id, 3]]);
    expect(one.data.eventName).toBe("Otra noche");
    // Another organization's event left in the URL (after switching organizations) filters nothing.
    const stranger = await createEventWithTickets();
    const stale = await run(resumen.loader, getRequest(`/organizacion/resumen?eventId=${stranger.event.id}`, { cookies }));
    expect(stale.data.sales.periods[2]).toEqual(all.data.sales.periods[2]);
    expect(stale.data.eventName).toBeNull();
  });
});
