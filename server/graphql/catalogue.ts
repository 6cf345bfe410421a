/**
 * The public catalogue over GraphQL (`events`, `event`, `organization`): what a buyer or an integrator sees without
 * signing in. The back office's events and organizations are in events.ts; both only translate to and from
 * server/events and server/organizations (docs/api.md has the operations, docs/architecture.md the layers).
 *
 * Conventions shared by every file here: every root field is nullable (when one field of a request fails, the
 * others still deliver their data next to the error); money is integer centavos plus a `…Formatted` string; dates
 * are ISO 8601 with the Buenos Aires offset. Input dates are strings the domain validates, so a bad one is
 * BAD_USER_INPUT with a Spanish message on its field.
 */
import { builder } from "./builder";
import { isoDate, money } from "./scalars";
import { parseDateTime } from "#common/dates";
import * as catalogue from "#server/events/catalogue";
import { EVENT_MESSAGES } from "#server/events/schemas";
import * as organizationsDomain from "#server/organizations/organizations";
import { Invalid } from "#server/errors";
import { EventLiveQr } from "./live-qr";
import { liveQrSettingsOf } from "#server/door/live-qr";

type PublicEvent = catalogue.PublicEvent;
type PublicTicket = PublicEvent["ticketTypes"][number];
type PublicDate = PublicEvent["dates"][number];
type CatalogueItem = Awaited<ReturnType<typeof catalogue.listPublicEvents>>["items"][number];

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A filter date: ISO 8601, read as Buenos Aires time without offset; a plain date `to` includes that whole day. */
export function filterDate(value: string | null | undefined, field: string, endOfDay = false): Date | null {
  if (value === null || value === undefined || value.trim() === "") return null;
  const parsed = parseDateTime(value);
  if (!parsed) throw new Invalid({ [field]: [EVENT_MESSAGES.date] });
  return endOfDay && DATE_ONLY.test(value.trim()) ? new Date(parsed.getTime() + 24 * 3600_000 - 1) : parsed;
}

export const Venue = builder.objectRef<PublicEvent["event"]["venue"]>("Venue").implement({
  fields: (t) => ({
    name: t.exposeString("name", { nullable: false }),
    address: t.exposeString("address", { nullable: false }),
    city: t.exposeString("city", { nullable: false }),
    province: t.exposeString("province", { nullable: false, description: "Province code (AR-CF, AR-B…)." }),
  }),
});

const OrganizationRef = builder
  .objectRef<{ id: string; slug: string; name: string; description?: string | null; logoUrl?: string | null }>("Organization")
  .implement({
    description: "An organization as the public sees it (its page is /{slug}).",
    fields: (t) => ({
      id: t.exposeID("id", { nullable: false }),
      slug: t.exposeString("slug", { nullable: false }),
      name: t.exposeString("name", { nullable: false }),
      description: t.string({ resolve: (o) => o.description ?? null }),
      logoUrl: t.string({ resolve: (o) => o.logoUrl ?? null }),
    }),
  });

const EventDate = builder.objectRef<PublicDate>("EventDate").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    startsAt: t.string({ nullable: false, description: "ISO 8601 with the Buenos Aires offset.", resolve: (d) => isoDate(d.startsAt)! }),
    endsAt: t.string({ nullable: false, resolve: (d) => isoDate(d.endsAt)! }),
    doorsAt: t.string({ resolve: (d) => isoDate(d.doorsAt) }),
    status: t.exposeString("status", { nullable: false, description: "active or paused." }),
  }),
});

const TicketType = builder.objectRef<PublicTicket>("TicketType").implement({
  description: "A ticket type as a buyer sees it.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    eventDateId: t.exposeID("eventDateId", { description: "The date it is for; null when it is valid for any date." }),
    name: t.exposeString("name", { nullable: false }),
    description: t.exposeString("description", { nullable: false }),
    price: t.exposeInt("price", { nullable: false, description: "Integer centavos (ARS)." }),
    priceFormatted: t.string({ nullable: false, description: 'For people: "$ 15.000,00".', resolve: (x) => money(x.price)! }),
    available: t.exposeInt("available", { nullable: false }),
    hidden: t.exposeBoolean("hidden", { nullable: false }),
    presale: t.exposeBoolean("presale", { nullable: false }),
    requiresAccessCode: t.exposeBoolean("requiresAccessCode", { nullable: false }),
    paymentMethod: t.exposeString("paymentMethod", { nullable: false, description: "MercadoPagoAccount, BankAccount or PromoterAccount." }),
    minPerOrder: t.exposeInt("minPerOrder", { nullable: false }),
    maxPerOrder: t.exposeInt("maxPerOrder", { nullable: false }),
    state: t.exposeString("state", { nullable: false, description: "on_sale, sold_out, paused, not_started, ended or needs_code." }),
    stateLabel: t.string({ nullable: false, description: "The state in Spanish, ready to show.", resolve: (x) => catalogue.TICKET_STATE_LABELS[x.state] }),
  }),
});

