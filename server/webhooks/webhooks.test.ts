import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS, type Ctx } from "#server/context";
import type { Db } from "#server/db/client";
import { getDb } from "#server/db/client";
import { setOutgoingTestPolicy } from "#server/http/safe-destination";
import { jobs, ticketTypes, webhookAttempts, webhookDeliveries, webhookEndpoints } from "#server/db/schema";
import { approveBankTransfer } from "#server/bank-transfers/bank-transfers";
import type { DoorAccess } from "#server/door/access";
import { redeemAtDoor } from "#server/door/redeem";
import { jobHandlers } from "#server/worker/handlers";
import { backoffMs, MAX_ATTEMPTS, runDueJobs } from "#server/jobs/queue";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { applyPayment } from "#server/payment-notifications/webhook";
import { requestRefund } from "#server/refunds/refunds";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createProducer, createPublishedEvent, createTransferAccount } from "#tests/support/factories";
import { buyPaid, createSeatedEvent } from "#tests/support/seating";
import { WEBHOOK_MESSAGES, type WebhookEventType } from "#common/webhooks";
import { decryptWebhookSecret, DELIVERY_ERRORS, deliveryErrorForOwner, verifyWebhookSignature, webhookSignature, WEBHOOK_DELIVERY_JOB, type WebhookBody } from "./deliveries";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
  retryFailedWebhookDeliveries,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  webhookUrlProblem,
} from "./endpoints";

/** What the receiver got: one entry per request. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on a random local port; each path answers the statuses queued for it (then 200). */
const received: Received[] = [];
const answers = new Map<string, number[]>();
let server: http.Server;
let base = "";
const testPorts = new Set<number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = answers.get(path)?.shift() ?? 200;
      res.writeHead(status, { "Content-Type": "text/plain" }).end(status < 300 ? "ok" : "falló");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  // This receiver (and a closed port a test names) are let through although not public: server/http/safe-destination.ts.
  setOutgoingTestPolicy({ allow: (address, to) => address === "127.0.0.1" && (to === port || testPorts.has(to)) });
});

afterAll(async () => {
  setOutgoingTestPolicy(null);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const PAYER = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
let n = 0;

function pathOf(name: string) {
  n += 1;
  return `/hooks/${name}-${n}`;
}

async function endpoint(ctx: Ctx, organizationId: string, events: WebhookEventType[], name = "tribuna") {
  const path = pathOf(name);
  const made = await createWebhookEndpoint(ctx, { organizationId, url: `${base}${path}`, description: `Prueba ${name}`, events });
  return { ...made, path };
}

/** A producer's event (`days` away) with a General ticket ($10.000), optionally sold by bank transfer. */
async function producerWithEvent(options: { days?: number; bankTransfer?: boolean } = {}) {
  const producer = await createProducer();
  const { event, date } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    days: options.days ?? 40,
    ticketTypes: [{ name: "General", price: 1_000_000, stock: 100, ...(options.bankTransfer ? { paymentMethod: "BankAccount" } : {}) }],
  });
  if (options.bankTransfer) await createTransferAccount(producer.ctx, producer.organization.id);
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  return { ...producer, db, event, date, ticket };
}

async function buy(made: Awaited<ReturnType<typeof producerWithEvent>>, qty = 2, paymentMethod: "MERCADO_PAGO" | "BANK_TRANSFER" = "MERCADO_PAGO") {
  return createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.ticket.id, qty }], payer: PAYER, paymentMethod });
}

