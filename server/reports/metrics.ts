import { and, asc, desc, eq, isNotNull, sql } from "drizzle-orm";
import { TIME_ZONE } from "#common/dates";
import type { Ctx } from "#server/context";
import { couponRedemptions, coupons, eventDates, issuedProducts, orderItems, orders, ticketTypes } from "#server/db/schema";
import { NotFound } from "#server/errors";
import { z } from "zod";
import { requireEvent } from "#server/events/events";
import { orderRevenue, paidOrder } from "./paid";

/*
 * `/organizacion/metricas-evento` (decision 153): one event's numbers, from paid
 * orders (server/reports/paid.ts: approved billing, gifts left out) and door
 * redemptions. Days are Buenos Aires days; revenue is what the organization
 * keeps (price after discounts, without our fee), so the days, the ticket
 * types plus the menu, the summary and the ledger add up to the same pesos
 * (decision 153). An order's coupon discount is shared among the lines it
 * applies to, in proportion to their price (the last line takes the
 * rounding), so each type's revenue is after its part of the discount.
 */

export interface EventMetrics {
  salesPerDay: { day: string; orders: number; tickets: number; revenue: number }[];
  ticketTypes: { name: string; sold: number; revenue: number; stock: number }[];
  /** The event's menu (drinks, food): what its paid orders sold, by item. */
  menuItems: { name: string; sold: number; revenue: number; stock: number }[];
  coupons: { code: string; uses: number; discount: number }[];
  promoters: { nick: string; orders: number; tickets: number }[];
  entries: { sold: number; entered: number; perQuarterHour: { at: string; entered: number }[] };
}

