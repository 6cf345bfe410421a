import { and, eq, lt } from "drizzle-orm";
import type { Db, DbOrTx } from "#server/db/client";
import { billings, paymentNotifications } from "#server/db/schema";
import { approvePayment, chargeBack, refund } from "#server/orders/lifecycle";
import { refundedByResale } from "#server/resale/settle";
import { getPaymentProvider } from "#server/payments/providers";
import { type PaymentProvider, type ProviderPayment } from "#server/payments/provider";
import { isSignatureStale, verifyNotificationSignature, webhookSecret } from "#server/payments/signature";
import { takeAttempt } from "#server/auth/rate-limit";
import { isDomainError } from "#server/errors";
import { ensureJob } from "#server/jobs/queue";
import { notificationSellerId } from "#server/payments/mercadopago";

export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface NotificationInput {
  headers: HeadersLike;
  /** The parsed JSON body (Mercado Pago sends `{ type: "payment", data: { id } }`). */
  body: unknown;
  /** The notification URL's query (`?data.id=…&type=payment`), used when the body lacks them. */
  query?: URLSearchParams;
  /** The body as it arrived: a refused delivery keeps only its start. */
  rawBody?: string;
  /** The sender's address (server.ts's client IP): refused deliveries are rate limited per address. */
  remoteAddress?: string | null;
}

/** Largest notification body read (Mercado Pago's are well under 2 KB); a bigger one is a 413 before it is read whole. */
export const MAX_NOTIFICATION_BYTES = 64 * 1024;
/** What a refused delivery keeps of its body. */
export const REFUSED_BODY_PREFIX = 200;
/** Refused deliveries logged per address in the rate-limit window (15 minutes); past it, a 429 and nothing stored. */
export const REFUSED_PER_ADDRESS = 30;
/** Refused deliveries are deleted after this many days (PRUNE_NOTIFICATIONS_JOB); accepted ones stay: they are the money's audit trail. */
export const REFUSED_RETENTION_DAYS = 30;
export const PRUNE_NOTIFICATIONS_JOB = "prune-payment-notifications";

export type NotificationOutcome =
  | "forged"
  | "stale"
  | "rate-limited"
  | "ignored-topic"
  | "missing-id"
  | "unknown-payment"
  | "unknown-billing"
  | "amount-mismatch"
  | "approved"
  | "orphan-honoured"
  | "orphan-refunded"
  | "second-payment-refunded"
  | "duplicate-payment-refunded"
  | "refunded"
  | "charged-back"
  | "already-applied"
  | "no-change";

export interface NotificationResult {
  status: 200 | 401 | 429;
  outcome: NotificationOutcome;
  billingId?: string;
}

function header(headers: HeadersLike, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key ? headers[key] : undefined;
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function readNotification(body: unknown, query?: URLSearchParams) {
  const b = (body && typeof body === "object" ? body : {}) as { type?: unknown; topic?: unknown; action?: unknown; data?: { id?: unknown } };
  const rawId = b.data?.id ?? query?.get("data.id") ?? query?.get("id");
  const dataId = rawId === undefined || rawId === null || rawId === "" ? null : String(rawId);
  const type = String(b.type ?? b.topic ?? query?.get("type") ?? query?.get("topic") ?? "");
  return { dataId, type };
}

/**
 * POST /api/webhooks/mercadopago (docs/orders.md). Every delivery is logged in
 * `payment_notifications` first; a missing or wrong signature is a 401 and
 * changes nothing else. A valid one is answered 200 after reading the payment
 * from the provider (the truth, whatever the body says) and applying it in one
 * transaction, idempotently: any number of deliveries, in any order, leave one
 * approved billing and one set of tickets. Provider errors propagate (the
 * route answers 500 and Mercado Pago retries).
 */
export async function handleMercadoPagoNotification(
  db: Db,
  input: NotificationInput,
  options: { provider?: PaymentProvider; now?: Date } = {},
): Promise<NotificationResult> {
  const now = options.now ?? new Date();
  const signatureHeader = header(input.headers, "x-signature");
  const { dataId, type } = readNotification(input.body, input.query);
  const requestId = header(input.headers, "x-request-id");
  // A signature from more than 5 minutes ago (or ahead) is a replay, whoever signed it: refused before anything else.
  if (isSignatureStale(signatureHeader, now)) return refuse(db, input, "stale", { requestId, dataId, now });
  if (!verifyNotificationSignature(webhookSecret(), { signatureHeader, requestId, dataId })) return refuse(db, input, "forged", { requestId, dataId, now });

  const [log] = await db
    .insert(paymentNotifications)
    .values({ provider: "mercadopago", requestId, dataId, signatureValid: true, body: (input.body ?? null) as never, remoteAddress: input.remoteAddress ?? null, receivedAt: now })
    .returning({ id: paymentNotifications.id });
  const finish = async (result: NotificationResult) => {
    await db.update(paymentNotifications).set({ outcome: result.outcome }).where(eq(paymentNotifications.id, log.id));
    return result;
  };

  if (type && type !== "payment") return finish({ status: 200, outcome: "ignored-topic" });
  if (!dataId) return finish({ status: 200, outcome: "missing-id" });

  // The payment lives in the seller's account: `user_id` names it (a connected organizer, else our own).
  const provider = options.provider ?? getPaymentProvider(db, { sellerUserId: notificationSellerId(input.body) });
  const payment = await provider.getPayment(dataId);
  if (!payment) return finish({ status: 200, outcome: "unknown-payment" });
  const outcome = await applyPayment(db, payment, now);
  return finish({ status: 200, outcome, billingId: payment.externalReference ?? undefined });
}

/**
 * A refused delivery (forged or stale): logged without its body, only its
 * first REFUSED_BODY_PREFIX characters, and at most REFUSED_PER_ADDRESS per
 * address in 15 minutes; past that, a 429 and nothing stored. Nobody can
 * fill the table, and PRUNE_NOTIFICATIONS_JOB deletes what is kept after
 * REFUSED_RETENTION_DAYS.
 */
async function refuse(
  db: Db,
  input: NotificationInput,
  outcome: "forged" | "stale",
  meta: { requestId: string | null; dataId: string | null; now: Date },
): Promise<NotificationResult> {
  const address = input.remoteAddress ?? "desconocida";
  try {
    await takeAttempt(db, [{ key: `webhook-refused:ip:${address}`, limit: REFUSED_PER_ADDRESS }], meta.now);
  } catch (error) {
    if (isDomainError(error) && error.code === "TOO_MANY_REQUESTS") return { status: 429, outcome: "rate-limited" };
    throw error;
  }
  const raw = input.rawBody ?? (input.body === undefined ? "" : JSON.stringify(input.body) ?? "");
  await db.insert(paymentNotifications).values({
    provider: "mercadopago",
    requestId: printable(meta.requestId, 200),
    dataId: printable(meta.dataId, 200),
    signatureValid: false,
    body: null,
    bodyPrefix: printable(raw, REFUSED_BODY_PREFIX),
    remoteAddress: input.remoteAddress ?? null,
    outcome,
    receivedAt: meta.now,
  });
  return { status: 401, outcome };
}

/** A stranger's text cut to `max` characters, control characters replaced (PostgreSQL refuses NUL in text). */
function printable(value: string | null, max: number): string | null {
  return value === null ? null : value.slice(0, max).replace(/[\u0000-\u001f\u007f]/g, "\uFFFD");
}

/** The retention job: deletes refused deliveries older than REFUSED_RETENTION_DAYS, then schedules its next run a day later. */
export async function pruneRefusedNotifications(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - REFUSED_RETENTION_DAYS * 24 * 3600 * 1000);
  const deleted = await db
    .delete(paymentNotifications)
    .where(and(eq(paymentNotifications.signatureValid, false), lt(paymentNotifications.receivedAt, before)))
    .returning({ id: paymentNotifications.id });
  return deleted.length;
}

