import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { ledgerEntries, type LedgerKind } from "#server/db/schema";
import type { BillingRow, OrderRow } from "#server/orders/orders";

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

/*
 * Sign convention (append-only ledger per organization, DESIGN.md §4):
 * amounts are integer centavos seen from the ORGANIZATION. Positive adds to
 * the organizer's balance, negative takes from it.
 *   payment      +order.total    the buyer paid this (gross, fee included)
 *   service_fee  −order.serviceFee  our fee, kept by the platform
 *   refund       −amount given back to the buyer
 *   chargeback   −amount taken back by the card issuer
 *   withdrawal   −amount paid out to the organizer's bank account
 * So an approved sale nets +subtotal − discount for the organizer, and a
 * refunded one nets to zero. UNIQUE (billing_id, kind) makes every booking
 * per payment happen at most once: callers book inside the transaction whose
 * conditional UPDATE changed the billing, and a duplicate insert would fail
 * (and roll that transaction back) instead of booking twice.
 */

function entry(order: OrderRow, billing: BillingRow, kind: LedgerKind, amount: number, description: string, now: Date) {
  return { organizationId: order.organizationId, orderId: order.id, billingId: billing.id, kind, amount, description, createdAt: now };
}

/** An approved payment: +total, and −service fee when there is one. */
export async function bookApprovedPayment(tx: DbOrTx, order: OrderRow, billing: BillingRow, now: Date) {
  const rows = [entry(order, billing, "payment", billing.amount, `Pago de la compra ${order.code}`, now)];
  if (order.serviceFee > 0) rows.push(entry(order, billing, "service_fee", -order.serviceFee, `Cargo por servicio de la compra ${order.code}`, now));
  await tx.insert(ledgerEntries).values(rows);
}

/** A payment received and refunded in full: +amount and −amount, netting to zero. */
export async function bookRefundedPayment(tx: DbOrTx, order: OrderRow, billing: BillingRow, reason: string, now: Date) {
  await tx.insert(ledgerEntries).values([
    entry(order, billing, "payment", billing.amount, `Pago de la compra ${order.code}`, now),
    entry(order, billing, "refund", -billing.amount, `Devolución de la compra ${order.code}: ${reason}`, now),
  ]);
}

export async function ledgerOfOrder(db: DbOrTx, orderId: string): Promise<LedgerEntryRow[]> {
  return db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId)).orderBy(asc(ledgerEntries.id));
}

export async function organizationBalance(db: DbOrTx, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.organizationId, organizationId)));
  return Number(row?.total ?? 0);
}
