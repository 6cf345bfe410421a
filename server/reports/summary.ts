import { and, eq, gte, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { z } from "zod";
import { TIME_ZONE } from "#common/dates";
import type { Ctx } from "#server/context";
import { billings, events, orderItems, orders, refundRequests, ticketTypes } from "#server/db/schema";
import { NotFound } from "#server/errors";
import { requireCapability } from "#server/organizations/permissions";
import { orderRevenue, paidOrder } from "./paid";

/*
 * The organization's dashboard (`/organizacion/resumen`, decision 153): sales
 * today (Buenos Aires), in the last 7 days and in total, counted from paid
 * orders (server/reports/paid.ts: approved billing, not gifts), and what needs
 * a decision; of one event when the back office's filter picks one. Revenue is
 * what the organizer keeps: the price after discounts, without our service fee.
 */

export interface SalesFigures {
  orders: number;
  tickets: number;
  menuItems: number;
  revenue: number;
}

export interface OrganizationSummary {
  today: SalesFigures;
  lastSevenDays: SalesFigures;
  total: SalesFigures;
  pendingTransfers: number;
  refundsToDecide: number;
}

async function salesSince(ctx: Ctx, organizationId: string, eventId: string | null, since: Date | null): Promise<SalesFigures> {
  const paid = paidOrder(eq(orders.organizationId, organizationId), eventId ? eq(orders.eventId, eventId) : undefined, since ? gte(orders.createdAt, since) : undefined);
  const [[money], [units]] = await Promise.all([
    ctx.db.select({ orders: sql<number>`count(*)::int`, revenue: sql<string>`coalesce(sum(${orderRevenue}), 0)` }).from(orders).where(paid),
    ctx.db
      .select({
        tickets: sql<number>`coalesce(sum(${orderItems.qty}) filter (where ${ticketTypes.kind} = 'ticket'), 0)::int`,
        menuItems: sql<number>`coalesce(sum(${orderItems.qty}) filter (where ${ticketTypes.kind} = 'menu'), 0)::int`,
      })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, orderItems.ticketTypeId))
      .where(paid),
  ]);
  return { orders: money?.orders ?? 0, revenue: Number(money?.revenue ?? 0), tickets: units?.tickets ?? 0, menuItems: units?.menuItems ?? 0 };
}

/**
 * `organizationSummary`: needs sales:read. With `eventId` (the back office's event filter), only that
 * event's sales, transfers and refund requests; an event of another organization is NOT_FOUND.
 */
export async function organizationSummary(ctx: Ctx, organizationId: string, eventId: string | null = null): Promise<OrganizationSummary> {
  await requireCapability(ctx, organizationId, "sales:read");
  if (eventId) {
    const [event] = z.uuid().safeParse(eventId).success ? await ctx.db.select({ id: events.id }).from(events).where(and(eq(events.id, eventId), eq(events.organizationId, organizationId))) : [];
    if (!event) throw new NotFound("No encontramos el evento.");
  }
  const ofEvent = eventId ? eq(orders.eventId, eventId) : undefined;
  const startOfToday = DateTime.fromJSDate(ctx.now).setZone(TIME_ZONE).startOf("day");
  const [today, lastSevenDays, total, [transfers], [refunds]] = await Promise.all([
    salesSince(ctx, organizationId, eventId, startOfToday.toJSDate()),
    salesSince(ctx, organizationId, eventId, startOfToday.minus({ days: 6 }).toJSDate()),
    salesSince(ctx, organizationId, eventId, null),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(billings)
      .innerJoin(orders, eq(orders.id, billings.orderId))
      .where(and(eq(orders.organizationId, organizationId), ofEvent, eq(billings.provider, "bank_transfer"), eq(billings.status, "pending"), eq(orders.status, "draft"))),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(refundRequests)
      .where(and(eq(refundRequests.organizationId, organizationId), eq(refundRequests.status, "pending"), eventId ? sql`${refundRequests.orderId} in (select id from orders where event_id = ${eventId})` : undefined)),
  ]);
  return { today, lastSevenDays, total, pendingTransfers: transfers?.n ?? 0, refundsToDecide: refunds?.n ?? 0 };
}
