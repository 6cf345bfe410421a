import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { bestAvailable, MAX_SEATS_PER_ORDER, SEATING_MESSAGES, type ChosenSeat } from "#common/seating";
import type { SeatPlan } from "#common/seating-plan";
import type { DbOrTx } from "#server/db/client";
import { eventSeating, issuedProducts, LIVE_CLAIM, seatClaims, ticketTypes, type IssuedProductRow } from "#server/db/schema";
import { Conflict, Invalid } from "#server/errors";
import { liveClaims } from "./event-seating";
import { loadMap } from "./maps";
import { cachedSeatingOfEvent } from "./cache";

/*
 * Seats and orders (docs/seating.md). The order lifecycle calls these inside
 * its own transactions: a seat is claimed where the tickets are held, sold
 * where the order is paid, and released where the hold ends or the order is
 * refunded or voided — so a seat follows its order exactly once. The partial
 * UNIQUE index on seat_claims (one live claim per seat and date) is the
 * guarantee; these functions only ask for it and turn its "no" into
 * SEAT_TAKEN.
 */

/** GraphQL `extensions.reason` of a seat someone else holds (CONFLICT): the buyer picks another. */
export const SEAT_TAKEN = "SEAT_TAKEN";

/** Someone else holds, bought or blocked the seat: CONFLICT with reason SEAT_TAKEN, the message on `seats`. */
export class SeatTaken extends Conflict {
  constructor(message: string = SEATING_MESSAGES.seatTaken) {
    super(message, { seats: [message] });
    this.reason = SEAT_TAKEN;
  }
}

const uuid = z.string().uuid("Identificador inválido");

/** What a buyer of a seated event sends with createOrder: the seats, or a best-available request. */
export const seatRequestSchema = z.object({
  seats: z
    .array(z.string().min(1).max(64))
    .max(MAX_SEATS_PER_ORDER, SEATING_MESSAGES.tooMany(MAX_SEATS_PER_ORDER))
    .nullish(),
  bestAvailable: z
    .object({
      ticketTypeId: uuid.nullish(),
      category: z.string().max(60).nullish(),
      quantity: z.number().int("Elegí cuántos asientos").min(1, "Elegí cuántos asientos").max(MAX_SEATS_PER_ORDER, SEATING_MESSAGES.tooMany(MAX_SEATS_PER_ORDER)),
    })
    .nullish(),
});

/** One seat an order takes, with the ticket type it sells as and its printed label. */
export interface SeatForOrder {
  guid: string;
  ticketTypeId: string;
  section: string;
  row: string;
  number: string;
}

/**
 * The seated part of a createOrder (null: the event is general admission). `items` replace the buyer's
 * items: what the seats sell. `pick(tx, eventDateId)`, inside the order's transaction, says which seats to
 * claim on the order's date: the buyer's own, or the best available ones. Best available takes the date's
 * advisory lock first and reads the claims under it, so two best-available buyers never pick the same
 * seats (they would only refuse each other); a buyer's own seats need no lock (the index decides).
 */
export interface SeatedOrder {
  /** Whether the buyer asked for seats (or best available): without, the order may not buy seatedTypes. */
  asked: boolean;
  /** The ticket types that only sell with a seat. */
  seatedTypes: Set<string>;
  items: { ticketId: string; qty: number }[];
  pick(tx: DbOrTx, eventDateId: string): Promise<SeatForOrder[]>;
  /** Best available may try again after losing a race; a buyer's own seat may not. */
  retryable: boolean;
}

/**
 * The event's seating for a createOrder (or its preview) turned into order items, for the event `eventId` (null: no
 * such event). A seated event needs seats or best available (for its seated ticket types); a general admission
 * event refuses them. The seating and its prepared plan come from memory (server/seating/cache.ts, followed through
 * the "seating" notification): an order reads no seating row, seated or not (the claim, in the order's
 * transaction, is what decides who gets a seat).
 */
