import { and, asc, desc, eq, inArray, isNull, or } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { eventDates, events, ticketTypes, users, waitlistEntries, waitlistOffers, waitlistSettings, type WaitlistEntryStatus, type WaitlistOfferStatus } from "#server/db/schema";
import { isUniqueViolation } from "#server/db/errors";
import { Conflict, Invalid, NotFound, Unauthenticated } from "#server/errors";
import { requireEvent } from "#server/events/access";
import { eventChanged } from "#server/events/changes";
import { recordAudit } from "#server/organizations/audit";
import { parseInput, type DomainInput } from "#server/validation";
import { AccountLimitReached, ticketsHeldByAccount } from "#server/tickets/account-limit";
import { aheadOf, candidatesFor, claimPath, DEFAULT_OFFER_MINUTES, lockWaitlist, offerReturnedTickets, withdrawOffer } from "./offers";

/*
 * The waiting list of a sold-out event (docs/waitlist.md, decisions 198 and
 * 199): the organizer turns it on per event; a signed-in buyer joins for a
 * date and a ticket type (or any ticket of the event) with a quantity, sees
 * their place and leaves; the offers live in ./offers.ts, the claim in
 * ./claim.ts.
 */

export const WAITLIST_MESSAGES = {
  eventNotFound: "No encontramos el evento.",
  closed: "Este evento no tiene lista de espera.",
  dateNotFound: "Elegí una fecha del evento.",
  ticketNotFound: "Elegí una entrada del evento.",
  stillOnSale: "Todavía quedan entradas: comprálas en la página del evento.",
  already: "Ya estás en la lista de espera para esta fecha y esta entrada.",
  quantity: (max: number) => `Elegí entre 1 y ${max} entradas.`,
  entryNotFound: "No encontramos tu lugar en la lista de espera.",
  notOpen: "Ya no estás en la lista de espera.",
} as const;

const uuid = z.string().uuid("Identificador inválido");

export type WaitlistEntryView = {
  id: string;
  eventId: string;
  eventSlug: string;
  eventName: string;
  eventDateId: string;
  startsAt: Date;
  ticketTypeId: string | null;
  /** Null: any ticket of the event. */
  ticketTypeName: string | null;
  quantity: number;
  status: WaitlistEntryStatus;
  /** People waiting ahead (0 when not waiting). */
  ahead: number;
  joinedAt: Date;
  offer: { id: string; quantity: number; ticketTypeName: string; expiresAt: Date; status: WaitlistOfferStatus; claimPath: string } | null;
};

function requireUser(ctx: Ctx) {
  if (ctx.actor.kind !== "user") throw new Unauthenticated("Iniciá sesión para anotarte en la lista de espera.");
  return ctx.actor.userId;
}

// ---------- buyer ----------

const joinSchema = z.object({
  eventSlug: z.string().trim().min(1, WAITLIST_MESSAGES.eventNotFound).max(200),
  eventDateId: uuid.nullish(),
  ticketTypeId: uuid.nullish(),
  quantity: z.coerce.number({ message: "Elegí cuántas entradas." }).int("Elegí cuántas entradas.").min(1, "Elegí al menos 1 entrada."),
});

/** Whether the event's waiting list is on (the event page offers it next to what is sold out). */
export async function waitlistEnabled(ctx: Ctx, eventId: string): Promise<boolean> {
  const [settings] = await ctx.db.select({ enabled: waitlistSettings.enabled }).from(waitlistSettings).where(eq(waitlistSettings.eventId, eventId));
  return settings?.enabled ?? false;
}

/**
 * `/lista-de-espera/{slug}`: what the form offers. The event's active dates
 * and, per date, its public ticket types with whether each is sold out and
 * the most one may ask for. Public; `mine` lists the visitor's open entries.
 */
