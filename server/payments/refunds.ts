import type { DbOrTx } from "#server/db/client";
import { paymentRefunds } from "#server/db/schema";
import { enqueue } from "#server/jobs/queue";

/** Job kind that calls the provider to give a payment back (handler: see server/jobs/handlers.ts). */
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
  const [row] = await tx
    .insert(paymentRefunds)
    .values({ billingId: refund.billingId, providerPaymentId: refund.providerPaymentId, amount: refund.amount, reason: refund.reason, createdAt: refund.now })
    .returning();
  await enqueue(tx, PROVIDER_REFUND_JOB, { paymentRefundId: row.id }, refund.now);
  return row;
}
