import { and, asc, desc, eq, isNotNull, sql } from "drizzle-orm";
import { TIME_ZONE } from "#common/dates";
import type { Ctx } from "#server/context";
import { billings, couponRedemptions, coupons, eventDates, issuedProducts, orderItems, orders, ticketTypes } from "#server/db/schema";
import { NotFound } from "#server/errors";
import { z } from "zod";
import { requireEvent } from "#server/events/events";

/*
 * `/organizacion/metricas-evento` (issue 11): one event's numbers, from paid
 * orders (approved billing, gifts left out) and door redemptions. Days are
 * Buenos Aires days; revenue is what the organization keeps (price after
 * discounts, without our fee).
 */

export interface EventMetrics {
  salesPerDay: { day: string; orders: number; tickets: number; revenue: number }[];
  ticketTypes: { name: string; sold: number; revenue: number; stock: number }[];
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
  const paid = and(
    eq(orders.eventId, event.id),
    ofTheDate,
    eq(orders.status, "billed"),
    eq(orders.gift, false),
    sql`exists (select 1 from ${billings} where ${billings.orderId} = ${orders.id} and ${billings.status} = 'approved')`,
  );
  // The zone is a constant of ours, inlined so SELECT and GROUP BY are the same expression.
  const day = sql<string>`to_char(${orders.createdAt} at time zone ${sql.raw(`'${TIME_ZONE}'`)}, 'YYYY-MM-DD')`;
  const ticketsOnly = sql`${issuedProducts.ticketTypeId} in (select id from ticket_types where kind = 'ticket')`;
  const [perDay, perDayTickets, types, usedCoupons, promoters, [door], quarters] = await Promise.all([
    ctx.db
      .select({ day, orders: sql<number>`count(*)::int`, revenue: sql<string>`sum(${orders.subtotal} - ${orders.discount})` })
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
      .select({
        name: ticketTypes.name,
        stock: ticketTypes.stock,
        sold: sql<number>`coalesce(sum(${orderItems.qty}) filter (where ${orders.id} is not null), 0)::int`,
        revenue: sql<string>`coalesce(sum(${orderItems.qty} * ${orderItems.unitPrice}) filter (where ${orders.id} is not null), 0)`,
      })
      .from(ticketTypes)
      .leftJoin(orderItems, eq(orderItems.ticketTypeId, ticketTypes.id))
      .leftJoin(orders, and(eq(orders.id, orderItems.orderId), paid))
      .where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.kind, "ticket"), sql`${ticketTypes.status} <> 'deleted'`, eventDateId ? sql`(${ticketTypes.eventDateId} is null or ${ticketTypes.eventDateId} = ${eventDateId})` : undefined))
      .groupBy(ticketTypes.id, ticketTypes.name, ticketTypes.stock, ticketTypes.sortOrder)
      .orderBy(asc(ticketTypes.sortOrder)),
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
  return {
    salesPerDay: perDay.map((d) => ({ day: d.day, orders: d.orders, revenue: Number(d.revenue), tickets: perDayTickets.find((t) => t.day === d.day)?.tickets ?? 0 })),
    ticketTypes: types.map((t) => ({ name: t.name, stock: t.stock, sold: t.sold, revenue: Number(t.revenue) })),
    coupons: usedCoupons.map((c) => ({ code: c.code, uses: c.uses, discount: Number(c.discount) })),
    promoters: promoters.map((p) => ({ nick: p.nick, orders: p.orders, tickets: p.tickets })),
    entries: { sold: door?.sold ?? 0, entered: door?.entered ?? 0, perQuarterHour: quarters },
  };
}
