import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { billings, paymentRefunds } from "#server/db/schema";
import { enqueue } from "#server/jobs/queue";
import { paymentProviderFor } from "./providers";
import { type PaymentProvider } from "./provider";

/** Job kind that calls the provider to give a payment back (handler: see server/worker/handlers.ts). */
export const PROVIDER_REFUND_JOB = "provider-refund";

/**
 * Records that a provider payment must go back to the buyer and queues the
 * provider call, in the caller's transaction: the row and the job exist only
 * if the billing change that caused them commits. One per billing (UNIQUE):
 * the row id is the refund's idempotency key, so retries never refund twice.
 */
export async function queueProviderRefund(
  tx: DbOrTx,
  refund: { billingId: string; providerPaymentId: string; amount: number; reason: string; now: Date },
) {
  // One refund per payment of a billing: a notification delivered twice queues it once.
  const [row] = await tx
    .insert(paymentRefunds)
    .values({ billingId: refund.billingId, providerPaymentId: refund.providerPaymentId, amount: refund.amount, reason: refund.reason, createdAt: refund.now })
    .onConflictDoNothing({ target: [paymentRefunds.billingId, paymentRefunds.providerPaymentId] })
    .returning();
  if (!row) return null;
  await enqueue(tx, PROVIDER_REFUND_JOB, { paymentRefundId: row.id }, refund.now);
  return row;
}

export type ProviderRefundOutcome = "done" | "already-done" | "failed" | "not-found";

/**
 * The "provider-refund" job's body (callable directly): asks the provider
 * that took the payment to give `amount` back, with the row id as the
 * idempotency key (a retry after a timeout never refunds twice), then marks
 * the row `done` with the provider's refund id. A provider error is kept in
 * `last_error` and thrown, so the job retries with backoff; on the final
 * attempt the row ends `failed` (someone must look at it). Rows already done
 * or failed are left alone.
 */
export async function runProviderRefund(
  db: DbOrTx,
  paymentRefundId: string,
  options: { now?: Date; finalAttempt?: boolean; provider?: PaymentProvider } = {},
): Promise<ProviderRefundOutcome> {
  const now = options.now ?? new Date();
  const [row] = await db
    .select({ refund: paymentRefunds, provider: billings.provider })
    .from(paymentRefunds)
    .innerJoin(billings, eq(billings.id, paymentRefunds.billingId))
    .where(eq(paymentRefunds.id, paymentRefundId));
  if (!row) return "not-found";
  if (row.refund.status === "done") return "already-done";
  if (row.refund.status === "failed") return "failed";
  const { refund } = row;
  try {
    const provider = options.provider ?? paymentProviderFor(row.provider, db);
    const result = await provider.refundPayment(refund.providerPaymentId, refund.amount, refund.id);
    if (result.status === "rejected") throw new Error(`El proveedor rechazó la devolución ${result.id}`);
    const [done] = await db
      .update(paymentRefunds)
      .set({ status: "done", providerRefundId: result.id, processedAt: now, lastError: null })
      .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, "pending")))
      .returning({ id: paymentRefunds.id });
    return done ? "done" : "already-done";
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    await db
      .update(paymentRefunds)
      .set({ lastError: message, ...(options.finalAttempt ? { status: "failed", processedAt: now } : {}) })
      .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, "pending")));
    throw error;
  }
}
