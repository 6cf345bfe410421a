import type { BillingRow, OrderRow, WebhookDeliveryRow, WebhookEndpointRow } from "#server/db/schema";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "#server/db/client";
import { eventDates, events, issuedProducts, orders, ticketTypes, webhookAttempts, webhookDeliveries, webhookEndpoints } from "#server/db/schema";
import { decryptSecret, encryptSecret, type SecretPurpose } from "#server/auth/encryption";
import { enqueue } from "#server/jobs/queue";
import { PublicRequestError, requestPublicUrl } from "#server/http/safe-destination";
import { WEBHOOK_TIMEOUT_SECONDS, type WebhookEventType } from "#common/webhooks";
import { ticketSeat } from "#common/seating";

/**
 * Outgoing webhooks (docs/webhooks.md, decision 110). A domain change calls
 * one `record…` function inside its own transaction: one delivery per active
 * endpoint of the organization that wants the event, and one job per
 * delivery, so a rolled-back change sends nothing and a committed one always
 * sends. The job (`deliverWebhook`) POSTs the body, signed, and throws on a
 * failed attempt so the queue retries it with backoff; every attempt lands in
 * `webhook_attempts`. The delivery id is the `Tribuna-Webhook-Id` of every
 * attempt and replay: integrators dedupe on it.
 */

/** Job kind that sends one delivery (payload `{ deliveryId }`). */
export const WEBHOOK_DELIVERY_JOB = "webhook-delivery";

/** Signing secrets are encrypted at rest with their own key (server/auth/encryption.ts). */
const SECRETS: SecretPurpose = "webhook-secrets";

export function encryptWebhookSecret(plain: string): string {
  return encryptSecret(plain, SECRETS);
}

export function decryptWebhookSecret(stored: string): string {
  return decryptSecret(stored, SECRETS);
}

/** A new signing secret: `whsec_` and 32 random bytes (base64url). The whole string is the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64url")}`;
}

// ───────────────────────── Signing ─────────────────────────

/** Hex HMAC-SHA256 of `{timestamp}.{raw body}` with the endpoint's secret. */
export function webhookSignature(secret: string, timestamp: number | string, rawBody: string): string {
  return crypto.createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
}

/** The headers of one attempt (the timestamp is the attempt's, so a retry is signed anew). */
export function webhookHeaders(secret: string, deliveryId: string, rawBody: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "Content-Type": "application/json",
    "User-Agent": "Tribuna-Webhooks/1",
    "Tribuna-Webhook-Id": deliveryId,
    "Tribuna-Webhook-Timestamp": String(timestamp),
    "Tribuna-Signature": `v1=${webhookSignature(secret, timestamp, rawBody)}`,
  };
}

/**
 * What an integrator runs on each request: true when `Tribuna-Signature`
 * carries a `v1=` HMAC of `{timestamp}.{rawBody}` made with `secret` and the
 * timestamp is within `toleranceSeconds` of `now` (replays of an old request
 * fail). Compares in constant time. `rawBody` must be the bytes received,
 * before any JSON parsing.
 */
export function verifyWebhookSignature(
  secret: string,
  timestampHeader: string | null | undefined,
  signatureHeader: string | null | undefined,
  rawBody: string,
  now: Date | number = Date.now(),
  toleranceSeconds = 300
): boolean {
  if (!secret || !timestampHeader || !signatureHeader || !/^\d{1,12}$/.test(timestampHeader.trim())) return false;
  const timestamp = Number(timestampHeader.trim());
  const nowSeconds = Math.floor((now instanceof Date ? now.getTime() : now) / 1000);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(webhookSignature(secret, timestamp, rawBody), "hex");
  return signatureHeader.split(",").some((part) => {
    const [scheme, value] = part.trim().split("=", 2);
    if (scheme !== "v1" || !value || !/^[0-9a-f]{64}$/i.test(value)) return false;
    return crypto.timingSafeEqual(Buffer.from(value, "hex"), expected);
  });
}

// ───────────────────────── Recording events ─────────────────────────

export interface WebhookBody {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  organizationId: string;
  data: Record<string, unknown>;
}

/**
 * One delivery (and its job) per active endpoint of the organization that
 * wants `type`, in `tx`. `data` is built only when someone listens, so an
 * organization without webhooks pays one indexed query per event.
 */
