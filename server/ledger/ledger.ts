import type { BillingRow, LedgerEntryRow, OrderRow } from "#server/db/schema";
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { ledgerEntries, orders, type LedgerKind } from "#server/db/schema";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";


/*
 * Sign convention (append-only ledger per organization, decisions 23 and 43):
 * amounts are integer centavos seen from the ORGANIZATION. Positive adds to
 * the organizer's balance, negative takes from it.
 *   payment      +order.total    the buyer paid this (gross, fee included)
 *   service_fee  −order.serviceFee  our fee, kept by the platform
 *   refund       −amount given back to the buyer
 *   service_fee_refund  +order.serviceFee  our fee given back (the buyer
 *                gets everything back under the law, so the platform
 *                returns its fee and the organizer nets zero)
 *   chargeback   −amount taken back by the card issuer (the fee is given
 *                back too: the organizer loses the sale, never more)
 *   withdrawal   −amount paid out to the organizer's bank account
 *   direct_collection  −amount  a bank transfer the buyer made straight to
 *                the organizer's account: the money never passed through us,
 *                so it is not in the balance we pay out (what is left is
 *                the fee they owe us, −fee)
 *   direct_refund      +amount  that transfer given back by the organizer
 *                from their own account
 *   (a promoter's sale in hand, billing provider "promoter", books the same
 *   direct_collection: the promoter holds the cash for the organization)
 * So an approved sale nets +subtotal − discount for the organizer (−fee
 * for a bank transfer: they already hold the money), and a refunded one
 * nets to zero. UNIQUE (billing_id, kind) makes every booking
 * per payment happen at most once: callers book inside the transaction whose
 * conditional UPDATE changed the billing, and a duplicate insert would fail
 * (and roll that transaction back) instead of booking twice.
 */

function entry(order: OrderRow, billing: BillingRow, kind: LedgerKind, amount: number, description: string, now: Date) {
  return { organizationId: order.organizationId, orderId: order.id, billingId: billing.id, kind, amount, description, createdAt: now };
}

/** Bank transfers land in the organizer's own account, and a promoter's sale in hand in the promoter's pocket: never through us. */
export function paidToOrganizer(billing: Pick<BillingRow, "provider">) {
  return billing.provider === "bank_transfer" || billing.provider === "promoter";
}

function directCollection(order: OrderRow, billing: BillingRow, now: Date) {
  const how = billing.provider === "promoter" ? "Cobrado en mano por tu RRPP" : "Cobrado por transferencia en tu cuenta";
  return entry(order, billing, "direct_collection", -billing.amount, `${how}: compra ${order.code}`, now);
}

function directRefund(order: OrderRow, billing: BillingRow, now: Date) {
  return entry(order, billing, "direct_refund", billing.amount, `Devuelto por transferencia desde tu cuenta: compra ${order.code}`, now);
}

/** An approved payment: +total, −service fee when there is one, and −total when the buyer paid the organizer directly. */
export async function bookApprovedPayment(tx: DbOrTx, order: OrderRow, billing: BillingRow, now: Date) {
  const rows = [entry(order, billing, "payment", billing.amount, `Pago de la compra ${order.code}`, now)];
  if (order.serviceFee > 0) rows.push(entry(order, billing, "service_fee", -order.serviceFee, `Cargo por servicio de la compra ${order.code}`, now));
  if (paidToOrganizer(billing)) rows.push(directCollection(order, billing, now));
  await tx.insert(ledgerEntries).values(rows);
}

/** A payment received and refunded in full: +amount and −amount, netting to zero (a bank transfer also in and out of the organizer's account). */
export async function bookRefundedPayment(tx: DbOrTx, order: OrderRow, billing: BillingRow, reason: string, now: Date) {
  const rows = [
    entry(order, billing, "payment", billing.amount, `Pago de la compra ${order.code}`, now),
    entry(order, billing, "refund", -billing.amount, `Devolución de la compra ${order.code}: ${reason}`, now),
  ];
  if (paidToOrganizer(billing)) rows.push(directCollection(order, billing, now), directRefund(order, billing, now));
  await tx.insert(ledgerEntries).values(rows);
}

/**
 * An approved payment given back in full (withdrawal, organizer approval, or
 * a refund made at the provider): refund −amount and, when a fee was booked,
 * service_fee_refund +fee. With the approval's entries it nets to zero.
 */
export async function bookRefundOfApprovedPayment(tx: DbOrTx, order: OrderRow, billing: BillingRow, reason: string, now: Date) {
  const rows = [entry(order, billing, "refund", -billing.amount, `Devolución de la compra ${order.code}: ${reason}`, now)];
  if (order.serviceFee > 0) rows.push(entry(order, billing, "service_fee_refund", order.serviceFee, `Cargo por servicio devuelto de la compra ${order.code}`, now));
  // The organizer gives a bank transfer back from their own account (marked by hand).
  if (paidToOrganizer(billing)) rows.push(directRefund(order, billing, now));
  await tx.insert(ledgerEntries).values(rows);
}

/** A chargeback of an approved payment: chargeback −amount and our fee given back, netting zero with the approval. */
export async function bookChargeback(tx: DbOrTx, order: OrderRow, billing: BillingRow, now: Date) {
  const rows = [entry(order, billing, "chargeback", -billing.amount, `Contracargo de la compra ${order.code}`, now)];
  if (order.serviceFee > 0) rows.push(entry(order, billing, "service_fee_refund", order.serviceFee, `Cargo por servicio devuelto por el contracargo de la compra ${order.code}`, now));
  await tx.insert(ledgerEntries).values(rows);
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

const ledgerPageSchema = z.object({
  organizationId: z.string().uuid("Identificador inválido"),
  page: z.number().int().min(0).max(100_000).default(0),
  limit: z.number().int().min(1).max(100).default(20),
});

/**
 * The organization's money as the organizer reads it: the balance (the sum
 * of every entry: what we owe them, negative when they owe us fees of bank
 * transfers they collected themselves) and the entries, newest first, with
 * the code of the order each belongs to. Owners and admins only (money:manage).
 */
export async function getOrganizationLedger(ctx: Ctx, rawInput: DomainInput<typeof ledgerPageSchema>) {
  const input = parseInput(ledgerPageSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "money:manage");
  const mine = eq(ledgerEntries.organizationId, input.organizationId);
  const [balance, [{ total }], items] = await Promise.all([
    organizationBalance(ctx.db, input.organizationId),
    ctx.db.select({ total: count() }).from(ledgerEntries).where(mine),
    ctx.db
      .select({ entry: ledgerEntries, orderCode: orders.code })
      .from(ledgerEntries)
      .leftJoin(orders, eq(orders.id, ledgerEntries.orderId))
      .where(mine)
      .orderBy(desc(ledgerEntries.id))
      .limit(input.limit)
      .offset(input.page * input.limit),
  ]);
  return { balance, total, page: input.page, limit: input.limit, items: items.map((r) => ({ ...r.entry, orderCode: r.orderCode })) };
}
