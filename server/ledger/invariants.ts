import { eq } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { billings, orderItems, orders } from "#server/db/schema";
import { displayStatus } from "#server/orders/status";
import { ticketsOfOrder } from "#server/tickets/issue";
import { ledgerOfOrder } from "./ledger";

/**
 * Invariant: an order's ledger, billings and issued tickets agree.
 * - every billing's (order, billing) status pair is a row of the spec's table;
 * - at most one approved billing; tickets (one per unit) exist iff one does;
 * - approved billing: payment +amount and, with a fee, service_fee −fee; nothing else;
 * - refunded billing: payment +amount and refund −amount (nets zero);
 * - pending / cancelled billing: no entries; no entry without a billing.
 * Throws with every mismatch found.
 */
export async function assertLedgerMatches(db: DbOrTx, orderId: string): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`Order ${orderId} not found`);
  const [orderBillings, items, tickets, entries] = await Promise.all([
    db.select().from(billings).where(eq(billings.orderId, orderId)),
    db.select().from(orderItems).where(eq(orderItems.orderId, orderId)),
    ticketsOfOrder(db, orderId),
    ledgerOfOrder(db, orderId),
  ]);
  const problems: string[] = [];
  const units = items.reduce((sum, i) => sum + i.qty, 0);
  const approved = orderBillings.filter((b) => b.status === "approved");
  if (approved.length > 1) problems.push(`${approved.length} approved billings`);
  const expectedTickets = approved.length ? units : 0;
  if (tickets.length !== expectedTickets) problems.push(`${tickets.length} issued products, expected ${expectedTickets}`);
  for (const item of items) {
    const n = tickets.filter((t) => t.orderItemId === item.id).length;
    if (approved.length && n !== item.qty) problems.push(`item ${item.name}: ${n} issued products for qty ${item.qty}`);
  }
  if (approved.length && order.status !== "billed") problems.push(`approved billing on a ${order.status} order`);

  for (const billing of orderBillings) {
    if (!displayStatus(order.status, billing.status)) problems.push(`(${order.status}, ${billing.status}) is not a row of the status table`);
    const mine = entries.filter((e) => e.billingId === billing.id);
    const byKind = (k: string) => mine.filter((e) => e.kind === k);
    const expected: Record<string, number> =
      billing.status === "approved"
        ? { payment: billing.amount, ...(order.serviceFee > 0 ? { service_fee: -order.serviceFee } : {}) }
        : billing.status === "refunded"
          ? { payment: billing.amount, refund: -billing.amount }
          : {};
    const kinds = new Set([...Object.keys(expected), ...mine.map((e) => e.kind)]);
    for (const kind of kinds) {
      const got = byKind(kind);
      if (!(kind in expected)) problems.push(`billing ${billing.status}: unexpected ${kind} entries (${got.length})`);
      else if (got.length !== 1 || got[0].amount !== expected[kind]) problems.push(`billing ${billing.status}: ${kind} ${got.map((e) => e.amount).join(",") || "missing"}, expected ${expected[kind]}`);
    }
    for (const e of mine) if (e.organizationId !== order.organizationId) problems.push(`entry ${e.id} booked to another organization`);
  }
  const orphanEntries = entries.filter((e) => !orderBillings.some((b) => b.id === e.billingId));
  if (orphanEntries.length) problems.push(`${orphanEntries.length} entries with no billing of this order`);
  if (problems.length) throw new Error(`Ledger of order ${order.code} does not match:\n- ${problems.join("\n- ")}`);
}
