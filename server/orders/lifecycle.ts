import type { BillingRow, BillingStatus, OrderRow, OrderStatus } from "#server/db/schema";
import { walletTicketsChanged } from "#server/tickets/wallet-changes";
import { and, eq, inArray, isNotNull, isNull, lte, ne, type SQL } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { billings, issuedProducts, orderItems, orders, refundRequests, users } from "#server/db/schema";
import { enqueue } from "#server/jobs/queue";
import { bookApprovedPayment, bookChargeback, bookRefundedPayment, bookRefundOfApprovedPayment } from "#server/ledger/ledger";
import { issueTickets, SEND_TICKETS_EMAIL_JOB } from "#server/tickets/issue";
import { recordBankTransferApproved, recordOrderPaid, recordOrderRefunded } from "#server/webhooks/deliveries";
import { queueProviderRefund } from "#server/payments/refunds";
import { releaseCouponUse, retakeCouponUse } from "#server/coupons/coupons";
import { releaseOrderStock, reholdOrderStock } from "#server/stock/stock";
import { markQueuePlaceBought } from "#server/queue/queue";
import { releaseResaleHold, reholdResaleListing, settleResale } from "#server/resale/settle";
import { requestCreditNote, requestInvoice } from "#server/invoicing/invoices";
import { emailChargedBack, emailRefunded, emailTransferRejected } from "./effects";
import { moveResoldSeat, releaseOrderSeats, reholdOrderSeats, sellOrderSeats } from "#server/seating/claims";

/*
 * The life of an order (docs/orders.md, decision 173). This module is the
 * only writer of `orders.status` and `billings.status`
 * (lifecycle.no-other-writer.test.ts fails otherwise). Each transition is a
 * conditional UPDATE (`… WHERE status = <expected>`) in the caller's
 * transaction, orders before billings (so two transitions never deadlock): of
 * two concurrent callers only one changes anything, and only that one runs
 * what follows — `onPaid`, `onRefunded`, `onChargedBack`, `onVoided`,
 * `onTransferRejected`, with the buyer's emails of effects.ts — in the same
 * transaction, so each consequence happens exactly once per transition
 * and only if the transition commits.
 *
 * Who calls what:
 *   place ........... createOrder (sale, free sale), placeDirectOrder (gift, promoter's sale in hand)
 *   expire .......... the expire-order job (and any late caller)
 *   approvePayment .. the provider's webhook (source "provider"), the organizer's transfer approval ("transfer")
 *                     — and, on an expired order, honourLatePayment or refundLatePayment
 *   refund .......... the buyer's withdrawal, the organizer's approval of a request, a refund made at the provider
 *   chargeBack ...... the provider's webhook
 *   rejectTransfer .. the organizer
 *   revokeGift ...... the organizer (voidOrder of a gift order)
 */

export type PaymentSource = "provider" | "transfer" | "free" | "promoter";

/** The statuses an order and its first billing are written with when placed. */
export function placedStatuses(kind: "sale" | "free" | "direct"): { order: OrderStatus; billing: BillingStatus } {
  return kind === "sale" ? { order: "draft", billing: "pending" } : { order: "billed", billing: "approved" };
}

/** The provider reference a bank transfer's approval records (one per billing: approving twice is the same payment). */
export function transferPaymentId(billingId: string) {
  return `transfer-${billingId}`;
}

// ───────────────────────── What follows a transition ─────────────────────────

/**
 * Everything that follows a payment approval (or a free, gift or in-hand
 * order placed already paid), once, in the transaction that approved it:
 * the outgoing `bank_transfer.approved` webhook (transfers only), the
 * tickets, the purchase joining the verified account of its payer's email
 * (decision 115), the tickets email (a job: it leaves only once this commits,
 * and is retried), the outgoing `order.paid` webhook (not for gifts), and
 * the ledger (not for gifts: nothing was paid).
 */