export async function seatedOrder(db: DbOrTx, eventId: string | null, rawRequest: unknown): Promise<SeatedOrder | null> {
  const parsed = seatRequestSchema.safeParse(rawRequest);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.join(".") || "seats"] ??= []).push(issue.message);
    throw new Invalid(fieldErrors, Object.values(fieldErrors)[0][0]);
  }
  const request = parsed.data;
  const asked = !!request.seats?.length || !!request.bestAvailable;
  const found = eventId ? await cachedSeatingOfEvent(db, eventId) : null;
  if (!found) {
    if (asked) throw new Invalid({ seats: [SEATING_MESSAGES.notSeated] }, SEATING_MESSAGES.notSeated);
    return null;
  }
  const categories = found.seating.categories;
  const seatedTypes = new Set(Object.values(categories));
  if (!asked) return { asked, seatedTypes, items: [], pick: async () => [], retryable: false };
  if (request.seats?.length && request.bestAvailable) throw new Invalid({ seats: [SEATING_MESSAGES.seatsOrBest] }, SEATING_MESSAGES.seatsOrBest);
  const index = found.map.index;
  const forOrder = (seat: ChosenSeat): SeatForOrder => ({ guid: seat.guid, ticketTypeId: categories[seat.category], section: seat.section, row: seat.row, number: seat.number });

  if (request.seats?.length) {
    const seen = new Set<string>();
    const chosen = request.seats.map((guid) => {
      const seat = index.get(guid);
      if (!seat || !categories[seat.category]) throw new Invalid({ seats: [SEATING_MESSAGES.seatUnknown] }, SEATING_MESSAGES.seatUnknown);
      if (seen.has(guid)) throw new Invalid({ seats: [SEATING_MESSAGES.seatTwice] }, SEATING_MESSAGES.seatTwice);
      seen.add(guid);
      return forOrder(seat);
    });
    return { asked, seatedTypes, items: itemsOf(chosen), pick: async () => chosen, retryable: false };
  }

  const best = request.bestAvailable!;
  let wanted: string[];
  let ticketTypeId: string;
  if (best.category) {
    ticketTypeId = categories[best.category];
    if (!ticketTypeId || (best.ticketTypeId && best.ticketTypeId !== ticketTypeId)) throw new Invalid({ "bestAvailable.category": [SEATING_MESSAGES.ticketTypeNotSeated] }, SEATING_MESSAGES.ticketTypeNotSeated);
    wanted = [best.category];
  } else {
    ticketTypeId = best.ticketTypeId ?? "";
    wanted = Object.entries(categories).flatMap(([category, id]) => (id === ticketTypeId ? [category] : []));
    if (!wanted.length) throw new Invalid({ "bestAvailable.ticketTypeId": [SEATING_MESSAGES.ticketTypeNotSeated] }, SEATING_MESSAGES.ticketTypeNotSeated);
  }
  return {
    asked,
    seatedTypes,
    items: [{ ticketId: ticketTypeId, qty: best.quantity }],
    retryable: true,
    async pick(tx, eventDateId) {
      const answer = await pickBestAvailable(tx, { plan: found.map.plan, eventDateId, categories: wanted, quantity: best.quantity });
      if ("error" in answer) throw new NoSeatsTogether(answer.error, "bestAvailable");
      return answer.seats.map(forOrder);
    },
  };
}

/** Best available found no N seats together (bestAvailable's Spanish message, on the caller's field). */
export class NoSeatsTogether extends Conflict {
  constructor(message: string, field: string) {
    super(message, { [field]: [message] });
  }
}

/**
 * The date's best-available lock, then the best N seats of these categories among those with no live claim
 * (common/seating.ts bestAvailable). The lock is held until the caller's transaction ends: the next picker of
 * this date reads our claims, so two pickers never choose the same seats. Every path that picks seats for
 * somebody (createOrder's best available, invitations, sales in hand) comes through here.
 */