export async function waitlistJoinOptions(ctx: Ctx, slug: string) {
  const [event] = await ctx.db.select().from(events).where(eq(events.slug, slug.toLowerCase()));
  if (!event || event.status === "deleted" || !event.publishedAt) throw new NotFound(WAITLIST_MESSAGES.eventNotFound);
  const enabled = await waitlistEnabled(ctx, event.id);
  const dates = await ctx.db
    .select()
    .from(eventDates)
    .where(and(eq(eventDates.eventId, event.id), eq(eventDates.status, "active")))
    .orderBy(asc(eventDates.startsAt));
  const types = await ctx.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const userId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  const mine = userId
    ? await ctx.db
        .select({ id: waitlistEntries.id })
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.eventId, event.id), eq(waitlistEntries.userId, userId), inArray(waitlistEntries.status, ["waiting", "offered"])))
    : [];
  return {
    event: { id: event.id, slug: event.slug, name: event.name },
    enabled,
    dates: dates.map((d) => {
      const candidates = candidatesFor({ eventDateId: d.id, ticketTypeId: null }, types, ctx.now);
      return {
        id: d.id,
        startsAt: d.startsAt,
        maxPerOrder: candidates.length ? Math.max(...candidates.map((t) => t.maxPerOrder)) : 0,
        soldOut: candidates.length > 0 && candidates.every((t) => t.stock - t.sold < t.minPerOrder),
        ticketTypes: candidates.map((t) => ({ id: t.id, name: t.name, price: t.price, maxPerOrder: t.maxPerOrder, soldOut: t.stock - t.sold < t.minPerOrder })),
      };
    }),
    mine: mine.map((m) => m.id),
  };
}

/**
 * `joinWaitlist`: the signed-in buyer waits for `quantity` tickets (1 to the
 * ticket type's per-order maximum; for any ticket, the largest maximum) of a
 * date. Only while what they ask for is sold out; once per date and ticket type.
 */
export async function joinWaitlist(ctx: Ctx, rawInput: DomainInput<typeof joinSchema>): Promise<WaitlistEntryView> {
  const userId = requireUser(ctx);
  const input = parseInput(joinSchema, rawInput);
  const [event] = await ctx.db.select().from(events).where(eq(events.slug, input.eventSlug));
  if (!event || event.status !== "active" || !event.publishedAt) throw new NotFound(WAITLIST_MESSAGES.eventNotFound);
  const [settings] = await ctx.db.select().from(waitlistSettings).where(eq(waitlistSettings.eventId, event.id));
  if (!settings?.enabled) throw new Conflict(WAITLIST_MESSAGES.closed);
  const dates = await ctx.db
    .select()
    .from(eventDates)
    .where(and(eq(eventDates.eventId, event.id), eq(eventDates.status, "active")))
    .orderBy(asc(eventDates.startsAt));
  const date = input.eventDateId ? dates.find((d) => d.id === input.eventDateId) : dates.length === 1 ? dates[0] : undefined;
  if (!date) throw new Invalid({ eventDateId: [WAITLIST_MESSAGES.dateNotFound] }, WAITLIST_MESSAGES.dateNotFound);
  const types = await ctx.db.select().from(ticketTypes).where(and(eq(ticketTypes.eventId, event.id), or(isNull(ticketTypes.eventDateId), eq(ticketTypes.eventDateId, date.id))));
  const candidates = candidatesFor({ eventDateId: date.id, ticketTypeId: input.ticketTypeId ?? null }, types, ctx.now);
  if (input.ticketTypeId && !candidates.length) throw new Invalid({ ticketTypeId: [WAITLIST_MESSAGES.ticketNotFound] }, WAITLIST_MESSAGES.ticketNotFound);
  if (!candidates.length) throw new Conflict(WAITLIST_MESSAGES.closed);
  const max = Math.max(...candidates.map((t) => t.maxPerOrder));
  if (input.quantity > max) throw new Invalid({ quantity: [WAITLIST_MESSAGES.quantity(max)] }, WAITLIST_MESSAGES.quantity(max));
  // Anything of it still buyable (decision 199): the event page sells it.
  if (candidates.some((t) => t.stock - t.sold >= t.minPerOrder)) throw new Conflict(WAITLIST_MESSAGES.stillOnSale);
  // The event's per-account limit (decision 203), said now rather than when the offer comes.
  if (event.maxTicketsPerAccount != null) {
    const held = await ticketsHeldByAccount(ctx.db, { eventId: event.id, accountId: userId, now: ctx.now });
    if (held + input.quantity > event.maxTicketsPerAccount) throw new AccountLimitReached(event.maxTicketsPerAccount, held, { field: "quantity" });
  }

  let entry;
  try {
    [entry] = await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .insert(waitlistEntries)
        .values({ eventId: event.id, eventDateId: date.id, ticketTypeId: input.ticketTypeId ?? null, userId, quantity: input.quantity, joinedAt: ctx.now, updatedAt: ctx.now })
        .returning();
      await recordAudit(tx, ctx, { organizationId: event.organizationId, action: "waitlist.join", targetId: rows[0].id, data: { eventId: event.id, eventDateId: date.id, ticketTypeId: input.ticketTypeId ?? null, quantity: input.quantity } });
      return rows;
    });
  } catch (error) {
    if (isUniqueViolation(error, "waitlist_entries_open_key")) throw new Conflict(WAITLIST_MESSAGES.already);
    throw error;
  }
  const [view] = await entryViews(ctx, [entry.id]);
  return view;
}