export async function onPaid(tx: DbOrTx, order: OrderRow, billing: BillingRow, now: Date) {
  await recordBankTransferApproved(tx, billing, now);
  // Seating hook (docs/seating.md): the held seats become sold and each ticket carries its seat.
  const issued = await issueTickets(tx, order, now, await sellOrderSeats(tx, order.id));
  // Resale hook (docs/resale.md): a resale purchase voids the seller's ticket and books the seller's money here, in this transaction.
  const resold = await settleResale(tx, order, billing, now);
  // Seating hook: the buyer's new ticket gets the seller's seat, and the seat now follows the buyer's order.
  if (resold) await moveResoldSeat(tx, resold.issuedProductId, order.id, issued);
  if (issued.length) {
    await linkVerifiedAccount(tx, order, now);
    await enqueue(tx, SEND_TICKETS_EMAIL_JOB, { orderId: order.id }, now);
    await recordOrderPaid(tx, order, now);
  }
  if (!order.gift) await bookApprovedPayment(tx, order, billing, now);
  // Invoicing hook (docs/invoicing.md): the invoice of our service charge, a job (nothing when invoicing is off).
  await requestInvoice(tx, order, billing, now);
  await markQueuePlaceBought(tx, order, now);
  return issued;
}

/** Tickets stop getting in and their stock goes back on sale (refund, chargeback, revoked gift). */
export async function onVoided(tx: DbOrTx, order: OrderRow, now: Date) {
  await tx.update(issuedProducts).set({ status: "voided" }).where(and(eq(issuedProducts.orderId, order.id), ne(issuedProducts.status, "voided")));
  await releaseOrderStock(tx, order.id, now);
  // Seating hook (docs/seating.md): the seats go back on sale with the stock.
  await releaseOrderSeats(tx, order.id, now);
  await walletTicketsChanged(tx, { orderId: order.id }, now);
}

export interface RefundOptions {
  reason: string;
  now: Date;
  /**
   * "queue": ask the provider to give the money back (a job; sandbox and
   * Mercado Pago payments). "none": nothing to ask (the provider already
   * refunded it, or it is a bank transfer given back by hand).
   */
  providerRefund: "queue" | "none";
}

/**
 * What follows the refund of an approved payment: tickets voided and stock
 * back, ledger refund (and our fee given back), the outgoing `order.refunded`
 * webhook, the buyer's email (before a request still waiting for the
 * organizer is settled by it: that buyer reads the provider's "payment
 * reversed" email, not the request's), the waiting request settled, and the
 * provider refund queued when asked.
 */
export async function onRefunded(tx: DbOrTx, order: OrderRow, billing: BillingRow, options: RefundOptions) {
  await onVoided(tx, order, options.now);
  await bookRefundOfApprovedPayment(tx, order, billing, options.reason, options.now);
  // Invoicing hook (docs/invoicing.md): the credit note cancelling the invoice of our service charge, a job.
  await requestCreditNote(tx, billing, options.now);
  await recordOrderRefunded(tx, order, billing, options.now);
  await emailRefunded(tx, order, billing);
  await tx
    .update(refundRequests)
    .set({ status: "refunded", decidedAt: options.now, updatedAt: options.now })
    .where(and(eq(refundRequests.orderId, order.id), eq(refundRequests.status, "pending")));
  if (options.providerRefund === "queue") {
    if (!billing.providerReference) throw new Error(`Billing ${billing.id} has no provider payment to refund`);
    await queueProviderRefund(tx, { billingId: billing.id, providerPaymentId: billing.providerReference, amount: billing.amount, reason: options.reason, now: options.now });
  }
}

/** What follows a chargeback: tickets voided, stock back, ledger chargeback (and our fee given back), the buyer's email. */
export async function onChargedBack(tx: DbOrTx, order: OrderRow, billing: BillingRow, now: Date) {
  await onVoided(tx, order, now);
  await bookChargeback(tx, order, billing, now);
  // Invoicing hook (docs/invoicing.md): our service charge goes back with the chargeback, so it gets its credit note.
  await requestCreditNote(tx, billing, now);
  await emailChargedBack(tx, order, billing);
}

