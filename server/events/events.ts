import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { eventChanged } from "./changes";
import { requireEvent } from "./access";
import { saveEventSchedule, type SaveEventScheduleInput } from "./schedule";
import { soldTicketsOfEvent } from "#server/events/sold";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { eventCustomFields, eventDates, events, ticketTypes, type Status } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { announceReturnedTickets } from "#server/stock/stock";
import { recordAudit } from "#server/organizations/audit";
import { requireCapability, type Capability } from "#server/organizations/permissions";
import { slugify, SLUG_PATTERN } from "#server/organizations/slugs";
import { parseInput, type DomainInput } from "#server/validation";
import { isUniqueViolation } from "#server/db/errors";
import { walletEventsChanged } from "#server/tickets/wallet-changes";
import { venueCoordinatesRefinement } from "#common/venue-coordinates";
import {
  customFieldInput,
  EVENT_MESSAGES,
  eventDateInput,
  eventFields,
  intSchema,
  pixelIdSchema,
  statusSchema,
  ticketTypeFields,
  ticketTypeInput,
  ticketTypeRefinements,
} from "./schemas";


/** Our service fee until commercial terms per organizer exist: 10 % on top of the ticket price. */
export const DEFAULT_SERVICE_FEE_BPS = 1000;

const uuid = z.string().uuid("Identificador inválido");

export { requireEvent };

export async function requireEventBySlug(ctx: Ctx, slug: string, capability: Capability = "events:manage") {
  const [event] = await ctx.db.select().from(events).where(eq(events.slug, slug.toLowerCase()));
  if (!event) throw new NotFound("No encontramos el evento.");
  await requireCapability(ctx, event.organizationId, capability);
  return event;
}

/** A free slug from the name: "fiesta-bresh", then "fiesta-bresh-2"… */
async function uniqueEventSlug(ctx: Ctx, base: string): Promise<string> {
  const root = slugify(base) || "evento";
  const taken = await ctx.db
    .select({ slug: events.slug })
    .from(events)
    .where(sql`${events.slug} = ${root} or ${events.slug} like ${`${root}-%`}`);
  const used = new Set(taken.map((r) => r.slug));
  if (!used.has(root)) return root;
  for (let n = 2; ; n++) if (!used.has(`${root}-${n}`)) return `${root}-${n}`;
}

export const createEventSchema = z.object({
  organizationId: uuid,
  ...eventFields,
  slug: z.string().trim().toLowerCase().refine((v) => SLUG_PATTERN.test(v) && v.length >= 3 && v.length <= 80, "Usá solo minúsculas sin tildes, números y guiones").optional(),
  dates: z.array(eventDateInput).min(1, EVENT_MESSAGES.atLeastOneDate),
  ticketTypes: z.array(ticketTypeInput).default([]),
}).superRefine(venueCoordinatesRefinement);

/**
 * `/organizacion/evento/crear` and `createEvent`: a draft event with its dates
 * and tickets, in one transaction. Buyers see it once it is published.
 */
/** Public pages showing the event are dropped from the page cache (server/events/changes.ts). */
function changedEvent(eventId: string | undefined) {
  if (eventId) eventChanged(eventId);
}