/**
 * `leaveWaitlist`: the buyer leaves the line. A running offer is taken back
 * and its tickets go to the next person in the same transaction. Someone
 * else's entry is not found.
 */
export async function leaveWaitlist(ctx: Ctx, entryId: string): Promise<WaitlistEntryView> {
  const userId = requireUser(ctx);
  if (!uuid.safeParse(entryId).success) throw new NotFound(WAITLIST_MESSAGES.entryNotFound);
  const [entry] = await ctx.db.select().from(waitlistEntries).where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.userId, userId)));
  if (!entry) throw new NotFound(WAITLIST_MESSAGES.entryNotFound);
  await ctx.db.transaction(async (tx) => {
    await lockWaitlist(tx, entry.eventId);
    const [left] = await tx
      .update(waitlistEntries)
      .set({ status: "left", updatedAt: ctx.now })
      .where(and(eq(waitlistEntries.id, entry.id), inArray(waitlistEntries.status, ["waiting", "offered"])))
      .returning();
    if (!left) throw new Conflict(WAITLIST_MESSAGES.notOpen);
    const [event] = await tx.select({ organizationId: events.organizationId }).from(events).where(eq(events.id, entry.eventId));
    const withdrawn = await withdrawOffer(tx, entry.id, ctx.now);
    await recordAudit(tx, ctx, { organizationId: event.organizationId, action: "waitlist.leave", targetId: entry.id, data: { eventId: entry.eventId, offerId: withdrawn?.id ?? null } });
    if (withdrawn) await offerReturnedTickets(tx, { eventId: entry.eventId }, ctx.now);
  });
  const [view] = await entryViews(ctx, [entry.id]);
  return view;
}

/** `myWaitlist`: the buyer's entries, open ones first, newest first. */
export async function myWaitlist(ctx: Ctx): Promise<WaitlistEntryView[]> {
  const userId = requireUser(ctx);
  const rows = await ctx.db
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(eq(waitlistEntries.userId, userId))
    .orderBy(desc(waitlistEntries.joinedAt))
    .limit(100);
  const views = await entryViews(ctx, rows.map((r) => r.id));
  const open = (s: WaitlistEntryStatus) => (s === "offered" ? 0 : s === "waiting" ? 1 : 2);
  return views.sort((a, b) => open(a.status) - open(b.status));
}

