import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, jobs, mercadopagoPreferences, orders, paymentRefunds, ticketTypes } from "#server/db/schema";
import { runDueJobs } from "#server/jobs/queue";
import { jobHandlers } from "#server/worker/handlers";
import { createOrder } from "#server/orders/orders";
import { startCheckout } from "#server/orders/checkout";
import { billingAccessToken, isBillingAccessToken } from "#server/auth/billing-access";
import { ticketsOfOrder } from "#server/tickets/issue";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import {
  MP_APP,
  MP_PLATFORM,
  mercadoPagoConsent,
  mercadoPagoHandlers,
  mercadoPagoSeller,
  mockPayment,
  mockPreference,
  payPreference,
  requestsTo,
  resetMercadoPagoMock,
} from "#tests/support/msw/mercadopago";
import { finishMercadoPagoConnection, startMercadoPagoConnection } from "./mercadopago-accounts";
import { MercadoPagoProvider, mpDate } from "./mercadopago";
import { getPaymentProvider, paymentPublicConfig, paymentPublicConfigFor } from "./providers";
import { queueProviderRefund, runProviderRefund } from "./refunds";
import { buildSignedNotification } from "#server/payment-notifications/sandbox";
import { handleMercadoPagoNotification } from "#server/payment-notifications/webhook";
import { ctxWithSecondFactor } from "#tests/support/two-factor";

// Mercado Pago is configured for this file (env() is read lazily, on first use).
process.env.MERCADOPAGO_ACCESS_TOKEN = MP_PLATFORM.accessToken;
process.env.MERCADOPAGO_PUBLIC_KEY = MP_PLATFORM.publicKey;
process.env.MERCADOPAGO_WEBHOOK_SECRET = "webhook-secret-for-tests-0123456789abcdef";
process.env.MERCADOPAGO_CLIENT_ID = MP_APP.clientId;
process.env.MERCADOPAGO_CLIENT_SECRET = MP_APP.clientSecret;

// MSW stands in for Mercado Pago only; our domain, database and webhook run for real.
const server = setupServer(...mercadoPagoHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  resetMercadoPagoMock();
});
afterAll(() => server.close());

const PAYER = {
  firstName: "Sofía",
  lastName: "Peña",
  email: "sofia@example.com",
  documentType: "dni",
  documentNumber: "30123456",
  phoneNumber: "+54 11 5555-1234",
};

async function setup(options: { connect?: boolean } = {}) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    ticketTypes: [
      { name: "General", price: 1_000_050, stock: 100 },
      { name: "VIP", price: 2_500_000, stock: 10 },
    ],
  });
  const db = await getDb();
  const types = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const general = types.find((t) => t.name === "General")!;
  const vip = types.find((t) => t.name === "VIP")!;
  let seller: { userId: string } | null = null;
  if (options.connect) {
    seller = mercadoPagoSeller();
    const ctx = await ctxWithSecondFactor(producer.user);
    const { url } = await startMercadoPagoConnection(ctx, { organizationId: producer.organization.id });
    const back = new URL(mercadoPagoConsent(url, seller));
    await finishMercadoPagoConnection(ctx, { code: back.searchParams.get("code"), state: back.searchParams.get("state") });
  }
  const buyer = await ctxAs(ANONYMOUS);
  const checkout = () =>
    startCheckout(buyer, {
      eventSlug: event.slug,
      items: [
        { ticketId: general.id, qty: 2 },
        { ticketId: vip.id, qty: 1 },
      ],
      payer: PAYER,
      paymentMethod: "MERCADO_PAGO",
    });
  return { db, producer, event, general, vip, seller, checkout };
}

function prefIdOf(paymentUrl: string) {
  return new URL(paymentUrl).searchParams.get("pref_id")!;
}

/** The notification Mercado Pago sends for a payment of seller `userId`, signed. */
function notificationFor(paymentId: number | string, userId: string) {
  const signed = buildSignedNotification(String(paymentId));
  return { ...signed, body: { ...(signed.body as object), id: 12345678901, user_id: userId } };
}

