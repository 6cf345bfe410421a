import crypto from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { issuedProducts, orderItems } from "#server/db/schema";
import type { OrderRow } from "#server/orders/orders";

export type IssuedProductRow = typeof issuedProducts.$inferSelect;

/** 128 random bits, URL-safe: what the QR carries. Unguessable, never derived from ids. */
export function newTicketCode(): string {
  return crypto.randomBytes(16).toString("base64url");
}

/**
 * One `redeemable` issued product per ticket unit of the order, held by the
 * payer. Callers run it inside the transaction whose conditional UPDATE
 * billed the order, so it runs once per order.
 */
export async function issueTicketsForOrder(tx: DbOrTx, order: OrderRow, now: Date): Promise<IssuedProductRow[]> {
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
  const holderName = `${order.payer.firstName} ${order.payer.lastName}`.trim();
  const rows = items.flatMap((item) =>
    Array.from({ length: item.qty }, () => ({
      orderId: order.id,
      orderItemId: item.id,
      ticketTypeId: item.ticketTypeId,
      eventId: order.eventId,
      code: newTicketCode(),
      holderName,
      holderEmail: order.payer.email,
      status: "redeemable" as const,
      createdAt: now,
    })),
  );
  if (!rows.length) return [];
  return tx.insert(issuedProducts).values(rows).returning();
}

export async function ticketsOfOrder(db: DbOrTx, orderId: string): Promise<IssuedProductRow[]> {
  return db.select().from(issuedProducts).where(eq(issuedProducts.orderId, orderId)).orderBy(asc(issuedProducts.createdAt), asc(issuedProducts.id));
}
