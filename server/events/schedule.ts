import { and, eq, inArray, sql } from "drizzle-orm";
import { eventChanged } from "./changes";
import { announceReturnedTickets, stockAtLeastSold } from "#server/stock/stock";
import { z } from "zod";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { eventDates, ledgerEntries, orders, ticketTypes, type Status } from "#server/db/schema";
import { Invalid } from "#server/errors";
import { parseInput, type DomainInput } from "#server/validation";
import { requireEvent } from "./access";
import { recordAudit } from "#server/organizations/audit";
import { walletEventsChanged } from "#server/tickets/wallet-changes";
import { EVENT_MESSAGES, ticketTypeFields, ticketTypeRefinements } from "./schemas";
import { eventDateFields, eventDateRefinements, soldDateMoveProblem } from "#common/events";
import { formatDateTime } from "#common/dates";
import { CHANGE_ACTIONS, countChanges, type ChangeAction } from "#common/schedule";

/**
 * Editing an event's dates and ticket types as one list (the spec's "change
 * actions"): each row is created, updated, deleted or left alone, all in one
 * transaction, and the answer says which happened to every row. An event
 * date created or modified by the save reports the spec's date statuses
 * `created` / `modified`, so a page or an integrator can tell the organizer
 * (and later the buyers) what changed.
 */
export { CHANGE_ACTIONS, type ChangeAction };
export type EventDateChangeStatus = Status | "created" | "modified";

const uuid = z.string().uuid("Identificador inválido");
const kept = z.literal(false).optional();

/** A row to delete needs only its id (what else it carries is ignored: a half-edited form can still delete). */
const removedRow = z.looseObject({ id: uuid, remove: z.literal(true) });
const rowOf = <T extends z.ZodObject>(row: T) => z.discriminatedUnion("remove", [removedRow, row], { error: "Indicá si la fila se borra o no" });

const scheduleDate = rowOf(z.object({ id: uuid.optional(), remove: kept, ...eventDateFields }).superRefine(eventDateRefinements));
const scheduleTicketType = rowOf(z.object({ id: uuid.optional(), remove: kept, ...ticketTypeFields }).superRefine(ticketTypeRefinements));

export const saveEventScheduleSchema = z.object({
  eventId: uuid,
  dates: z.array(scheduleDate).max(100, "Usá hasta 100 fechas").default([]),
  ticketTypes: z.array(scheduleTicketType).max(100, "Usá hasta 100 tipos de entrada").default([]),
});
export type SaveEventScheduleInput = DomainInput<typeof saveEventScheduleSchema>;

export interface ScheduleChange<S extends string = string> {
  id: string;
  action: ChangeAction;
  status: S;
}

export interface EventScheduleChanges {
  dates: ScheduleChange<EventDateChangeStatus>[];
  ticketTypes: ScheduleChange<Status>[];
}

const sameTime = (a: Date | null | undefined, b: Date | null | undefined) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

async function rowsOf<T extends typeof eventDates | typeof ticketTypes>(tx: DbOrTx, table: T, eventId: string, ids: string[], field: "dates" | "ticketTypes") {
  if (!ids.length) return new Map<string, T["$inferSelect"]>();
  const rows = (await tx
    .select()
    .from(table as typeof eventDates)
    .where(and(inArray(table.id, ids), eq(table.eventId, eventId)))
    .for("update")) as T["$inferSelect"][];
  // Menu items live in ticket_types too (decision 106): never edited as ticket types.
  const byId = new Map(rows.filter((r) => field !== "ticketTypes" || (r as typeof ticketTypes.$inferSelect).kind === "ticket").map((r) => [r.id, r]));
  ids.forEach((id, index) => {
    if (!byId.has(id)) throw new Invalid({ [`${field}.${index}.id`]: ["No es de este evento"] });
  });
  return byId;
}

