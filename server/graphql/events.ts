/**
 * Events and organizations in the back office over GraphQL: the organizer's own events (drafts included), their
 * dates and ticket types, and the organization itself. The public catalogue is in catalogue.ts.
 *
 * Conventions, the same as the accounts part:
 * - Back-office mutations take one `input`, with `id` when they change an
 *   existing thing (`eventId` when they add something to an event).
 * - `update*` mutations are patches: a field left out keeps its value, `null`
 *   clears an optional one (the domain's update is a full replacement, so the
 *   resolver fills in the current values first).
 */
import type { EventDateRow, EventRow, TicketTypeRow } from "#server/db/schema";
import { builder } from "./builder";
import { filterDate, Venue } from "./catalogue";
import { given, isoDate, money } from "./scalars";
import * as eventsDomain from "#server/events/events";
import { CHANGE_ACTIONS, saveEventSchedule, type SaveEventScheduleInput, type ScheduleChange } from "#server/events/schedule";
import * as organizationsDomain from "#server/organizations/organizations";

type OrganizerView = Awaited<ReturnType<typeof eventsDomain.getEventForOrganizer>>;
type OrganizationEventItem = Awaited<ReturnType<typeof eventsDomain.listOrganizationEvents>>[number];

// ---- Helpers (translation only: no rules here) ----

/**
 * For `update*` patches: a field left out keeps its current value, `null`
 * leaves it out of the replacement so the domain clears it (or, for a
 * required field, answers BAD_USER_INPUT).
 */
function patch(current: object, input: object, keys: readonly string[]): Record<string, unknown> {
  const now = current as Record<string, unknown>;
  const sent = input as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const key of keys) {
    if (sent[key] === undefined) result[key] = now[key];
    else if (sent[key] !== null) result[key] = sent[key];
  }
  return result;
}

/** One organizer load per event row and request, shared by `dates`, `ticketTypes` and `customFields`. */
const organizerViews = new WeakMap<EventRow, Promise<OrganizerView>>();
function organizerView(ctx: Parameters<typeof eventsDomain.getEventForOrganizer>[0], event: EventRow) {
  let view = organizerViews.get(event);
  if (!view) {
    view = eventsDomain.getEventForOrganizer(ctx, event.id);
    organizerViews.set(event, view);
  }
  return view;
}

// ---- Types ----

const ManagedTicketType = builder.objectRef<TicketTypeRow>("ManagedTicketType").implement({
  description: "A ticket type with everything its organizer may see (stock, sold, access code).",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    eventId: t.exposeID("eventId", { nullable: false }),
    eventDateId: t.exposeID("eventDateId"),
    name: t.exposeString("name", { nullable: false }),
    description: t.exposeString("description", { nullable: false }),
    price: t.exposeInt("price", { nullable: false, description: "Integer centavos (ARS)." }),
    priceFormatted: t.string({ nullable: false, resolve: (x) => money(x.price)! }),
    stock: t.exposeInt("stock", { nullable: false, description: "Total tickets for sale, sold ones included." }),
    sold: t.exposeInt("sold", { nullable: false }),
    available: t.int({ nullable: false, resolve: (x) => Math.max(0, x.stock - x.sold) }),
    minPerOrder: t.exposeInt("minPerOrder", { nullable: false }),
    maxPerOrder: t.exposeInt("maxPerOrder", { nullable: false }),
    salesStartAt: t.string({ resolve: (x) => isoDate(x.salesStartAt) }),
    salesEndAt: t.string({ resolve: (x) => isoDate(x.salesEndAt) }),
    status: t.exposeString("status", { nullable: false, description: "active, paused or deleted." }),
    hidden: t.exposeBoolean("hidden", { nullable: false }),
    presale: t.exposeBoolean("presale", { nullable: false }),
    accessCode: t.exposeString("accessCode"),
    paymentMethod: t.exposeString("paymentMethod", { nullable: false }),
  }),
});

const ManagedEventDate = builder.objectRef<EventDateRow>("ManagedEventDate").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    eventId: t.exposeID("eventId", { nullable: false }),
    startsAt: t.string({ nullable: false, resolve: (d) => isoDate(d.startsAt)! }),
    endsAt: t.string({ nullable: false, resolve: (d) => isoDate(d.endsAt)! }),
    doorsAt: t.string({ resolve: (d) => isoDate(d.doorsAt) }),
    status: t.exposeString("status", { nullable: false, description: "active, paused or deleted." }),
  }),
});

