import { and, eq, ne } from "drizzle-orm";
import { SEATING_MESSAGES, seatsPerCategory } from "#common/seating";
import type { SeatPlan } from "#common/seating-plan";
import type { DbOrTx } from "#server/db/client";
import { eventDates, ticketTypes } from "#server/db/schema";
import { Conflict, Invalid } from "#server/errors";
import { stockAtLeastSold } from "#server/stock/stock";

/**
 * A seated ticket type sells exactly its seats (docs/seating.md): its stock is the number of seats whose
 * category maps to it, times the dates it is valid for (a type without a date sells on every date, each
 * with its own seats). Every category a seat uses must map to a ticket type of the event. Written with the
 * same condition as an organizer's stock edit (never below what is held or sold), so the CHECK on
 * `ticket_types` is never the one to refuse.
 */
export async function syncSeatedStock(tx: DbOrTx, input: { eventId: string; plan: SeatPlan; categories: Record<string, string>; now: Date }): Promise<void> {
  const counts = seatsPerCategory(input.plan);
  for (const category of counts.keys()) {
    if (!input.categories[category]) throw new Invalid({ categories: [SEATING_MESSAGES.categoryUnmapped(category)] }, SEATING_MESSAGES.categoryUnmapped(category));
  }
  const types = await tx
    .select({ id: ticketTypes.id, name: ticketTypes.name, eventDateId: ticketTypes.eventDateId })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, input.eventId), ne(ticketTypes.status, "deleted")));
  const dates = await tx
    .select({ id: eventDates.id })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, input.eventId), ne(eventDates.status, "deleted")));
  const seatsOfType = new Map<string, number>();
  for (const [category, ticketTypeId] of Object.entries(input.categories)) {
    if (!types.some((t) => t.id === ticketTypeId)) throw new Invalid({ categories: [SEATING_MESSAGES.ticketTypeNotOfEvent] }, SEATING_MESSAGES.ticketTypeNotOfEvent);
    seatsOfType.set(ticketTypeId, (seatsOfType.get(ticketTypeId) ?? 0) + (counts.get(category) ?? 0));
  }
  // In id order, like every other write of ticket types (docs/locking.md).
  for (const [ticketTypeId, seats] of [...seatsOfType].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const type = types.find((t) => t.id === ticketTypeId)!;
    const stock = seats * (type.eventDateId ? 1 : Math.max(1, dates.length));
    const [updated] = await tx
      .update(ticketTypes)
      .set({ stock, updatedAt: input.now })
      .where(and(eq(ticketTypes.id, ticketTypeId), stockAtLeastSold(stock)))
      .returning({ id: ticketTypes.id });
    if (!updated) throw new Conflict(SEATING_MESSAGES.stockBelowSold(type.name));
  }
}
