import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import { SEATING_MESSAGES, seatIndex, type SeatState } from "#common/seating";
import type { SeatPlan } from "#common/seating-plan";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { eventDates, events, eventSeating, LIVE_CLAIM, seatClaims, ticketTypes, type EventSeatingRow, type SeatMapRow } from "#server/db/schema";
import { Conflict, Forbidden, Invalid, NotFound } from "#server/errors";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { loadMap } from "./maps";
import { syncSeatedStock } from "./stock";

const uuid = z.string().uuid("Identificador inválido");
const EVENT_NOT_FOUND = "No encontramos el evento.";
const DATE_NOT_FOUND = "No encontramos esa fecha del evento.";

async function loadEvent(db: DbOrTx, eventId: string) {
  if (!uuid.safeParse(eventId).success) throw new NotFound(EVENT_NOT_FOUND);
  const [event] = await db
    .select({ id: events.id, organizationId: events.organizationId, status: events.status, publishedAt: events.publishedAt })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event || event.status === "deleted") throw new NotFound(EVENT_NOT_FOUND);
  return event;
}

async function loadDate(db: DbOrTx, eventId: string, eventDateId: string) {
  if (!uuid.safeParse(eventDateId).success) throw new NotFound(DATE_NOT_FOUND);
  const [date] = await db
    .select({ id: eventDates.id })
    .from(eventDates)
    .where(and(eq(eventDates.id, eventDateId), eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted")));
  if (!date) throw new NotFound(DATE_NOT_FOUND);
  return date;
}

/** The event's earliest date that is not deleted (what setEventSeating answers with). */
export async function firstEventDate(db: DbOrTx, eventId: string): Promise<string> {
  const [date] = await db
    .select({ id: eventDates.id })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted")))
    .orderBy(asc(eventDates.startsAt))
    .limit(1);
  if (!date) throw new NotFound(DATE_NOT_FOUND);
  return date.id;
}

/** The event's seating with its map, or null for general admission. */
export async function seatingOfEvent(db: DbOrTx, eventId: string): Promise<{ seating: EventSeatingRow; map: SeatMapRow } | null> {
  const [row] = await db.select().from(eventSeating).where(eq(eventSeating.eventId, eventId));
  if (!row) return null;
  return { seating: row, map: await loadMap(db, row.seatMapId) };
}

export const setEventSeatingSchema = z.object({
  eventId: uuid,
  seatMapId: uuid,
  categories: z
    .array(z.object({ category: z.string().trim().min(1, "Elegí una categoría").max(60), ticketTypeId: uuid }))
    .max(40),
});

/**
 * `setEventSeating`: which map the event's dates use and which ticket type sells each category. Every
 * category a seat uses must map to a ticket type of the event (a ticket, not a menu item); the map must
 * be the organization's; seats already held, sold or blocked on a date must still be in the map. The
 * seated ticket types' stock becomes their seat count, in the same transaction.
 */
export async function setEventSeating(ctx: Ctx, rawInput: DomainInput<typeof setEventSeatingSchema>): Promise<EventSeatingRow> {
  const input = parseInput(setEventSeatingSchema, rawInput);
  const event = await loadEvent(ctx.db, input.eventId);
  await requireCapability(ctx, event.organizationId, "events:manage");
  const map = await loadMap(ctx.db, input.seatMapId);
  if (map.organizationId !== event.organizationId) throw new NotFound(SEATING_MESSAGES.mapNotFound);

  const planCategories = new Set(map.plan.categories.map((c) => c.name));
  const categories: Record<string, string> = {};
  const errors: Record<string, string[]> = {};
  input.categories.forEach((c, i) => {
    if (!planCategories.has(c.category)) (errors[`categories.${i}.category`] ??= []).push(SEATING_MESSAGES.categoryUnknown(c.category));
    else if (categories[c.category]) (errors[`categories.${i}.category`] ??= []).push(`La categoría «${c.category}» está dos veces.`);
    categories[c.category] = c.ticketTypeId;
  });
  const mapped = [...new Set(Object.values(categories))];
  const types = mapped.length
    ? await ctx.db.select({ id: ticketTypes.id, eventId: ticketTypes.eventId, kind: ticketTypes.kind, status: ticketTypes.status }).from(ticketTypes).where(inArray(ticketTypes.id, mapped))
    : [];
  input.categories.forEach((c, i) => {
    const type = types.find((t) => t.id === c.ticketTypeId);
    if (!type || type.eventId !== event.id || type.kind !== "ticket" || type.status === "deleted") (errors[`categories.${i}.ticketTypeId`] ??= []).push(SEATING_MESSAGES.ticketTypeNotOfEvent);
  });
  if (Object.keys(errors).length) throw new Invalid(errors, Object.values(errors)[0][0]);

  return ctx.db.transaction(async (tx) => {
    // Seats someone holds, bought or the organizer blocked must still exist in the map the event moves to.
    const seats = seatIndex(map.plan);
    const claimed = await tx
      .selectDistinct({ seatGuid: seatClaims.seatGuid })
      .from(seatClaims)
      .innerJoin(eventDates, eq(eventDates.id, seatClaims.eventDateId))
      .where(and(eq(eventDates.eventId, event.id), ne(seatClaims.state, "released")));
    const missing = claimed.find((c) => !seats.has(c.seatGuid));
    if (missing) throw new Conflict(SEATING_MESSAGES.claimedSeatRemoved(missing.seatGuid));
    await syncSeatedStock(tx, { eventId: event.id, plan: map.plan, categories, now: ctx.now });
    const [row] = await tx
      .insert(eventSeating)
      .values({ eventId: event.id, seatMapId: map.id, categories, updatedAt: ctx.now })
      .onConflictDoUpdate({ target: eventSeating.eventId, set: { seatMapId: map.id, categories, updatedAt: ctx.now } })
      .returning();
    return row;
  });
}

export interface SeatStatus {
  guid: string;
  state: SeatState;
  /** Only for the organizer: why a blocked seat is off sale. */
  reason: string | null;
}

export interface EventSeatingView {
  eventId: string;
  eventDateId: string;
  map: SeatMapRow;
  plan: SeatPlan;
  /** Category name → ticket type id. */
  categories: Record<string, string>;
  /** Every numbered seat of the map, in plan order, with its state on that date. */
  seats: SeatStatus[];
}

/**
 * `eventSeating(eventId, dateId)`: the map and each seat's state on that date, for the buyer's map (a
 * published, active event: anyone) or the organizer (any of its events, with the reason of each block).
 */
export async function getEventSeating(ctx: Ctx, eventId: string, eventDateId: string): Promise<EventSeatingView> {
  const event = await loadEvent(ctx.db, eventId);
  let organizer = false;
  if (!event.publishedAt || event.status !== "active") {
    try {
      await requireCapability(ctx, event.organizationId, "events:manage");
    } catch (error) {
      // A draft is nobody else's business: the same answer as an unknown event.
      if (error instanceof Forbidden) throw new NotFound(EVENT_NOT_FOUND);
      throw error;
    }
    organizer = true;
  } else if (ctx.actor.kind === "user") {
    organizer = await requireCapability(ctx, event.organizationId, "events:manage").then(
      () => true,
      () => false,
    );
  }
  await loadDate(ctx.db, event.id, eventDateId);
  const found = await seatingOfEvent(ctx.db, event.id);
  if (!found) throw new NotFound(SEATING_MESSAGES.notSeated);
  const claims = await liveClaims(ctx.db, eventDateId);
  const byGuid = new Map(claims.map((c) => [c.seatGuid, c]));
  const seats = [...seatIndex(found.map.plan).keys()].map((guid): SeatStatus => {
    const claim = byGuid.get(guid);
    return { guid, state: claim ? (claim.state as SeatState) : "free", reason: organizer && claim?.state === "blocked" ? claim.reason : null };
  });
  return { eventId: event.id, eventDateId, map: found.map, plan: found.map.plan, categories: found.seating.categories, seats };
}

/** The seats of a date that are not free (held, sold or blocked). */
export async function liveClaims(db: DbOrTx, eventDateId: string) {
  return db
    .select({ seatGuid: seatClaims.seatGuid, state: seatClaims.state, reason: seatClaims.reason })
    .from(seatClaims)
    .where(and(eq(seatClaims.eventDateId, eventDateId), ne(seatClaims.state, "released")));
}

export const blockSeatsSchema = z.object({
  eventId: uuid,
  eventDateId: uuid,
  seats: z.array(z.string().min(1).max(64)).min(1, "Elegí al menos un asiento").max(5000),
  reason: z
    .string()
    .trim()
    .max(200, "Escribí el motivo en menos de 200 caracteres.")
    .nullish()
    .transform((v) => v || null),
});

async function organizerSeating(ctx: Ctx, eventId: string, eventDateId: string, guids: string[]) {
  const event = await loadEvent(ctx.db, eventId);
  await requireCapability(ctx, event.organizationId, "events:manage");
  await loadDate(ctx.db, event.id, eventDateId);
  const found = await seatingOfEvent(ctx.db, event.id);
  if (!found) throw new Invalid({ eventId: [SEATING_MESSAGES.notSeated] }, SEATING_MESSAGES.notSeated);
  const index = seatIndex(found.map.plan);
  const unknown = guids.find((g) => !index.has(g));
  if (unknown) throw new Invalid({ seats: [SEATING_MESSAGES.seatUnknown] }, SEATING_MESSAGES.seatUnknown);
  return { event, index, guids: [...new Set(guids)].sort() };
}

/**
 * `blockSeats`: the organizer takes seats of one date off sale (production, cameras, guests), all or
 * nothing: a seat already held, sold or blocked refuses the whole block with CONFLICT. Returns the seats
 * blocked.
 */
export async function blockSeats(ctx: Ctx, rawInput: DomainInput<typeof blockSeatsSchema>): Promise<string[]> {
  const input = parseInput(blockSeatsSchema, rawInput);
  const { index, guids } = await organizerSeating(ctx, input.eventId, input.eventDateId, input.seats);
  const userId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  return ctx.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(seatClaims)
      .values(
        guids.map((guid) => {
          const seat = index.get(guid)!;
          return { eventDateId: input.eventDateId, seatGuid: guid, state: "blocked" as const, section: seat.section, row: seat.row, number: seat.number, reason: input.reason, blockedByUserId: userId, createdAt: ctx.now };
        }),
      )
      .onConflictDoNothing({ target: [seatClaims.eventDateId, seatClaims.seatGuid], where: LIVE_CLAIM })
      .returning({ seatGuid: seatClaims.seatGuid });
    if (inserted.length !== guids.length) {
      const taken = guids.find((g) => !inserted.some((i) => i.seatGuid === g))!;
      throw new Conflict(`${SEATING_MESSAGES.blockTaken} (${formatGuid(index, taken)})`, { seats: [SEATING_MESSAGES.blockTaken] });
    }
    return guids;
  });
}