const CustomField = builder
  .objectRef<{ id: string; label: string; kind: string; options: string[]; required: boolean }>("CustomField")
  .implement({
    description: "A question asked of every attendee at checkout.",
    fields: (t) => ({
      id: t.exposeID("id", { nullable: false }),
      label: t.exposeString("label", { nullable: false }),
      kind: t.exposeString("kind", { nullable: false, description: "text, number, select or date." }),
      options: t.exposeStringList("options", { nullable: false }),
      required: t.exposeBoolean("required", { nullable: false }),
    }),
  });

const ManagedEvent = builder.objectRef<EventRow>("ManagedEvent").implement({
  description: "An event as its organization manages it (drafts included).",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    slug: t.exposeString("slug", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    description: t.exposeString("description", { nullable: false }),
    imageUrl: t.exposeString("imageUrl"),
    category: t.exposeString("category", { nullable: false }),
    minAge: t.exposeInt("minAge", { nullable: false }),
    status: t.exposeString("status", { nullable: false, description: "active, paused or deleted." }),
    published: t.boolean({ nullable: false, description: "false while it is a draft buyers cannot see.", resolve: (e) => Boolean(e.publishedAt) }),
    publishedAt: t.string({ resolve: (e) => isoDate(e.publishedAt) }),
    serviceConditionsAccepted: t.boolean({ nullable: false, resolve: (e) => Boolean(e.serviceConditionsAcceptedAt) }),
    serviceFeeBps: t.exposeInt("serviceFeeBps", { description: "Our service fee in basis points (1000 = 10 %), set when the conditions are accepted." }),
    pixelId: t.exposeString("pixelId"),
    presaleCode: t.exposeString("presaleCode"),
    oneHolderPerTicket: t.exposeBoolean("oneHolderPerTicket", { nullable: false, description: "Named tickets: each ticket carries its holder's name and document." }),
    maxTicketsPerAccount: t.exposeInt("maxTicketsPerAccount", { description: "The most tickets of this event one account may hold; null: no limit." }),
    venue: t.field({
      type: Venue,
      nullable: false,
      resolve: (e) => ({ name: e.venueName, address: e.venueAddress, city: e.city, province: e.province }),
    }),
    venueLatitude: t.exposeFloat("venueLatitude", { description: "The venue on the map (decimal degrees), with venueLongitude; null when not set. Apple Wallet shows the pass on the lock screen near it." }),
    venueLongitude: t.exposeFloat("venueLongitude", { description: "See venueLatitude." }),
    dates: t.field({
      type: [ManagedEventDate],
      nullable: false,
      description: "Its dates, deleted ones left out.",
      resolve: async (e, _args, { ctx }) => (await organizerView(ctx, e)).dates,
    }),
    ticketTypes: t.field({
      type: [ManagedTicketType],
      nullable: false,
      description: "Its ticket types, deleted ones left out.",
      resolve: async (e, _args, { ctx }) => (await organizerView(ctx, e)).tickets,
    }),
    customFields: t.field({
      type: [CustomField],
      nullable: false,
      resolve: async (e, _args, { ctx }) => (await organizerView(ctx, e)).customFields,
    }),
  }),
});

/** What setEventPixel answers: marketing may set the pixel, but an event's dates, tickets, presale code and fee are for sales:read. */
const EventPixel = builder.objectRef<EventRow>("EventPixel").implement({
  description: "An event's Meta pixel, as setEventPixel answers it to anyone who may set it (marketing included).",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    slug: t.exposeString("slug", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    pixelId: t.exposeString("pixelId"),
  }),
});

const OrganizationEvent = builder.objectRef<OrganizationEventItem>("OrganizationEvent").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    slug: t.exposeString("slug", { nullable: false }),
    status: t.exposeString("status", { nullable: false }),
    published: t.boolean({ nullable: false, resolve: (e) => Boolean(e.publishedAt) }),
    firstDate: t.string({ resolve: (e) => isoDate(e.firstDate) }),
    lastDate: t.string({ resolve: (e) => isoDate(e.lastDate) }),
    sold: t.exposeInt("sold", { nullable: false }),
    stock: t.exposeInt("stock", { nullable: false }),
  }),
});