/** What follows a rejected bank transfer: the hold released (onHoldReleased), then the buyer's email with the organizer's reason. */
async function onTransferRejected(tx: DbOrTx, order: OrderRow, billingId: string, reason: string | null, now: Date) {
  await onHoldReleased(tx, order.id, now);
  await emailTransferRejected(tx, order, billingId, reason);
}

/** What ends an unpaid order (expired, transfer rejected): stock back on sale, pending billing cancelled, coupon use given back. */
async function onHoldReleased(tx: DbOrTx, orderId: string, now: Date) {
  // Resale hook (docs/resale.md): a resale purchase held its listing, not stock: the listing goes back on sale instead.
  if (!(await releaseResaleHold(tx, orderId, now))) await releaseOrderStock(tx, orderId, now);
  // Seating hook (docs/seating.md): the held seats go back on sale with the stock.
  await releaseOrderSeats(tx, orderId, now);
  await setBillingStatusOfOrder(tx, orderId, "pending", "cancelled", now);
  await releaseCouponUse(tx, orderId, now);
}

/** A purchase made without an account, paid with an email an account already verified, belongs to that account (decision 115). */
async function linkVerifiedAccount(tx: DbOrTx, order: OrderRow, now: Date) {
  if (order.buyerUserId || order.gift) return;
  const [owner] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, order.payer.email.trim().toLowerCase()), isNotNull(users.emailVerifiedAt)));
  if (owner) await tx.update(orders).set({ buyerUserId: owner.id, updatedAt: now }).where(and(eq(orders.id, order.id), isNull(orders.buyerUserId)));
}

// ───────────────────────── The two status writers ─────────────────────────

async function moveOrder(tx: DbOrTx, orderId: string, from: OrderStatus, to: OrderStatus, now: Date, extra: Partial<typeof orders.$inferInsert> = {}, only?: SQL): Promise<OrderRow | null> {
  const [row] = await tx
    .update(orders)
    .set({ ...extra, status: to, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, from), only))
    .returning();
  return row ?? null;
}

async function moveBilling(
  tx: DbOrTx,
  billingId: string,
  from: BillingStatus | BillingStatus[],
  to: BillingStatus,
  now: Date,
  extra: Partial<typeof billings.$inferInsert> = {},
  only?: SQL,
): Promise<BillingRow | null> {
  const [row] = await tx
    .update(billings)
    .set({ ...extra, status: to, updatedAt: now })
    .where(and(eq(billings.id, billingId), Array.isArray(from) ? inArray(billings.status, from) : eq(billings.status, from), only))
    .returning();
  return row ?? null;
}

async function setBillingStatusOfOrder(tx: DbOrTx, orderId: string, from: BillingStatus, to: BillingStatus, now: Date) {
  await tx
    .update(billings)
    .set({ status: to, updatedAt: now })
    .where(and(eq(billings.orderId, orderId), eq(billings.status, from)));
}

/** Locks the billing's order first (orders before billings, as every transition: no deadlocks). */
async function lockOrderOfBilling(tx: DbOrTx, billingId: string): Promise<string | null> {
  const [row] = await tx.select({ orderId: billings.orderId }).from(billings).where(eq(billings.id, billingId));
  if (!row) return null;
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, row.orderId)).for("update");
  return row.orderId;
}

// ───────────────────────── Transitions ─────────────────────────

/**
 * place (gift, promoter's sale in hand): an order issued on the spot, without
 * a checkout — billed with an approved billing of its total (`free` for a
 * gift, `promoter` for cash in the promoter's hands), its one line, and
 * onPaid. The insert runs in a savepoint: a taken gift key (giveaways) throws
 * its unique violation and leaves the caller's transaction usable.
 * The caller has already taken the stock.
 */