export async function recordWebhookEvent(
  tx: DbOrTx,
  organizationId: string,
  type: WebhookEventType,
  now: Date,
  data: () => Promise<Record<string, unknown> | null>
): Promise<WebhookDeliveryRow[]> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, organizationId), eq(webhookEndpoints.active, true), sql`${type} = any(${webhookEndpoints.events})`));
  if (!endpoints.length) return [];
  const payload = await data();
  if (!payload) return [];
  const rows = endpoints.map((endpoint) => {
    const id = crypto.randomUUID();
    const body: WebhookBody = { id, type, createdAt: now.toISOString(), organizationId, data: payload };
    return { id, endpointId: endpoint.id, organizationId, eventType: type, body: JSON.stringify(body), createdAt: now, updatedAt: now };
  });
  const deliveries = await tx.insert(webhookDeliveries).values(rows).returning();
  for (const delivery of deliveries) await enqueue(tx, WEBHOOK_DELIVERY_JOB, { deliveryId: delivery.id }, now);
  return deliveries;
}

async function eventOf(tx: DbOrTx, eventDateId: string) {
  const [row] = await tx
    .select({ id: events.id, name: events.name, slug: events.slug, startsAt: eventDates.startsAt })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .where(eq(eventDates.id, eventDateId));
  return row ? { id: row.id, name: row.name, slug: row.slug, startsAt: row.startsAt.toISOString() } : null;
}

function buyerOf(order: OrderRow) {
  return { email: order.payer.email, name: `${order.payer.firstName} ${order.payer.lastName}`.trim() };
}

function amountsOf(order: OrderRow) {
  return { currency: "ARS", subtotal: order.subtotal, serviceFee: order.serviceFee, discount: order.discount, total: order.total };
}

async function orderData(tx: DbOrTx, order: OrderRow) {
  return { orderCode: order.code, paymentMethod: order.paymentMethod, event: await eventOf(tx, order.eventDateId), amounts: amountsOf(order), buyer: buyerOf(order) };
}

/**
 * `order.paid`: called by the order lifecycle's onPaid, the step every paid order goes
 * through (provider approval, bank transfer, free order, a promoter's sale in
 * hand). Gift orders (invitations) are not sales: skipped.
 */
export async function recordOrderPaid(tx: DbOrTx, order: OrderRow, now: Date) {
  if (order.gift) return [];
  return recordWebhookEvent(tx, order.organizationId, "order.paid", now, () => orderData(tx, order));
}

/** `order.refunded`: called by the order lifecycle's onRefunded (withdrawal, organizer's approval, refund made at the provider). */
export async function recordOrderRefunded(tx: DbOrTx, order: OrderRow, billing: BillingRow, now: Date) {
  return recordWebhookEvent(tx, order.organizationId, "order.refunded", now, async () => ({ ...(await orderData(tx, order)), refundedAmount: billing.amount }));
}

/** `bank_transfer.approved`: called by the order lifecycle's onPaid, where a billing becomes approved; only bank transfers produce it. */
export async function recordBankTransferApproved(tx: DbOrTx, billing: BillingRow, now: Date) {
  if (billing.provider !== "bank_transfer") return [];
  const [order] = await tx.select().from(orders).where(eq(orders.id, billing.orderId));
  if (!order) return [];
  return recordWebhookEvent(tx, order.organizationId, "bank_transfer.approved", now, async () => ({
    orderCode: order.code,
    billingId: billing.id,
    amount: billing.amount,
    currency: "ARS",
    event: await eventOf(tx, order.eventDateId),
    buyer: buyerOf(order),
  }));
}

/** `ticket.redeemed`: called by redeemAtDoor when its conditional UPDATE let a ticket in (menu items served at the bar are not tickets: skipped). */
export async function recordTicketRedeemed(tx: DbOrTx, issuedProductId: string, now: Date) {
  const [row] = await tx
    .select({ ticket: issuedProducts, kind: ticketTypes.kind, ticketType: ticketTypes.name, order: orders })
    .from(issuedProducts)
    .innerJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .where(eq(issuedProducts.id, issuedProductId));
  if (!row || row.kind !== "ticket") return [];
  const { ticket, order } = row;
  return recordWebhookEvent(tx, order.organizationId, "ticket.redeemed", now, async () => ({
    ticketCode: ticket.code,
    orderCode: order.code,
    ticketType: row.ticketType,
    holder: { name: ticket.holderName, email: ticket.holderEmail },
    door: ticket.redeemedDoor,
    redeemedAt: (ticket.redeemedAt ?? now).toISOString(),
    // Reserved seating: where the person sits ({ section, row, number, label }), null for general admission.
    seat: ticketSeat({ section: ticket.seatSection, row: ticket.seatRow, number: ticket.seatNumber }),
    event: await eventOf(tx, order.eventDateId),
  }));
}

