import { and, eq, gte, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { TIME_ZONE } from "#common/dates";
import type { Ctx } from "#server/context";
import { billings, orderItems, orders, refundRequests, ticketTypes } from "#server/db/schema";
import { requireCapability } from "#server/organizations/permissions";

/*
 * The organization's dashboard (`/organizacion/resumen`, issue 11): sales
 * today (Buenos Aires), in the last 7 days and in total, counted from paid
 * orders (approved billing, not gifts), and what needs a decision. Revenue is
 * what the organizer keeps: the tickets' price after discounts, without our
 * service fee.
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

async function salesSince(ctx: Ctx, organizationId: string, since: Date | null): Promise<SalesFigures> {
  const paid = and(
    eq(orders.organizationId, organizationId),
    eq(orders.status, "billed"),
    eq(orders.gift, false),
    sql`exists (select 1 from ${billings} where ${billings.orderId} = ${orders.id} and ${billings.status} = 'approved')`,
    since ? gte(orders.createdAt, since) : undefined,
  );
  const [[money], [units]] = await Promise.all([
    ctx.db.select({ orders: sql<number>`count(*)::int`, revenue: sql<string>`coalesce(sum(${orders.subtotal} - ${orders.discount}), 0)` }).from(orders).where(paid),
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

/** `organizationSummary`: needs sales:read. */
export async function organizationSummary(ctx: Ctx, organizationId: string): Promise<OrganizationSummary> {
  await requireCapability(ctx, organizationId, "sales:read");
  const startOfToday = DateTime.fromJSDate(ctx.now).setZone(TIME_ZONE).startOf("day");
  const [today, lastSevenDays, total, [transfers], [refunds]] = await Promise.all([
    salesSince(ctx, organizationId, startOfToday.toJSDate()),
    salesSince(ctx, organizationId, startOfToday.minus({ days: 6 }).toJSDate()),
    salesSince(ctx, organizationId, null),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(billings)
      .innerJoin(orders, eq(orders.id, billings.orderId))
      .where(and(eq(orders.organizationId, organizationId), eq(billings.provider, "bank_transfer"), eq(billings.status, "pending"), eq(orders.status, "draft"))),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(refundRequests)
      .where(and(eq(refundRequests.organizationId, organizationId), eq(refundRequests.status, "pending"))),
  ]);
  return { today, lastSevenDays, total, pendingTransfers: transfers?.n ?? 0, refundsToDecide: refunds?.n ?? 0 };
}