const OrganizationEventList = builder
  .objectRef<{ items: OrganizationEventItem[]; total: number; page: number; limit: number }>("OrganizationEventList")
  .implement({
    fields: (t) => ({
      items: t.field({ type: [OrganizationEvent], nullable: false, resolve: (l) => l.items }),
      total: t.exposeInt("total", { nullable: false }),
      page: t.exposeInt("page", { nullable: false, description: "From 0." }),
      limit: t.exposeInt("limit", { nullable: false }),
    }),
  });

const MyOrganization = builder
  .objectRef<{ id: string; name: string; slug: string; role: string }>("MyOrganization")
  .implement({
    fields: (t) => ({
      id: t.exposeID("id", { nullable: false }),
      name: t.exposeString("name", { nullable: false }),
      slug: t.exposeString("slug", { nullable: false }),
      role: t.exposeString("role", { nullable: false, description: "owner, admin, operator or staff." }),
    }),
  });

const ManagedOrganization = builder.objectRef<organizationsDomain.Organization>("ManagedOrganization").implement({
  description: "An organization with what its owners and admins may edit.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    slug: t.exposeString("slug", { nullable: false }),
    description: t.exposeString("description"),
    cuit: t.exposeString("cuit", { description: "11 digits, without dashes." }),
    contactEmail: t.exposeString("contactEmail"),
    contactPhone: t.exposeString("contactPhone"),
    logoUrl: t.exposeString("logoUrl"),
    passBackgroundColor: t.exposeString("passBackgroundColor", { description: "The wallet passes' background (#rrggbb), with passTextColor; null: Tribuna's colours." }),
    passTextColor: t.exposeString("passTextColor", { description: "The wallet passes' text colour (#rrggbb); null: Tribuna's colours." }),
  }),
});

// ---- Queries ----

const ORGANIZATION_EVENTS_MAX_LIMIT = 100;

builder.queryFields((t) => ({
  myOrganizations: t.field({
    description: "The organizations the signed-in user belongs to, with their role in each.",
    type: [MyOrganization],
    resolve: (_root, _args, { ctx }) => organizationsDomain.listMyOrganizations(ctx),
  }),
  organizationEvents: t.field({
    description:
      "An organization's events (drafts included, deleted ones left out) with sales at a glance, soonest first. Members with sales access only. Paged: page from 0, limit 1–100 (default 20).",
    type: OrganizationEventList,
    args: {
      organizationId: t.arg.id({ required: true }),
      fromDate: t.arg.string({ description: "ISO date: only events with a date ending from then on. Empty lists every event." }),
      page: t.arg.int(),
      limit: t.arg.int(),
    },
    resolve: async (_root, args, { ctx }) => {
      const fromDate = filterDate(args.fromDate, "fromDate");
      const all = await eventsDomain.listOrganizationEvents(ctx, { organizationId: String(args.organizationId), fromDate });
      const page = Math.max(0, args.page ?? 0);
      const limit = Math.min(ORGANIZATION_EVENTS_MAX_LIMIT, Math.max(1, args.limit ?? 20));
      return { items: all.slice(page * limit, (page + 1) * limit), total: all.length, page, limit };
    },
  }),
  managedEvent: t.field({
    description: "One event with everything its organizer may see. Members with sales access only.",
    type: ManagedEvent,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx }) => {
      const view = await eventsDomain.getEventForOrganizer(ctx, String(id));
      organizerViews.set(view.event, Promise.resolve(view));
      return view.event;
    },
  }),
}));

// ---- Inputs ----
// Values go to the domain as they come: it validates them (zod) and answers BAD_USER_INPUT with Spanish fieldErrors.

type InputFields = Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0];

const ORGANIZATION_KEYS = ["name", "slug", "description", "cuit", "contactEmail", "contactPhone", "logoUrl", "passBackgroundColor", "passTextColor"] as const;