async function deliveriesOf(endpointId: string) {
  const db = await getDb();
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

/** Runs the queue as the server does (every due job, the real handlers). */
async function runJobs(at = new Date()) {
  return runDueJobs((await getDb()) as Db, jobHandlers, at, 1000);
}

/** A paid sale whose order.paid the receiver answers 503 until the queue's last attempt: the delivery ends failed. */
async function saleWhoseDeliveryFails(made: Awaited<ReturnType<typeof producerWithEvent>>, hook: { path: string; endpoint: { id: string } }) {
  answers.set(hook.path, Array.from({ length: 20 }, () => 503));
  const { billing } = await buy(made, 1);
  await payInSandbox(made.db, billing.id, "approved");
  const [delivery] = await deliveriesOf(hook.endpoint.id);
  // Jump to the queue's last attempt.
  await made.db
    .update(jobs)
    .set({ attempts: MAX_ATTEMPTS - 1 })
    .where(and(eq(jobs.kind, WEBHOOK_DELIVERY_JOB), eq(jobs.payload, { deliveryId: delivery.id })));
  await runJobs();
  return delivery;
}

function requestsTo(path: string) {
  return received.filter((r) => r.path === path);
}

function expectSigned(request: Received, secret: string, deliveryId: string) {
  expect(request.headers["content-type"]).toBe("application/json");
  expect(request.headers["tribuna-webhook-id"]).toBe(deliveryId);
  const timestamp = String(request.headers["tribuna-webhook-timestamp"]);
  const signature = String(request.headers["tribuna-signature"]);
  expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  expect(verifyWebhookSignature(secret, timestamp, signature, request.body, new Date())).toBe(true);
  // Another secret, another body or an old timestamp do not verify.
  expect(verifyWebhookSignature(`${secret}x`, timestamp, signature, request.body, new Date())).toBe(false);
  expect(verifyWebhookSignature(secret, timestamp, signature, `${request.body} `, new Date())).toBe(false);
  expect(verifyWebhookSignature(secret, timestamp, signature, request.body, new Date(Date.now() + 301_000))).toBe(false);
}

describe.skipIf(!hasPostgresServer)("outgoing webhooks", () => {
  it("a paid order: one signed order.paid per subscribed active endpoint; paused and unsubscribed ones get nothing", async () => {
    const made = await producerWithEvent();
    const orgId = made.organization.id;
    const a = await endpoint(made.ctx, orgId, ["order.paid", "order.refunded"], "a");
    const b = await endpoint(made.ctx, orgId, ["order.paid"], "b");
    const doorOnly = await endpoint(made.ctx, orgId, ["ticket.redeemed"], "puerta");
    const paused = await endpoint(made.ctx, orgId, ["order.paid"], "pausado");
    await updateWebhookEndpoint(made.ctx, { id: paused.endpoint.id, active: false });
    expect(a.secret).toMatch(/^whsec_[\w-]{43}$/);
    // Stored encrypted, never in clear.
    const [stored] = await made.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, a.endpoint.id));
    expect(stored.secretEncrypted).not.toContain(a.secret);
    expect(decryptWebhookSecret(stored.secretEncrypted)).toBe(a.secret);
    expect(a.endpoint).not.toHaveProperty("secretEncrypted");

    const { order, billing } = await buy(made);
    expect(await deliveriesOf(a.endpoint.id)).toHaveLength(0);
    await payInSandbox(made.db, billing.id, "approved");
    await runJobs();

    for (const target of [a, b]) {
      const deliveries = await deliveriesOf(target.endpoint.id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ eventType: "order.paid", status: "delivered", attempts: 1, lastStatusCode: 200 });
      const requests = requestsTo(target.path);
      expect(requests).toHaveLength(1);
      expectSigned(requests[0], target.secret, deliveries[0].id);
      const body = JSON.parse(requests[0].body) as WebhookBody;
      expect(requests[0].body).toBe(deliveries[0].body);
      expect(body).toEqual({
        id: deliveries[0].id,
        type: "order.paid",
        createdAt: expect.any(String),
        organizationId: orgId,
        data: {
          orderCode: order.code,
          paymentMethod: "MERCADO_PAGO",
          event: { id: made.event.id, name: made.event.name, slug: made.event.slug, startsAt: made.date.startsAt.toISOString() },
          amounts: { currency: "ARS", subtotal: 2_000_000, serviceFee: order.serviceFee, discount: 0, total: order.total },
          buyer: { email: PAYER.email, name: "Ana Gómez" },
        },
      });
    }
    expect(await deliveriesOf(doorOnly.endpoint.id)).toHaveLength(0);
    expect(await deliveriesOf(paused.endpoint.id)).toHaveLength(0);
    expect(requestsTo(doorOnly.path)).toHaveLength(0);
    expect(requestsTo(paused.path)).toHaveLength(0);

    // The same approval notified again changes nothing and sends nothing.
    await payInSandbox(made.db, billing.id, "approved");
    await runJobs();
    expect(await deliveriesOf(a.endpoint.id)).toHaveLength(1);
    expect(requestsTo(a.path)).toHaveLength(1);
  });

  it("an invitation (gift order) is not a sale: no order.paid", async () => {
    const made = await producerWithEvent();
    const hook = await endpoint(made.ctx, made.organization.id, ["order.paid"], "invitaciones");
    const { sendInvitation } = await import("#server/invitations/invitations");
    const gift = await sendInvitation(made.ctx, {
      eventId: made.event.id,
      ticketTypeId: made.ticket.id,
      email: "invitada@example.com",
      firstName: "Julieta",
      lastName: "Venegas",
      qty: 1,
    });
    expect(gift.gift).toBe(true);
    expect(await ticketsOfOrder(made.db, gift.id)).toHaveLength(1);
    await runJobs();
    expect(await deliveriesOf(hook.endpoint.id)).toHaveLength(0);
    expect(requestsTo(hook.path)).toHaveLength(0);
  });

  it("a rolled-back change records no delivery and queues no job", async () => {
    const made = await producerWithEvent();
    const hook = await endpoint(made.ctx, made.organization.id, ["order.paid"], "rollback");
    const { billing } = await buy(made, 1);
    let inside = 0;
    await expect(
      made.db.transaction(async (tx) => {
        const outcome = await applyPayment(
          tx as unknown as Db,
          { id: `rollback-${billing.id}`, status: "approved", externalReference: billing.id, amount: billing.amount },
          new Date()
        );
        expect(outcome).toBe("approved");
        inside = (await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.endpoint.id))).length;
        throw new Error("algo falló después");
      })
    ).rejects.toThrow("algo falló después");
    expect(inside).toBe(1);
    expect(await deliveriesOf(hook.endpoint.id)).toHaveLength(0);
    await runJobs();
    expect(requestsTo(hook.path)).toHaveLength(0);
  });

  it("500, 500, then 200: the same delivery id three times, three attempts in the log; replay sends it again with that id", async () => {
    const made = await producerWithEvent();
    const hook = await endpoint(made.ctx, made.organization.id, ["order.paid"], "reintentos");
    answers.set(hook.path, [500, 500]);
    const { billing } = await buy(made, 1);
    await payInSandbox(made.db, billing.id, "approved");
    const start = new Date();
    await runJobs(start);
    const [delivery] = await deliveriesOf(hook.endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: DELIVERY_ERRORS.status(500) });
    // Not due again until the backoff passes.
    await runJobs(start);
    expect(requestsTo(hook.path)).toHaveLength(1);
    const second = new Date(start.getTime() + backoffMs(1) + 1000);
    await runJobs(second);
    await runJobs(new Date(second.getTime() + backoffMs(2) + 1000));

    const requests = requestsTo(hook.path);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers["tribuna-webhook-id"]))).toEqual(new Set([delivery.id]));
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const r of requests) expectSigned(r, hook.secret, delivery.id);
    const { items } = await listWebhookDeliveries(made.ctx, { endpointId: hook.endpoint.id });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: delivery.id, status: "delivered", attempts: 3, lastStatusCode: 200, lastError: null, endpointUrl: hook.endpoint.url });
    expect(items[0].attemptLog.map((t) => [t.statusCode, t.replay])).toEqual([
      [500, false],
      [500, false],
      [200, false],
    ]);
    expect(items[0].attemptLog.every((t) => t.durationMs >= 0)).toBe(true);
    expect(items[0].attemptLog[0].error).toBe("No pudimos entregar el aviso: respondió HTTP 500.");

    // Replay: one more request, same id and body, logged as a replay.
    const replayed = await replayWebhookDelivery(made.ctx, { deliveryId: delivery.id });
    expect(replayed).toMatchObject({ id: delivery.id, status: "delivered", attempts: 4 });
    expect(replayed.attemptLog.at(-1)).toMatchObject({ statusCode: 200, replay: true });
    const after = requestsTo(hook.path);
    expect(after).toHaveLength(4);
    expect(after[3].headers["tribuna-webhook-id"]).toBe(delivery.id);
    expect(after[3].body).toBe(after[0].body);
    expectSigned(after[3], hook.secret, delivery.id);
  });

  it("a receiver that never answers 2xx: the last attempt marks the delivery failed; a network error is a failed attempt too", async () => {
    const made = await producerWithEvent();
    const hook = await endpoint(made.ctx, made.organization.id, ["order.paid"], "caido");
    const delivery = await saleWhoseDeliveryFails(made, hook);
    const [failed] = await deliveriesOf(hook.endpoint.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 503 });
    expect(failed.failedAt).not.toBeNull();
    const [job] = await made.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, WEBHOOK_DELIVERY_JOB), eq(jobs.payload, { deliveryId: delivery.id })));
    expect(job.failedAt).not.toBeNull();

    // Nobody listening on the port: a network error, logged without a status.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    testPorts.add(port);
    await updateWebhookEndpoint(made.ctx, { id: hook.endpoint.id, url: `http://127.0.0.1:${port}/nadie` });
    const replayed = await replayWebhookDelivery(made.ctx, { deliveryId: delivery.id });
    expect(replayed.status).toBe("failed");
    expect(replayed.attemptLog.at(-1)).toMatchObject({ statusCode: null, replay: true });
    // The same words as any failure before an answer: nothing about the refused port or the address.
    expect(replayed.attemptLog.at(-1)!.error).toBe("No pudimos entregar el aviso.");
    expect(replayed.lastError).toBe("No pudimos entregar el aviso.");
  });

  it("'Reintentar los fallidos': failed deliveries go back to the queue once (two clicks at once), keep their ids and are delivered when the receiver is back", async () => {
    const made = await producerWithEvent();
    const hook = await endpoint(made.ctx, made.organization.id, ["order.paid"], "vuelve");
    const delivery = await saleWhoseDeliveryFails(made, hook);
    expect((await deliveriesOf(hook.endpoint.id))[0].status).toBe("failed");
    const failedList = await listWebhookDeliveries(made.ctx, { organizationId: made.organization.id, status: "failed" });
    expect(failedList.items.map((d) => d.id)).toEqual([delivery.id]);

    const stranger = await createProducer();
    await expect(retryFailedWebhookDeliveries(stranger.ctx, { organizationId: made.organization.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const [first, second] = await Promise.all([
      retryFailedWebhookDeliveries(made.ctx, { organizationId: made.organization.id }),
      retryFailedWebhookDeliveries(made.ctx, { organizationId: made.organization.id, endpointId: hook.endpoint.id }),
    ]);
    expect(first.count + second.count).toBe(1);
    expect((await deliveriesOf(hook.endpoint.id))[0]).toMatchObject({ id: delivery.id, status: "pending", failedAt: null });

    answers.set(hook.path, [200]);
    const before = requestsTo(hook.path).length;
    await runJobs();
    const after = requestsTo(hook.path);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.headers["tribuna-webhook-id"]).toBe(delivery.id);
    expect((await deliveriesOf(hook.endpoint.id))[0]).toMatchObject({ id: delivery.id, status: "delivered" });
    expect(await retryFailedWebhookDeliveries(made.ctx, { organizationId: made.organization.id })).toEqual({ count: 0 });
  });

  it("a refund, a door redemption and a bank transfer approval each send their event", async () => {
    // Refund inside the withdrawal window.
    const made = await producerWithEvent({ days: 40 });
    const hook = await endpoint(made.ctx, made.organization.id, ["order.refunded", "ticket.redeemed"], "devoluciones");
    const { order, billing } = await buy(made, 1);
    await payInSandbox(made.db, billing.id, "approved");
    expect(await deliveriesOf(hook.endpoint.id)).toHaveLength(0);
    const refund = await requestRefund(await ctxAs(ANONYMOUS), { orderCode: order.code, email: PAYER.email, reason: "No puedo ir" });
    expect(refund.outcome).toBe("refunded");
    await runJobs();
    const [refunded] = await deliveriesOf(hook.endpoint.id);
    expect(refunded).toMatchObject({ eventType: "order.refunded", status: "delivered" });
    const refundBody = JSON.parse(requestsTo(hook.path)[0].body) as WebhookBody;
    expect(refundBody).toMatchObject({ type: "order.refunded", data: { orderCode: order.code, refundedAmount: billing.amount, buyer: { email: PAYER.email } } });
    expectSigned(requestsTo(hook.path)[0], hook.secret, refunded.id);

    // The door, tonight.
    const night = await producerWithEvent({ days: 0 });
    const door = await endpoint(night.ctx, night.organization.id, ["ticket.redeemed"], "puerta");
    const sold = await buy(night, 2);
    await payInSandbox(night.db, sold.billing.id, "approved");
    const tickets = await ticketsOfOrder(night.db, sold.order.id);
    const access: DoorAccess = {
      event: { id: night.event.id, organizationId: night.organization.id, name: night.event.name, slug: night.event.slug },
      userId: night.user.id,
      pinSessionId: null,
    };
    expect(await redeemAtDoor(night.ctx, access, { code: qrPayloadFor(tickets[0].code), door: "Puerta 2" })).toMatchObject({ outcome: "admitted" });
    // Scanned again: already in, no second event.
    expect(await redeemAtDoor(night.ctx, access, { code: qrPayloadFor(tickets[0].code), door: "Puerta 1" })).toMatchObject({ outcome: "already_in" });
    await runJobs();
    const redeemed = await deliveriesOf(door.endpoint.id);
    expect(redeemed).toHaveLength(1);
    const doorBody = JSON.parse(requestsTo(door.path)[0].body) as WebhookBody;
    expect(doorBody).toMatchObject({
      type: "ticket.redeemed",
      organizationId: night.organization.id,
      data: {
        ticketCode: tickets[0].code,
        orderCode: sold.order.code,
        ticketType: "General",
        holder: { name: "Ana Gómez", email: PAYER.email },
        door: "Puerta 2",
        event: { id: night.event.id },
      },
    });
    expect(Date.parse(String(doorBody.data.redeemedAt))).not.toBeNaN();
    // General admission: no seat.
    expect(doorBody.data.seat).toBeNull();
    expectSigned(requestsTo(door.path)[0], door.secret, redeemed[0].id);

    // A numbered seat: the event says where the person sits.
    const seated = await createSeatedEvent({ days: 0 });
    const seatHook = await endpoint(seated.ctx, seated.organization.id, ["ticket.redeemed"], "puerta-con-asiento");
    const [seatTicket] = (await buyPaid(seated, { seats: ["F12"] })).tickets;
    const seatedAccess: DoorAccess = {
      event: { id: seated.event.id, organizationId: seated.organization.id, name: seated.event.name, slug: seated.event.slug },
      userId: seated.user.id,
      pinSessionId: null,
    };
    expect(await redeemAtDoor(seated.ctx, seatedAccess, { code: qrPayloadFor(seatTicket.code), door: "Puerta 1" })).toMatchObject({ outcome: "admitted" });
    await runJobs();
    const seatBody = JSON.parse(requestsTo(seatHook.path)[0].body) as WebhookBody;
    expect(seatBody).toMatchObject({ type: "ticket.redeemed", data: { ticketCode: seatTicket.code, ticketType: "Platea" } });
    expect(seatBody.data.seat).toEqual({ section: "Platea", row: "F", number: "12", label: "Platea · Fila F · Asiento 12" });

    // A bank transfer the organizer approves: bank_transfer.approved and order.paid.
    const transfer = await producerWithEvent({ bankTransfer: true });
    const bank = await endpoint(transfer.ctx, transfer.organization.id, ["bank_transfer.approved", "order.paid"], "transferencias");
    const pending = await buy(transfer, 1, "BANK_TRANSFER");
    await runJobs();
    expect(requestsTo(bank.path)).toHaveLength(0);
    const approved = await approveBankTransfer(transfer.ctx, { billingId: pending.billing.id });
    expect(approved.outcome).toBe("approved");
    await runJobs();
    const bodies = requestsTo(bank.path).map((r) => JSON.parse(r.body) as WebhookBody);
    expect(bodies.map((b) => b.type).sort()).toEqual(["bank_transfer.approved", "order.paid"]);
    expect(bodies.find((b) => b.type === "bank_transfer.approved")).toMatchObject({
      data: { orderCode: pending.order.code, billingId: pending.billing.id, amount: pending.billing.amount, currency: "ARS", buyer: { email: PAYER.email } },
    });
    expect(bodies.find((b) => b.type === "order.paid")).toMatchObject({ data: { paymentMethod: "BANK_TRANSFER" } });
  });

  it("rotate: a new secret signs from then on; delete stops everything", async () => {
    const made = await producerWithEvent();
    const hook = await endpoint(made.ctx, made.organization.id, ["order.paid"], "rotar");
    const rotated = await rotateWebhookSecret(made.ctx, { id: hook.endpoint.id });
    expect(rotated.secret).not.toBe(hook.secret);
    const { billing } = await buy(made, 1);
    await payInSandbox(made.db, billing.id, "approved");
    await runJobs();
    const [request] = requestsTo(hook.path);
    const [delivery] = await deliveriesOf(hook.endpoint.id);
    expectSigned(request, rotated.secret, delivery.id);
    expect(verifyWebhookSignature(hook.secret, String(request.headers["tribuna-webhook-timestamp"]), String(request.headers["tribuna-signature"]), request.body, new Date())).toBe(
      false
    );

    expect(await deleteWebhookEndpoint(made.ctx, { id: hook.endpoint.id })).toBe(true);
    expect(await listWebhookEndpoints(made.ctx, made.organization.id)).toEqual([]);
    expect(await made.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id))).toEqual([]);
    expect(
      await made.db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, [delivery.id]))
    ).toEqual([]);
  });

  it("another organization's owner is FORBIDDEN on every function; anonymous is UNAUTHENTICATED", async () => {
    const made = await producerWithEvent();
    const hook = await endpoint(made.ctx, made.organization.id, ["order.paid"], "ajeno");
    const { billing } = await buy(made, 1);
    await payInSandbox(made.db, billing.id, "approved");
    const [delivery] = await deliveriesOf(hook.endpoint.id);
    const other = await createProducer();
    const calls: [string, (ctx: Ctx) => Promise<unknown>][] = [
      ["list", (ctx) => listWebhookEndpoints(ctx, made.organization.id)],
      ["get", (ctx) => getWebhookEndpoint(ctx, hook.endpoint.id)],
      ["create", (ctx) => createWebhookEndpoint(ctx, { organizationId: made.organization.id, url: "https://ajeno.example.com/hook", events: ["order.paid"] })],
      ["update", (ctx) => updateWebhookEndpoint(ctx, { id: hook.endpoint.id, active: false })],
      ["rotate", (ctx) => rotateWebhookSecret(ctx, { id: hook.endpoint.id })],
      ["delete", (ctx) => deleteWebhookEndpoint(ctx, { id: hook.endpoint.id })],
      ["deliveries of the endpoint", (ctx) => listWebhookDeliveries(ctx, { endpointId: hook.endpoint.id })],
      ["deliveries of the organization", (ctx) => listWebhookDeliveries(ctx, { organizationId: made.organization.id })],
      ["replay", (ctx) => replayWebhookDelivery(ctx, { deliveryId: delivery.id })],
    ];
    const anonymous = await ctxAs(ANONYMOUS);
    for (const [name, call] of calls) {
      await expect(call(other.ctx), name).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(call(anonymous), name).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    }
    // A plain member without organization:manage (an operator) is refused too.
    const operator = await createTestUser();
    const { memberships } = await import("#server/db/schema");
    await made.db.insert(memberships).values({ organizationId: made.organization.id, userId: operator.id, role: "operator" });
    await expect(listWebhookEndpoints(await ctxAs(actorFor({ ...operator, roles: ["producer"] })), made.organization.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Nothing changed, nothing was sent by the replays.
    const [row] = await made.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.endpoint.id));
    expect(row.active).toBe(true);
    expect(decryptWebhookSecret(row.secretEncrypted)).toBe(hook.secret);
    const [after] = await deliveriesOf(hook.endpoint.id);
    expect(after.attempts).toBe(0);
  });

  it("URLs: https to a public address only; a Spanish field error otherwise, also for internal names and literal private IPs in any notation", async () => {
    const made = await producerWithEvent();
    const create = (url: string, events: string[] = ["order.paid"]) => createWebhookEndpoint(made.ctx, { organizationId: made.organization.id, url, description: "", events });
    await expect(create("http://example.com/hooks")).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { url: [WEBHOOK_MESSAGES.urlHttps] } });
    await expect(create("ftp://example.com/hooks")).rejects.toMatchObject({ fieldErrors: { url: [WEBHOOK_MESSAGES.urlInvalid] } });
    await expect(create("no es una url")).rejects.toMatchObject({ fieldErrors: { url: [WEBHOOK_MESSAGES.urlInvalid] } });
    await expect(create("https://example.com/hooks", [])).rejects.toMatchObject({ fieldErrors: { events: [WEBHOOK_MESSAGES.eventsRequired] } });
    await expect(create("https://example.com/hooks", ["order.created"])).rejects.toMatchObject({ fieldErrors: { events: [WEBHOOK_MESSAGES.eventsRequired] } });
    const ok = await create("https://example.com/hooks", ["ticket.redeemed", "order.paid", "order.paid"]);
    expect(ok.endpoint.events).toEqual(["order.paid", "ticket.redeemed"]);
    await expect(updateWebhookEndpoint(made.ctx, { id: ok.endpoint.id, url: "http://10.0.0.5/x" })).rejects.toMatchObject({ fieldErrors: { url: [WEBHOOK_MESSAGES.urlHttps] } });
    await expect(updateWebhookEndpoint(made.ctx, { id: ok.endpoint.id, url: "https://10.0.0.5/x" })).rejects.toMatchObject({ fieldErrors: { url: [WEBHOOK_MESSAGES.urlPrivate] } });

    // http:// is no longer a way in on a developer's machine either: only a test's own receiver gets it.
    expect(webhookUrlProblem("http://localhost:3000/hooks")).toBe(WEBHOOK_MESSAGES.urlHttps);
    for (const url of [
      "https://localhost/hooks",
      "https://localhost./hooks",
      "https://app.localhost/hooks",
      "https://metadata.google.internal/computeMetadata/v1/",
      "https://intranet/hooks",
      "https://192.168.0.10/hooks",
      "https://2130706433/hooks",
      "https://0x7f.1/hooks",
      "https://0177.0.0.1/hooks",
      "https://169.254.169.254/latest/meta-data/",
      "https://100.64.0.1/hooks",
      "https://198.18.0.1/hooks",
      "https://[::1]/hooks",
      "https://[::]/hooks",
      "https://[::ffff:127.0.0.1]/hooks",
      "https://[::ffff:a9fe:a9fe]/hooks",
      "https://[::10.0.0.1]/hooks",
      "https://[fec0::1]/hooks",
      "https://[fd00::1]/hooks",
      "https://[fe80::1]/hooks",
    ]) {
      expect(webhookUrlProblem(url), url).toBe(WEBHOOK_MESSAGES.urlPrivate);
    }
    expect(webhookUrlProblem("https://hooks.integrador.com.ar/tribuna")).toBeNull();
    expect(webhookUrlProblem("https://8.8.8.8/tribuna")).toBeNull();
    expect(webhookUrlProblem("https://[2606:4700::1111]/tribuna")).toBeNull();
  });

  it("a name whose DNS answer is private: refused when saving, and refused again when sending after the answer changed (rebinding), before any connection", async () => {
    const made = await producerWithEvent();
    // Something listening where the private answer points: it must never see a connection.
    let connections = 0;
    const inside = http.createServer((_req, res) => res.end("interno"));
    inside.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => inside.listen(0, "127.0.0.1", resolve));
    const insidePort = (inside.address() as AddressInfo).port;
    const answers = new Map<string, string[]>([
      ["127.0.0.1.nip.io", ["127.0.0.1"]],
      ["rebind.integrador.example", ["93.184.215.14"]],
      ["mixto.integrador.example", ["93.184.215.14", "10.1.2.3"]],
    ]);
    const asked: string[] = [];
    const allowReceiver = (address: string, to: number) => address === "127.0.0.1" && to === Number(new URL(base).port);
    setOutgoingTestPolicy({
      allow: allowReceiver,
      lookup: async (hostname) => {
        asked.push(hostname);
        return (answers.get(hostname) ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as const);
      },
    });
    try {
      const create = (url: string) => createWebhookEndpoint(made.ctx, { organizationId: made.organization.id, url, events: ["order.paid"] });
      await expect(create(`https://127.0.0.1.nip.io:${insidePort}/hooks`)).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { url: [WEBHOOK_MESSAGES.urlPrivate] } });
      // One private answer among public ones is enough to refuse: the connection could pick it.
      await expect(create(`https://mixto.integrador.example:${insidePort}/hooks`)).rejects.toMatchObject({ fieldErrors: { url: [WEBHOOK_MESSAGES.urlPrivate] } });
      const saved = await create(`http://rebind.integrador.example:${insidePort}/hooks`).catch((e: unknown) => e);
      // http:// to a name is refused whatever it resolves to; https is saved (the answer is public now).
      expect(saved).toMatchObject({ fieldErrors: { url: [WEBHOOK_MESSAGES.urlHttps] } });
      const hook = await create(`https://rebind.integrador.example:${insidePort}/hooks`);
      expect(asked).toContain("rebind.integrador.example");

      // Now the name points inside.
      answers.set("rebind.integrador.example", ["127.0.0.1"]);
      const { billing } = await buy(made, 1);
      await payInSandbox(made.db, billing.id, "approved");
      await runJobs();
      const [delivery] = await deliveriesOf(hook.endpoint.id);
      expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null, lastError: DELIVERY_ERRORS.failed });
      const replayed = await replayWebhookDelivery(made.ctx, { deliveryId: delivery.id });
      expect(replayed.attemptLog.map((a) => a.error)).toEqual([DELIVERY_ERRORS.failed, DELIVERY_ERRORS.failed]);
      expect(JSON.stringify(replayed.attemptLog)).not.toMatch(/127\.0\.0\.1|ECONN|privad|interna/i);
      expect(connections).toBe(0);
    } finally {
      setOutgoingTestPolicy({ allow: (address, to) => allowReceiver(address, to) || (address === "127.0.0.1" && testPorts.has(to)) });
      await new Promise<void>((resolve) => inside.close(() => resolve()));
    }
  });
});