export async function placeDirectOrder(
  tx: DbOrTx,
  draft: {
    order: Omit<typeof orders.$inferInsert, "status" | "gift" | "paymentMethod">;
    line: { ticketTypeId: string; name: string; qty: number; unitPrice: number };
    source: "free" | "promoter";
    now: Date;
    /**
     * What the order takes before it is paid, once its row exists: a seated ticket type's seats and then its
     * stock (docs/seating.md: seats first, then the ticket type's row, as createOrder). Without it the caller
     * took the stock before.
     */
    take?: (tx: DbOrTx, order: OrderRow) => Promise<void>;
  },
): Promise<{ order: OrderRow; billing: BillingRow }> {
  const statuses = placedStatuses("direct");
  const sale = draft.source === "promoter";
  const [order] = await tx.transaction(async (sp) =>
    sp
      .insert(orders)
      .values({ ...draft.order, status: statuses.order, gift: !sale, paymentMethod: sale ? "PROMOTER" : "FREE" })
      .returning(),
  );
  if (draft.take) await draft.take(tx, order);
  await tx.insert(orderItems).values({ orderId: order.id, ...draft.line });
  const [billing] = await tx
    .insert(billings)
    .values({ orderId: order.id, status: statuses.billing, provider: draft.source, amount: order.total, createdAt: draft.now, updatedAt: draft.now })
    .returning();
  await onPaid(tx, order, billing, draft.now);
  return { order, billing };
}

/**
 * expire: draft → expired once the hold is over (billing pending → cancelled,
 * stock and coupon use back). Null when the order was not a due draft (paid,
 * rejected, already expired, or the hold still on).
 */
export async function expire(tx: DbOrTx, orderId: string, now: Date): Promise<OrderRow | null> {
  const expired = await moveOrder(tx, orderId, "draft", "expired", now, {}, lte(orders.holdExpiresAt, now));
  if (expired) await onHoldReleased(tx, expired.id, now);
  return expired;
}

/**
 * rejectTransfer: the organizer saw no money. draft → closed, then
 * onTransferRejected (billing pending → cancelled, stock and coupon use back,
 * the buyer's email with the reason). Null when the order was not a draft.
 */
export async function rejectTransfer(tx: DbOrTx, rejection: { orderId: string; billingId: string; reason: string | null }, now: Date): Promise<OrderRow | null> {
  const closed = await moveOrder(tx, rejection.orderId, "draft", "closed", now, { holdExpiresAt: null });
  if (closed) await onTransferRejected(tx, closed, rejection.billingId, rejection.reason, now);
  return closed;
}

export type ApprovalOutcome =
  | "approved"
  | "orphan-honoured"
  | "orphan-refunded"
  | "second-payment-refunded"
  | "duplicate-payment-refunded"
  | "already-applied"
  | "amount-mismatch"
  | "unknown-billing"
  | "no-change";

export interface PaymentApproval {
  billingId: string;
  /** "provider": Mercado Pago or the sandbox said approved; "transfer": the organizer saw the money in their account. */
  source: Extract<PaymentSource, "provider" | "transfer">;
  /** The provider's payment id (a transfer's is transferPaymentId). */
  paymentId: string;
  amount: number;
}

/**
 * approvePayment: money arrived for a billing. From the order's state:
 *   draft    → billed, billing pending → approved, onPaid ("approved").
 *   expired  → late payment: honourLatePayment if the stock can be taken again, else refundLatePayment.
 *   billed   → paid already through another billing: this one is refunded ("second-payment-refunded").
 * A billing already approved (or undone) that gets another provider payment:
 * the buyer paid twice, that payment goes back ("duplicate-payment-refunded").
 * A concurrent transition makes a conditional UPDATE miss: look again.
 */
