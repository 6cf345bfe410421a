import type { BillingRow, OrderRow, ResaleListingRow } from "#server/db/schema";
import { walletTicketsChanged } from "#server/tickets/wallet-changes";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "#server/db/client";
import { billings, eventDates, events, issuedProducts, ledgerEntries, orders, resaleListings } from "#server/db/schema";
import { enqueue } from "#server/jobs/queue";
import { announceReturnedTickets } from "#server/stock/stock";
import { recordAudit } from "#server/organizations/audit";
import { paymentProviderFor } from "#server/payments/providers";
import type { PaymentProvider } from "#server/payments/provider";
import { recordWebhookEvent } from "#server/webhooks/deliveries";
import { emailRefunded, emailSold } from "./emails";
import { payoutMethodOf } from "./listings";

/*
 * What the order lifecycle does with a resale purchase (docs/resale.md,
 * docs/orders.md). A buyer's draft order holds the listing instead of stock
 * (holdListing, from createResaleOrder); when the hold ends the listing goes
 * back on sale (releaseResaleHold); when the order is paid, onPaid calls
 * settleResale in the same transaction: the listing is sold, the seller's
 * ticket voided (its QR refused at once), the seller's money booked and
 * queued, `ticket.resold` recorded. The buyer's new ticket, with a new code,
 * is issued by onPaid itself, like any purchase.
 */

/** The job that gives the seller their money back through the provider of their payment. */
export const RESALE_PAYOUT_JOB = "resale-payout";

const SYSTEM = (now: Date) => ({ actor: { kind: "anonymous" as const }, now });

/** active → held by this order: of any number of buyers at once, exactly one gets the listing (the conditional UPDATE). */
export async function holdListing(tx: DbOrTx, listingId: string, orderId: string, now: Date): Promise<ResaleListingRow | null> {
  const [held] = await tx
    .update(resaleListings)
    .set({ status: "held", heldByOrderId: orderId, updatedAt: now })
    .where(and(eq(resaleListings.id, listingId), eq(resaleListings.status, "active")))
    .returning();
  return held ?? null;
}

/** The listing an order holds or bought, if the order is a resale purchase. */
export async function listingOfOrder(tx: DbOrTx, orderId: string): Promise<ResaleListingRow | null> {
  const [row] = await tx.select().from(resaleListings).where(sql`${resaleListings.heldByOrderId} = ${orderId} or ${resaleListings.buyerOrderId} = ${orderId}`);
  return row ?? null;
}

/**
 * A resale order's hold ended unpaid (expired, rejected): its listing back
 * on sale. True when the order was a resale purchase — its stock was never
 * taken, so the caller must not give any back.
 */
export async function releaseResaleHold(tx: DbOrTx, orderId: string, now: Date): Promise<boolean> {
  const listing = await listingOfOrder(tx, orderId);
  if (!listing) return false;
  await tx
    .update(resaleListings)
    .set({ status: "active", heldByOrderId: null, updatedAt: now })
    .where(and(eq(resaleListings.id, listing.id), eq(resaleListings.status, "held"), eq(resaleListings.heldByOrderId, orderId)));
  // Back on sale: to the waiting list first, when someone waits (docs/waitlist.md, "Reventa").
  await announceReturnedTickets(tx, [listing.ticketTypeId], now);
  return true;
}

/**
 * A late payment for an expired resale order: the listing again, if it is
 * still on sale (null: not a resale order; false: somebody else has it now,
 * so the payment goes back).
 */
export async function reholdResaleListing(tx: DbOrTx, orderId: string, now: Date): Promise<boolean | null> {
  const listing = await listingOfOrder(tx, orderId);
  if (!listing) return null;
  if (listing.status === "held" && listing.heldByOrderId === orderId) return true;
  return (await holdListing(tx, listing.id, orderId, now)) !== null;
}

/**
 * onPaid of a resale purchase, in the transaction that paid it: held → sold,
 * the seller's ticket voided, the seller's money (price − fee) booked on the
 * buyer's billing — `resale_payout` −payout, and for a seller who did not pay
 * through the provider also `resale_payout_direct` +payout: the organizer
 * gives it back from their own account (decision 201) — the provider refund
 * queued when the seller paid through Mercado Pago, `ticket.resold`, the
 * seller's email, the audit. Nothing for an order that is not a resale.
 */