describe("verifyWebhookSignature", () => {
  it("accepts the v1 HMAC of timestamp.body within the tolerance, with several signatures in the header", () => {
    const secret = "whsec_prueba";
    const body = '{"id":"x"}';
    const now = new Date("2026-03-01T12:00:00Z");
    const ts = Math.floor(now.getTime() / 1000);
    const sig = webhookSignature(secret, ts, body);
    expect(verifyWebhookSignature(secret, String(ts), `v1=${sig}`, body, now)).toBe(true);
    expect(verifyWebhookSignature(secret, String(ts), `v1=${"0".repeat(64)}, v1=${sig}`, body, now)).toBe(true);
    expect(verifyWebhookSignature(secret, String(ts - 299), `v1=${webhookSignature(secret, ts - 299, body)}`, body, now)).toBe(true);
    expect(verifyWebhookSignature(secret, String(ts - 301), `v1=${webhookSignature(secret, ts - 301, body)}`, body, now)).toBe(false);
    expect(verifyWebhookSignature(secret, String(ts), `v0=${sig}`, body, now)).toBe(false);
    expect(verifyWebhookSignature(secret, "mañana", `v1=${sig}`, body, now)).toBe(false);
    expect(verifyWebhookSignature(secret, String(ts), null, body, now)).toBe(false);
    expect(verifyWebhookSignature(secret, String(ts), "v1=corta", body, now)).toBe(false);
  });
});

describe("deliveryErrorForOwner", () => {
  it("shows errors logged before decision 151 without their network detail", () => {
    expect(deliveryErrorForOwner("No pudimos conectarnos: ECONNREFUSED")).toBe(DELIVERY_ERRORS.failed);
    expect(deliveryErrorForOwner("No pudimos conectarnos: connect EHOSTUNREACH 10.0.0.5:22")).toBe(DELIVERY_ERRORS.failed);
    expect(deliveryErrorForOwner("No respondió en 10 segundos")).toBe(DELIVERY_ERRORS.failed);
    expect(deliveryErrorForOwner("Respondió HTTP 502")).toBe(DELIVERY_ERRORS.status(502));
    expect(deliveryErrorForOwner(DELIVERY_ERRORS.status(500))).toBe("No pudimos entregar el aviso: respondió HTTP 500.");
    expect(deliveryErrorForOwner("El webhook estaba pausado")).toBe("El webhook estaba pausado");
    expect(deliveryErrorForOwner(null)).toBeNull();
  });
});
