import { describe, expect, it } from "vitest";
import { createEventWithTickets } from "#tests/support/factories";
import { ctxAs } from "#tests/support/context";
import { createOrder } from "#server/orders/orders";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as sandboxRoute from "./sandbox.mercadopago.$billingId";

// This file's server takes real payments: read before anything reads the environment.
process.env.MERCADOPAGO_ACCESS_TOKEN = "APP_USR-0000000000000000-000000-00000000000000000000000000000000-000000000";

describe("/sandbox/mercadopago/{billingId} next to the real provider", () => {
  it("answers 404 to the page and to 'Aprobar': nobody can approve their own purchase", async () => {
    const { event, tickets } = await createEventWithTickets();
    // A real pending billing: its id is in the buyer's URL, and the sandbox must not pay it.
    const { billing } = await createOrder(await ctxAs(), {
      eventSlug: event.slug,
      items: [{ ticketId: tickets.General.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    const page = await run(sandboxRoute.loader, getRequest(`/sandbox/mercadopago/${billing.id}`), { billingId: billing.id });
    expect(page.status).toBe(404);
    const approve = await run(sandboxRoute.action, formRequest(`/sandbox/mercadopago/${billing.id}`, { status: "approved" }), { billingId: billing.id });
    expect(approve.status).toBe(404);
  });
});