/** One event's numbers; with `eventDateId`, only that date's orders and tickets (an unknown date is NOT_FOUND). */
export async function eventMetrics(ctx: Ctx, eventId: string, eventDateId: string | null = null): Promise<EventMetrics> {
  const event = await requireEvent(ctx, eventId, "sales:read");
  if (eventDateId) {
    const [date] = z.string().uuid().safeParse(eventDateId).success ? await ctx.db.select({ id: eventDates.id }).from(eventDates).where(and(eq(eventDates.id, eventDateId), eq(eventDates.eventId, event.id))) : [];
    if (!date) throw new NotFound("No encontramos esa fecha del evento.");
  }
  const ofTheDate = eventDateId ? eq(orders.eventDateId, eventDateId) : undefined;
  // Tickets of the date: their order's date (a ticket belongs to the date its order was for).
  const ticketsOfTheDate = eventDateId ? sql`${issuedProducts.orderId} in (select id from orders where event_date_id = ${eventDateId})` : undefined;
  const paid = paidOrder(eq(orders.eventId, event.id), ofTheDate);
  const applies = sql`(${coupons.id} is null or cardinality(${coupons.ticketTypeIds}) = 0 or ${orderItems.ticketTypeId} = any(${coupons.ticketTypeIds}))`;
  const applicableLine = sql`case when ${applies} then ${orderItems.qty}::bigint * ${orderItems.unitPrice} else 0 end`;
  // Every paid line with what it is worth and, over its order's lines the coupon applies to, the running and whole sums.
  const lines = ctx.db
    .select({
      ticketTypeId: orderItems.ticketTypeId,
      qty: orderItems.qty,
      line: sql<string>`${orderItems.qty}::bigint * ${orderItems.unitPrice}`.as("line"),
      discount: sql<number>`${orders.discount}`.as("order_discount"),
      applies: sql<boolean>`${applies}`.as("applies"),
      base: sql<string>`sum(${applicableLine}) over (partition by ${orders.id})`.as("base"),
      upto: sql<string>`sum(${applicableLine}) over (partition by ${orders.id} order by ${orderItems.id} rows unbounded preceding)`.as("upto"),
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .leftJoin(couponRedemptions, eq(couponRedemptions.orderId, orders.id))
    .leftJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
    .where(paid)
    .as("lines");
  // floor(d·upto/base) − floor(d·(upto−line)/base): the shares telescope to exactly the order's discount.
  const lineShare = sql`case when ${lines.applies} and ${lines.base} > 0 then ${lines.discount} * ${lines.upto} / ${lines.base} - ${lines.discount} * (${lines.upto} - ${lines.line}) / ${lines.base} else 0 end`;
  // The zone is a constant of ours, inlined so SELECT and GROUP BY are the same expression.
  const day = sql<string>`to_char(${orders.createdAt} at time zone ${sql.raw(`'${TIME_ZONE}'`)}, 'YYYY-MM-DD')`;
  const ticketsOnly = sql`${issuedProducts.ticketTypeId} in (select id from ticket_types where kind = 'ticket')`;
  const [perDay, perDayTickets, sales, types, usedCoupons, promoters, [door], quarters] = await Promise.all([
    ctx.db
      .select({ day, orders: sql<number>`count(*)::int`, revenue: sql<string>`sum(${orderRevenue})` })
      .from(orders)
      .where(paid)
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    ctx.db
      .select({ day, tickets: sql<number>`sum(${orderItems.qty})::int` })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, orderItems.ticketTypeId))
      .where(and(paid, eq(ticketTypes.kind, "ticket")))
      .groupBy(sql`1`),
    ctx.db
      .select({ ticketTypeId: lines.ticketTypeId, sold: sql<number>`sum(${lines.qty})::int`, revenue: sql<string>`sum(${lines.line} - ${lineShare})` })
      .from(lines)
      .groupBy(lines.ticketTypeId),
    // The event's types, a deleted one too when it sold (its money is in the days' totals).
    ctx.db
      .select({ id: ticketTypes.id, name: ticketTypes.name, kind: ticketTypes.kind, stock: ticketTypes.stock, status: ticketTypes.status })
      .from(ticketTypes)
      .where(and(eq(ticketTypes.eventId, event.id), eventDateId ? sql`(${ticketTypes.eventDateId} is null or ${ticketTypes.eventDateId} = ${eventDateId})` : undefined))
      .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt)),
    ctx.db
      .select({ code: coupons.code, uses: sql<number>`count(*)::int`, discount: sql<string>`sum(${couponRedemptions.discount})` })
      .from(couponRedemptions)
      .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
      .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
      .where(paid)
      .groupBy(coupons.code)
      .orderBy(desc(sql`count(*)`)),
    ctx.db
      .select({ nick: sql<string>`${orders.referredNick}`, orders: sql<number>`count(distinct ${orders.id})::int`, tickets: sql<number>`sum(${orderItems.qty})::int` })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .where(and(paid, isNotNull(orders.referredNick)))
      .groupBy(orders.referredNick)
      .orderBy(desc(sql`sum(${orderItems.qty})`)),
    ctx.db
      .select({
        sold: sql<number>`count(*) filter (where ${issuedProducts.status} <> 'voided')::int`,
        entered: sql<number>`count(*) filter (where ${issuedProducts.status} = 'redeemed')::int`,
      })
      .from(issuedProducts)
      .where(and(eq(issuedProducts.eventId, event.id), ticketsOnly, ticketsOfTheDate)),
    ctx.db
      .select({ at: sql<string>`to_char(to_timestamp(floor(extract(epoch from ${issuedProducts.redeemedAt}) / 900) * 900) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`, entered: sql<number>`count(*)::int` })
      .from(issuedProducts)
      .where(and(eq(issuedProducts.eventId, event.id), ticketsOnly, ticketsOfTheDate, eq(issuedProducts.status, "redeemed")))
      .groupBy(sql`1`)
      .orderBy(sql`1`),
  ]);
  const soldOf = new Map(sales.map((s) => [s.ticketTypeId, { sold: s.sold, revenue: Number(s.revenue) }]));
  const byType = (kind: string) =>
    types
      .filter((t) => t.kind === kind && (t.status !== "deleted" || soldOf.has(t.id)))
      .map((t) => ({ name: t.name, stock: t.stock, sold: soldOf.get(t.id)?.sold ?? 0, revenue: soldOf.get(t.id)?.revenue ?? 0 }));
  return {
    salesPerDay: perDay.map((d) => ({ day: d.day, orders: d.orders, revenue: Number(d.revenue), tickets: perDayTickets.find((t) => t.day === d.day)?.tickets ?? 0 })),
    ticketTypes: byType("ticket"),
    menuItems: byType("menu"),
    coupons: usedCoupons.map((c) => ({ code: c.code, uses: c.uses, discount: Number(c.discount) })),
    promoters: promoters.map((p) => ({ nick: p.nick, orders: p.orders, tickets: p.tickets })),
    entries: { sold: door?.sold ?? 0, entered: door?.entered ?? 0, perQuarterHour: quarters },
  };
}
