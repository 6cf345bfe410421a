import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import * as page from "./organizacion.metricas-evento";

describe("/organizacion/metricas-evento", () => {
  it("asks for an event, then shows its sales per day and type and the check-in rate", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const cookies = await sessionCookiesFor(made.user.id);
    expect((await run(page.loader, getRequest("/organizacion/metricas-evento", { cookies }))).data).toEqual({ event: null, metrics: null });
    const { billing } = await createOrder(await ctxAs(), {
      eventSlug: made.event.slug,
      items: [{ ticketId: made.tickets.General.id, qty: 4 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(await getDb(), billing.id, "approved");
    const result = await run(page.loader, getRequest(`/organizacion/metricas-evento?eventId=${made.event.id}`, { cookies }));
    expect(result.data.metrics.salesPerDay).toEqual([expect.objectContaining({ orders: 1, tickets: 4, revenue: 4_000_000 })]);
    expect(result.data.metrics.ticketTypes).toEqual([expect.objectContaining({ name: "General", sold: 4, stock: 100 })]);
    expect(result.data.metrics.entries).toMatchObject({ sold: 4, entered: 0, rate: 0 });
    const stranger = await createEventWithTickets();
    expect((await run(page.loader, getRequest(`/organizacion/metricas-evento?eventId=${made.event.id}`, { cookies: await sessionCookiesFor(stranger.user.id) }))).status).toBe(403);
  });
});