async function pickBestAvailable(tx: DbOrTx, input: { plan: SeatPlan; eventDateId: string; categories: string[]; quantity: number; apart?: boolean }) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tribuna:seats:${input.eventDateId}`}, 0))`);
  const unavailable = new Set((await liveClaims(tx, input.eventDateId)).map((c) => c.seatGuid));
  const together = bestAvailable(input.plan, { unavailable, categories: input.categories, quantity: input.quantity });
  if (!("error" in together) || !input.apart) return together;
  // Apart: the best single seats, one by one (each choice counted as taken for the next).
  const seats: ChosenSeat[] = [];
  for (let i = 0; i < input.quantity; i++) {
    const one = bestAvailable(input.plan, { unavailable, categories: input.categories, quantity: 1 });
    if ("error" in one) return together;
    seats.push(one.seats[0]);
    unavailable.add(one.seats[0].guid);
  }
  return { seats };
}

/**
 * The best N seats of a ticket type on a date for a path that then claims them through createOrder's own
 * `seats` (the waiting list's claim, decision 236): the date's lock is taken here and held until the caller's
 * transaction ends, so no best-available buyer picks them meanwhile. Together if possible; with `apart`, else
 * the best single seats. Null: a general admission type. NoSeatsTogether when there are not N free.
 */
export async function bestSeatsOfTicketType(tx: DbOrTx, input: { eventDateId: string; ticketTypeId: string; quantity: number; apart: boolean; field: string }): Promise<string[] | null> {
  const seating = await seatingOfTicketType(tx, input.ticketTypeId);
  if (!seating) return null;
  const answer = await pickBestAvailable(tx, { plan: seating.plan, eventDateId: input.eventDateId, categories: seating.categories, quantity: input.quantity, apart: input.apart });
  if ("error" in answer) throw new NoSeatsTogether(answer.error, input.field);
  return answer.seats.map((s) => s.guid);
}

/** A ticket type's seating: the event's plan and the categories it sells (null: general admission). */
export interface TicketTypeSeating {
  plan: SeatPlan;
  categories: string[];
  seat: (seat: ChosenSeat) => SeatForOrder;
}

/** A ticket type's seating: the event's plan and the categories it sells; null for a general admission type. */
export async function seatingOfTicketType(db: DbOrTx, ticketTypeId: string): Promise<TicketTypeSeating | null> {
  const [row] = await db
    .select({ seating: eventSeating })
    .from(ticketTypes)
    .innerJoin(eventSeating, eq(eventSeating.eventId, ticketTypes.eventId))
    .where(eq(ticketTypes.id, ticketTypeId));
  if (!row) return null;
  const categories = Object.entries(row.seating.categories).flatMap(([category, id]) => (id === ticketTypeId ? [category] : []));
  if (!categories.length) return null;
  const map = await loadMap(db, row.seating.seatMapId);
  return { plan: map.plan, categories, seat: (seat) => ({ guid: seat.guid, ticketTypeId, section: seat.section, row: seat.row, number: seat.number }) };
}

/**
 * The best N seats together of a ticket type on a date, claimed as `held` by the order, in the caller's
 * transaction — for the paths that take stock without createOrder (an invitation, a giveaway row, a
 * promoter's sale in hand: docs/seating.md). The caller has written the order and has NOT yet taken the
 * ticket type's row (the seats first, then the stock, as createOrder: no deadlock); the lifecycle's onPaid
 * then sells them and prints them on the tickets. Each try runs in a savepoint: losing a seat to a buyer who
 * chose it on the map picks again (five times, then SEAT_TAKEN). No N together: NoSeatsTogether with
 * bestAvailable's message on `field`. Returns [] for a general admission type (nothing claimed). `seating`: the
 * type's, when the caller already read it (else read here).
 */
