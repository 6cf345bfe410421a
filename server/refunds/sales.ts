import { and, asc, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { billings, eventDates, events, orderItems, orders, ORDER_STATUSES, type OrderPaymentMethod } from "#server/db/schema";
import { NotFound } from "#server/errors";
import { ledgerOfOrder } from "#server/ledger/ledger";
import { requireCapability } from "#server/organizations/permissions";
import { displayStatus } from "#server/orders/status";
import { ticketsOfOrder } from "#server/tickets/issue";
import { parseInput } from "#server/validation";
import { refundRequestsOfOrder } from "./refunds";

/** The default order list of the sales page: billed, not gift, card wallet and bank account, 10 a page, newest first, page 0. */
export const DEFAULT_ORDER_FILTER = {
  status: "billed",
  gift: false,
  paymentMethods: ["MERCADO_PAGO", "BANK_TRANSFER"] as OrderPaymentMethod[],
  page: 0,
  limit: 10,
} as const;

const uuid = z.string().uuid("Identificador inválido");

export const orderFilterSchema = z.object({
  organizationId: uuid,
  eventId: uuid.nullish(),
  status: z.enum(ORDER_STATUSES, { error: "Estado inválido" }).nullish(),
  gift: z.boolean().nullish(),
  paymentMethods: z.array(z.enum(["MERCADO_PAGO", "BANK_TRANSFER", "FREE", "PROMOTER"], { error: "Medio de pago inválido" })).max(4).nullish(),
  /** Only the sales of this promoter (their nickname, any case): online through their link and in hand, unless paymentMethods says otherwise. */
  promoterNick: z
    .string()
    .trim()
    .max(30, "Apodo inválido")
    .nullish()
    .transform((v) => v?.replace(/^@/, "").toLowerCase() || null),
  /** "tickets": orders of tickets only, no menu orders (the page's "Sin consumiciones"); "menu": menu orders only; none: both. */
  content: z.enum(["tickets", "menu"], { error: "Elegí entradas o consumiciones." }).nullish(),
  page: z.number().int().min(0).max(100_000).nullish(),
  limit: z.number().int().min(1).max(100).nullish(),
});

/** Orders with a menu item (entries and menu items are never in the same order: docs/menu.md). */
const menuOrders = sql`(select i.order_id from order_items i join ticket_types t on t.id = i.ticket_type_id where t.kind = 'menu')`;

/**
 * `orders(filter)`: the organization's orders for the sales list, with the
 * spec's defaults for whatever the filter leaves out. Needs sales:read.
 */
export async function listOrganizationOrders(ctx: Ctx, rawFilter: unknown) {
  const input = parseInput(orderFilterSchema, rawFilter);
  await requireCapability(ctx, input.organizationId, "sales:read");
  const status = input.status ?? DEFAULT_ORDER_FILTER.status;
  const gift = input.gift ?? DEFAULT_ORDER_FILTER.gift;
  // A promoter's sales include those they sold in hand.
  const methods = input.paymentMethods?.length ? input.paymentMethods : input.promoterNick ? [...DEFAULT_ORDER_FILTER.paymentMethods, "PROMOTER" as const] : DEFAULT_ORDER_FILTER.paymentMethods;
  const page = input.page ?? DEFAULT_ORDER_FILTER.page;
  const limit = input.limit ?? DEFAULT_ORDER_FILTER.limit;
  const where = and(
    eq(orders.organizationId, input.organizationId),
    eq(orders.status, status),
    eq(orders.gift, gift),
    inArray(orders.paymentMethod, methods),
    input.eventId ? eq(orders.eventId, input.eventId) : undefined,
    input.promoterNick ? and(isNotNull(orders.promoterUserId), sql`lower(${orders.referredNick}) = ${input.promoterNick}`) : undefined,
    input.content === "tickets" ? sql`${orders.id} not in ${menuOrders}` : input.content === "menu" ? sql`${orders.id} in ${menuOrders}` : undefined,
  );
  const [[{ total }], rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(orders).where(where),
    ctx.db
      .select({
        order: orders,
        eventName: events.name,
        eventSlug: events.slug,
        startsAt: eventDates.startsAt,
        billingStatus: sql<string | null>`(select b.status from billings b where b.order_id = ${orders.id} order by case b.status when 'approved' then 0 when 'charged_back' then 1 when 'refunded' then 2 else 3 end, b.created_at desc limit 1)`,
        pendingRefund: sql<boolean>`exists (select 1 from refund_requests r where r.order_id = ${orders.id} and r.status = 'pending')`,
        units: sql<number>`(select coalesce(sum(i.qty), 0)::int from order_items i where i.order_id = ${orders.id})`,
      })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(limit)
      .offset(page * limit),
  ]);
  return {
    items: rows.map((r) => ({
      ...r.order,
      eventName: r.eventName,
      eventSlug: r.eventSlug,
      eventStartsAt: r.startsAt,
      billingStatus: r.billingStatus,
      displayStatus: displayStatus(r.order.status, r.billingStatus),
      pendingRefund: Boolean(r.pendingRefund),
      units: Number(r.units),
    })),
    total: Number(total),
    page,
    limit,
  };
}
export type SalesListItem = Awaited<ReturnType<typeof listOrganizationOrders>>["items"][number];

/**
 * One order for the organizer: buyer, items, billings, tickets, ledger and
 * refund requests. NotFound when it does not exist; FORBIDDEN for members of
 * other organizations. Needs sales:read.
 */
export async function getOrganizationOrder(ctx: Ctx, orderId: string) {
  if (!uuid.safeParse(orderId).success) throw new NotFound("No encontramos la compra.");
  const [row] = await ctx.db
    .select({ order: orders, eventName: events.name, eventSlug: events.slug, startsAt: eventDates.startsAt })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .where(eq(orders.id, orderId));
  if (!row) throw new NotFound("No encontramos la compra.");
  await requireCapability(ctx, row.order.organizationId, "sales:read");
  const [items, orderBillings, tickets, ledger, refunds] = await Promise.all([
    ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id)),
    ctx.db.select().from(billings).where(eq(billings.orderId, orderId)).orderBy(asc(billings.createdAt)),
    ticketsOfOrder(ctx.db, orderId),
    ledgerOfOrder(ctx.db, orderId),
    refundRequestsOfOrder(ctx, orderId),
  ]);
  // The billing that says what happened to the order: approved, else charged back, else refunded, else the latest.
  const rank = (status: string) => ["approved", "charged_back", "refunded"].indexOf(status) >>> 0;
  const main = [...orderBillings].sort((a, b) => rank(a.status) - rank(b.status) || b.createdAt.getTime() - a.createdAt.getTime())[0] ?? null;
  return {
    order: { ...row.order, items },
    event: { name: row.eventName, slug: row.eventSlug, startsAt: row.startsAt },
    billing: main,
    billings: orderBillings,
    displayStatus: displayStatus(row.order.status, main?.status),
    tickets,
    ledger,
    refunds,
  };
}