export async function approvePayment(tx: DbOrTx, approval: PaymentApproval, now: Date): Promise<ApprovalOutcome> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const [row] = await tx.select({ billing: billings, order: orders }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(billings.id, approval.billingId));
    if (!row) return "unknown-billing";
    const { billing, order } = row;
    if (approval.amount !== billing.amount) return "amount-mismatch";
    if (billing.status === "approved" || billing.status === "refunded" || billing.status === "charged_back") {
      // Another payment for a billing already paid (two tabs, a retried card): it goes back once, through the provider.
      if (billing.providerReference && approval.paymentId !== billing.providerReference && billing.provider !== "bank_transfer") {
        const queued = await queueProviderRefund(tx, { billingId: billing.id, providerPaymentId: approval.paymentId, amount: approval.amount, reason: "pago duplicado de una compra ya pagada", now });
        return queued ? "duplicate-payment-refunded" : "already-applied";
      }
      return "already-applied";
    }

    if (order.status === "draft") {
      // The usual case: paid within the hold. Stock is still held.
      const billed = await moveOrder(tx, order.id, "draft", "billed", now, { holdExpiresAt: null });
      if (!billed) continue;
      const approved = await moveBilling(tx, billing.id, "pending", "approved", now, { providerReference: approval.paymentId });
      // The order UPDATE above already serialized us: a miss here is a bug, so roll back.
      if (!approved) throw new Error(`Billing ${billing.id} was not pending`);
      await onPaid(tx, billed, approved, now);
      return "approved";
    }

    if (order.status === "expired") {
      const outcome = await approveLatePayment(tx, order, billing, approval, now);
      if (!outcome) continue;
      return outcome;
    }

    if (order.status === "billed") {
      // Paid already through another billing: this second payment is given back.
      const done = await refundUnwantedPayment(tx, order, billing, approval, "la compra ya estaba pagada", billing.status, now);
      if (!done) continue;
      return "second-payment-refunded";
    }
    // closed (or anything else): nothing to apply.
    return "no-change";
  }
  throw new Error(`No pude aplicar el pago ${approval.paymentId}: el estado cambió demasiadas veces`);
}

/**
 * A payment for an order whose hold ended (billing cancelled, stock returned):
 * expired → orphan, billing → pending with the payment, then honoured or refunded.
 */
async function approveLatePayment(tx: DbOrTx, order: OrderRow, billing: BillingRow, approval: PaymentApproval, now: Date): Promise<ApprovalOutcome | null> {
  const orphan = await moveOrder(tx, order.id, "expired", "orphan", now);
  if (!orphan) return null;
  const reopened = await moveBilling(tx, billing.id, ["cancelled", "pending"], "pending", now, { providerReference: approval.paymentId });
  if (!reopened) throw new Error(`Billing ${billing.id} changed under an orphan order`);
  // Resale hook (docs/resale.md): a resale purchase takes its listing again instead of stock (null: not a resale).
  // Seating hook (docs/seating.md): the same seats first, all or nothing; without them the payment goes back.
  const seatsBack = await reholdOrderSeats(tx, order.id, now);
  const reheld = seatsBack && ((await reholdResaleListing(tx, order.id, now)) ?? (await reholdOrderStock(tx, order.id, now)));
  if (seatsBack && !reheld) await releaseOrderSeats(tx, order.id, now);
  if (reheld) {
    await honourLatePayment(tx, orphan, reopened, now);
    return "orphan-honoured";
  }
  await refundLatePayment(tx, orphan, reopened, approval, now);
  return "orphan-refunded";
}

/** honourLatePayment: the stock was taken again. orphan → billed, billing pending → approved, the coupon use counts again, onPaid. */
async function honourLatePayment(tx: DbOrTx, orphan: OrderRow, billing: BillingRow, now: Date) {
  const billed = await moveOrder(tx, orphan.id, "orphan", "billed", now, { holdExpiresAt: null });
  const approved = await moveBilling(tx, billing.id, "pending", "approved", now);
  if (!billed || !approved) throw new Error(`Order ${orphan.id} changed while honouring its late payment`);
  // The expiry gave the coupon use back: the honoured order counts again (if the limit still has room; it was paid either way).
  await retakeCouponUse(tx, orphan.id);
  await onPaid(tx, billed, approved, now);
}

/** refundLatePayment: no stock left. Billing pending → refunded, orphan → billed (displayed "refunded"), the money goes back. */
async function refundLatePayment(tx: DbOrTx, orphan: OrderRow, billing: BillingRow, approval: PaymentApproval, now: Date) {
  const done = await refundUnwantedPayment(tx, orphan, billing, approval, "la reserva venció y ya no quedan entradas", "pending", now);
  if (!done) throw new Error(`Billing ${billing.id} changed while refunding its late payment`);
}