// ───────────────────────── Sending ─────────────────────────

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * What the log says about a failed attempt (docs/webhooks.md): the same words
 * whatever went wrong before an answer (a refused address, DNS, a refused or
 * reset connection, a timeout), so the log cannot be used to map ports or
 * networks; the HTTP status only when a public server did answer.
 */
export const DELIVERY_ERRORS = {
  failed: "No pudimos entregar el aviso.",
  status: (status: number) => `No pudimos entregar el aviso: respondió HTTP ${status}.`,
} as const;

const PAUSED_ERROR = "El webhook estaba pausado";

/** Errors stored before the rule above ("No pudimos conectarnos: ECONNREFUSED"…) are shown as the generic one. */
export function deliveryErrorForOwner(stored: string | null): string | null {
  if (stored === null) return null;
  if (stored === DELIVERY_ERRORS.failed || /^No pudimos entregar el aviso: respondió HTTP \d{3}\.$/.test(stored) || stored === PAUSED_ERROR) return stored;
  const legacyStatus = /^Respondió HTTP (\d{3})$/.exec(stored);
  return legacyStatus ? DELIVERY_ERRORS.status(Number(legacyStatus[1])) : DELIVERY_ERRORS.failed;
}

/**
 * One POST of the body, signed with the clock of the moment it leaves,
 * 10-second timeout, no redirects followed; 2xx is delivered. Only to a
 * public address (server/http/safe-destination.ts, decision 151): a name that
 * resolves to a private, loopback or link-local address is refused before
 * connecting, like a literal one.
 */
export async function postWebhook(url: string, secret: string, deliveryId: string, body: string): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const { status } = await requestPublicUrl(url, { method: "POST", headers: webhookHeaders(secret, deliveryId, body, new Date()), body, timeoutMs: WEBHOOK_TIMEOUT_SECONDS * 1000 });
    const ok = status >= 200 && status < 300;
    return { ok, statusCode: status, durationMs: took(), error: ok ? null : DELIVERY_ERRORS.status(status) };
  } catch (error) {
    // The detail (refused address, ECONNREFUSED…) stays in the server's log, never in what the organization reads.
    if (error instanceof PublicRequestError && error.kind === "unsafe") console.warn(`Webhook ${deliveryId}: destino rechazado (${error.detail})`);
    return { ok: false, statusCode: null, durationMs: took(), error: DELIVERY_ERRORS.failed };
  }
}

/** Sends one attempt of a delivery and records it: the log row and the delivery's latest state. */
export async function attemptDelivery(
  db: DbOrTx,
  delivery: WebhookDeliveryRow,
  endpoint: WebhookEndpointRow,
  options: { replay?: boolean; finalAttempt?: boolean } = {}
): Promise<AttemptResult> {
  const result = await postWebhook(endpoint.url, decryptWebhookSecret(endpoint.secretEncrypted), delivery.id, delivery.body);
  const at = new Date();
  await db
    .insert(webhookAttempts)
    .values({ deliveryId: delivery.id, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error, replay: options.replay ?? false, attemptedAt: at });
  // Delivered once stays delivered; a failure ends it only when the retries ran out (a replay never brings a pending one down).
  const status = result.ok ? "delivered" : delivery.status === "delivered" ? "delivered" : options.finalAttempt ? "failed" : delivery.status;
  await db
    .update(webhookDeliveries)
    .set({
      status,
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastStatusCode: result.statusCode,
      lastError: result.error,
      deliveredAt: result.ok ? at : delivery.deliveredAt,
      failedAt: status === "failed" ? delivery.failedAt ?? at : null,
      updatedAt: at,
    })
    .where(eq(webhookDeliveries.id, delivery.id));
  return result;
}

/**
 * The job: one attempt of the delivery. Throws when it failed, so the queue
 * retries with its backoff (30 s, 1, 2, 4… minutes, up to the queue's
 * MAX_ATTEMPTS, about three hours in all); on the last one the delivery is
 * marked `failed`. A delivery already delivered (a replay got there first) or
 * whose endpoint was deleted sends nothing; a paused endpoint's pending
 * deliveries end `failed` without a request (replay them after resuming).
 */
export async function deliverWebhook(db: Db, deliveryId: string, options: { now: Date; finalAttempt: boolean }): Promise<void> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row || row.delivery.status !== "pending") return;
  if (!row.endpoint.active) {
    await db
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: PAUSED_ERROR, failedAt: options.now, updatedAt: options.now })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")));
    return;
  }
  const result = await attemptDelivery(db, row.delivery, row.endpoint, { finalAttempt: options.finalAttempt });
  if (!result.ok) throw new Error(`Webhook ${deliveryId}: ${result.error}`);
}