export async function createEvent(ctx: Ctx, input: DomainInput<typeof createEventSchema>) {
  const data = parseInput(createEventSchema, input);
  await requireCapability(ctx, data.organizationId, "events:manage");
  const slug = data.slug ?? (await uniqueEventSlug(ctx, data.name));
  try {
    return await ctx.db.transaction(async (tx) => {
      const { dates, ticketTypes: tickets, ...fields } = data;
      const [event] = await tx
        .insert(events)
        .values({ ...fields, slug, status: "active", createdAt: ctx.now, updatedAt: ctx.now })
        .returning();
      const insertedDates = await tx
        .insert(eventDates)
        .values(dates.map((d) => ({ ...d, eventId: event.id, createdAt: ctx.now, updatedAt: ctx.now })))
        .returning();
      if (tickets.length) {
        await tx.insert(ticketTypes).values(
          tickets.map((t, i) => ({
            ...t,
            accessCode: t.accessCode ?? null,
            eventDateId: null,
            eventId: event.id,
            sortOrder: i,
            createdAt: ctx.now,
            updatedAt: ctx.now,
          })),
        );
      }
      return { event, dates: insertedDates };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Invalid({ slug: ["Ese link ya lo usa otro evento"] });
    throw error;
  }
}

/** The event's fields a wallet pass's Google class carries (decision 222). */
const WALLET_EVENT_FIELDS = ["name", "venueName", "venueAddress", "city", "venueLatitude", "venueLongitude"] as const;

export const updateEventSchema = z.object({ id: uuid, ...eventFields }).superRefine(venueCoordinatesRefinement);

/** `updateEvent`: the event's own fields (dates and tickets have their own calls). */
export async function updateEvent(ctx: Ctx, input: DomainInput<typeof updateEventSchema>) {
  const data = parseInput(updateEventSchema, input);
  const current = await requireEvent(ctx, data.id);
  const { id, ...fields } = data;
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(events)
      .set({ ...fields, imageUrl: fields.imageUrl ?? null, venueLatitude: fields.venueLatitude ?? null, venueLongitude: fields.venueLongitude ?? null, updatedAt: ctx.now })
      .where(eq(events.id, id))
      .returning();
    // What a wallet pass shows of the event changed: Google's class of the event is patched (docs/wallet.md).
    if (row && WALLET_EVENT_FIELDS.some((key) => String(current[key] ?? "") !== String(row[key] ?? ""))) await walletEventsChanged(tx, [id], ctx.now);
    return row;
  });
  changedEvent(updated?.id);
  const changed = Object.keys(fields).filter((key) => String(current[key as keyof typeof current] ?? "") !== String(updated?.[key as keyof typeof updated] ?? ""));
  if (changed.length) await recordAudit(ctx.db, ctx, { organizationId: current.organizationId, action: "event.update", targetId: id, data: { name: updated?.name ?? current.name, changed } });
  return updated;
}

const setEventStatusSchema = z.object({ id: uuid, status: statusSchema });

/**
 * active: on sale; paused: visible, nothing on sale; deleted: gone for buyers,
 * kept for records (orders and tickets keep pointing at it).
 */
export async function setEventStatus(ctx: Ctx, input: DomainInput<typeof setEventStatusSchema>) {
  const data = parseInput(setEventStatusSchema, input);
  const event = await requireEvent(ctx, data.id);
  if (event.status === "deleted") throw new Conflict("Un evento eliminado no se puede reactivar.");
  const [updated] = await ctx.db.update(events).set({ status: data.status, updatedAt: ctx.now }).where(eq(events.id, data.id)).returning();
  changedEvent(updated?.id);
  await recordAudit(ctx.db, ctx, { organizationId: event.organizationId, action: "event.status", targetId: event.id, data: { name: event.name, from: event.status, to: data.status } });
  return updated;
}

const acceptServiceConditionsSchema = z.object({ eventId: uuid });

/** `/organizacion/condiciones-de-servicio/{eventId}`: the organizer accepts our fee before selling. */
export async function acceptServiceConditions(ctx: Ctx, input: DomainInput<typeof acceptServiceConditionsSchema>) {
  const { eventId } = parseInput(acceptServiceConditionsSchema, input);
  await requireEvent(ctx, eventId);
  const [updated] = await ctx.db
    .update(events)
    .set({ serviceConditionsAcceptedAt: ctx.now, serviceFeeBps: DEFAULT_SERVICE_FEE_BPS, updatedAt: ctx.now })
    .where(and(eq(events.id, eventId), sql`${events.serviceConditionsAcceptedAt} is null`))
    .returning();
  return updated ?? (await requireEvent(ctx, eventId));
}

export const PUBLISH_MESSAGES = {
  conditions: "Aceptá las condiciones de servicio antes de publicar",
  dates: "El evento necesita al menos una fecha activa",
  tickets: "El evento necesita al menos un tipo de ticket activo",
} as const;

