import type { BillingRow, OrderRow } from "#server/db/schema";
import { and, eq, ne } from "drizzle-orm";
import { releaseOrderStock } from "#server/stock/stock";
import type { DbOrTx } from "#server/db/client";
import { billings, issuedProducts, orders, refundRequests } from "#server/db/schema";
import { bookChargeback, bookRefundOfApprovedPayment } from "#server/ledger/ledger";
import { queueProviderRefund } from "#server/payments/refunds";
import { recordOrderRefunded } from "#server/webhooks/deliveries";

/**
 * The two ways an APPROVED billing is undone after its tickets were delivered.
 * Each is one conditional `UPDATE billings … WHERE status = 'approved'`
 * followed, only when that row changed, by voiding the tickets, giving the
 * stock back and booking the ledger — all in the caller's transaction. Of two
 * concurrent callers (a withdrawal and the provider's notification, or two
 * deliveries of the same notification) exactly one changes anything; the other
 * gets null and books nothing.
 */

export interface UndoOptions {
  reason: string;
  now: Date;
  /**
   * "queue": ask the provider to give the money back (a job; sandbox and
   * Mercado Pago payments). "none": nothing to ask (the provider already
   * refunded it, or it is a bank transfer given back by hand).
   */
  providerRefund: "queue" | "none";
}

/** Locks the billing's order first (orders before billings, as the webhook and expireOrder do: no deadlocks). */
async function lockOrderOf(tx: DbOrTx, billingId: string): Promise<string | null> {
  const [row] = await tx.select({ orderId: billings.orderId }).from(billings).where(eq(billings.id, billingId));
  if (!row) return null;
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, row.orderId)).for("update");
  return row.orderId;
}

async function voidTicketsAndReleaseStock(tx: DbOrTx, order: OrderRow, now: Date) {
  await tx.update(issuedProducts).set({ status: "voided" }).where(and(eq(issuedProducts.orderId, order.id), ne(issuedProducts.status, "voided")));
  // The seats go back on sale: the tickets are void (server/stock, same lock order as every stock change).
  await releaseOrderStock(tx, order.id, now);
}

/**
 * `refundApprovedBilling`: billing approved → refunded (the order stays
 * `billed`: the spec's billed/refunded row), every ticket voided, the stock
 * given back, ledger refund −amount and our fee given back, and, with
 * `providerRefund: "queue"`, the provider refund queued. Null when the billing
 * was not approved any more (someone else got there first).
 */
export async function refundApprovedBilling(tx: DbOrTx, billingId: string, options: UndoOptions): Promise<{ order: OrderRow; billing: BillingRow } | null> {
  if (!(await lockOrderOf(tx, billingId))) return null;
  const [billing] = await tx
    .update(billings)
    .set({ status: "refunded", updatedAt: options.now })
    .where(and(eq(billings.id, billingId), eq(billings.status, "approved")))
    .returning();
  if (!billing) return null;
  const [order] = await tx.update(orders).set({ updatedAt: options.now }).where(eq(orders.id, billing.orderId)).returning();
  await voidTicketsAndReleaseStock(tx, order, options.now);
  await bookRefundOfApprovedPayment(tx, order, billing, options.reason, options.now);
  await recordOrderRefunded(tx, order, billing, options.now);
  // A withdrawal still waiting for the organizer is settled by this refund (e.g. one made from Mercado Pago's panel).
  await tx
    .update(refundRequests)
    .set({ status: "refunded", decidedAt: options.now, updatedAt: options.now })
    .where(and(eq(refundRequests.orderId, order.id), eq(refundRequests.status, "pending")));
  if (options.providerRefund === "queue") {
    if (!billing.providerReference) throw new Error(`Billing ${billing.id} has no provider payment to refund`);
    await queueProviderRefund(tx, { billingId: billing.id, providerPaymentId: billing.providerReference, amount: billing.amount, reason: options.reason, now: options.now });
  }
  return { order, billing };
}

/**
 * `chargeBackApprovedBilling`: the card issuer took an approved payment back.
 * Billing approved → charged_back (order stays `billed`), tickets voided,
 * stock given back, ledger chargeback −amount and our fee given back. Null
 * when the billing was not approved any more.
 */
export async function chargeBackApprovedBilling(tx: DbOrTx, billingId: string, now: Date): Promise<{ order: OrderRow; billing: BillingRow } | null> {
  if (!(await lockOrderOf(tx, billingId))) return null;
  const [billing] = await tx
    .update(billings)
    .set({ status: "charged_back", updatedAt: now })
    .where(and(eq(billings.id, billingId), eq(billings.status, "approved")))
    .returning();
  if (!billing) return null;
  const [order] = await tx.update(orders).set({ updatedAt: now }).where(eq(orders.id, billing.orderId)).returning();
  await voidTicketsAndReleaseStock(tx, order, now);
  await bookChargeback(tx, order, billing, now);
  return { order, billing };
}