export async function saveEventSchedule(ctx: Ctx, input: SaveEventScheduleInput): Promise<EventScheduleChanges> {
  const data = parseInput(saveEventScheduleSchema, input);
  const event = await requireEvent(ctx, data.eventId);
  const changes = await ctx.db.transaction(async (tx) => {
    const dateIds = data.dates.flatMap((d) => (d.id ? [d.id] : []));
    const ticketIds = data.ticketTypes.flatMap((t) => (t.id ? [t.id] : []));
    // Rows are locked in one statement per table, dates first (as every path that touches both).
    const currentDates = await rowsOf(tx, eventDates, data.eventId, dateIds, "dates");
    const currentTickets = await rowsOf(tx, ticketTypes, data.eventId, ticketIds, "ticketTypes");

    const dates: ScheduleChange<EventDateChangeStatus>[] = [];
    const moved: { id: string; sold: boolean; from: { startsAt: Date; endsAt: Date }; to: { startsAt: Date; endsAt: Date } }[] = [];
    for (const date of data.dates) {
      const current = date.id ? currentDates.get(date.id) : undefined;
      if (date.remove) {
        // (A row to remove always has an id, and rowsOf found it.)
        const row = current!;
        if (row.status !== "deleted") await tx.update(eventDates).set({ status: "deleted", updatedAt: ctx.now }).where(eq(eventDates.id, row.id));
        dates.push({ id: row.id, action: row.status === "deleted" ? "no_update" : "delete", status: "deleted" });
      } else if (!current) {
        const [row] = await tx
          .insert(eventDates)
          .values({ eventId: data.eventId, startsAt: date.startsAt, endsAt: date.endsAt, doorsAt: date.doorsAt ?? null, createdAt: ctx.now, updatedAt: ctx.now })
          .returning();
        dates.push({ id: row.id, action: "create", status: "created" });
      } else if (sameTime(current.startsAt, date.startsAt) && sameTime(current.endsAt, date.endsAt) && sameTime(current.doorsAt, date.doorsAt)) {
        dates.push({ id: current.id, action: "no_update", status: current.status });
      } else {
        const index = data.dates.indexOf(date);
        const sold = await hasSales(tx, data.eventId, current.id);
        // A date people bought for moves within a bound (decision 145): its money is released from its end.
        const problem = sold ? soldDateMoveProblem(current, date, ctx.now) : null;
        if (problem) {
          const error = new Invalid({ [`dates.${index}.${problem.field}`]: [problem.message] }, problem.message);
          error.reason = problem.reason;
          throw error;
        }
        await tx.update(eventDates).set({ startsAt: date.startsAt, endsAt: date.endsAt, doorsAt: date.doorsAt ?? null, updatedAt: ctx.now }).where(eq(eventDates.id, current.id));
        dates.push({ id: current.id, action: "update", status: "modified" });
        if (!sameTime(current.startsAt, date.startsAt) || !sameTime(current.endsAt, date.endsAt)) moved.push({ id: current.id, sold, from: current, to: date });
      }
    }
    const liveDateIds = new Set([...currentDates.keys(), ...dates.map((d) => d.id)]);

    const tickets: ScheduleChange<Status>[] = [];
    /** Price and stock before → after, for the record of changes (who changed what money). */
    const repriced: { ticketType: string; price: { from: number; to: number }; stock: { from: number; to: number } }[] = [];
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${ticketTypes.sortOrder}) + 1, 0)::int` })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, data.eventId));
    let sortOrder = next;
    for (const [index, ticket] of data.ticketTypes.entries()) {
      if (ticket.remove) {
        const current = currentTickets.get(ticket.id)!;
        if (current.status !== "deleted") await tx.update(ticketTypes).set({ status: "deleted", updatedAt: ctx.now }).where(eq(ticketTypes.id, current.id));
        tickets.push({ id: current.id, action: current.status === "deleted" ? "no_update" : "delete", status: "deleted" });
        continue;
      }
      const { id, remove: _kept, ...fields } = ticket;
      if (fields.eventDateId && !liveDateIds.has(fields.eventDateId)) {
        const [row] = await tx.select({ id: eventDates.id }).from(eventDates).where(and(eq(eventDates.id, fields.eventDateId), eq(eventDates.eventId, data.eventId)));
        if (!row) throw new Invalid({ [`ticketTypes.${index}.eventDateId`]: ["Esa fecha no es de este evento"] });
      }
      const values = {
        ...fields,
        eventDateId: fields.eventDateId ?? null,
        accessCode: fields.accessCode ?? null,
        salesStartAt: fields.salesStartAt ?? null,
        salesEndAt: fields.salesEndAt ?? null,
      };
      const current = id ? currentTickets.get(id) : undefined;
      if (!current) {
        const [row] = await tx
          .insert(ticketTypes)
          .values({ eventId: data.eventId, ...values, sortOrder: sortOrder++, createdAt: ctx.now, updatedAt: ctx.now })
          .returning();
        tickets.push({ id: row.id, action: "create", status: row.status });
      } else if (ticketUnchanged(current, values)) {
        tickets.push({ id: current.id, action: "no_update", status: current.status });
      } else {
        // Stock never below what is sold: checked in the UPDATE itself, next to live sales.
        const [row] = await tx
          .update(ticketTypes)
          .set({ ...values, updatedAt: ctx.now })
          .where(and(eq(ticketTypes.id, current.id), stockAtLeastSold(values.stock)))
          .returning();
        if (!row) throw new Invalid({ [`ticketTypes.${index}.stock`]: [EVENT_MESSAGES.stockBelowSold] });
        tickets.push({ id: current.id, action: "update", status: row.status });
        // More stock: whoever waits for it is offered it first (docs/waitlist.md).
        if (row.stock > current.stock) await announceReturnedTickets(tx, [row.id], ctx.now);
        if (current.price !== row.price || current.stock !== row.stock) {
          repriced.push({ ticketType: row.name, price: { from: current.price, to: row.price }, stock: { from: current.stock, to: row.stock } });
        }
      }
    }
    if ([...dates, ...tickets].some((r) => r.action !== "no_update")) {
      await recordAudit(tx, ctx, { organizationId: event.organizationId, action: "event.schedule", targetId: event.id, data: { name: event.name, dates: countChanges(dates), ticketTypes: countChanges(tickets), repriced } });
    }
    // Each moved date on its own line of the record: who moved it, from when to when (the page shows `from → to`).
    for (const move of moved) {
      await recordAudit(tx, ctx, {
        organizationId: event.organizationId,
        action: "event-date.update",
        targetId: move.id,
        data: {
          name: event.name,
          from: timeSpan(move.from),
          to: timeSpan(move.to),
          startsAt: { from: move.from.startsAt.toISOString(), to: move.to.startsAt.toISOString() },
          endsAt: { from: move.from.endsAt.toISOString(), to: move.to.endsAt.toISOString() },
          sold: move.sold,
        },
      });
    }
    // A date moved: Google's class of that date carries its time (docs/wallet.md, decision 238). A new date has no pass yet.
    const updatedDates = dates.filter((d) => d.action === "update").map((d) => d.id);
    if (updatedDates.length) await walletEventsChanged(tx, [data.eventId], ctx.now, { dateIds: updatedDates });
    return { dates, ticketTypes: tickets };
  });
  eventChanged(data.eventId);
  return changes;
}

/** Whether money came in for this date: a booked payment of one of its orders. */
async function hasSales(tx: DbOrTx, eventId: string, eventDateId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .innerJoin(orders, eq(orders.id, ledgerEntries.orderId))
    // By event first: orders_event_idx finds its orders, then the ledger's order index their payments.
    .where(and(eq(orders.eventId, eventId), eq(orders.eventDateId, eventDateId), eq(ledgerEntries.kind, "payment")))
    .limit(1);
  return Boolean(row);
}

const timeSpan = (d: { startsAt: Date; endsAt: Date }) => `${formatDateTime(d.startsAt)} a ${formatDateTime(d.endsAt)}`;

type TicketRow = typeof ticketTypes.$inferSelect;
type TicketValues = Pick<
  TicketRow,
  "name" | "description" | "eventDateId" | "price" | "stock" | "minPerOrder" | "maxPerOrder" | "salesStartAt" | "salesEndAt" | "hidden" | "presale" | "accessCode" | "paymentMethod"
>;

function ticketUnchanged(current: TicketRow, next: TicketValues): boolean {
  return (
    current.name === next.name &&
    current.description === next.description &&
    current.eventDateId === next.eventDateId &&
    current.price === next.price &&
    current.stock === next.stock &&
    current.minPerOrder === next.minPerOrder &&
    current.maxPerOrder === next.maxPerOrder &&
    sameTime(current.salesStartAt, next.salesStartAt) &&
    sameTime(current.salesEndAt, next.salesEndAt) &&
    current.hidden === next.hidden &&
    current.presale === next.presale &&
    current.accessCode === next.accessCode &&
    current.paymentMethod === next.paymentMethod
  );
}