const publishEventSchema = z.object({ id: uuid });

/** Publishing puts a draft in the catalogue; it needs accepted conditions, a date and a ticket type. */
export async function publishEvent(ctx: Ctx, input: DomainInput<typeof publishEventSchema>) {
  const { id } = parseInput(publishEventSchema, input);
  const event = await requireEvent(ctx, id);
  const problems: string[] = [];
  if (!event.serviceConditionsAcceptedAt) problems.push(PUBLISH_MESSAGES.conditions);
  const [{ n: dateCount }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, id), eq(eventDates.status, "active")));
  if (!dateCount) problems.push(PUBLISH_MESSAGES.dates);
  const [{ n: ticketCount }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, id), eq(ticketTypes.kind, "ticket"), eq(ticketTypes.status, "active")));
  if (!ticketCount) problems.push(PUBLISH_MESSAGES.tickets);
  if (problems.length) throw new Invalid({ _form: problems }, problems[0]);
  const [updated] = await ctx.db
    .update(events)
    .set({ publishedAt: event.publishedAt ?? ctx.now, status: event.status === "deleted" ? "deleted" : "active", updatedAt: ctx.now })
    .where(eq(events.id, id))
    .returning();
  changedEvent(updated?.id);
  if (!event.publishedAt) await recordAudit(ctx.db, ctx, { organizationId: event.organizationId, action: "event.publish", targetId: event.id, data: { name: event.name } });
  return updated;
}

/*
 * The per-row calls GraphQL keeps for integrators (`addEventDate`, `updateEventDate`,
 * `createTicketType`, `updateTicketType`) are one row of `saveEventSchedule`
 * (./schedule.ts): the rules for creating and changing dates and ticket types
 * live there once. They answer as they always did: the row, and errors on the
 * row's own keys (`stock`, not `ticketTypes.0.stock`).
 */
async function saveOneRow(ctx: Ctx, input: SaveEventScheduleInput, group: "dates" | "ticketTypes") {
  try {
    return (await saveEventSchedule(ctx, input))[group][0];
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    const prefix = `${group}.0.`;
    const row = new Invalid(Object.fromEntries(Object.entries(error.fieldErrors).map(([key, messages]) => [key.startsWith(prefix) ? key.slice(prefix.length) : key, messages])), error.message);
    // Keeps why (e.g. SOLD_DATE_IN_PAST), for integrators reading `extensions.reason`.
    row.reason = error.reason;
    throw row;
  }
}

async function dateRow(ctx: Ctx, id: string) {
  const [row] = await ctx.db.select().from(eventDates).where(eq(eventDates.id, id));
  return row;
}

async function ticketRow(ctx: Ctx, id: string) {
  const [row] = await ctx.db.select().from(ticketTypes).where(eq(ticketTypes.id, id));
  return row;
}

const addEventDateSchema = z.object({ eventId: uuid }).and(eventDateInput);

export async function addEventDate(ctx: Ctx, input: DomainInput<typeof addEventDateSchema>) {
  const { eventId, ...date } = input;
  const change = await saveOneRow(ctx, { eventId, dates: [date] }, "dates");
  return dateRow(ctx, change.id);
}

/** Loads an event date and checks the actor may manage its event. */
export async function requireEventDate(ctx: Ctx, id: string) {
  if (!uuid.safeParse(id).success) throw new NotFound("No encontramos la fecha.");
  const [row] = await ctx.db.select().from(eventDates).where(eq(eventDates.id, id));
  if (!row) throw new NotFound("No encontramos la fecha.");
  await requireEvent(ctx, row.eventId);
  return row;
}

const updateEventDateSchema = z.object({ id: uuid }).and(eventDateInput);

export async function updateEventDate(ctx: Ctx, input: DomainInput<typeof updateEventDateSchema>) {
  const current = await requireEventDate(ctx, String(input.id ?? ""));
  const { id: _id, ...date } = input;
  await saveOneRow(ctx, { eventId: current.eventId, dates: [{ ...date, id: current.id }] }, "dates");
  return dateRow(ctx, current.id);
}