const CreateOrganizationInput = builder.inputType("CreateOrganizationInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    slug: t.string({ description: "Its page /{slug}; made from the name when left out." }),
    description: t.string(),
    cuit: t.string({ required: true, description: "With or without dashes; the check digit is verified." }),
    contactEmail: t.string({ required: true }),
    contactPhone: t.string(),
    logoUrl: t.string(),
  }),
});

const UpdateOrganizationInput = builder.inputType("UpdateOrganizationInput", {
  fields: (t) => ({
    id: t.id({ required: true }),
    name: t.string(),
    slug: t.string(),
    description: t.string(),
    cuit: t.string(),
    contactEmail: t.string(),
    contactPhone: t.string(),
    logoUrl: t.string(),
    passBackgroundColor: t.string({
      description: "The wallet passes' background, #rrggbb. Send both colours to change them, or both null to go back to Tribuna's; one alone, another format or a contrast under 4.5:1 (WCAG AA) is BAD_USER_INPUT.",
    }),
    passTextColor: t.string({ description: "The wallet passes' text colour, #rrggbb (see passBackgroundColor)." }),
  }),
});

const EVENT_KEYS = ["name", "description", "imageUrl", "category", "minAge", "venueName", "venueAddress", "city", "province", "venueLatitude", "venueLongitude"] as const;

const eventFields = (t: InputFields, required: boolean) => ({
  name: t.string({ required }),
  description: t.string(),
  imageUrl: t.string(),
  category: t.string({ description: "recitales, fiestas, teatro, stand-up, festivales, deportes, gastronomia, conferencias, infantiles or otros (default)." }),
  minAge: t.int(),
  venueName: t.string({ required }),
  venueAddress: t.string({ required }),
  city: t.string({ required }),
  province: t.string({ required, description: "Province code (AR-CF, AR-B…)." }),
  venueLatitude: t.float({ description: "The venue on the map: -90 to 90, decimal degrees. Both or neither; null clears them." }),
  venueLongitude: t.float({ description: "-180 to 180, decimal degrees (see venueLatitude)." }),
});

const DATE_KEYS = ["startsAt", "endsAt", "doorsAt"] as const;

const dateFields = (t: InputFields, required: boolean) => ({
  startsAt: t.string({ required, description: "ISO 8601; without offset it is Buenos Aires time." }),
  endsAt: t.string({ required }),
  doorsAt: t.string(),
});

const EventDateInput = builder.inputType("EventDateInput", { fields: (t) => dateFields(t, true) });

const AddEventDateInput = builder.inputType("AddEventDateInput", {
  fields: (t) => ({ eventId: t.id({ required: true }), ...dateFields(t, true) }),
});

const UpdateEventDateInput = builder.inputType("UpdateEventDateInput", {
  fields: (t) => ({ id: t.id({ required: true }), ...dateFields(t, false) }),
});

const TICKET_KEYS = [
  "eventDateId", "name", "description", "price", "stock", "minPerOrder", "maxPerOrder",
  "salesStartAt", "salesEndAt", "hidden", "presale", "accessCode", "paymentMethod", "status",
] as const;

const ticketFields = (t: InputFields, required: boolean) => ({
  name: t.string({ required }),
  description: t.string(),
  price: t.int({ required, description: "Integer centavos." }),
  stock: t.int({ required, description: "Total tickets for sale (never below those sold)." }),
  minPerOrder: t.int({ description: "Default 1." }),
  maxPerOrder: t.int({ description: "Default 10." }),
  salesStartAt: t.string({ description: "ISO 8601; empty: on sale at once." }),
  salesEndAt: t.string({ description: "ISO 8601; empty: until the date ends." }),
  hidden: t.boolean({ description: "Shown only to buyers who send its accessCode." }),
  presale: t.boolean({ description: "Shown only to buyers who send the event's presaleCode." }),
  accessCode: t.string({ description: "3–30 characters without spaces; compared case-insensitively." }),
  paymentMethod: t.string({ description: "MercadoPagoAccount (default), BankAccount or PromoterAccount." }),
});

const TicketTypeInput = builder.inputType("TicketTypeInput", {
  description: "A ticket type created with its event (valid for any of its dates).",
  fields: (t) => ticketFields(t, true),
});