export async function claimBestAvailableSeats(
  tx: DbOrTx,
  input: { orderId: string; eventDateId: string; ticketTypeId: string; quantity: number; holdExpiresAt: Date | null; now: Date; field: string; seating?: TicketTypeSeating },
): Promise<SeatForOrder[]> {
  const seating = input.seating ?? (await seatingOfTicketType(tx, input.ticketTypeId));
  if (!seating) return [];
  for (let attempt = 0; ; attempt++) {
    try {
      return await tx.transaction(async (sp) => {
        const answer = await pickBestAvailable(sp, { plan: seating.plan, eventDateId: input.eventDateId, categories: seating.categories, quantity: input.quantity });
        if ("error" in answer) throw new NoSeatsTogether(answer.error, input.field);
        const seats = answer.seats.map(seating.seat);
        await claimOrderSeats(sp, { orderId: input.orderId, eventDateId: input.eventDateId, seats, holdExpiresAt: input.holdExpiresAt, now: input.now });
        return seats;
      });
    } catch (error) {
      if (error instanceof SeatTaken && attempt < 4) continue;
      throw error;
    }
  }
}

function itemsOf(seats: SeatForOrder[]) {
  const qty = new Map<string, number>();
  for (const seat of seats) qty.set(seat.ticketTypeId, (qty.get(seat.ticketTypeId) ?? 0) + 1);
  return [...qty].map(([ticketId, n]) => ({ ticketId, qty: n }));
}

/**
 * Claims the order's seats as `held` in the caller's transaction (createOrder's, next to the stock hold),
 * one INSERT in guid order (two orders wanting the same seats meet them in the same order: no deadlock).
 * A seat with a live claim (held, sold or blocked) makes the INSERT skip it — after waiting for an
 * uncommitted claim to commit or roll back — and the whole order is refused with SEAT_TAKEN.
 */
export async function claimOrderSeats(tx: DbOrTx, claim: { orderId: string; eventDateId: string; seats: SeatForOrder[]; holdExpiresAt: Date | null; now: Date }): Promise<void> {
  if (!claim.seats.length) return;
  const seats = [...claim.seats].sort((a, b) => (a.guid < b.guid ? -1 : a.guid > b.guid ? 1 : 0));
  const inserted = await tx
    .insert(seatClaims)
    .values(
      seats.map((s) => ({
        eventDateId: claim.eventDateId,
        seatGuid: s.guid,
        state: "held" as const,
        section: s.section,
        row: s.row,
        number: s.number,
        orderId: claim.orderId,
        ticketTypeId: s.ticketTypeId,
        holdExpiresAt: claim.holdExpiresAt,
        createdAt: claim.now,
      })),
    )
    .onConflictDoNothing({ target: [seatClaims.eventDateId, seatClaims.seatGuid], where: LIVE_CLAIM })
    .returning({ seatGuid: seatClaims.seatGuid });
  if (inserted.length === seats.length) return;
  const got = new Set(inserted.map((i) => i.seatGuid));
  const lost = seats.filter((s) => !got.has(s.guid)).map((s) => s.guid);
  const [blocked] = await tx
    .select({ seatGuid: seatClaims.seatGuid })
    .from(seatClaims)
    .where(and(eq(seatClaims.eventDateId, claim.eventDateId), inArray(seatClaims.seatGuid, lost), eq(seatClaims.state, "blocked")))
    .limit(1);
  throw new SeatTaken(blocked ? SEATING_MESSAGES.seatBlocked : SEATING_MESSAGES.seatTaken);
}

/**
 * onPaid: the order's held seats become sold; returns them (in section, row, number order) for the tickets
 * to carry. Nothing for an order without seats.
 */
