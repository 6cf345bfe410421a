import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { setOutgoingTestPolicy } from "#server/http/safe-destination";
import { memberships, webhookEndpoints } from "#server/db/schema";
import { jobHandlers } from "#server/worker/handlers";
import { runDueJobs } from "#server/jobs/queue";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { decryptWebhookSecret } from "#server/webhooks/deliveries";
import { WEBHOOK_MESSAGES } from "#common/webhooks";
import { createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as webhooks from "./organizacion.webhooks";

const PATH = "/organizacion/webhooks";
const hits: string[] = [];
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits.push(String(req.headers["tribuna-webhook-id"]));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  // This receiver, and only it, is let through although it is not a public address (server/http/safe-destination.ts).
  setOutgoingTestPolicy({ allow: (address, to) => address === "127.0.0.1" && to === port });
});

afterAll(async () => {
  setOutgoingTestPolicy(null);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("/organizacion/webhooks", () => {
  it("adds an endpoint with the form (secret shown once), refuses http to another host, pauses, rotates, replays and deletes", async () => {
    const made = await createEventWithTickets();
    const cookies = await sessionCookiesFor(made.user.id);

    const bad = await run(
      webhooks.action,
      formRequest(PATH, { intent: "create", url: "http://example.com/hook", description: "Mi sistema", "evento-order-paid": "on" }, { cookies })
    );
    expect(bad.status).toBe(400);
    expect(bad.data.target).toBe("create");
    expect(bad.data.errors.url).toEqual([WEBHOOK_MESSAGES.urlHttps]);
    expect(bad.data.values).toMatchObject({ description: "Mi sistema", "evento-order-paid": "on" });

    const none = await run(webhooks.action, formRequest(PATH, { intent: "create", url: "https://example.com/hook" }, { cookies }));
    expect(none.status).toBe(400);
    expect(none.data.errors.events).toEqual([WEBHOOK_MESSAGES.eventsRequired]);

    const created = await run(
      webhooks.action,
      formRequest(PATH, { intent: "create", url: `${base}/tribuna`, description: "Mi sistema", "evento-order-paid": "on", "evento-ticket-redeemed": "on" }, { cookies })
    );
    expect(created.status).toBe(200);
    expect(created.data.snackbar).toEqual({ type: "success", message: WEBHOOK_MESSAGES.created });
    const secret = created.data.secret.value as string;
    expect(secret).toMatch(/^whsec_/);
    const db = await getDb();
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, made.organization.id));
    expect(decryptWebhookSecret(row.secretEncrypted)).toBe(secret);
    expect(row.events).toEqual(["order.paid", "ticket.redeemed"]);

    const page = await run(webhooks.loader, getRequest(PATH, { cookies }));
    expect(page.status).toBe(200);
    expect(page.data.endpoints).toEqual([
      expect.objectContaining({ id: row.id, url: `${base}/tribuna`, description: "Mi sistema", active: true, events: ["order.paid", "ticket.redeemed"] }),
    ]);
    expect(JSON.stringify(page.data)).not.toContain(secret);
    expect(page.data.deliveries).toEqual([]);

    // A sale: one delivery, sent by the queue, listed with its attempt.
    const { billing } = await createOrder(await ctxAs(), {
      eventSlug: made.event.slug,
      items: [{ ticketId: made.tickets.General.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(db, billing.id, "approved");
    await runDueJobs(db, jobHandlers, new Date(), 1000);
    const withDelivery = await run(webhooks.loader, getRequest(PATH, { cookies }));
    const [delivery] = withDelivery.data.deliveries;
    expect(delivery).toMatchObject({ eventType: "order.paid", status: "delivered", attempts: 1, lastStatusCode: 200 });
    expect(delivery.attemptLog).toHaveLength(1);
    expect(hits).toEqual([delivery.id]);

    const replayed = await run(webhooks.action, formRequest(PATH, { intent: "replay", deliveryId: delivery.id }, { cookies }));
    expect(replayed.status).toBe(302);
    expect(hits).toEqual([delivery.id, delivery.id]);
    const afterReplay = await run(webhooks.loader, getRequest(PATH, { cookies }));
    expect(afterReplay.data.deliveries[0].attemptLog.map((a: { replay: boolean }) => a.replay)).toEqual([false, true]);

    const paused = await run(webhooks.action, formRequest(PATH, { intent: "pause", endpointId: row.id }, { cookies }));
    expect(paused.status).toBe(302);
    expect((await run(webhooks.loader, getRequest(PATH, { cookies }))).data.endpoints[0].active).toBe(false);
    await run(webhooks.action, formRequest(PATH, { intent: "resume", endpointId: row.id }, { cookies }));
    expect((await run(webhooks.loader, getRequest(PATH, { cookies }))).data.endpoints[0].active).toBe(true);

    const rotated = await run(webhooks.action, formRequest(PATH, { intent: "rotate", endpointId: row.id }, { cookies }));
    expect(rotated.status).toBe(200);
    expect(rotated.data.secret.value).not.toBe(secret);
    expect(rotated.data.snackbar.message).toBe(WEBHOOK_MESSAGES.rotated);

    // Editing from the page: a bad URL keeps the form open with its error; a good one saves URL, description and events.
    const badEdit = await run(webhooks.action, formRequest(PATH, { intent: "update", endpointId: row.id, url: "http://example.com/otro", "evento-order-paid": "on" }, { cookies }));
    expect(badEdit.status).toBe(400);
    expect(badEdit.data.target).toBe(`edit-${row.id}`);
    expect(badEdit.data.errors.url).toEqual([WEBHOOK_MESSAGES.urlHttps]);
    const edited = await run(
      webhooks.action,
      formRequest(PATH, { intent: "update", endpointId: row.id, url: `${base}/tribuna-v2`, description: "Acreditaciones", "evento-order-refunded": "on" }, { cookies }),
    );
    expect(edited.status).toBe(302);
    expect((await run(webhooks.loader, getRequest(PATH, { cookies }))).data.endpoints[0]).toMatchObject({ url: `${base}/tribuna-v2`, description: "Acreditaciones", events: ["order.refunded"] });

    // Nothing failed: the bulk retry says so and the page offers no button.
    expect((await run(webhooks.loader, getRequest(PATH, { cookies }))).data.failedDeliveries).toBe(0);
    const retried = await run(webhooks.action, formRequest(PATH, { intent: "retry-failed" }, { cookies }));
    expect(retried.status).toBe(302);

    const deleted = await run(webhooks.action, formRequest(PATH, { intent: "delete", endpointId: row.id }, { cookies }));
    expect(deleted.status).toBe(302);
    expect((await run(webhooks.loader, getRequest(PATH, { cookies }))).data.endpoints).toEqual([]);
  });

  it("is for owners and admins only; another organization's endpoint is refused", async () => {
    const made = await createEventWithTickets();
    const operator = await createTestUser();
    const db = await getDb();
    await db.insert(memberships).values({ organizationId: made.organization.id, userId: operator.id, role: "operator" });
    const operatorPage = await run(webhooks.loader, getRequest(PATH, { cookies: await sessionCookiesFor(operator.id) }));
    expect(operatorPage.status).toBe(403);

    const owner = await sessionCookiesFor(made.user.id);
    const created = await run(webhooks.action, formRequest(PATH, { intent: "create", url: "https://example.com/hook", "evento-order-refunded": "on" }, { cookies: owner }));
    expect(created.status).toBe(200);
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, made.organization.id));
    const stranger = await createEventWithTickets();
    const deleted = await run(webhooks.action, formRequest(PATH, { intent: "delete", endpointId: row.id }, { cookies: await sessionCookiesFor(stranger.user.id) }));
    expect(deleted.status).toBe(403);
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.id))).toHaveLength(1);
  });
});