export async function settleResale(tx: DbOrTx, order: OrderRow, billing: BillingRow, now: Date): Promise<ResaleListingRow | null> {
  const [held] = await tx.select().from(resaleListings).where(eq(resaleListings.heldByOrderId, order.id));
  if (!held) return null;
  const [sellerBilling] = await tx.select().from(billings).where(eq(billings.id, held.sellerBillingId));
  const method = payoutMethodOf(sellerBilling?.provider ?? "");
  const [sold] = await tx
    .update(resaleListings)
    .set({ status: "sold", buyerOrderId: order.id, heldByOrderId: null, soldAt: now, updatedAt: now, payoutMethod: method, payoutStatus: "pending" })
    .where(and(eq(resaleListings.id, held.id), eq(resaleListings.status, "held"), eq(resaleListings.heldByOrderId, order.id)))
    .returning();
  // The order's conditional UPDATE already serialized us: a miss here is a bug, so roll back.
  if (!sold) throw new Error(`Resale listing ${held.id} was not held by order ${order.id}`);
  const voided = await tx
    .update(issuedProducts)
    .set({ status: "voided" })
    .where(and(eq(issuedProducts.id, sold.issuedProductId), ne(issuedProducts.status, "voided")))
    .returning({ id: issuedProducts.id, code: issuedProducts.code });
  if (!voided.length) throw new Error(`Resale listing ${held.id}: the seller's ticket was already voided`);
  await walletTicketsChanged(tx, voided, now);

  const rows: (typeof ledgerEntries.$inferInsert)[] = [{ organizationId: order.organizationId, orderId: order.id, billingId: billing.id, kind: "resale_payout" as const, amount: -sold.payout, description: `Devolución al vendedor por la reventa de la compra ${order.code}`, createdAt: now }];
  if (method === "organizer") {
    rows.push({ organizationId: order.organizationId, orderId: order.id, billingId: billing.id, kind: "resale_payout_direct" as const, amount: sold.payout, description: `Devuelto por el organizador desde su cuenta: reventa de la compra ${order.code}`, createdAt: now });
  } else {
    await enqueue(tx, RESALE_PAYOUT_JOB, { listingId: sold.id }, now);
  }
  await tx.insert(ledgerEntries).values(rows);

  const [seller] = await tx.select({ order: orders, eventName: events.name, startsAt: eventDates.startsAt }).from(orders).innerJoin(events, eq(events.id, orders.eventId)).innerJoin(eventDates, eq(eventDates.id, orders.eventDateId)).where(eq(orders.id, sold.sellerOrderId));
  await recordWebhookEvent(tx, order.organizationId, "ticket.resold", now, async () => ({
    listingId: sold.id,
    price: sold.price,
    fee: sold.fee,
    currency: "ARS",
    voidedTicketCode: voided[0].code,
    sellerOrderCode: seller?.order.code ?? null,
    buyerOrderCode: order.code,
    event: seller ? { id: sold.eventId, name: seller.eventName, startsAt: seller.startsAt.toISOString() } : null,
  }));
  await recordAudit(tx, SYSTEM(now), { organizationId: sold.organizationId, action: "resale.sold", targetId: sold.id, data: { buyerOrderId: order.id, payout: sold.payout, payoutMethod: method } });
  if (seller) await emailSold(tx, sold, { eventName: seller.eventName, to: seller.order.payer.email });
  return sold;
}

export type ResalePayoutOutcome = "done" | "already-done" | "not-provider" | "not-found" | "failed";

/**
 * The "resale-payout" job: gives the seller `payout` back through the
 * provider of their payment (a partial refund of it), with the listing's id
 * as the idempotency key — a retry after a timeout never pays twice — then
 * pending → done (conditional: the seller's email once). A provider error is
 * kept and thrown (the job retries); the last attempt leaves it `failed`.
 */
export async function runResalePayout(db: Db | DbOrTx, listingId: string, options: { now?: Date; finalAttempt?: boolean; provider?: PaymentProvider } = {}): Promise<ResalePayoutOutcome> {
  const now = options.now ?? new Date();
  const [row] = await db
    .select({ listing: resaleListings, billing: billings, order: orders, eventName: events.name })
    .from(resaleListings)
    .innerJoin(billings, eq(billings.id, resaleListings.sellerBillingId))
    .innerJoin(orders, eq(orders.id, resaleListings.sellerOrderId))
    .innerJoin(events, eq(events.id, resaleListings.eventId))
    .where(eq(resaleListings.id, listingId));
  if (!row) return "not-found";
  const { listing, billing } = row;
  if (listing.payoutMethod !== "provider") return "not-provider";
  if (listing.payoutStatus === "done") return "already-done";
  if (listing.payoutStatus !== "pending") return "failed";
  try {
    if (!billing.providerReference) throw new Error(`Billing ${billing.id} has no provider payment to refund`);
    const provider = options.provider ?? paymentProviderFor(billing.provider, db);
    const result = await provider.refundPayment(billing.providerReference, listing.payout, `resale-${listing.id}`);
    if (result.status === "rejected") throw new Error(`El proveedor rechazó la devolución ${result.id}`);
    const outcome = await db.transaction(async (tx) => {
      const [done] = await tx
        .update(resaleListings)
        .set({ payoutStatus: "done", payoutReference: result.id, payoutError: null, updatedAt: now })
        .where(and(eq(resaleListings.id, listing.id), eq(resaleListings.payoutStatus, "pending")))
        .returning();
      if (!done) return "already-done" as const;
      await recordAudit(tx, SYSTEM(now), { organizationId: done.organizationId, action: "resale.refunded", targetId: done.id, data: { amount: done.payout, providerRefundId: result.id } });
      await emailRefunded(tx, done, { eventName: row.eventName, to: row.order.payer.email });
      return "done" as const;
    });
    return outcome;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    await db
      .update(resaleListings)
      .set({ payoutError: message, updatedAt: now, ...(options.finalAttempt ? { payoutStatus: "failed" as const } : {}) })
      .where(and(eq(resaleListings.id, listing.id), eq(resaleListings.payoutStatus, "pending")));
    throw error;
  }
}

/**
 * A "refunded" notice from the provider for a seller's payment that our
 * resale payouts gave back in full is not a refund of the purchase: the
 * webhook must leave it alone (the tickets were resold, the money booked).
 */
export async function refundedByResale(tx: DbOrTx, billingId: string, amount: number): Promise<boolean> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${resaleListings.payout}), 0)` })
    .from(resaleListings)
    .where(and(eq(resaleListings.sellerBillingId, billingId), eq(resaleListings.status, "sold"), eq(resaleListings.payoutMethod, "provider")));
  return Number(row?.total ?? 0) > 0 && Number(row?.total ?? 0) >= amount;
}

/** The seller's tickets a sale voided (the ledger invariant accepts these under an approved billing), by seller order. */
export async function resoldTicketsOfOrder(db: DbOrTx, orderId: string): Promise<string[]> {
  const rows = await db.select({ id: resaleListings.issuedProductId }).from(resaleListings).where(and(eq(resaleListings.sellerOrderId, orderId), eq(resaleListings.status, "sold")));
  return rows.map((r) => r.id);
}
