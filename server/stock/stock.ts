import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { orderItems, ticketTypes, waitlistEntries } from "#server/db/schema";
import { enqueue } from "#server/jobs/queue";

/**
 * Every change to a ticket type's `sold` counter (docs/locking.md). `sold`
 * counts units held by unpaid orders and units sold; `stock - sold` is
 * what is left. Nothing else in the code writes `sold`.
 *
 * - Always a conditional UPDATE (`sold + n <= stock`), never read-then-write:
 *   PostgreSQL's row lock serialises concurrent buyers of the same ticket
 *   type, and the losing one sees the condition fail instead of overselling.
 * - Always in ascending ticket-type id: two orders that take the same ticket
 *   types lock them in the same order, so they never deadlock.
 * - Always inside the caller's transaction, next to the order change that
 *   justifies it: the row locks last until that transaction commits.
 */
export interface StockLine {
  ticketTypeId: string;
  qty: number;
}

export interface HeldLine extends StockLine {
  name: string;
  unitPrice: number;
}

const byTicketType = (a: StockLine, b: StockLine) => (a.ticketTypeId < b.ticketTypeId ? -1 : a.ticketTypeId > b.ticketTypeId ? 1 : 0);

/**
 * Holds `lines` all or nothing: the held lines (with the name and price read
 * in the same UPDATE, so the order's snapshot is the price that was held),
 * or `{ short }` naming the first ticket type without enough left, with
 * whatever this call had taken given back. `onlyActive`: a paused or deleted
 * ticket type counts as short (a new sale); a late payment re-holding its
 * order's stock does not ask that.
 */
export async function holdStock(
  tx: DbOrTx,
  lines: StockLine[],
  now: Date,
  options: { onlyActive?: boolean } = {},
): Promise<{ held: HeldLine[] } | { short: string }> {
  const held: HeldLine[] = [];
  for (const line of [...lines].sort(byTicketType)) {
    const [row] = await tx
      .update(ticketTypes)
      .set({ sold: sql`${ticketTypes.sold} + ${line.qty}`, updatedAt: now })
      .where(
        and(
          eq(ticketTypes.id, line.ticketTypeId),
          options.onlyActive ? eq(ticketTypes.status, "active") : undefined,
          sql`${ticketTypes.sold} + ${line.qty} <= ${ticketTypes.stock}`,
        ),
      )
      .returning({ name: ticketTypes.name, price: ticketTypes.price });
    if (!row) {
      await releaseStock(tx, held, now);
      return { short: line.ticketTypeId };
    }
    held.push({ ...line, name: row.name, unitPrice: row.price });
  }
  return { held };
}

/** One buyer's part of a batched hold: its lines and the unit price it was quoted for each ticket type. */
export interface BatchHoldRequest {
  lines: StockLine[];
  quotedPrice: (ticketTypeId: string) => number | undefined;
}

export type BatchHoldAnswer = { held: HeldLine[] } | { short: string } | { priceChanged: string };

/**
 * Many buyers' holds in one go (server/orders/hold-batch.ts): the ticket types
 * they want are locked once, in id order (`FOR NO KEY UPDATE`), what is left is
 * handed out in the order the requests came (a request that does not fit is
 * short, and a later, smaller one may still fit: nobody is refused while
 * enough stock for them remains), and each ticket type's `sold` grows in ONE
 * update for all of them. Only active ticket types sell. The caller writes its
 * order rows before calling this, or sends them in the same round trip (decision
 * 141), so the locks last only until its commit.
 */
