import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { billingAccessToken } from "#server/auth/billing-access";
import { startCheckout } from "#server/orders/checkout";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { MP_PLATFORM, mercadoPagoHandlers, mockPreference, resetMercadoPagoMock } from "#tests/support/msw/mercadopago";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as summary from "./checkout.$billingId";

// Real Mercado Pago configured for this file (env() is read lazily, on first use); MSW stands in for its API.
process.env.MERCADOPAGO_ACCESS_TOKEN = MP_PLATFORM.accessToken;
process.env.MERCADOPAGO_PUBLIC_KEY = MP_PLATFORM.publicKey;
process.env.MERCADOPAGO_WEBHOOK_SECRET = "webhook-secret-for-tests-0123456789abcdef";

const server = setupServer(...mercadoPagoHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  resetMercadoPagoMock();
});
afterAll(() => server.close());

describe("/checkout/{billingId} with Mercado Pago configured", () => {
  it("hands the browser the public key and the order's preference for Mercado Pago's button, and the form still redirects to the same preference", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
    const [ticket] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const { billing, paymentUrl } = await startCheckout(await ctxAs(), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    const url = `/checkout/${billing.id}?t=${billingAccessToken(billing.id)}`;

    const page = await run(summary.loader, getRequest(url), { billingId: billing.id });
    expect(page.status).toBe(200);
    expect(page.data.missingPublicKey).toBe(false);
    expect(page.data.wallet).toEqual({ publicKey: MP_PLATFORM.publicKey, preferenceId: expect.any(String) });
    const preference = mockPreference(page.data.wallet.preferenceId);
    expect(preference?.body.external_reference).toBe(billing.id);

    // Without JavaScript (or if Mercado Pago's script does not load) our button goes to that same preference.
    const paid = await run(summary.action, formRequest(url, { intent: "mercadopago" }), { billingId: billing.id });
    expect(paid.status).toBe(302);
    expect(paid.location).toBe(paymentUrl);
  });
});