async function entryViews(ctx: Ctx, ids: string[]): Promise<WaitlistEntryView[]> {
  if (!ids.length) return [];
  const rows = await ctx.db
    .select({ entry: waitlistEntries, event: { slug: events.slug, name: events.name }, startsAt: eventDates.startsAt, ticketTypeName: ticketTypes.name })
    .from(waitlistEntries)
    .innerJoin(events, eq(events.id, waitlistEntries.eventId))
    .innerJoin(eventDates, eq(eventDates.id, waitlistEntries.eventDateId))
    .leftJoin(ticketTypes, eq(ticketTypes.id, waitlistEntries.ticketTypeId))
    .where(inArray(waitlistEntries.id, ids));
  const offers = await ctx.db
    .select({ offer: waitlistOffers, ticketTypeName: ticketTypes.name })
    .from(waitlistOffers)
    .innerJoin(ticketTypes, eq(ticketTypes.id, waitlistOffers.ticketTypeId))
    .where(inArray(waitlistOffers.entryId, ids))
    .orderBy(desc(waitlistOffers.offeredAt));
  const byId = new Map(rows.map((r) => [r.entry.id, r]));
  return Promise.all(
    ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const latest = offers.find((o) => o.offer.entryId === id);
      return [
        (async (): Promise<WaitlistEntryView> => ({
          id,
          eventId: row.entry.eventId,
          eventSlug: row.event.slug,
          eventName: row.event.name,
          eventDateId: row.entry.eventDateId,
          startsAt: row.startsAt,
          ticketTypeId: row.entry.ticketTypeId,
          ticketTypeName: row.ticketTypeName ?? null,
          quantity: row.entry.quantity,
          status: row.entry.status,
          ahead: await aheadOf(ctx.db, row.entry),
          joinedAt: row.entry.joinedAt,
          offer: latest
            ? { id: latest.offer.id, quantity: latest.offer.quantity, ticketTypeName: latest.ticketTypeName, expiresAt: latest.offer.expiresAt, status: latest.offer.status, claimPath: claimPath(latest.offer.id) }
            : null,
        }))(),
      ];
    }),
  );
}

// ---------- organizer ----------

export interface EventWaitlistView {
  eventId: string;
  enabled: boolean;
  offerMinutes: number;
  /** People waiting (not yet offered). */
  waiting: number;
  /** Tickets they wait for. */
  waitingTickets: number;
  /** Offers running now. */
  offered: number;
  /** Per target (a ticket type, or null: any ticket), how many people and tickets wait. */
  byTicketType: { ticketTypeId: string | null; ticketTypeName: string | null; people: number; tickets: number }[];
  entries: {
    id: string;
    position: number;
    name: string;
    email: string;
    startsAt: Date;
    ticketTypeName: string | null;
    quantity: number;
    status: WaitlistEntryStatus;
    joinedAt: Date;
    offer: { quantity: number; ticketTypeName: string; expiresAt: Date; status: WaitlistOfferStatus; orderId: string | null } | null;
  }[];
}