const setEventDateStatusSchema = z.object({ id: uuid, status: statusSchema });

export async function setEventDateStatus(ctx: Ctx, input: DomainInput<typeof setEventDateStatusSchema>) {
  const data = parseInput(setEventDateStatusSchema, input);
  const current = await requireEventDate(ctx, data.id);
  const [row] = await ctx.db.update(eventDates).set({ status: data.status, updatedAt: ctx.now }).where(eq(eventDates.id, data.id)).returning();
  changedEvent(row?.eventId);
  await auditEventDate(ctx, current.eventId, "event-date.status", data.id, { startsAt: current.startsAt, from: current.status, to: data.status });
  return row;
}

async function auditEventDate(ctx: Ctx, eventId: string, action: string, dateId: string, data: Record<string, unknown>) {
  const [event] = await ctx.db.select({ organizationId: events.organizationId, name: events.name }).from(events).where(eq(events.id, eventId));
  if (event) await recordAudit(ctx.db, ctx, { organizationId: event.organizationId, action, targetId: dateId, data: { name: event.name, ...data } });
}

const createTicketTypeSchema = z.object({ eventId: uuid, ...ticketTypeFields }).superRefine(ticketTypeRefinements);

export async function createTicketType(ctx: Ctx, input: DomainInput<typeof createTicketTypeSchema>) {
  const { eventId, ...ticket } = input;
  const change = await saveOneRow(ctx, { eventId, ticketTypes: [ticket] }, "ticketTypes");
  return ticketRow(ctx, change.id);
}

export async function requireTicketType(ctx: Ctx, id: string) {
  if (!uuid.safeParse(id).success) throw new NotFound("No encontramos el tipo de ticket.");
  // Menu items share the table (decision 106) but are not ticket types.
  const [row] = await ctx.db.select().from(ticketTypes).where(and(eq(ticketTypes.id, id), eq(ticketTypes.kind, "ticket")));
  if (!row) throw new NotFound("No encontramos el tipo de ticket.");
  const event = await requireEvent(ctx, row.eventId);
  return { ...row, organizationId: event.organizationId };
}

const updateTicketTypeSchema = z.object({ id: uuid, status: statusSchema.optional(), ...ticketTypeFields }).superRefine(ticketTypeRefinements);

const ticketStatusSchema = z.object({ status: statusSchema.optional() });

/**
 * Edits a ticket type (stock never below what is sold: saveEventSchedule checks it in the UPDATE itself);
 * a `status` that differs is then set as `setTicketTypeStatus` does.
 */
export async function updateTicketType(ctx: Ctx, input: DomainInput<typeof updateTicketTypeSchema>) {
  const current = await requireTicketType(ctx, String(input.id ?? ""));
  const { id: _id, status: _status, ...ticket } = input;
  const { status } = parseInput(ticketStatusSchema, { status: input.status ?? undefined });
  await saveOneRow(ctx, { eventId: current.eventId, ticketTypes: [{ ...ticket, id: current.id }] }, "ticketTypes");
  if (status && status !== current.status) await setTicketTypeStatus(ctx, { id: current.id, status });
  return ticketRow(ctx, current.id);
}

const addTicketStockSchema = z.object({ id: uuid, quantity: intSchema(1, 1_000_000) });

/** `/organizacion/agregar-entradas` and `addTicketStock`: one conditional increment, safe next to live sales. */
export async function addTicketStock(ctx: Ctx, input: DomainInput<typeof addTicketStockSchema>) {
  const data = parseInput(addTicketStockSchema, input);
  const current = await requireTicketType(ctx, data.id);
  const [row] = await ctx.db
    .update(ticketTypes)
    .set({ stock: sql`${ticketTypes.stock} + ${data.quantity}`, updatedAt: ctx.now })
    .where(eq(ticketTypes.id, data.id))
    .returning();
  changedEvent(row?.eventId);
  // Whoever waits for this event is offered the new tickets first (docs/waitlist.md).
  if (row) await announceReturnedTickets(ctx.db, [row.id], ctx.now);
  await recordAudit(ctx.db, ctx, { organizationId: current.organizationId, action: "ticket-type.add-stock", targetId: data.id, data: { name: current.name, quantity: data.quantity, stock: row?.stock } });
  return row;
}