const Event = builder.objectRef<PublicEvent>("Event").implement({
  description: "An event as a buyer sees it: its upcoming dates and the ticket types this buyer may see.",
  fields: (t) => ({
    id: t.id({ nullable: false, resolve: (e) => e.event.id }),
    slug: t.string({ nullable: false, resolve: (e) => e.event.slug }),
    name: t.string({ nullable: false, resolve: (e) => e.event.name }),
    description: t.string({ nullable: false, resolve: (e) => e.event.description }),
    imageUrl: t.string({ resolve: (e) => e.event.imageUrl }),
    category: t.string({ nullable: false, resolve: (e) => e.event.category }),
    minAge: t.int({ nullable: false, resolve: (e) => e.event.minAge }),
    status: t.string({ nullable: false, description: "active or paused (paused: visible, nothing on sale).", resolve: (e) => e.event.status }),
    venue: t.field({ type: Venue, nullable: false, resolve: (e) => e.event.venue }),
    organization: t.field({ type: OrganizationRef, nullable: false, resolve: (e) => e.organization }),
    dates: t.field({ type: [EventDate], nullable: false, resolve: (e) => e.dates }),
    ticketTypes: t.field({ type: [TicketType], nullable: false, resolve: (e) => e.ticketTypes }),
    presaleUnlocked: t.boolean({ nullable: false, description: "Whether the presaleCode sent unlocked the presale.", resolve: (e) => e.presaleUnlocked }),
    hasPresale: t.boolean({ nullable: false, description: "Whether a presale code can unlock presale tickets.", resolve: (e) => e.event.hasPresale }),
    namedTickets: t.boolean({
      nullable: false,
      description: "Entradas nominativas: createOrder needs one attendee (name and document) per ticket, each ticket carries its holder's document, and transferTicket asks the new holder's documentNumber.",
      resolve: (e) => e.event.namedTickets,
    }),
    liveQr: t.field({
      type: EventLiveQr,
      nullable: false,
      description: "The live QR (\"QR dinámico\"): whether tickets show a code that changes every 15 seconds, and from when before the opening static codes count.",
      resolve: (e, _args, { ctx }) => liveQrSettingsOf(ctx.db, e.event.id),
    }),
    maxTicketsPerAccount: t.int({
      description: "Most tickets of this event one account may hold, however it got them (purchase, transfer, resale); null: no limit. With a limit createOrder needs a signed-in account (UNAUTHENTICATED, reason ACCOUNT_REQUIRED) and refuses beyond it (CONFLICT, reason ACCOUNT_LIMIT_REACHED).",
      resolve: (e) => e.event.maxTicketsPerAccount,
    }),
  }),
});

const EventSummary = builder.objectRef<CatalogueItem>("EventSummary").implement({
  description: "An event in the catalogue list (`event(slug)` has the rest).",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    slug: t.exposeString("slug", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    imageUrl: t.exposeString("imageUrl"),
    category: t.exposeString("category", { nullable: false }),
    status: t.exposeString("status", { nullable: false }),
    venue: t.field({
      type: Venue,
      nullable: false,
      resolve: (e) => ({ name: e.venueName, address: e.venueAddress, city: e.city, province: e.province }),
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: (e) => ({ id: e.organizationId, slug: e.organizationSlug, name: e.organizationName }),
    }),
    nextDate: t.string({ nullable: false, description: "Start of its next date still to come (ISO 8601).", resolve: (e) => isoDate(e.nextDate)! }),
    minPrice: t.int({ description: "Lowest price on sale to everyone, integer centavos; null when there is none.", resolve: (e) => e.minPrice }),
    minPriceFormatted: t.string({ resolve: (e) => money(e.minPrice) }),
    available: t.exposeInt("available", { nullable: false }),
  }),
});

const EventList = builder
  .objectRef<{ items: CatalogueItem[]; total: number; page: number; limit: number }>("EventList")
  .implement({
    fields: (t) => ({
      items: t.field({ type: [EventSummary], nullable: false, resolve: (l) => l.items }),
      total: t.exposeInt("total", { nullable: false }),
      page: t.exposeInt("page", { nullable: false, description: "From 0." }),
      limit: t.exposeInt("limit", { nullable: false }),
    }),
  });

const EventFilter = builder.inputType("EventFilter", {
  fields: (t) => ({
    search: t.string({ description: "Part of the event's, venue's, city's or organization's name (accents and case ignored)." }),
    province: t.string({ description: "Province code (AR-CF, AR-B…)." }),
    category: t.string(),
    from: t.string({ description: "ISO date or date-time (Buenos Aires without offset): events with a date ending from then on." }),
    to: t.string({ description: "ISO date or date-time: events with a date starting until then (a plain date includes that day)." }),
    organizationSlug: t.string(),
  }),
});

builder.queryFields((t) => ({
  events: t.field({
    description: "Public catalogue: published events with a date still to come, soonest first. Paged: page from 0, limit 1–48 (default 12).",
    type: EventList,
    args: { filter: t.arg({ type: EventFilter }), page: t.arg.int(), limit: t.arg.int() },
    resolve: async (_root, { filter, page, limit }, { ctx }) => {
      const from = filterDate(filter?.from, "from");
      const to = filterDate(filter?.to, "to", true);
      const organizationId = filter?.organizationSlug
        ? (await organizationsDomain.getOrganizationBySlug(ctx, filter.organizationSlug)).id
        : null;
      return catalogue.listPublicEvents(ctx, {
        search: filter?.search,
        province: filter?.province,
        category: filter?.category,
        from,
        to,
        organizationId,
        page,
        limit,
      });
    },
  }),
  event: t.field({
    description:
      "A published event, its upcoming dates and the ticket types this buyer may see: hidden ones only with their accessCode, presale ones only with the event's presaleCode (both case-insensitive). NOT_FOUND for drafts and deleted events.",
    type: Event,
    args: { slug: t.arg.string({ required: true }), accessCode: t.arg.string(), presaleCode: t.arg.string() },
    resolve: (_root, { slug, accessCode, presaleCode }, { ctx }) => catalogue.getPublicEvent(ctx, slug, { accessCode, presaleCode }),
  }),
  organization: t.field({
    description: "Public: the organization behind /{slug}. NOT_FOUND when there is none.",
    type: OrganizationRef,
    args: { slug: t.arg.string({ required: true }) },
    resolve: (_root, { slug }, { ctx }) => organizationsDomain.getOrganizationBySlug(ctx, slug),
  }),
}));
