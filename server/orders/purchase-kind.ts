import { eq, inArray } from "drizzle-orm";
import { purchaseKindOf, type PurchaseKind } from "#common/order-words";
import type { DbOrTx } from "#server/db/client";
import { orderItems, ticketTypes } from "#server/db/schema";

/**
 * Whether an order (or several: a list) holds tickets, menu items or both,
 * for the words the buyer reads (common/order-words.ts): a drink order's
 * pages and emails speak of consumiciones, not entradas.
 */
export async function purchaseKindOfOrders(db: DbOrTx, orderIds: string[]): Promise<PurchaseKind> {
  if (!orderIds.length) return "ticket";
  const rows = await db
    .selectDistinct({ kind: ticketTypes.kind })
    .from(orderItems)
    .innerJoin(ticketTypes, eq(ticketTypes.id, orderItems.ticketTypeId))
    .where(inArray(orderItems.orderId, orderIds));
  return purchaseKindOf(rows.map((r) => r.kind));
}
