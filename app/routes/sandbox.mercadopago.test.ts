import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, orders, paymentNotifications, ticketTypes } from "#server/db/schema";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { createOrder } from "#server/orders/orders";
import { withBillingToken } from "#server/auth/billing-access";
import { buildSignedNotification } from "#server/payment-notifications/sandbox";
import { SandboxProvider } from "#server/payments/sandbox-provider";
import { ticketsOfOrder } from "#server/tickets/issue";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { BASE_URL, formRequest, getRequest, run } from "#tests/support/remix";
import * as sandboxRoute from "./sandbox.mercadopago.$billingId";
import * as webhookRoute from "./api.webhooks.mercadopago";

async function newOrder() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_234_500, stock: 10 }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  return createOrder(await ctxAs(ANONYMOUS), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: 2 }],
    payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
}

async function statusOf(orderId: string, billingId: string) {
  const db = await getDb();
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const [billing] = await db.select().from(billings).where(eq(billings.id, billingId));
  return [order.status, billing.status, (await ticketsOfOrder(db, orderId)).length];
}

describe("/sandbox/mercadopago/{billingId}", () => {
  it("shows the amount; unknown billings are 404", async () => {
    const { billing, order } = await newOrder();
    const page = await run(sandboxRoute.loader, getRequest(`/sandbox/mercadopago/${billing.id}`), { billingId: billing.id });
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ billingId: billing.id, orderCode: order.code });
    expect(page.data.amount.replace(/\s/g, " ")).toContain(new Intl.NumberFormat("es-AR", { style: "currency", currency: "ARS" }).format(order.total / 100).replace(/\s/g, " "));
    expect((await run(sandboxRoute.loader, getRequest("/sandbox/mercadopago/x"), { billingId: "x" })).status).toBe(404);
    expect((await run(sandboxRoute.action, formRequest("/sandbox/mercadopago/00000000-0000-4000-8000-000000000000", { status: "approved" }), { billingId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
  });

  it("Rechazar keeps the order pending; Aprobar bills it and redirects to the status page", async () => {
    const { billing, order } = await newOrder();
    const bad = await run(sandboxRoute.action, formRequest(`/sandbox/mercadopago/${billing.id}`, { status: "maybe" }), { billingId: billing.id });
    expect(bad.status).toBe(400);

    const rejected = await run(sandboxRoute.action, formRequest(`/sandbox/mercadopago/${billing.id}`, { status: "rejected" }), { billingId: billing.id });
    expect(rejected.status).toBe(302);
    expect(rejected.location).toBe(withBillingToken(`/checkout/status/rejected?billingId=${billing.id}`, billing.id));
    expect(await statusOf(order.id, billing.id)).toEqual(["draft", "pending", 0]);

    const approved = await run(sandboxRoute.action, formRequest(`/sandbox/mercadopago/${billing.id}`, { status: "approved" }), { billingId: billing.id });
    expect(approved.location).toBe(withBillingToken(`/checkout/status/approved?billingId=${billing.id}`, billing.id));
    expect(await statusOf(order.id, billing.id)).toEqual(["billed", "approved", 2]);
    await assertLedgerMatches(await getDb(), order.id);
  });
});

describe("POST /api/webhooks/mercadopago", () => {
  function post(n: ReturnType<typeof buildSignedNotification>, headers = n.headers as Record<string, string>) {
    return new Request(new URL(`/api/webhooks/mercadopago?${n.query}`, BASE_URL), { method: "POST", headers, body: JSON.stringify(n.body) });
  }

  it("answers 200 to a signed notification and applies it; 401 to a forged one", async () => {
    const db = await getDb();
    const { billing, order } = await newOrder();
    const payment = await new SandboxProvider(db).recordPayment(billing, "approved");
    const n = buildSignedNotification(payment.id);
    const forged = await webhookRoute.action({ request: post(n, { ...(n.headers as Record<string, string>), "x-request-id": "otro" }), params: {}, context: {} });
    expect(forged.status).toBe(401);
    expect(await statusOf(order.id, billing.id)).toEqual(["draft", "pending", 0]);

    const ok = await webhookRoute.action({ request: post(n), params: {}, context: {} });
    expect(ok.status).toBe(200);
    expect(await statusOf(order.id, billing.id)).toEqual(["billed", "approved", 2]);
    const log = await db.select().from(paymentNotifications).where(eq(paymentNotifications.dataId, payment.id));
    expect(log.map((l) => [l.signatureValid, l.outcome]).sort()).toEqual([
      [false, "forged"],
      [true, "approved"],
    ]);
    await assertLedgerMatches(db, order.id);
    expect(webhookRoute.loader().status).toBe(405);
  });
});