const setTicketTypeStatusSchema = z.object({ id: uuid, status: statusSchema });

export async function setTicketTypeStatus(ctx: Ctx, input: DomainInput<typeof setTicketTypeStatusSchema>) {
  const data = parseInput(setTicketTypeStatusSchema, input);
  const current = await requireTicketType(ctx, data.id);
  const [row] = await ctx.db.update(ticketTypes).set({ status: data.status, updatedAt: ctx.now }).where(eq(ticketTypes.id, data.id)).returning();
  changedEvent(row?.eventId);
  await recordAudit(ctx.db, ctx, { organizationId: current.organizationId, action: "ticket-type.status", targetId: data.id, data: { name: current.name, from: current.status, to: data.status } });
  return row;
}

const setEventPixelSchema = z.object({ eventId: uuid, pixelId: pixelIdSchema });

/** `/organizacion/marketing-pixel`: digits only, empty removes it. */
export async function setEventPixel(ctx: Ctx, input: DomainInput<typeof setEventPixelSchema>) {
  const data = parseInput(setEventPixelSchema, input);
  const event = await requireEvent(ctx, data.eventId, "pixel:manage");
  const [row] = await ctx.db
    .update(events)
    .set({ pixelId: data.pixelId || null, updatedAt: ctx.now })
    .where(eq(events.id, data.eventId))
    .returning();
  await recordAudit(ctx.db, ctx, { organizationId: event.organizationId, action: "event.pixel", targetId: event.id, data: { name: event.name, pixelId: row?.pixelId ?? null } });
  return row;
}

const setPresaleCodeSchema = z.object({ eventId: uuid, presaleCode: z.string().trim().max(30) });

/** Presale code buyers type to unlock presale tickets; empty removes it. */
export async function setPresaleCode(ctx: Ctx, input: DomainInput<typeof setPresaleCodeSchema>) {
  const data = parseInput(setPresaleCodeSchema, input);
  const event = await requireEvent(ctx, data.eventId);
  const [row] = await ctx.db
    .update(events)
    .set({ presaleCode: data.presaleCode || null, updatedAt: ctx.now })
    .where(eq(events.id, data.eventId))
    .returning();
  changedEvent(row?.id);
  // Whether there is a code, never the code: the record is read by every owner, the code unlocks tickets.
  await recordAudit(ctx.db, ctx, { organizationId: event.organizationId, action: "event.presale-code", targetId: event.id, data: { name: event.name, set: Boolean(row?.presaleCode) } });
  return row;
}

const setCustomFieldsSchema = z.object({
  eventId: uuid,
  fields: z.array(customFieldInput).max(20, "Hasta 20 campos"),
  /** The checkout asks each ticket's holder (left as it is when absent). */
  oneHolderPerTicket: z.boolean().optional(),
  /** Most tickets one account may hold (decision 203); null removes the limit, absent leaves it as it is. */
  maxTicketsPerAccount: z
    .number({ error: "Ingresá un número entero." })
    .int("Ingresá un número entero.")
    .min(1, "El máximo por cuenta tiene que ser al menos 1.")
    .max(1000, "El máximo por cuenta puede ser hasta 1000.")
    .nullish(),
});