export const releaseSeatsSchema = blockSeatsSchema.omit({ reason: true });

/**
 * `releaseSeats`: blocked seats back on sale. A seat held or sold by an order is not the organizer's to free
 * here (CONFLICT: it is freed by the order's expiry, refund or cancellation); a free seat stays free.
 * Returns the seats released.
 */
export async function releaseSeats(ctx: Ctx, rawInput: DomainInput<typeof releaseSeatsSchema>): Promise<string[]> {
  const input = parseInput(releaseSeatsSchema, rawInput);
  const { guids } = await organizerSeating(ctx, input.eventId, input.eventDateId, input.seats);
  return ctx.db.transaction(async (tx) => {
    const ordered = await tx
      .select({ seatGuid: seatClaims.seatGuid })
      .from(seatClaims)
      .where(and(eq(seatClaims.eventDateId, input.eventDateId), inArray(seatClaims.seatGuid, guids), inArray(seatClaims.state, ["held", "sold"])));
    if (ordered.length) throw new Conflict(SEATING_MESSAGES.releaseSold, { seats: [SEATING_MESSAGES.releaseSold] });
    const released = await tx
      .update(seatClaims)
      .set({ state: "released", releasedAt: ctx.now })
      .where(and(eq(seatClaims.eventDateId, input.eventDateId), inArray(seatClaims.seatGuid, guids), eq(seatClaims.state, "blocked")))
      .returning({ seatGuid: seatClaims.seatGuid });
    return released.map((r) => r.seatGuid).sort();
  });
}

function formatGuid(index: ReturnType<typeof seatIndex>, guid: string) {
  const seat = index.get(guid);
  return seat ? `${seat.section}, fila ${seat.row}, asiento ${seat.number}` : guid;
}