describe("Checkout Pro preference", () => {
  it("with the platform token: items in ARS, payer DNI, back URLs with the buyer's token, hold as expiry, no marketplace fee", async () => {
    const { db, event, general, vip, checkout } = await setup();
    const { order, billing, paymentUrl } = await checkout();
    expect(billing.provider).toBe("mercadopago");
    expect(order.serviceFee).toBeGreaterThan(0);

    const [request] = requestsTo("POST", "/checkout/preferences");
    expect(request.authorization).toBe(`Bearer ${MP_PLATFORM.accessToken}`);
    const body = request.body as Record<string, any>;
    const byPrice = (a: { unit_price: number }, b: { unit_price: number }) => a.unit_price - b.unit_price;
    expect([...body.items].sort(byPrice)).toEqual([
      { id: "service-fee", title: "Cargo por servicio", category_id: "tickets", quantity: 1, currency_id: "ARS", unit_price: order.serviceFee / 100 },
      { id: general.id, title: `${event.name} — General`, category_id: "tickets", quantity: 2, currency_id: "ARS", unit_price: 10000.5 },
      { id: vip.id, title: `${event.name} — VIP`, category_id: "tickets", quantity: 1, currency_id: "ARS", unit_price: 25000 },
    ]);
    expect(body.items.at(-1).id).toBe("service-fee");
    expect(body.payer).toEqual({ name: "Sofía", surname: "Peña", email: "sofia@example.com", identification: { type: "DNI", number: "30123456" } });
    const t = billingAccessToken(billing.id);
    expect(body.back_urls).toEqual({
      success: `http://localhost:3000/checkout/status/approved?billingId=${billing.id}&t=${t}`,
      pending: `http://localhost:3000/checkout/status/pending?billingId=${billing.id}&t=${t}`,
      failure: `http://localhost:3000/checkout/status/rejected?billingId=${billing.id}&t=${t}`,
    });
    expect(isBillingAccessToken(billing.id, new URL(body.back_urls.success).searchParams.get("t"))).toBe(true);
    expect(body.auto_return).toBe("approved");
    expect(body.notification_url).toBe("http://localhost:3000/api/webhooks/mercadopago");
    expect(body.external_reference).toBe(billing.id);
    expect(body.statement_descriptor).toBe("TRIBUNA");
    expect(body.expires).toBe(true);
    expect(body.expiration_date_to).toBe(mpDate(order.holdExpiresAt!));
    expect(body.expiration_date_to).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-03:00$/);
    expect(new Date(body.expiration_date_to).getTime()).toBe(order.holdExpiresAt!.getTime());
    expect(body).not.toHaveProperty("marketplace_fee");
    // The items add up to what is billed.
    const total = body.items.reduce((s: number, i: { unit_price: number; quantity: number }) => s + Math.round(i.unit_price * 100) * i.quantity, 0);
    expect(total).toBe(billing.amount);

    // The buyer goes to init_point; the preference is kept aside, the billing's reference waits for the payment id.
    expect(paymentUrl).toMatch(/^https:\/\/www\.mercadopago\.com\.ar\/checkout\/v1\/redirect\?pref_id=/);
    const [stored] = await db.select().from(mercadopagoPreferences).where(eq(mercadopagoPreferences.billingId, billing.id));
    expect(stored).toMatchObject({ preferenceId: prefIdOf(paymentUrl!), initPoint: paymentUrl, mpUserId: null, marketplaceFee: 0 });
    const [row] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect(row.providerReference).toBeNull();

    // Asking again for the same billing reuses the preference.
    const [fresh] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(await getPaymentProvider(db).createCheckout(row, fresh)).toEqual({ paymentUrl });
    expect(requestsTo("POST", "/checkout/preferences")).toHaveLength(1);
  });

  it("with the organizer's connected account: created with its token and our service fee as marketplace_fee", async () => {
    const { db, seller, checkout } = await setup({ connect: true });
    const { order, billing, paymentUrl } = await checkout();
    const [request] = requestsTo("POST", "/checkout/preferences");
    expect(request.authorization).not.toBe(`Bearer ${MP_PLATFORM.accessToken}`);
    expect(request.authorization).toMatch(new RegExp(`-${seller!.userId}$`));
    expect((request.body as Record<string, unknown>).marketplace_fee).toBe(order.serviceFee / 100);
    expect(mockPreference(prefIdOf(paymentUrl!))!.collectorId).toBe(seller!.userId);
    const [stored] = await db.select().from(mercadopagoPreferences).where(eq(mercadopagoPreferences.billingId, billing.id));
    expect(stored).toMatchObject({ mpUserId: seller!.userId, marketplaceFee: order.serviceFee });
    // The checkout page uses the seller's public key for that organization.
    expect(paymentPublicConfig()).toEqual({ publicKey: MP_PLATFORM.publicKey, sandbox: false });
    const forOrg = await paymentPublicConfigFor(db, order.organizationId);
    expect(forOrg.publicKey).toMatch(/^APP_USR-/);
    expect(forOrg.publicKey).not.toBe(MP_PLATFORM.publicKey);
  });

  it("a Mercado Pago error surfaces (the checkout fails instead of sending the buyer nowhere)", async () => {
    const { db, event, general } = await setup();
    const { order, billing } = await createOrder(await ctxAs(ANONYMOUS), { eventSlug: event.slug, items: [{ ticketId: general.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    const revoked = new MercadoPagoProvider({ db, platformAccessToken: "APP_USR-revoked" });
    await expect(revoked.createCheckout(billing, order)).rejects.toThrow(/401/);
    await expect(revoked.getPayment("123")).rejects.toThrow(/401/);
    expect(await db.select().from(mercadopagoPreferences).where(eq(mercadopagoPreferences.billingId, billing.id))).toHaveLength(0);
  });
});

describe("preference items with a discount", () => {
  it("when the lines do not add up to the billed amount (a coupon), one line carries the amount due", async () => {
    const { db, event, general } = await setup();
    const { order, billing } = await createOrder(await ctxAs(ANONYMOUS), { eventSlug: event.slug, items: [{ ticketId: general.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    const discounted = { ...order, discount: 500_000 };
    const due = { ...billing, amount: billing.amount - 500_000 };
    const body = await new MercadoPagoProvider({ db }).buildPreference(due, discounted, false);
    expect(body.items).toEqual([{ id: order.id, title: `${event.name} — compra ${order.code}`, category_id: "tickets", quantity: 1, currency_id: "ARS", unit_price: due.amount / 100 }]);
    expect(general).toBeTruthy();
  });
});

describe("payment lookup", () => {
  it("maps Mercado Pago's statuses and amounts (pesos → centavos); an unknown payment is null", async () => {
    const { db, checkout } = await setup();
    const { billing, paymentUrl } = await checkout();
    const provider = getPaymentProvider(db);
    for (const status of ["approved", "rejected", "in_process", "pending", "cancelled"]) {
      const payment = payPreference(prefIdOf(paymentUrl!), { status });
      expect(await provider.getPayment(String(payment.id))).toEqual({ id: String(payment.id), status, externalReference: billing.id, amount: billing.amount });
    }
    const odd = payPreference(prefIdOf(paymentUrl!), { amount: 1234.565 });
    expect((await provider.getPayment(String(odd.id)))!.amount).toBe(123457);
    expect(await provider.getPayment("999999999999")).toBeNull();
    expect(await provider.getPayment("not-a-number")).toBeNull();
    const [get] = requestsTo("GET", /^\/v1\/payments\//);
    expect(get.authorization).toBe(`Bearer ${MP_PLATFORM.accessToken}`);
  });
});

describe("webhook end to end against Mercado Pago", () => {
  it("approves the billing from GET /v1/payments/{id} and issues the tickets once, however many notifications", async () => {
    const { db, checkout } = await setup();
    const { order, billing, paymentUrl } = await checkout();
    const payment = payPreference(prefIdOf(paymentUrl!));
    const note = notificationFor(payment.id, MP_PLATFORM.userId);
    expect(await handleMercadoPagoNotification(db, note)).toEqual({ status: 200, outcome: "approved", billingId: billing.id });
    expect(await handleMercadoPagoNotification(db, note)).toMatchObject({ status: 200, outcome: "already-applied" });
    const [row] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect(row).toMatchObject({ status: "approved", providerReference: String(payment.id) });
    expect(await ticketsOfOrder(db, order.id)).toHaveLength(3);
  });

  it("reads a connected organizer's payment with that organizer's token (user_id of the notification)", async () => {
    const { db, seller, checkout } = await setup({ connect: true });
    const { billing, paymentUrl } = await checkout();
    const payment = payPreference(prefIdOf(paymentUrl!));
    // With the platform's token Mercado Pago would not find it.
    expect(await new MercadoPagoProvider({ db }).getPayment(String(payment.id))).toBeNull();
    expect(await handleMercadoPagoNotification(db, notificationFor(payment.id, seller!.userId))).toMatchObject({ outcome: "approved", billingId: billing.id });
    const gets = requestsTo("GET", `/v1/payments/${payment.id}`);
    expect(gets.at(-1)!.authorization).toMatch(new RegExp(`-${seller!.userId}$`));
  });

  it("a forged notification never reaches Mercado Pago", async () => {
    const { db, checkout } = await setup();
    const { paymentUrl } = await checkout();
    const payment = payPreference(prefIdOf(paymentUrl!));
    const note = notificationFor(payment.id, MP_PLATFORM.userId);
    const forged = { ...note, headers: { ...(note.headers as Record<string, string>), "x-signature": `ts=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` } };
    expect(await handleMercadoPagoNotification(db, forged)).toEqual({ status: 401, outcome: "forged" });
    expect(requestsTo("GET", /^\/v1\/payments\//)).toHaveLength(0);
  });
});

describe("refunds", () => {
  it("POST /v1/payments/{id}/refunds with X-Idempotency-Key: the same key twice refunds once", async () => {
    const { db, checkout } = await setup();
    const { billing, paymentUrl } = await checkout();
    const payment = payPreference(prefIdOf(paymentUrl!));
    const provider = getPaymentProvider(db);
    const first = await provider.refundPayment(String(payment.id), billing.amount, "refund-key-1");
    const again = await provider.refundPayment(String(payment.id), billing.amount, "refund-key-1");
    expect(again).toEqual(first);
    expect(first).toMatchObject({ status: "approved", amount: billing.amount });
    const calls = requestsTo("POST", `/v1/payments/${payment.id}/refunds`);
    expect(calls.map((c) => c.idempotencyKey)).toEqual(["refund-key-1", "refund-key-1"]);
    expect(calls[0].body).toEqual({ amount: billing.amount / 100 });
    expect(mockPayment(payment.id)!.refunds).toHaveLength(1);
    expect(mockPayment(payment.id)!.status).toBe("refunded");
    // Another key for an already refunded payment is refused by Mercado Pago.
    await expect(provider.refundPayment(String(payment.id), billing.amount, "refund-key-2")).rejects.toThrow(/400/);
  });

  it("the provider-refund job refunds a connected organizer's payment with its token, marks the row done, and is idempotent", async () => {
    const { db, seller, checkout } = await setup({ connect: true });
    const { billing, paymentUrl } = await checkout();
    const payment = payPreference(prefIdOf(paymentUrl!));
    await handleMercadoPagoNotification(db, notificationFor(payment.id, seller!.userId));
    const now = new Date();
    const refund = await db.transaction((tx) =>
      queueProviderRefund(tx, { billingId: billing.id, providerPaymentId: String(payment.id), amount: billing.amount, reason: "prueba", now }).then((queued) => queued!),
    );
    const result = await runDueJobs(db, jobHandlers, new Date(now.getTime() + 1000));
    expect(result.failed).toBe(0);
    const [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refund.id));
    expect(row.status).toBe("done");
    expect(row.providerRefundId).toBe(String(mockPayment(payment.id)!.refunds[0].id));
    expect(row.processedAt).not.toBeNull();
    const [call] = requestsTo("POST", `/v1/payments/${payment.id}/refunds`);
    expect(call.idempotencyKey).toBe(refund.id);
    expect(call.authorization).toMatch(new RegExp(`-${seller!.userId}$`));
    // Running it again (a duplicated job) calls nobody and changes nothing.
    expect(await runProviderRefund(db, refund.id)).toBe("already-done");
    expect(requestsTo("POST", `/v1/payments/${payment.id}/refunds`)).toHaveLength(1);
    expect(mockPayment(payment.id)!.refunds).toHaveLength(1);
  });

  it("a refused refund stays pending with the error and retries; after the last attempt it is failed", async () => {
    const { db, checkout } = await setup();
    const { billing, paymentUrl } = await checkout();
    const payment = payPreference(prefIdOf(paymentUrl!), { status: "pending" });
    const now = new Date();
    const refund = await db.transaction((tx) =>
      queueProviderRefund(tx, { billingId: billing.id, providerPaymentId: String(payment.id), amount: billing.amount, reason: "prueba", now }).then((queued) => queued!),
    );
    const run = await runDueJobs(db, jobHandlers, new Date(now.getTime() + 1000));
    expect(run.failed).toBe(1);
    let [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refund.id));
    expect(row.status).toBe("pending");
    expect(row.lastError).toMatch(/400/);
    const job = (await db.select().from(jobs).where(eq(jobs.kind, "provider-refund"))).find((j) => j.payload.paymentRefundId === refund.id)!;
    expect(job.failedAt).toBeNull();
    expect(job.doneAt).toBeNull();
    await expect(runProviderRefund(db, refund.id, { finalAttempt: true })).rejects.toThrow();
    [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refund.id));
    expect(row.status).toBe("failed");
  });
});

describe("createOrder provider choice", () => {
  it("billings are Mercado Pago ones when the platform token is set", async () => {
    const { event, general } = await setup();
    const { billing } = await createOrder(await ctxAs(ANONYMOUS), { eventSlug: event.slug, items: [{ ticketId: general.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    expect(billing.provider).toBe("mercadopago");
  });
});