/** `/organizacion/eventos/{slug}/campos-personalizados`: replaces the event's attendee fields. */
export async function setCustomFields(ctx: Ctx, input: DomainInput<typeof setCustomFieldsSchema>) {
  const data = parseInput(setCustomFieldsSchema, input);
  const event = await requireEvent(ctx, data.eventId);
  const saved = await ctx.db.transaction(async (tx) => {
    await recordAudit(tx, ctx, {
      organizationId: event.organizationId,
      action: "event.custom-fields",
      targetId: event.id,
      data: { name: event.name, fields: data.fields.map((f) => f.label), oneHolderPerTicket: data.oneHolderPerTicket, maxTicketsPerAccount: data.maxTicketsPerAccount },
    });
    const settings = {
      ...(data.oneHolderPerTicket !== undefined ? { oneHolderPerTicket: data.oneHolderPerTicket } : {}),
      ...(data.maxTicketsPerAccount !== undefined ? { maxTicketsPerAccount: data.maxTicketsPerAccount } : {}),
    };
    if (Object.keys(settings).length) {
      await tx.update(events).set({ ...settings, updatedAt: ctx.now }).where(eq(events.id, data.eventId));
    }
    await tx.delete(eventCustomFields).where(eq(eventCustomFields.eventId, data.eventId));
    if (!data.fields.length) return [];
    return tx
      .insert(eventCustomFields)
      .values(data.fields.map((f, i) => ({ ...f, eventId: data.eventId, sortOrder: i, createdAt: ctx.now })))
      .returning();
  });
  // The checkout reads the event and its questions from a per-process copy (server/orders/sale-snapshot.ts): drop it once committed.
  changedEvent(event.id);
  return saved;
}

/** Everything the organizer's edit pages need about one event. */
export async function getEventForOrganizer(ctx: Ctx, eventId: string) {
  const event = await requireEvent(ctx, eventId, "sales:read");
  const [dates, tickets, customFields] = await Promise.all([
    ctx.db.select().from(eventDates).where(and(eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted"))).orderBy(asc(eventDates.startsAt)),
    ctx.db.select().from(ticketTypes).where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.kind, "ticket"), ne(ticketTypes.status, "deleted"))).orderBy(asc(ticketTypes.sortOrder)),
    ctx.db.select().from(eventCustomFields).where(eq(eventCustomFields.eventId, eventId)).orderBy(asc(eventCustomFields.sortOrder)),
  ]);
  return { event, dates, tickets, customFields };
}

/**
 * `/organizacion/mis-eventos`: the organization's events with sales at a
 * glance. By default only events with a date ending from seven days ago on.
 */
export async function listOrganizationEvents(
  ctx: Ctx,
  input: { organizationId: string; fromDate?: Date | null; statuses?: Status[] },
  /** The names and dates of the events are also what marketing picks a pixel or an audience from. */
  capability: Extract<Capability, "sales:read" | "pixel:manage" | "campaigns:manage"> = "sales:read",
) {
  await requireCapability(ctx, input.organizationId, capability);
  const statuses = input.statuses ?? ["active", "paused"];
  const rows = await ctx.db
    .select({
      id: events.id,
      name: events.name,
      slug: events.slug,
      status: events.status,
      publishedAt: events.publishedAt,
      // Correlated subqueries name their tables explicitly: drizzle leaves columns unqualified here.
      firstDate: sql<Date | null>`(select min(d.starts_at) from event_dates d where d.event_id = "events"."id" and d.status <> 'deleted')`,
      lastDate: sql<Date | null>`(select max(d.ends_at) from event_dates d where d.event_id = "events"."id" and d.status <> 'deleted')`,
      // Tickets sold as the sales list counts them (server/events/sold.ts), not the stock taken by holds and invitations.
      sold: soldTicketsOfEvent(sql.raw(`"events"."id"`)),
      stock: sql<number>`coalesce((select sum(t.stock) from ticket_types t where t.event_id = "events"."id" and t.kind = 'ticket' and t.status <> 'deleted'), 0)::int`,
    })
    .from(events)
    .where(and(eq(events.organizationId, input.organizationId), inArray(events.status, statuses)))
    .orderBy(asc(events.createdAt));
  const from = input.fromDate;
  return rows
    .map((r) => ({ ...r, firstDate: r.firstDate ? new Date(r.firstDate) : null, lastDate: r.lastDate ? new Date(r.lastDate) : null }))
    .filter((r) => !from || !r.lastDate || r.lastDate >= from)
    .sort((a, b) => (a.firstDate?.getTime() ?? Infinity) - (b.firstDate?.getTime() ?? Infinity));
}
