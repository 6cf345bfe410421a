import { and, asc, count, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import { SEATING_MESSAGES, seatIndex, seatsPerCategory, type SeatState } from "#common/seating";
import type { SeatPlan, SeatPlanSeat } from "#common/seating-plan";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { eventDates, events, eventSeating, LIVE_CLAIM, seatClaims, ticketTypes, type EventSeatingRow, type SeatMapRow } from "#server/db/schema";
import { Conflict, Forbidden, Invalid, NotFound } from "#server/errors";
import { membershipRole, requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { cachedSeatingOfEvent, seatingChanged } from "./cache";
import { listSeatMaps, loadMap } from "./maps";
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
    // An empty ticketTypeId is a category left unassigned (the back office's "Sin asignar"): refused if it has seats.
    .array(z.object({ category: z.string().trim().min(1, "Elegí una categoría").max(60), ticketTypeId: z.union([uuid, z.literal("")]) }))
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
  const seatCounts = seatsPerCategory(map.plan);
  const categories: Record<string, string> = {};
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  input.categories.forEach((c, i) => {
    if (!planCategories.has(c.category)) (errors[`categories.${i}.category`] ??= []).push(SEATING_MESSAGES.categoryUnknown(c.category));
    else if (seen.has(c.category)) (errors[`categories.${i}.category`] ??= []).push(`La categoría «${c.category}» está dos veces.`);
    seen.add(c.category);
    if (!c.ticketTypeId) {
      // Left unassigned: fine for a category without seats, said next to its field otherwise.
      if (seatCounts.get(c.category)) (errors[`categories.${i}.ticketTypeId`] ??= []).push(SEATING_MESSAGES.categoryUnmapped(c.category));
      return;
    }
    categories[c.category] = c.ticketTypeId;
  });
  const mapped = [...new Set(Object.values(categories))];
  const types = mapped.length
    ? await ctx.db.select({ id: ticketTypes.id, eventId: ticketTypes.eventId, kind: ticketTypes.kind, status: ticketTypes.status }).from(ticketTypes).where(inArray(ticketTypes.id, mapped))
    : [];
  input.categories.forEach((c, i) => {
    if (!c.ticketTypeId) return;
    const type = types.find((t) => t.id === c.ticketTypeId);
    if (!type || type.eventId !== event.id || type.kind !== "ticket" || type.status === "deleted") (errors[`categories.${i}.ticketTypeId`] ??= []).push(SEATING_MESSAGES.ticketTypeNotOfEvent);
  });
  if (Object.keys(errors).length) throw new Invalid(errors, Object.values(errors)[0][0]);

  const saved = await ctx.db.transaction(async (tx) => {
    await refuseSeatlessUnits(tx, input.categories, mapped);
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
  // Every process drops its copy of the event's seating (decision 240).
  seatingChanged({ eventId: event.id });
  return saved;
}

/** Decision 237: what `setEventSeating` answers next to a category whose ticket type sold or holds units without a seat. */
export function seatlessUnitsMessage(ticketTypeName: string, units: number): string {
  const what = units === 1 ? "1 entrada vendida o reservada" : `${units} entradas vendidas o reservadas`;
  return `El tipo «${ticketTypeName}» ya tiene ${what} sin asiento: asigná el mapa a un tipo de entrada sin ventas.`;
}

/**
 * Decision 237: a category may not be mapped to a ticket type that already sold or holds units without a seat
 * (general admission sold before the map was assigned). Those units claim no seat, so the live map would show
 * their seats free while the stock is gone. Units with a live seat claim (re-saving the same mapping) are fine.
 * The types are locked in id order (docs/locking.md), as syncSeatedStock writes them next, so a sale that
 * commits meanwhile is counted.
 */
async function refuseSeatlessUnits(tx: DbOrTx, categories: { category: string; ticketTypeId: string }[], typeIds: string[]) {
  if (!typeIds.length) return;
  const types = await tx
    .select({ id: ticketTypes.id, name: ticketTypes.name, sold: ticketTypes.sold })
    .from(ticketTypes)
    .where(inArray(ticketTypes.id, typeIds))
    .orderBy(asc(ticketTypes.id))
    .for("update");
  const withSales = types.filter((t) => t.sold > 0);
  if (!withSales.length) return;
  const seated = await tx
    .select({ ticketTypeId: seatClaims.ticketTypeId, units: count() })
    .from(seatClaims)
    .where(and(inArray(seatClaims.ticketTypeId, withSales.map((t) => t.id)), inArray(seatClaims.state, ["held", "sold"])))
    .groupBy(seatClaims.ticketTypeId);
  const errors: Record<string, string[]> = {};
  for (const type of withSales) {
    const seatless = type.sold - (seated.find((s) => s.ticketTypeId === type.id)?.units ?? 0);
    if (seatless <= 0) continue;
    categories.forEach((c, i) => {
      if (c.ticketTypeId === type.id) (errors[`categories.${i}.ticketTypeId`] ??= []).push(seatlessUnitsMessage(type.name, seatless));
    });
  }
  if (Object.keys(errors).length) throw new Invalid(errors, Object.values(errors)[0]![0]);
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
  // The seating and the prepared plan from this process's copy (decision 240); the claims, always fresh.
  const found = await cachedSeatingOfEvent(ctx.db, event.id);
  if (!found) throw new NotFound(SEATING_MESSAGES.notSeated);
  const claims = await liveClaims(ctx.db, eventDateId);
  const byGuid = new Map(claims.map((c) => [c.seatGuid, c]));
  const seats: SeatStatus[] = [];
  for (const guid of found.map.index.keys()) {
    const claim = byGuid.get(guid);
    seats.push({ guid, state: claim ? (claim.state as SeatState) : "free", reason: organizer && claim?.state === "blocked" ? claim.reason : null });
  }
  return { eventId: event.id, eventDateId, map: found.map.row, plan: found.map.plan, categories: found.seating.categories, seats };
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

// ───────────────────────── The organizer's page ─────────────────────────

export type SeatCounts = Record<SeatState, number>;

/** A seat as the organizer's live map draws and lists it. */
export interface OrganizerSeat extends SeatPlanSeat {
  section: string;
  row: string;
  state: SeatState;
  reason: string | null;
}

export interface SeatingAdminView {
  event: { id: string; name: string; slug: string; organizationId: string };
  /** The organization's maps, by name, with how many seats each category has. */
  maps: { id: string; name: string; seats: number; categories: { name: string; color: string | null; seats: number }[] }[];
  /** What the event uses now, or null (general admission). */
  current: { seatMapId: string; categories: Record<string, string> } | null;
  /** The map the assignment form shows: the one asked for, else the event's, else the first. Null when the organization has none. */
  chosenMapId: string | null;
  /** The event's ticket types (not menu items, not deleted), with what the seated ones sell. */
  ticketTypes: { id: string; name: string; stock: number; sold: number; eventDateId: string | null; seats: number }[];
  dates: { id: string; startsAt: Date }[];
  /** The date the live map shows (the one asked for, else the first). Null when the event has no dates. */
  eventDateId: string | null;
  /** The event's map with each seat's state on that date, or null without seating. */
  live: { plan: SeatPlan; seats: OrganizerSeat[]; counts: SeatCounts } | null;
}

/**
 * The event by its slug for the organizer's seating page. Someone else's event is concealed (NOT_FOUND, like
 * an unknown slug): only members of the owning organization learn it exists; a member without `events:manage`
 * is FORBIDDEN.
 */
export async function organizerEventBySlug(ctx: Ctx, slug: string) {
  const [event] = await ctx.db
    .select({ id: events.id, name: events.name, slug: events.slug, organizationId: events.organizationId, status: events.status })
    .from(events)
    .where(eq(events.slug, slug.toLowerCase()));
  if (!event || event.status === "deleted") throw new NotFound(EVENT_NOT_FOUND);
  try {
    await requireCapability(ctx, event.organizationId, "events:manage");
  } catch (error) {
    if (error instanceof Forbidden && !(await membershipRole(ctx, event.organizationId))) throw new NotFound(EVENT_NOT_FOUND);
    throw error;
  }
  return { id: event.id, name: event.name, slug: event.slug, organizationId: event.organizationId };
}

/**
 * `/organizacion/eventos/{slug}/asientos`: the organization's maps, the event's assignment, the stock of its
 * ticket types and each seat's state on one date, with counts per state (docs/seating.md). For members who
 * manage events; someone else's event is NOT_FOUND.
 */
export async function getSeatingAdmin(ctx: Ctx, input: { slug: string; seatMapId?: string | null; eventDateId?: string | null }): Promise<SeatingAdminView> {
  const event = await organizerEventBySlug(ctx, input.slug);
  const maps = await listSeatMaps(ctx, event.organizationId);
  const found = await seatingOfEvent(ctx.db, event.id);
  const current = found ? { seatMapId: found.seating.seatMapId, categories: found.seating.categories } : null;
  const chosenMapId = maps.find((m) => m.id === input.seatMapId)?.id ?? current?.seatMapId ?? maps[0]?.id ?? null;

  const types = await ctx.db
    .select({ id: ticketTypes.id, name: ticketTypes.name, stock: ticketTypes.stock, sold: ticketTypes.sold, eventDateId: ticketTypes.eventDateId })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.kind, "ticket"), ne(ticketTypes.status, "deleted")))
    .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.name));
  const seatsOfType = new Map<string, number>();
  if (found) {
    for (const [category, count] of seatsPerCategory(found.map.plan)) {
      const typeId = found.seating.categories[category];
      if (typeId) seatsOfType.set(typeId, (seatsOfType.get(typeId) ?? 0) + count);
    }
  }

  const dates = await ctx.db
    .select({ id: eventDates.id, startsAt: eventDates.startsAt })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, event.id), ne(eventDates.status, "deleted")))
    .orderBy(asc(eventDates.startsAt));
  const eventDateId = dates.find((d) => d.id === input.eventDateId)?.id ?? dates[0]?.id ?? null;

  let live: SeatingAdminView["live"] = null;
  if (found && eventDateId) {
    const claims = new Map((await liveClaims(ctx.db, eventDateId)).map((c) => [c.seatGuid, c]));
    const counts: SeatCounts = { free: 0, held: 0, sold: 0, blocked: 0 };
    const seats: OrganizerSeat[] = [];
    for (const section of found.map.plan.sections) {
      if (section.kind !== "numbered") continue;
      for (const row of section.rows) {
        for (const seat of row.seats) {
          const claim = claims.get(seat.guid);
          const state = (claim?.state as SeatState | undefined) ?? "free";
          counts[state]++;
          seats.push({ ...seat, section: section.name, row: row.label, state, reason: state === "blocked" ? (claim?.reason ?? null) : null });
        }
      }
    }
    live = { plan: found.map.plan, seats, counts };
  }

  return {
    event,
    maps: maps.map((m) => {
      const counts = seatsPerCategory(m.plan);
      return {
        id: m.id,
        name: m.name,
        seats: [...counts.values()].reduce((a, b) => a + b, 0),
        categories: m.plan.categories.map((c) => ({ name: c.name, color: c.color ?? null, seats: counts.get(c.name) ?? 0 })),
      };
    }),
    current,
    chosenMapId,
    ticketTypes: types.map((t) => ({ ...t, seats: seatsOfType.get(t.id) ?? 0 })),
    dates,
    eventDateId,
    live,
  };
}