export async function holdStockBatch(tx: DbOrTx, requests: BatchHoldRequest[], now: Date): Promise<BatchHoldAnswer[]> {
  const ids = [...new Set(requests.flatMap((r) => r.lines.map((l) => l.ticketTypeId)))].sort();
  if (!ids.length) return requests.map(() => ({ held: [] }));
  const rows = await tx
    .select({ id: ticketTypes.id, name: ticketTypes.name, price: ticketTypes.price, stock: ticketTypes.stock, sold: ticketTypes.sold, status: ticketTypes.status })
    .from(ticketTypes)
    .where(inArray(ticketTypes.id, ids))
    .orderBy(asc(ticketTypes.id))
    // NO KEY UPDATE, like the UPDATE of `sold` takes: it does not wait for the KEY SHARE locks that other
    // orders' items (their foreign key) hold on the same row, so two batches never deadlock.
    .for("no key update");
  const byId = new Map(rows.map((r) => [r.id, r]));
  const left = new Map(rows.map((r) => [r.id, r.status === "active" ? r.stock - r.sold : 0]));
  const taken = new Map<string, number>();

  const answers = requests.map((request): BatchHoldAnswer => {
    const lines = [...request.lines].sort(byTicketType);
    for (const line of lines) {
      if ((left.get(line.ticketTypeId) ?? 0) < line.qty) return { short: line.ticketTypeId };
    }
    const changed = lines.find((l) => byId.get(l.ticketTypeId)!.price !== request.quotedPrice(l.ticketTypeId));
    if (changed) return { priceChanged: changed.ticketTypeId };
    for (const line of lines) {
      left.set(line.ticketTypeId, left.get(line.ticketTypeId)! - line.qty);
      taken.set(line.ticketTypeId, (taken.get(line.ticketTypeId) ?? 0) + line.qty);
    }
    return { held: request.lines.map((l) => ({ ...l, name: byId.get(l.ticketTypeId)!.name, unitPrice: byId.get(l.ticketTypeId)!.price })) };
  });

  // Still conditional (and the table's CHECK stands behind it): the counts were read under this transaction's lock.
  for (const [ticketTypeId, qty] of [...taken].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [updated] = await tx
      .update(ticketTypes)
      .set({ sold: sql`${ticketTypes.sold} + ${qty}`, updatedAt: now })
      .where(and(eq(ticketTypes.id, ticketTypeId), sql`${ticketTypes.sold} + ${qty} <= ${ticketTypes.stock}`))
      .returning({ id: ticketTypes.id });
    if (!updated) throw new Error(`holdStockBatch: ${ticketTypeId} changed under its lock`);
  }
  return answers;
}

/** Gives `lines` back to sale (a hold that ended, or a partial hold undone). */
export async function releaseStock(tx: DbOrTx, lines: StockLine[], now: Date): Promise<void> {
  for (const line of [...lines].sort(byTicketType)) {
    await tx
      .update(ticketTypes)
      .set({ sold: sql`${ticketTypes.sold} - ${line.qty}`, updatedAt: now })
      .where(eq(ticketTypes.id, line.ticketTypeId));
  }
}

/** The order's lines, as stock lines, in lock order. */
export async function stockLinesOfOrder(tx: DbOrTx, orderId: string): Promise<StockLine[]> {
  return tx
    .select({ ticketTypeId: orderItems.ticketTypeId, qty: orderItems.qty })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.ticketTypeId));
}

/**
 * An order gave its units back (an unpaid hold ended, a transfer rejected, a refund, a chargeback, a revoked
 * gift): back on sale, and announced to the waiting list. Only for the caller that just moved the order.
 */
export async function releaseOrderStock(tx: DbOrTx, orderId: string, now: Date): Promise<void> {
  const lines = await stockLinesOfOrder(tx, orderId);
  await releaseStock(tx, lines, now);
  await announceReturnedTickets(tx, lines.map((l) => l.ticketTypeId), now);
}

/** The job that hands returned tickets to the event's waiting list (server/waitlist, run by server/worker). */
export const TICKETS_RETURNED_JOB = "tickets-returned";

/**
 * Tickets of these types are on sale again (an order gave them back, the organizer added stock): when someone
 * waits for that event (docs/waitlist.md), a job offers them, after this transaction commits. One indexed
 * lookup otherwise, so an on-sale's thousands of expiries add no job.
 */
export async function announceReturnedTickets(tx: DbOrTx, ticketTypeIds: string[], now: Date): Promise<void> {
  if (!ticketTypeIds.length) return;
  const [waiting] = await tx
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .innerJoin(ticketTypes, eq(ticketTypes.eventId, waitlistEntries.eventId))
    .where(and(inArray(ticketTypes.id, ticketTypeIds), eq(waitlistEntries.status, "waiting")))
    .limit(1);
  if (waiting) await enqueue(tx, TICKETS_RETURNED_JOB, { ticketTypeIds }, now);
}

/** A payment arrived for an order whose hold had expired: its units again, all or nothing. False when any ran out meanwhile. */
export async function reholdOrderStock(tx: DbOrTx, orderId: string, now: Date): Promise<boolean> {
  const result = await holdStock(tx, await stockLinesOfOrder(tx, orderId), now);
  return "held" in result;
}

/** The condition for lowering a ticket type's stock: never below what is already held or sold (used in the organizer's UPDATE itself). */
export function stockAtLeastSold(stock: number) {
  return sql`${ticketTypes.sold} <= ${stock}`;
}