const CreateTicketTypeInput = builder.inputType("CreateTicketTypeInput", {
  fields: (t) => ({ eventId: t.id({ required: true }), eventDateId: t.id({ description: "Leave out for any date." }), ...ticketFields(t, true) }),
});

const UpdateTicketTypeInput = builder.inputType("UpdateTicketTypeInput", {
  fields: (t) => ({
    id: t.id({ required: true }),
    eventDateId: t.id(),
    ...ticketFields(t, false),
    status: t.string({ description: "active, paused or deleted." }),
  }),
});

const CreateEventInput = builder.inputType("CreateEventInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    slug: t.string({ description: "Its page /eventos/{slug}; made from the name when left out." }),
    ...eventFields(t, true),
    dates: t.field({ type: [EventDateInput], required: true }),
    ticketTypes: t.field({ type: [TicketTypeInput] }),
  }),
});

const UpdateEventInput = builder.inputType("UpdateEventInput", {
  fields: (t) => ({ id: t.id({ required: true }), ...eventFields(t, false) }),
});

const StatusInput = builder.inputType("StatusInput", {
  fields: (t) => ({ id: t.id({ required: true }), status: t.string({ required: true, description: "active, paused or deleted." }) }),
});

const AddTicketStockInput = builder.inputType("AddTicketStockInput", {
  fields: (t) => ({ id: t.id({ required: true, description: "The ticket type." }), quantity: t.int({ required: true, description: "1 to 1000000." }) }),
});

const EventIdInput = builder.inputType("EventIdInput", {
  description: "The event an action applies to.",
  fields: (t) => ({ id: t.id({ required: true }) }),
});

const SetEventPixelInput = builder.inputType("SetEventPixelInput", {
  fields: (t) => ({ id: t.id({ required: true }), pixelId: t.string({ description: "Digits only; null or empty removes it." }) }),
});

const SetEventPresaleCodeInput = builder.inputType("SetEventPresaleCodeInput", {
  fields: (t) => ({ id: t.id({ required: true }), presaleCode: t.string({ description: "Up to 30 characters; null or empty removes it." }) }),
});

const CustomFieldInput = builder.inputType("CustomFieldInput", {
  fields: (t) => ({
    label: t.string({ required: true }),
    kind: t.string({ required: true, description: "text, number, select or date." }),
    options: t.stringList({ description: "For select: at least two." }),
    required: t.boolean(),
  }),
});

const SetEventCustomFieldsInput = builder.inputType("SetEventCustomFieldsInput", {
  fields: (t) => ({
    id: t.id({ required: true }),
    fields: t.field({ type: [CustomFieldInput], required: true, description: "Replaces every field the event had (up to 20)." }),
    oneHolderPerTicket: t.boolean({ description: "Named tickets: the checkout asks each ticket's holder (name and document). Absent: left as it is." }),
    maxTicketsPerAccount: t.int({
      description: "The most tickets of this event one account may hold, however it got them (1 to 1000; BAD_USER_INPUT outside). Null removes the limit; absent leaves it as it is.",
    }),
  }),
});

// ---- Mutations ----

