import { eq } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { billings, orderItems, orders } from "#server/db/schema";
import { displayStatus } from "./status";
import { ticketsOfOrder } from "#server/tickets/issue";
import { ledgerOfOrder, paidToOrganizer } from "#server/ledger/ledger";
import { listingOfOrder, resoldTicketsOfOrder } from "#server/resale/settle";

/**
 * Invariant: an order's ledger, billings and issued tickets agree.
 * - every billing's (order, billing) status pair is a row of the spec's table;
 * - at most one approved billing; with it, one live (not voided) ticket per unit;
 * - without one, either no tickets (never delivered) or one voided ticket per
 *   unit (delivered, then refunded or charged back); a charged_back billing
 *   always had its tickets delivered;
 * - approved billing: payment +amount and, with a fee, service_fee −fee; nothing else;
 * - refunded billing: payment +amount and refund −amount; if it had been
 *   approved with a fee, also service_fee −fee and service_fee_refund +fee;
 * - charged_back billing: the approval's entries plus chargeback −amount and,
 *   with a fee, service_fee_refund +fee;
 * - a bank transfer (paid into the organizer's own account) also carries
 *   direct_collection −amount, and direct_refund +amount once given back;
 * - refunded and charged_back billings net to zero;
 * - pending / cancelled billing: no entries; no entry without a billing;
 * - gift orders (invitations): never an entry; revoked ones (closed/cancelled)
 *   keep one voided ticket per unit.
 * - resale (docs/resale.md): a seller's approved billing may have voided the
 *   tickets it resold; a resale purchase's billing (approved, refunded or
 *   charged back) also carries resale_payout −payout and, when the organizer
 *   gave it back from their own account, resale_payout_direct +payout, so an
 *   undone one nets to −payout + that.
 * Throws with every mismatch found.
 */
export async function assertLedgerMatches(db: DbOrTx, orderId: string): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`Order ${orderId} not found`);
  const [orderBillings, items, tickets, entries, resold, bought] = await Promise.all([
    db.select().from(billings).where(eq(billings.orderId, orderId)),
    db.select().from(orderItems).where(eq(orderItems.orderId, orderId)),
    ticketsOfOrder(db, orderId),
    ledgerOfOrder(db, orderId),
    resoldTicketsOfOrder(db, orderId),
    listingOfOrder(db, orderId),
  ]);
  // What a resale purchase gave back to its seller (booked on its billing), and the seller's tickets it voided.
  const payout = bought?.status === "sold" && bought.buyerOrderId === orderId ? bought : null;
  const problems: string[] = [];
  const units = items.reduce((sum, i) => sum + i.qty, 0);
  const approved = orderBillings.filter((b) => b.status === "approved");
  if (approved.length > 1) problems.push(`${approved.length} approved billings`);
  const voided = tickets.filter((t) => t.status === "voided");
  const chargedBack = orderBillings.some((b) => b.status === "charged_back");
  const undone = orderBillings.some((b) => b.status === "refunded" || b.status === "charged_back");
  if (approved.length) {
    if (tickets.length !== units) problems.push(`${tickets.length} issued products, expected ${units}`);
    const notResold = voided.filter((t) => !resold.includes(t.id));
    if (notResold.length) problems.push(`${notResold.length} voided issued products with an approved billing`);
  } else if (tickets.length) {
    if (tickets.length !== units) problems.push(`${tickets.length} issued products, expected ${units} or none`);
    if (voided.length !== tickets.length) problems.push(`${tickets.length - voided.length} live issued products without an approved billing`);
    // A revoked invitation (gift, closed/cancelled) also leaves its tickets voided.
    const revokedGift = order.gift && order.status === "closed";
    if (!undone && !revokedGift) problems.push(`issued products without an approved, refunded or charged back billing`);
  } else if (chargedBack && units) problems.push(`0 issued products, expected ${units} voided (charged back)`);
  if (tickets.length) {
    for (const item of items) {
      const n = tickets.filter((t) => t.orderItemId === item.id).length;
      if (n !== item.qty) problems.push(`item ${item.name}: ${n} issued products for qty ${item.qty}`);
    }
  }
  if (approved.length && order.status !== "billed") problems.push(`approved billing on a ${order.status} order`);

  for (const billing of orderBillings) {
    if (!displayStatus(order.status, billing.status)) problems.push(`(${order.status}, ${billing.status}) is not a row of the status table`);
    const mine = entries.filter((e) => e.billingId === billing.id);
    const byKind = (k: string) => mine.filter((e) => e.kind === k);
    const fee: Record<string, number> = order.serviceFee > 0 ? { service_fee: -order.serviceFee } : {};
    const feeBack: Record<string, number> = order.serviceFee > 0 ? { service_fee_refund: order.serviceFee } : {};
    // A refunded billing that had been approved carries the fee and its return; one refunded on arrival has neither.
    const refundedAfterApproval = byKind("service_fee").length > 0 || byKind("service_fee_refund").length > 0;
    // A gift order (invitation) is never money: no entries whatever its billing says.
    const expected: Record<string, number> = order.gift
      ? {}
      : billing.status === "approved"
        ? { payment: billing.amount, ...fee }
        : billing.status === "refunded"
          ? { payment: billing.amount, refund: -billing.amount, ...(refundedAfterApproval ? { ...fee, ...feeBack } : {}) }
          : billing.status === "charged_back"
            ? { payment: billing.amount, ...fee, chargeback: -billing.amount, ...feeBack }
            : {};
    const resaleBooked = payout && (billing.status === "approved" || billing.status === "refunded" || billing.status === "charged_back");
    if (resaleBooked) {
      expected.resale_payout = -payout.payout;
      if (payout.payoutMethod === "organizer") expected.resale_payout_direct = payout.payout;
    }
    const undoneNet = resaleBooked ? -payout.payout + (payout.payoutMethod === "organizer" ? payout.payout : 0) : 0;
    // A bank transfer went straight to the organizer's account: out of the balance on approval, back in when they return it.
    if (paidToOrganizer(billing) && (billing.status === "approved" || billing.status === "refunded")) {
      expected.direct_collection = -billing.amount;
      if (billing.status === "refunded") expected.direct_refund = billing.amount;
    }
    const kinds = new Set([...Object.keys(expected), ...mine.map((e) => e.kind)]);
    for (const kind of kinds) {
      const got = byKind(kind);
      if (!(kind in expected)) problems.push(`billing ${billing.status}: unexpected ${kind} entries (${got.length})`);
      else if (got.length !== 1 || got[0].amount !== expected[kind]) problems.push(`billing ${billing.status}: ${kind} ${got.map((e) => e.amount).join(",") || "missing"}, expected ${expected[kind]}`);
    }
    if ((billing.status === "refunded" || billing.status === "charged_back") && mine.reduce((sum, e) => sum + e.amount, 0) !== undoneNet) {
      problems.push(`billing ${billing.status}: entries add up to ${mine.reduce((sum, e) => sum + e.amount, 0)}, expected ${undoneNet}`);
    }
    for (const e of mine) if (e.organizationId !== order.organizationId) problems.push(`entry ${e.id} booked to another organization`);
  }
  const orphanEntries = entries.filter((e) => !orderBillings.some((b) => b.id === e.billingId));
  if (orphanEntries.length) problems.push(`${orphanEntries.length} entries with no billing of this order`);
  if (problems.length) throw new Error(`Ledger of order ${order.code} does not match:\n- ${problems.join("\n- ")}`);
}
