import { describe, expect, it } from "vitest";
import { formatMoney } from "#common/money";
import { getDb } from "#server/db/client";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payments/sandbox";
import { ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
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
});