/** `eventWaitlist`: the organizer's view of the line (sales:read of the event's organization). */
export async function eventWaitlist(ctx: Ctx, eventId: string): Promise<EventWaitlistView> {
  const event = await requireEvent(ctx, eventId, "sales:read");
  const [settings] = await ctx.db.select().from(waitlistSettings).where(eq(waitlistSettings.eventId, event.id));
  const rows = await ctx.db
    .select({ entry: waitlistEntries, user: { firstName: users.firstName, lastName: users.lastName, email: users.email }, startsAt: eventDates.startsAt, ticketTypeName: ticketTypes.name })
    .from(waitlistEntries)
    .innerJoin(users, eq(users.id, waitlistEntries.userId))
    .innerJoin(eventDates, eq(eventDates.id, waitlistEntries.eventDateId))
    .leftJoin(ticketTypes, eq(ticketTypes.id, waitlistEntries.ticketTypeId))
    .where(eq(waitlistEntries.eventId, event.id))
    .orderBy(asc(waitlistEntries.position))
    .limit(1000);
  const offers = rows.length
    ? await ctx.db
        .select({ offer: waitlistOffers, ticketTypeName: ticketTypes.name })
        .from(waitlistOffers)
        .innerJoin(ticketTypes, eq(ticketTypes.id, waitlistOffers.ticketTypeId))
        .where(inArray(waitlistOffers.entryId, rows.map((r) => r.entry.id)))
        .orderBy(desc(waitlistOffers.offeredAt))
    : [];
  const waitingRows = rows.filter((r) => r.entry.status === "waiting");
  const groups = new Map<string, EventWaitlistView["byTicketType"][number]>();
  for (const r of waitingRows) {
    const key = r.entry.ticketTypeId ?? "any";
    const group = groups.get(key) ?? { ticketTypeId: r.entry.ticketTypeId, ticketTypeName: r.ticketTypeName ?? null, people: 0, tickets: 0 };
    group.people += 1;
    group.tickets += r.entry.quantity;
    groups.set(key, group);
  }
  return {
    eventId: event.id,
    enabled: settings?.enabled ?? false,
    offerMinutes: settings?.offerMinutes ?? DEFAULT_OFFER_MINUTES,
    waiting: waitingRows.length,
    waitingTickets: waitingRows.reduce((sum, r) => sum + r.entry.quantity, 0),
    offered: rows.filter((r) => r.entry.status === "offered").length,
    byTicketType: [...groups.values()],
    entries: rows.map((r) => {
      const latest = offers.find((o) => o.offer.entryId === r.entry.id);
      return {
        id: r.entry.id,
        position: r.entry.position,
        name: `${r.user.firstName} ${r.user.lastName}`.trim(),
        email: r.user.email,
        startsAt: r.startsAt,
        ticketTypeName: r.ticketTypeName ?? null,
        quantity: r.entry.quantity,
        status: r.entry.status,
        joinedAt: r.entry.joinedAt,
        offer: latest ? { quantity: latest.offer.quantity, ticketTypeName: latest.ticketTypeName, expiresAt: latest.offer.expiresAt, status: latest.offer.status, orderId: latest.offer.orderId } : null,
      };
    }),
  };
}

const settingsSchema = z.object({
  eventId: z.string(),
  enabled: z.boolean({ message: "Elegí si la lista de espera está activa." }),
  offerMinutes: z.coerce
    .number({ message: "Ingresá los minutos." })
    .int("Tiene que ser un número entero.")
    .min(5, "Tiene que ser al menos 5 minutos.")
    .max(1440, "Como máximo 1440 minutos (24 horas).")
    .nullish(),
});

/**
 * Turns the event's waiting list on or off and sets how long an offer holds
 * its tickets (events:manage). Turned on, tickets already available go to
 * whoever waits; turned off, nobody new is offered (running offers run out).
 */
export async function setEventWaitlist(ctx: Ctx, rawInput: DomainInput<typeof settingsSchema>): Promise<EventWaitlistView> {
  const input = parseInput(settingsSchema, rawInput);
  const event = await requireEvent(ctx, input.eventId);
  await ctx.db.transaction(async (tx) => {
    const current = await lockWaitlist(tx, event.id);
    const values = { enabled: input.enabled, offerMinutes: input.offerMinutes ?? current?.offerMinutes ?? DEFAULT_OFFER_MINUTES, updatedAt: ctx.now };
    if (current) await tx.update(waitlistSettings).set(values).where(eq(waitlistSettings.eventId, event.id));
    else await tx.insert(waitlistSettings).values({ eventId: event.id, ...values });
    await recordAudit(tx, ctx, { organizationId: event.organizationId, action: "waitlist.settings", targetId: event.id, data: { eventId: event.id, name: event.name, enabled: values.enabled, offerMinutes: values.offerMinutes } });
    if (values.enabled) await offerReturnedTickets(tx, { eventId: event.id }, ctx.now);
  });
  // The event page shows the form only while the list is on: its cached copies go.
  eventChanged(event.id);
  return eventWaitlist(ctx, event.id);
}
