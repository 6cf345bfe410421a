import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER } from "#server/auth/request-auth";
import { getDb } from "#server/db/client";
import { billings, jobs, paymentNotifications } from "#server/db/schema";
import { SandboxProvider } from "#server/payments/sandbox-provider";
import { buildSignedNotification } from "#server/payment-notifications/sandbox";
import { signNotification, webhookSecret } from "#server/payments/signature";
import {
  MAX_NOTIFICATION_BYTES,
  PRUNE_NOTIFICATIONS_JOB,
  pruneRefusedNotifications,
  REFUSED_BODY_PREFIX,
  REFUSED_PER_ADDRESS,
  REFUSED_RETENTION_DAYS,
  schedulePruning,
} from "#server/payment-notifications/webhook";
import { createPendingOrder } from "#tests/support/factories";
import { BASE_URL } from "#tests/support/remix";
import { randomTag, RUN_TAG } from "#tests/support/random";
import { action } from "./api.webhooks.mercadopago";

/**
 * The webhook's door (decision 23): replays, junk and floods are refused before
 * they cost anything. Real route, real database; the sandbox signs as
 * Mercado Pago would.
 */
async function pendingBilling() {
  const { billing } = await createPendingOrder();
  const db = await getDb();
  const payment = await new SandboxProvider(db).recordPayment(billing, "approved");
  return { db, billing, payment };
}

/** An address of its own per test (the database outlives runs; rate limits are per address). */
const uniqueIp = () => `prueba-${RUN_TAG}-${randomTag(8)}`;

function deliver(body: string, headers: Record<string, string>, ip: string) {
  const request = new Request(`${BASE_URL}/api/webhooks/mercadopago`, {
    method: "POST",
    headers: { "content-type": "application/json", [CLIENT_IP_HEADER]: ip, ...headers },
    body,
  });
  return action({ request, params: {}, context: {} });
}

/** The genuine delivery for `paymentId`, signed at `at`. */
function signedAt(paymentId: string, at: Date) {
  const n = buildSignedNotification(paymentId, at);
  return { body: JSON.stringify(n.body), headers: n.headers as Record<string, string> };
}

describe("POST /api/webhooks/mercadopago", () => {
  it("refuses a correctly signed delivery whose ts is an hour old or an hour ahead, in seconds or milliseconds; accepts a fresh one", async () => {
    const { db, billing, payment } = await pendingBilling();
    const ip = uniqueIp();
    for (const offset of [-3600_000, 3600_000, -6 * 60_000]) {
      const old = signedAt(payment.id, new Date(Date.now() + offset));
      const response = await deliver(old.body, old.headers, ip);
      expect(response.status, `offset ${offset}`).toBe(401);
    }
    // The same, with the ts in milliseconds (as Mercado Pago's deliveries have carried it).
    const secret = webhookSecret()!;
    const requestId = crypto.randomUUID();
    const hourAgoMs = String(Date.now() - 3600_000);
    const ms = await deliver(JSON.stringify({ type: "payment", data: { id: payment.id } }), { "x-request-id": requestId, "x-signature": signNotification(secret, { dataId: payment.id, requestId, ts: hourAgoMs }) }, ip);
    expect(ms.status).toBe(401);
    let [row] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect(row.status).toBe("pending");
    const stale = await db.select().from(paymentNotifications).where(eq(paymentNotifications.remoteAddress, ip));
    expect(stale.map((n) => n.outcome)).toEqual(["stale", "stale", "stale", "stale"]);

    // Within the 5 minutes, either way, it goes through (milliseconds too).
    const fresh = signedAt(payment.id, new Date(Date.now() - 2 * 60_000));
    expect((await deliver(fresh.body, fresh.headers, ip)).status).toBe(200);
    [row] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect(row.status).toBe("approved");
  });

  it("answers 413 to a body over 64 KB without reading it whole, and stores nothing", async () => {
    const ip = uniqueIp();
    const huge = JSON.stringify({ type: "payment", data: { id: "1" }, junk: "x".repeat(MAX_NOTIFICATION_BYTES) });
    const response = await deliver(huge, {}, ip);
    expect(response.status).toBe(413);
    const db = await getDb();
    expect(await db.select().from(paymentNotifications).where(eq(paymentNotifications.remoteAddress, ip))).toHaveLength(0);
  });

  it("logs a forged delivery without its body (only the start), and past 30 per address answers 429 and stores nothing more", async () => {
    const db = await getDb();
    const ip = uniqueIp();
    const junk = JSON.stringify({ type: "payment", data: { id: "42" }, junk: "ñ".repeat(20_000), nul: "a\u0000b" });
    const forged = { "x-request-id": "r", "x-signature": `ts=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` };
    const first = await deliver(junk, forged, ip);
    expect(first.status).toBe(401);
    expect(await first.text()).toBe("Firma inválida o vencida");
    const [logged] = await db.select().from(paymentNotifications).where(eq(paymentNotifications.remoteAddress, ip));
    expect(logged).toMatchObject({ signatureValid: false, outcome: "forged", body: null, dataId: "42" });
    expect(logged.bodyPrefix).toBe(junk.slice(0, REFUSED_BODY_PREFIX));

    for (let i = 1; i < REFUSED_PER_ADDRESS; i++) expect((await deliver("{}", forged, ip)).status).toBe(401);
    const flooded = await deliver("{}", forged, ip);
    expect(flooded.status).toBe(429);
    expect(await db.select().from(paymentNotifications).where(eq(paymentNotifications.remoteAddress, ip))).toHaveLength(REFUSED_PER_ADDRESS);
    // Another address is not affected.
    expect((await deliver("{}", forged, uniqueIp())).status).toBe(401);
  });

  it("keeps refused deliveries 30 days: the daily job deletes older ones, never accepted ones, and schedules itself once", async () => {
    const db = await getDb();
    const ip = uniqueIp();
    const now = new Date();
    const old = new Date(now.getTime() - (REFUSED_RETENTION_DAYS + 1) * 24 * 3600_000);
    await db.insert(paymentNotifications).values([
      { provider: "mercadopago", signatureValid: false, outcome: "forged", remoteAddress: ip, receivedAt: old },
      { provider: "mercadopago", signatureValid: true, outcome: "approved", remoteAddress: ip, receivedAt: old },
      { provider: "mercadopago", signatureValid: false, outcome: "forged", remoteAddress: ip, receivedAt: now },
    ]);
    expect(await pruneRefusedNotifications(db, now)).toBeGreaterThanOrEqual(1);
    const left = await db.select().from(paymentNotifications).where(eq(paymentNotifications.remoteAddress, ip));
    expect(left.map((n) => [n.signatureValid, n.receivedAt.getTime() === now.getTime()]).sort()).toEqual([
      [false, true],
      [true, false],
    ]);
    await schedulePruning(db, now);
    await schedulePruning(db, now);
    const pending = (await db.select().from(jobs).where(eq(jobs.kind, PRUNE_NOTIFICATIONS_JOB))).filter((j) => !j.doneAt && !j.failedAt && !j.lockedAt);
    expect(pending).toHaveLength(1);
  });
});