builder.mutationFields((t) => ({
  createOrganization: t.field({
    description: "The signed-in user creates an organization and becomes its owner (and a producer).",
    type: ManagedOrganization,
    args: { input: t.arg({ type: CreateOrganizationInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => organizationsDomain.createOrganization(ctx, given(input)),
  }),
  updateOrganization: t.field({
    description: "Owners and admins edit the organization. Fields left out keep their value; null clears an optional one.",
    type: ManagedOrganization,
    args: { input: t.arg({ type: UpdateOrganizationInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const current = await organizationsDomain.getOrganizationForMember(ctx, String(input.id));
      return organizationsDomain.updateOrganization(ctx, { id: String(input.id), ...patch(current, input, ORGANIZATION_KEYS) });
    },
  }),
  createEvent: t.field({
    description: "A draft event with its dates and ticket types. Buyers see it once the conditions are accepted and it is published.",
    type: ManagedEvent,
    args: { input: t.arg({ type: CreateEventInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) =>
      (
        await eventsDomain.createEvent(ctx, {
          ...given(input),
          dates: input.dates.map(given),
          ticketTypes: (input.ticketTypes ?? []).map(given),
        })
      ).event,
  }),
  updateEvent: t.field({
    description: "Edits the event's own fields (dates and ticket types have their own mutations). Fields left out keep their value.",
    type: ManagedEvent,
    args: { input: t.arg({ type: UpdateEventInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const current = await eventsDomain.requireEvent(ctx, String(input.id));
      return eventsDomain.updateEvent(ctx, { id: current.id, ...patch(current, input, EVENT_KEYS) });
    },
  }),
  setEventStatus: t.field({
    description: "active: on sale; paused: visible, nothing on sale; deleted: gone for buyers (final).",
    type: ManagedEvent,
    args: { input: t.arg({ type: StatusInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.setEventStatus(ctx, input),
  }),
  acceptServiceConditions: t.field({
    description: "Accepts Tribuna's service fee for the event; needed before publishing.",
    type: ManagedEvent,
    args: { input: t.arg({ type: EventIdInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.acceptServiceConditions(ctx, { eventId: String(input.id) }),
  }),
  publishEvent: t.field({
    description: "Puts the draft in the catalogue. Needs accepted conditions, an active date and an active ticket type (BAD_USER_INPUT otherwise).",
    type: ManagedEvent,
    args: { input: t.arg({ type: EventIdInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.publishEvent(ctx, { id: String(input.id) }),
  }),
  addEventDate: t.field({
    type: ManagedEventDate,
    args: { input: t.arg({ type: AddEventDateInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.addEventDate(ctx, given(input)),
  }),
  updateEventDate: t.field({
    description: "Fields left out keep their value; doorsAt null clears it.",
    type: ManagedEventDate,
    args: { input: t.arg({ type: UpdateEventDateInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const current = await eventsDomain.requireEventDate(ctx, String(input.id));
      return eventsDomain.updateEventDate(ctx, { id: current.id, ...patch(current, input, DATE_KEYS) });
    },
  }),
  setEventDateStatus: t.field({
    type: ManagedEventDate,
    args: { input: t.arg({ type: StatusInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.setEventDateStatus(ctx, input),
  }),
  createTicketType: t.field({
    type: ManagedTicketType,
    args: { input: t.arg({ type: CreateTicketTypeInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.createTicketType(ctx, given(input)),
  }),
  updateTicketType: t.field({
    description: "Fields left out keep their value; null clears an optional one. Stock below what is already sold is BAD_USER_INPUT on stock.",
    type: ManagedTicketType,
    args: { input: t.arg({ type: UpdateTicketTypeInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const current = await eventsDomain.requireTicketType(ctx, String(input.id));
      return eventsDomain.updateTicketType(ctx, { id: current.id, ...patch(current, input, TICKET_KEYS) });
    },
  }),
  setTicketTypeStatus: t.field({
    type: ManagedTicketType,
    args: { input: t.arg({ type: StatusInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.setTicketTypeStatus(ctx, input),
  }),
  addTicketStock: t.field({
    description: "Adds tickets to a ticket type's stock in one step, safe next to live sales.",
    type: ManagedTicketType,
    args: { input: t.arg({ type: AddTicketStockInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.addTicketStock(ctx, input),
  }),
  setEventPixel: t.field({
    description: "The Meta pixel id for the event's pages; null or empty removes it. Answers only the event's pixel (marketing may set it without seeing the event's sales).",
    type: EventPixel,
    args: { input: t.arg({ type: SetEventPixelInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.setEventPixel(ctx, { eventId: String(input.id), pixelId: input.pixelId ?? "" }),
  }),
  setEventPresaleCode: t.field({
    description: "The code buyers send as presaleCode to see presale tickets; null or empty removes it.",
    type: ManagedEvent,
    args: { input: t.arg({ type: SetEventPresaleCodeInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => eventsDomain.setPresaleCode(ctx, { eventId: String(input.id), presaleCode: input.presaleCode ?? "" }),
  }),
  setEventCustomFields: t.field({
    description: "Replaces the questions asked of every attendee at checkout, and optionally sets named tickets and the per-account limit (Event.oneHolderPerTicket, Event.maxTicketsPerAccount).",
    type: ManagedEvent,
    args: { input: t.arg({ type: SetEventCustomFieldsInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const eventId = String(input.id);
      await eventsDomain.setCustomFields(ctx, {
        eventId,
        fields: input.fields.map(given),
        oneHolderPerTicket: input.oneHolderPerTicket ?? undefined,
        maxTicketsPerAccount: input.maxTicketsPerAccount,
      });
      return eventsDomain.requireEvent(ctx, eventId);
    },
  }),
}));

// ── Dates and ticket types as one list, with the spec's change actions ──

const ChangeActionEnum = builder.enumType("ChangeAction", { values: CHANGE_ACTIONS });

const ScheduleDateInput = builder.inputType("ScheduleDateInput", {
  description: "A date of the list: without `id` it is created; with `id` it is updated (or left alone when nothing changed); `remove: true` deletes it.",
  fields: (t) => ({ id: t.id(), remove: t.boolean(), ...dateFields(t, true) }),
});

const ScheduleTicketTypeInput = builder.inputType("ScheduleTicketTypeInput", {
  description: "A ticket type of the list: without `id` it is created; with `id` it is updated (or left alone when nothing changed); `remove: true` deletes it.",
  fields: (t) => ({ id: t.id(), remove: t.boolean(), eventDateId: t.id({ description: "One of the event's dates; leave out for any date." }), ...ticketFields(t, true) }),
});

const SaveEventScheduleInput = builder.inputType("SaveEventScheduleInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    dates: t.field({ type: [ScheduleDateInput], description: "Dates to create, change or delete; dates left out stay as they are." }),
    ticketTypes: t.field({ type: [ScheduleTicketTypeInput], description: "Ticket types to create, change or delete; those left out stay as they are." }),
  }),
});

const ScheduleDateChange = builder.objectRef<ScheduleChange>("ScheduleDateChange").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    action: t.field({ type: ChangeActionEnum, nullable: false, resolve: (c) => c.action as (typeof CHANGE_ACTIONS)[number] }),
    status: t.exposeString("status", { nullable: false, description: "created or modified when this save made or changed it; deleted; else its status (active, paused)." }),
  }),
});

const ScheduleTicketTypeChange = builder.objectRef<ScheduleChange>("ScheduleTicketTypeChange").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    action: t.field({ type: ChangeActionEnum, nullable: false, resolve: (c) => c.action as (typeof CHANGE_ACTIONS)[number] }),
    status: t.exposeString("status", { nullable: false, description: "active, paused or deleted." }),
  }),
});

const EventScheduleChanges = builder.objectRef<{ dates: ScheduleChange[]; ticketTypes: ScheduleChange[] }>("EventScheduleChanges").implement({
  fields: (t) => ({
    dates: t.field({ type: [ScheduleDateChange], nullable: false, resolve: (c) => c.dates }),
    ticketTypes: t.field({ type: [ScheduleTicketTypeChange], nullable: false, resolve: (c) => c.ticketTypes }),
  }),
});

builder.mutationField("saveEventSchedule", (t) =>
  t.field({
    type: EventScheduleChanges,
    nullable: false,
    description:
      "Creates, changes and deletes an event's dates and ticket types in one transaction and says what happened to each row (create, update, delete, no_update). Any invalid row refuses the whole save with BAD_USER_INPUT (`dates.1.endsAt`, `ticketTypes.0.stock`…).",
    args: { input: t.arg({ type: SaveEventScheduleInput, required: true }) },
    // The helpers that build these input types take `required` as a plain boolean, so Pothos types every
    // field as optional; the domain's parse is what enforces them.
    resolve: (_root, { input }, { ctx }) =>
      saveEventSchedule(ctx, {
        eventId: String(input.eventId),
        dates: (input.dates ?? []).map((d) => given({ ...d, id: d.id ? String(d.id) : undefined })) as SaveEventScheduleInput["dates"],
        ticketTypes: (input.ticketTypes ?? []).map((tt) =>
          given({ ...tt, id: tt.id ? String(tt.id) : undefined, eventDateId: tt.eventDateId ? String(tt.eventDateId) : undefined }),
        ) as SaveEventScheduleInput["ticketTypes"],
      }),
  }),
);

