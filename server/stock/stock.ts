import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { orderItems, ticketTypes } from "#server/db/schema";

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

/** An unpaid order ended (hold expired, transfer rejected): its units back on sale. Only for the caller that just moved the order out of `draft`. */
export async function releaseOrderStock(tx: DbOrTx, orderId: string, now: Date): Promise<void> {
  await releaseStock(tx, await stockLinesOfOrder(tx, orderId), now);
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