export async function sellOrderSeats(tx: DbOrTx, orderId: string): Promise<SeatForOrder[]> {
  const sold = await tx
    .update(seatClaims)
    .set({ state: "sold", holdExpiresAt: null })
    .where(and(eq(seatClaims.orderId, orderId), eq(seatClaims.state, "held")))
    .returning({ guid: seatClaims.seatGuid, ticketTypeId: seatClaims.ticketTypeId, section: seatClaims.section, row: seatClaims.row, number: seatClaims.number });
  return sold
    .map((s) => ({ ...s, ticketTypeId: s.ticketTypeId! }))
    .sort((a, b) => a.section.localeCompare(b.section, "es") || a.row.localeCompare(b.row, "es", { numeric: true }) || a.number.localeCompare(b.number, "es", { numeric: true }));
}

/**
 * The order's seats go back on sale (its hold ended, or it was refunded, charged back or voided). A claim
 * is released once: the UPDATE only moves live claims, and the lifecycle calls this only from the
 * transition that won. Returns how many seats it freed.
 */
export async function releaseOrderSeats(tx: DbOrTx, orderId: string, now: Date): Promise<number> {
  const released = await tx
    .update(seatClaims)
    .set({ state: "released", releasedAt: now, holdExpiresAt: null })
    .where(and(eq(seatClaims.orderId, orderId), inArray(seatClaims.state, ["held", "sold"])))
    .returning({ id: seatClaims.id });
  return released.length;
}

/**
 * A late payment for an expired order: the same seats again, all or nothing (the caller then re-holds the
 * stock). True when the order had no seats or got them all back; false when any is taken now (nothing
 * claimed, the payment goes back).
 */
export async function reholdOrderSeats(tx: DbOrTx, orderId: string, now: Date): Promise<boolean> {
  const previous = await tx
    .selectDistinctOn([seatClaims.seatGuid], {
      eventDateId: seatClaims.eventDateId,
      guid: seatClaims.seatGuid,
      ticketTypeId: seatClaims.ticketTypeId,
      section: seatClaims.section,
      row: seatClaims.row,
      number: seatClaims.number,
    })
    .from(seatClaims)
    .where(and(eq(seatClaims.orderId, orderId), eq(seatClaims.state, "released")))
    .orderBy(asc(seatClaims.seatGuid));
  if (!previous.length) return true;
  try {
    // In a savepoint: a refusal leaves the caller's transaction usable for the refund.
    await tx.transaction((sp) =>
      claimOrderSeats(sp, { orderId, eventDateId: previous[0].eventDateId, seats: previous.map((p) => ({ ...p, ticketTypeId: p.ticketTypeId! })), holdExpiresAt: null, now }),
    );
    return true;
  } catch (error) {
    if (error instanceof SeatTaken) return false;
    throw error;
  }
}

/**
 * A resale sold the seller's ticket to this order (onPaid, after settleResale): the buyer's new ticket
 * carries the seat, and the seat's sold claim moves to the buyer's order, so refunding that order frees it.
 */
export async function moveResoldSeat(tx: DbOrTx, sellerTicketId: string, buyerOrderId: string, issued: IssuedProductRow[]): Promise<void> {
  const [seller] = await tx
    .select({ orderId: issuedProducts.orderId, seatGuid: issuedProducts.seatGuid, section: issuedProducts.seatSection, row: issuedProducts.seatRow, number: issuedProducts.seatNumber })
    .from(issuedProducts)
    .where(eq(issuedProducts.id, sellerTicketId));
  if (!seller?.seatGuid || !issued.length) return;
  const ticket = issued[0];
  await tx
    .update(issuedProducts)
    .set({ seatGuid: seller.seatGuid, seatSection: seller.section, seatRow: seller.row, seatNumber: seller.number })
    .where(eq(issuedProducts.id, ticket.id));
  Object.assign(ticket, { seatGuid: seller.seatGuid, seatSection: seller.section, seatRow: seller.row, seatNumber: seller.number });
  await tx
    .update(seatClaims)
    .set({ orderId: buyerOrderId })
    .where(and(eq(seatClaims.orderId, seller.orderId), eq(seatClaims.seatGuid, seller.seatGuid), eq(seatClaims.state, "sold")));
}