/** Makes sure one pruning run is pending (server start, and after each run): idempotent, so replicas may all call it. */
export async function schedulePruning(db: DbOrTx, runAt: Date): Promise<void> {
  await ensureJob(db, PRUNE_NOTIFICATIONS_JOB, runAt);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The provider's view of one payment, mapped to the order lifecycle's
 * transition (server/orders/lifecycle.ts, docs/orders.md) in one transaction:
 * `approved` → approvePayment (source "provider"); `refunded` and
 * `charged_back` of the payment that approved the billing → refund or
 * chargeBack. Rejections, cancellations and pending ones change nothing (the
 * buyer may retry) — and never undo an approval that arrived first. Any
 * number of deliveries, in any order, leave one approved billing and one set
 * of tickets.
 */
export async function applyPayment(db: Db, payment: ProviderPayment, now: Date): Promise<NotificationOutcome> {
  const billingId = payment.externalReference;
  if (!billingId || !UUID.test(billingId)) return "unknown-billing";
  if (payment.status === "refunded" || payment.status === "charged_back") return applyReversal(db, billingId, payment, now);
  if (payment.status !== "approved") {
    const [exists] = await db.select({ id: billings.id }).from(billings).where(eq(billings.id, billingId));
    return exists ? "no-change" : "unknown-billing";
  }
  return db.transaction((tx) => approvePayment(tx, { billingId, source: "provider", paymentId: payment.id, amount: payment.amount }, now));
}

/**
 * The provider gave an approved payment back (a refund made from Mercado
 * Pago's side) or the card issuer took it back (chargeback). Only the payment
 * that approved the billing counts; anything else (already undone, never
 * approved, another payment of the same billing) changes nothing.
 */
async function applyReversal(db: Db, billingId: string, payment: ProviderPayment, now: Date): Promise<NotificationOutcome> {
  return db.transaction(async (tx): Promise<NotificationOutcome> => {
    const [billing] = await tx.select().from(billings).where(eq(billings.id, billingId));
    if (!billing) return "unknown-billing";
    if (payment.amount !== billing.amount) return "amount-mismatch";
    if (billing.providerReference !== payment.id) return "no-change";
    if (billing.status !== "approved") return billing.status === "refunded" || billing.status === "charged_back" ? "already-applied" : "no-change";
    // Resale hook (docs/resale.md): a payment our resale payouts gave back in full is not a refund of the purchase.
    if (payment.status === "refunded" && (await refundedByResale(tx, billing.id, billing.amount))) return "already-applied";
    const done =
      payment.status === "charged_back"
        ? await chargeBack(tx, billing.id, now)
        : await refund(tx, billing.id, { reason: "reembolso hecho desde el proveedor de pagos", now, providerRefund: "none" });
    if (!done) return "already-applied";
    // The buyer's email follows the transition (onRefunded, onChargedBack): only the delivery that undid it sends one.
    return payment.status === "charged_back" ? "charged-back" : "refunded";
  });
}
