import type { EventDateRow, EventRow, TicketTypeRow } from "#server/db/schema";
import { and, asc, eq, inArray, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import { sameCode, type CartTicket } from "#common/saved-cart";
import type { Ctx } from "#server/context";
import { eventDates, events, organizations, ticketTypes, type Status } from "#server/db/schema";
import { NotFound } from "#server/errors";

export type TicketState = "on_sale" | "sold_out" | "paused" | "not_started" | "ended" | "needs_code";

export const TICKET_STATE_LABELS: Record<TicketState, string> = {
  on_sale: "A la venta",
  sold_out: "Agotado",
  paused: "Venta pausada",
  not_started: "Todavía no está a la venta",
  ended: "Venta finalizada",
  needs_code: "Necesitás un código de acceso",
};

const PUBLIC_EVENT_STATUSES: Status[] = ["active", "paused"];

/** Accent- and case-insensitive text for search, the same in PostgreSQL 15 and PGlite. */
const fold = (value: SQL | string) => sql`translate(lower(${value}), 'áàäâéèëêíìïîóòöôúùüûñç', 'aaaaeeeeiiiioooouuuunc')`;

function foldText(value: string) {
  return value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
}

export interface CatalogueFilter {
  search?: string | null;
  province?: string | null;
  category?: string | null;
  from?: Date | null;
  to?: Date | null;
  organizationId?: string | null;
  page?: number | null;
  limit?: number | null;
}

/**
 * `/` and `events(filter)`: published events of every organization with a
 * date still to come, soonest first, with the lowest price on sale.
 */
export async function listPublicEvents(ctx: Ctx, filter: CatalogueFilter = {}) {
  const page = Math.max(0, filter.page ?? 0);
  const limit = Math.min(48, Math.max(1, filter.limit ?? 12));
  // Dates go in as ISO text: postgres.js cannot bind a Date inside raw sql``.
  // Correlated subqueries use explicit aliases: drizzle may leave columns unqualified inside sql``.
  const dateConditions: SQL[] = [sql`d.event_id = "events"."id"`, sql`d.status <> 'deleted'`, sql`d.ends_at > ${ctx.now.toISOString()}::timestamptz`];
  if (filter.from) dateConditions.push(sql`d.ends_at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) dateConditions.push(sql`d.starts_at <= ${filter.to.toISOString()}::timestamptz`);
  const dateWhere = sql.join(dateConditions, sql` and `);
  const nextDate = sql<Date>`(select min(d.starts_at) from event_dates d where ${dateWhere})`;

  const conditions: SQL[] = [isNotNull(events.publishedAt), inArray(events.status, PUBLIC_EVENT_STATUSES), sql`exists (select 1 from event_dates d where ${dateWhere})`];
  const search = filter.search ? foldText(filter.search) : "";
  if (search) {
    const pattern = `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(${fold(sql`${events.name}`)} like ${pattern} or ${fold(sql`${events.venueName}`)} like ${pattern} or ${fold(sql`${events.city}`)} like ${pattern} or ${fold(sql`${organizations.name}`)} like ${pattern})`);
  }
  if (filter.province) conditions.push(eq(events.province, filter.province));
  if (filter.category) conditions.push(eq(events.category, filter.category));
  if (filter.organizationId) conditions.push(eq(events.organizationId, filter.organizationId));
  const where = and(...conditions);

  const [{ total }] = await ctx.db
    .select({ total: sql<number>`count(*)::int` })
    .from(events)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .where(where);
  const rows = await ctx.db
    .select({
      id: events.id,
      slug: events.slug,
      name: events.name,
      imageUrl: events.imageUrl,
      category: events.category,
      venueName: events.venueName,
      venueAddress: events.venueAddress,
      city: events.city,
      province: events.province,
      status: events.status,
      organizationId: events.organizationId,
      organizationName: organizations.name,
      organizationSlug: organizations.slug,
      nextDate,
      minPrice: sql<number | null>`(select min(t.price) from ticket_types t where t.event_id = "events"."id" and t.kind = 'ticket' and t.status = 'active' and not t.hidden and not t.presale and t.access_code is null)`,
      // The cards' "Desde" (docs/prices.md): the cheapest ticket still left, its final price worked out with the fee.
      fromPrice: sql<number | null>`(select min(t.price) from ticket_types t where t.event_id = "events"."id" and t.kind = 'ticket' and t.status = 'active' and not t.hidden and not t.presale and t.access_code is null and t.stock > t.sold)`,
      serviceFeeBps: events.serviceFeeBps,
      available: sql<number>`coalesce((select sum(t.stock - t.sold) from ticket_types t where t.event_id = "events"."id" and t.kind = 'ticket' and t.status = 'active' and not t.hidden), 0)::int`,
    })
    .from(events)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .where(where)
    .orderBy(asc(nextDate), asc(events.name))
    .limit(limit)
    .offset(page * limit);
  return {
    items: rows.map((r) => ({ ...r, nextDate: new Date(r.nextDate), minPrice: r.minPrice === null ? null : Number(r.minPrice), fromPrice: r.fromPrice === null ? null : Number(r.fromPrice) })),
    total,
    page,
    limit,
  };
}

export interface BuyerUnlock {
  accessCode?: string | null;
  presaleCode?: string | null;
}

export function isPresaleUnlocked(event: Pick<EventRow, "presaleCode">, presaleCode: string | null | undefined) {
  return sameCode(event.presaleCode, presaleCode);
}

/**
 * What a buyer may see of a ticket type: hidden ones only with their access
 * code, presale ones only with presale unlocked, deleted ones never.
 */
export function isTicketVisible(ticket: TicketTypeRow, event: EventRow, unlock: BuyerUnlock) {
  if (ticket.status === "deleted") return false;
  if (ticket.hidden && !(ticket.accessCode && sameCode(ticket.accessCode, unlock.accessCode))) return false;
  if (ticket.presale && !isPresaleUnlocked(event, unlock.presaleCode)) return false;
  return true;
}

export function ticketState(ticket: TicketTypeRow, event: EventRow, date: EventDateRow | undefined, unlock: BuyerUnlock, now: Date): TicketState {
  if (event.status !== "active" || ticket.status !== "active" || (date && date.status !== "active")) return "paused";
  if (date && date.endsAt <= now) return "ended";
  if (ticket.salesEndAt && ticket.salesEndAt <= now) return "ended";
  if (ticket.salesStartAt && ticket.salesStartAt > now) return "not_started";
  if (ticket.stock - ticket.sold <= 0) return "sold_out";
  if (ticket.accessCode && !sameCode(ticket.accessCode, unlock.accessCode)) return "needs_code";
  return "on_sale";
}

/**
 * `/eventos/{slug}` and `event(slug, accessCode)`: the event, its dates and
 * the ticket types this buyer may see, each with its state. Drafts and
 * deleted events do not exist for buyers.
 */
export async function getPublicEvent(ctx: Ctx, slug: string, unlock: BuyerUnlock = {}) {
  const [row] = await ctx.db
    .select({ event: events, organization: { id: organizations.id, name: organizations.name, slug: organizations.slug } })
    .from(events)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .where(eq(events.slug, slug.toLowerCase()));
  if (!row || !row.event.publishedAt || row.event.status === "deleted") throw new NotFound("No encontramos el evento.");
  const { event, organization } = row;
  const [dates, tickets] = await Promise.all([
    ctx.db.select().from(eventDates).where(and(eq(eventDates.eventId, event.id), ne(eventDates.status, "deleted"))).orderBy(asc(eventDates.startsAt)),
    ctx.db.select().from(ticketTypes).where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.kind, "ticket"))).orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt)),
  ]);
  const upcomingDates = dates.filter((d) => d.endsAt > ctx.now);
  const presaleUnlocked = isPresaleUnlocked(event, unlock.presaleCode);
  const visible = tickets
    .filter((t) => isTicketVisible(t, event, unlock))
    .map((t) => {
      const date = t.eventDateId ? dates.find((d) => d.id === t.eventDateId) : undefined;
      return {
        id: t.id,
        eventDateId: t.eventDateId,
        name: t.name,
        description: t.description,
        price: t.price,
        available: Math.max(0, t.stock - t.sold),
        minPerOrder: t.minPerOrder,
        maxPerOrder: t.maxPerOrder,
        hidden: t.hidden,
        presale: t.presale,
        paymentMethod: t.paymentMethod,
        requiresAccessCode: Boolean(t.accessCode),
        state: ticketState(t, event, date, unlock, ctx.now),
      };
    });
  // For the saved-cart rules: every ticket that still exists (not only the visible ones).
  const cartTickets: CartTicket[] = tickets
    .filter((t) => t.status !== "deleted")
    .map((t) => ({ id: t.id, name: t.name, available: t.stock - t.sold, hidden: t.hidden, paymentMethod: t.paymentMethod, presale: t.presale, accessCode: t.accessCode }));
  return {
    event: {
      id: event.id,
      slug: event.slug,
      name: event.name,
      description: event.description,
      imageUrl: event.imageUrl,
      category: event.category,
      minAge: event.minAge,
      status: event.status,
      pixelId: event.pixelId,
      hasPresale: Boolean(event.presaleCode) && tickets.some((t) => t.presale && t.status !== "deleted"),
      venue: { name: event.venueName, address: event.venueAddress, city: event.city, province: event.province },
      serviceFeeBps: event.serviceFeeBps ?? 0,
      /** Entradas nominativas (decision 202): each ticket carries its holder's name and document. */
      namedTickets: event.oneHolderPerTicket,
      /** Most tickets one account may hold (decision 203); null: no limit. */
      maxTicketsPerAccount: event.maxTicketsPerAccount,
    },
    organization,
    dates: upcomingDates.map((d) => ({ id: d.id, startsAt: d.startsAt, endsAt: d.endsAt, doorsAt: d.doorsAt, status: d.status })),
    ticketTypes: visible,
    presaleUnlocked,
    cartTickets,
  };
}
export type PublicEvent = Awaited<ReturnType<typeof getPublicEvent>>;
