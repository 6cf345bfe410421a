import { bestAvailable, SEATING_MESSAGES, seatLabel, type ChosenSeat, type MapSeat, type SeatState } from "#common/seating";
import { formatMoney } from "#common/money";
import { serviceFeeOf } from "#common/pricing";
import { finalPrice, priceDisplay } from "#common/tax-display";
import type { Ctx } from "#server/context";
import { getPublicEvent } from "#server/events/catalogue";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { env } from "#server/env";
import { cachedSeatingOfEvent, type BuyerPlan, type PreparedMap } from "./cache";
import { liveClaims } from "./event-seating";
import { seatedOrder } from "./claims";

/*
 * The buyer's side of reserved seating (docs/seating.md): the map of a date with each seat's state and
 * the final price of each category, a best-available proposal shown before the payer form, and the
 * items a choice of seats buys. Holding happens later, in createOrder.
 */

export interface BuyerCategory {
  name: string;
  ticketTypeId: string;
  /** Final price (service charge included), formatted: the first figure shown. */
  priceLabel: string;
  /** "Precio sin impuestos nacionales", formatted; null when equal to the final price. */
  withoutNationalTaxesLabel: string | null;
  free: number;
}

export interface MapSeating {
  event: { id: string; slug: string; name: string };
  date: { id: string; startsAt: Date };
  dates: { id: string; startsAt: Date }[];
  /**
   * What the map draws under the seats: size, shapes, categories and only the standing sections (decision 240:
   * the numbered rows would repeat every seat, which travel once in `seats` with their state).
   */
  plan: BuyerPlan;
  seats: MapSeat[];
  categories: BuyerCategory[];
  maxPerOrder: number;
}

/** `/asientos/{slug}`: the published event's map on one of its upcoming dates (the first by default). */
export async function buyerSeating(ctx: Ctx, slug: string, eventDateId?: string | null): Promise<MapSeating> {
  return (await buyerSeatingWithMap(ctx, slug, eventDateId)).seating;
}

async function buyerSeatingWithMap(ctx: Ctx, slug: string, eventDateId?: string | null): Promise<{ seating: MapSeating; map: PreparedMap }> {
  const page = await getPublicEvent(ctx, slug);
  // The seating and the prepared plan from this process's copy (decision 240); the claims, always fresh.
  const found = await cachedSeatingOfEvent(ctx.db, page.event.id);
  if (!found) throw new NotFound(SEATING_MESSAGES.notSeated);
  const date = (eventDateId && page.dates.find((d) => d.id === eventDateId)) || page.dates[0];
  if (!date) throw new NotFound("Este evento ya no tiene fechas a la venta.");
  const taken = new Map((await liveClaims(ctx.db, date.id)).map((c) => [c.seatGuid, c.state as SeatState]));
  const tickets = new Map(page.ticketTypes.map((t) => [t.id, t]));
  const bps = page.event.serviceFeeBps;
  const categories = Object.entries(found.seating.categories).flatMap(([name, ticketTypeId]): BuyerCategory[] => {
    const ticket = tickets.get(ticketTypeId);
    if (!ticket) return [];
    const fee = serviceFeeOf(ticket.price, bps);
    // The rule of docs/prices.md (the one server/orders/price-display.ts applies; seating sits below orders).
    const { withoutNationalTaxes } = priceDisplay(ticket.price, fee, env().PLATFORM_IVA_CONDITION);
    const guids = found.map.seatsOfCategory.get(name) ?? [];
    return [
      {
        name,
        ticketTypeId,
        priceLabel: formatMoney(finalPrice(ticket.price, fee)),
        withoutNationalTaxesLabel: withoutNationalTaxes === null ? null : formatMoney(withoutNationalTaxes),
        free: ticket.state === "on_sale" ? guids.reduce((free, guid) => (taken.has(guid) ? free : free + 1), 0) : 0,
      },
    ];
  });
  // A category whose ticket type is not on sale (hidden, ended, not started) shows its seats as not available,
  // and so does one no ticket type sells.
  const onSale = new Set(categories.filter((c) => tickets.get(c.ticketTypeId)?.state === "on_sale").map((c) => c.name));
  const seats = found.map.seats.map(
    (seat): MapSeat => ({
      guid: seat.guid,
      x: seat.x,
      y: seat.y,
      number: seat.number,
      row: seat.row,
      section: seat.section,
      category: seat.category,
      accessible: seat.accessible,
      restrictedView: seat.restrictedView,
      state: !found.seating.categories[seat.category] ? "blocked" : (taken.get(seat.guid) ?? (onSale.has(seat.category) ? "free" : "blocked")),
    }),
  );
  const maxPerOrder = Math.min(10, ...categories.map((c) => tickets.get(c.ticketTypeId)?.maxPerOrder ?? 10));
  return {
    map: found.map,
    seating: {
      event: { id: page.event.id, slug: page.event.slug, name: page.event.name },
      date: { id: date.id, startsAt: date.startsAt },
      dates: page.dates.map((d) => ({ id: d.id, startsAt: d.startsAt })),
      plan: found.map.backdrop,
      seats,
      categories,
      maxPerOrder,
    },
  };
}

/**
 * The best available seats right now, shown to the buyer before the payer form (nothing is held yet:
 * createOrder claims them, and answers SEAT_TAKEN if someone was faster).
 */
export async function proposeBestSeats(ctx: Ctx, slug: string, input: { eventDateId: string; category: string; quantity: number }): Promise<ChosenSeat[]> {
  const { seating, map } = await buyerSeatingWithMap(ctx, slug, input.eventDateId);
  if (!seating.categories.some((c) => c.name === input.category)) throw new Invalid({ category: ["Elegí una ubicación."] }, "Elegí una ubicación.");
  if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > seating.maxPerOrder) {
    const message = `Elegí entre 1 y ${seating.maxPerOrder} asientos.`;
    throw new Invalid({ quantity: [message] }, message);
  }
  const unavailable = new Set(seating.seats.filter((s) => s.state !== "free").map((s) => s.guid));
  const answer = bestAvailable(map.plan, { unavailable, categories: [input.category], quantity: input.quantity });
  if ("error" in answer) throw new Conflict(answer.error, { quantity: [answer.error] });
  return answer.seats;
}

/** What a choice of seats buys (ticket types and quantities), checked as createOrder will check it. */
export async function itemsForSeats(ctx: Ctx, slug: string, guids: string[]): Promise<{ ticketId: string; qty: number }[]> {
  if (!guids.length) throw new Invalid({ seats: [SEATING_MESSAGES.chooseSeats] }, SEATING_MESSAGES.chooseSeats);
  const page = await getPublicEvent(ctx, slug);
  const seated = await seatedOrder(ctx.db, page.event.id, { seats: guids });
  if (!seated) throw new Invalid({ seats: [SEATING_MESSAGES.notSeated] }, SEATING_MESSAGES.notSeated);
  return seated.items;
}

/** The printed labels of the chosen seats (for the payer step's summary), in the order given. */
export async function seatLabels(ctx: Ctx, slug: string, guids: readonly string[]): Promise<string[]> {
  if (!guids.length) return [];
  const page = await getPublicEvent(ctx, slug);
  const found = await cachedSeatingOfEvent(ctx.db, page.event.id);
  if (!found) return [];
  return guids.flatMap((guid) => {
    const seat = found.map.index.get(guid);
    return seat ? [seatLabel(seat) ?? ""] : [];
  });
}