/**
 * A received payment that must go back (late with no stock, or a second
 * billing of a paid order): billing → refunded (an orphan order ends billed,
 * so the pair displays "refunded"), a payment/refund ledger pair netting
 * zero, and the provider refund queued — a bank transfer is given back by
 * hand by the organizer (the approval screen says so).
 */
async function refundUnwantedPayment(tx: DbOrTx, order: OrderRow, billing: BillingRow, approval: PaymentApproval, reason: string, from: BillingStatus, now: Date): Promise<boolean> {
  const refunded = await moveBilling(tx, billing.id, from, "refunded", now, { providerReference: approval.paymentId });
  if (!refunded) return false;
  const finalOrder = order.status === "orphan" ? await moveOrder(tx, order.id, "orphan", "billed", now, { holdExpiresAt: null }) : order;
  if (!finalOrder) throw new Error(`Order ${order.id} changed while refunding its payment`);
  await bookRefundedPayment(tx, finalOrder, refunded, reason, now);
  if (billing.provider !== "bank_transfer") {
    await queueProviderRefund(tx, { billingId: billing.id, providerPaymentId: approval.paymentId, amount: approval.amount, reason, now });
  }
  return true;
}

/**
 * refund: an approved payment given back after its tickets were delivered
 * (the buyer's withdrawal, the organizer's approval, a refund made at the
 * provider). Billing approved → refunded, the order stays billed (displayed
 * "refunded"), then onRefunded. Null when the billing was not approved any
 * more (someone else got there first).
 */
export async function refund(tx: DbOrTx, billingId: string, options: RefundOptions): Promise<{ order: OrderRow; billing: BillingRow } | null> {
  if (!(await lockOrderOfBilling(tx, billingId))) return null;
  // A free billing (gift, free sale) took no money: nothing to give back.
  const billing = await moveBilling(tx, billingId, "approved", "refunded", options.now, {}, ne(billings.provider, "free"));
  if (!billing) return null;
  const [order] = await tx.update(orders).set({ updatedAt: options.now }).where(eq(orders.id, billing.orderId)).returning();
  await onRefunded(tx, order, billing, options);
  return { order, billing };
}

/**
 * chargeBack: the card issuer took an approved payment back. Billing approved
 * → charged_back (order stays billed), then onChargedBack. Null when the
 * billing was not approved any more.
 */
export async function chargeBack(tx: DbOrTx, billingId: string, now: Date): Promise<{ order: OrderRow; billing: BillingRow } | null> {
  if (!(await lockOrderOfBilling(tx, billingId))) return null;
  // Only a card payment taken through a provider can be charged back.
  const billing = await moveBilling(tx, billingId, "approved", "charged_back", now, {}, inArray(billings.provider, ["mercadopago", "sandbox"]));
  if (!billing) return null;
  const [order] = await tx.update(orders).set({ updatedAt: now }).where(eq(orders.id, billing.orderId)).returning();
  await onChargedBack(tx, order, billing, now);
  return { order, billing };
}

/**
 * voidOrder: an order that stops existing with no money to give back — today
 * only a gift (a sale is undone by refund or chargeBack, so its ledger nets
 * to zero). billed → closed, billing approved → cancelled, then onVoided.
 * Null when the order was not a billed gift.
 */
export async function voidOrder(tx: DbOrTx, orderId: string, now: Date, extra: Partial<typeof orders.$inferInsert> = {}): Promise<OrderRow | null> {
  const closed = await moveOrder(tx, orderId, "billed", "closed", now, extra, eq(orders.gift, true));
  if (!closed) return null;
  await setBillingStatusOfOrder(tx, orderId, "approved", "cancelled", now);
  await onVoided(tx, closed, now);
  return closed;
}

/** revokeGift: an invitation withdrawn — voidOrder of a gift order, its gift key freed so the person can be invited again. */
export async function revokeGift(tx: DbOrTx, order: Pick<OrderRow, "id">, now: Date): Promise<OrderRow | null> {
  return voidOrder(tx, order.id, now, { giftKey: null });
}
