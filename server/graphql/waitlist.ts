import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import * as waitlist from "#server/waitlist/waitlist";
import type { EventWaitlistView, WaitlistEntryView } from "#server/waitlist/waitlist";

/**
 * The waiting list of a sold-out event (docs/waitlist.md): a buyer's entries,
 * and the organizer's view of the line. The same domain functions as the
 * event page, "Mis tickets" and `/organizacion/eventos/{slug}/lista-de-espera`.
 * Claiming an offer is a page (`/lista-de-espera/oferta/{id}`, the link in the
 * offer's email) that leads into the normal checkout.
 */

const WaitlistEntryStatusEnum = builder.enumType("WaitlistEntryStatus", {
  values: {
    WAITING: { description: "In line." },
    OFFERED: { description: "Tickets are held for this entry until offer.expiresAt: claim them from the offer's link." },
    CLAIMED: { description: "The offer was claimed (its order is a normal purchase)." },
    LEFT: { description: "The person left the list." },
    MISSED: { description: "An offer ran out unclaimed and passed to the next person." },
  } as const,
});

const WaitlistOfferStatusEnum = builder.enumType("WaitlistOfferStatus", { values: ["OFFERED", "CLAIMED", "EXPIRED", "WITHDRAWN"] as const });

const up = <T extends string>(s: T) => s.toUpperCase() as Uppercase<T>;

const WaitlistOffer = builder.objectRef<NonNullable<WaitlistEntryView["offer"]>>("WaitlistOffer").implement({
  description: "Tickets held for an entry of the waiting list.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    quantity: t.exposeInt("quantity", { nullable: false, description: "May be fewer than the entry asked for; the rest keeps waiting once claimed." }),
    ticketTypeName: t.exposeString("ticketTypeName", { nullable: false }),
    expiresAt: t.string({ nullable: false, resolve: (o) => isoDate(o.expiresAt)! }),
    status: t.field({ type: WaitlistOfferStatusEnum, nullable: false, resolve: (o) => up(o.status) }),
    claimPath: t.exposeString("claimPath", { nullable: false, description: "The page where its person claims it (signed in with the same account)." }),
  }),
});

const WaitlistEntry = builder.objectRef<WaitlistEntryView>("WaitlistEntry").implement({
  description: "A buyer waiting for tickets of a sold-out event date.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    eventId: t.exposeID("eventId", { nullable: false }),
    eventSlug: t.exposeString("eventSlug", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    eventDateId: t.exposeID("eventDateId", { nullable: false }),
    startsAt: t.string({ nullable: false, resolve: (e) => isoDate(e.startsAt)! }),
    ticketTypeId: t.id({ description: "Null: any ticket of the event.", resolve: (e) => e.ticketTypeId }),
    ticketTypeName: t.string({ resolve: (e) => e.ticketTypeName }),
    quantity: t.exposeInt("quantity", { nullable: false }),
    status: t.field({ type: WaitlistEntryStatusEnum, nullable: false, resolve: (e) => up(e.status) }),
    ahead: t.exposeInt("ahead", { nullable: false, description: "People ahead in line (0 when not waiting)." }),
    joinedAt: t.string({ nullable: false, resolve: (e) => isoDate(e.joinedAt)! }),
    offer: t.field({ type: WaitlistOffer, description: "The latest offer made to this entry.", resolve: (e) => e.offer }),
  }),
});

type OrganizerEntry = EventWaitlistView["entries"][number];

const EventWaitlistOffer = builder.objectRef<NonNullable<OrganizerEntry["offer"]>>("EventWaitlistOffer").implement({
  fields: (t) => ({
    quantity: t.exposeInt("quantity", { nullable: false }),
    ticketTypeName: t.exposeString("ticketTypeName", { nullable: false }),
    expiresAt: t.string({ nullable: false, resolve: (o) => isoDate(o.expiresAt)! }),
    status: t.field({ type: WaitlistOfferStatusEnum, nullable: false, resolve: (o) => up(o.status) }),
    orderId: t.id({ description: "The order a claimed offer became.", resolve: (o) => o.orderId }),
  }),
});

const EventWaitlistEntry = builder.objectRef<OrganizerEntry>("EventWaitlistEntry").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    position: t.exposeInt("position", { nullable: false, description: "Order of arrival (smaller: earlier)." }),
    name: t.exposeString("name", { nullable: false }),
    email: t.exposeString("email", { nullable: false }),
    startsAt: t.string({ nullable: false, resolve: (e) => isoDate(e.startsAt)! }),
    ticketTypeName: t.string({ description: "Null: any ticket of the event.", resolve: (e) => e.ticketTypeName }),
    quantity: t.exposeInt("quantity", { nullable: false }),
    status: t.field({ type: WaitlistEntryStatusEnum, nullable: false, resolve: (e) => up(e.status) }),
    joinedAt: t.string({ nullable: false, resolve: (e) => isoDate(e.joinedAt)! }),
    offer: t.field({ type: EventWaitlistOffer, resolve: (e) => e.offer }),
  }),
});

const EventWaitlistGroup = builder.objectRef<EventWaitlistView["byTicketType"][number]>("EventWaitlistGroup").implement({
  fields: (t) => ({
    ticketTypeId: t.id({ description: "Null: any ticket of the event.", resolve: (g) => g.ticketTypeId }),
    ticketTypeName: t.string({ resolve: (g) => g.ticketTypeName }),
    people: t.exposeInt("people", { nullable: false }),
    tickets: t.exposeInt("tickets", { nullable: false }),
  }),
});

const EventWaitlist = builder.objectRef<EventWaitlistView>("EventWaitlist").implement({
  description: "An event's waiting list for its organizer.",
  fields: (t) => ({
    eventId: t.exposeID("eventId", { nullable: false }),
    enabled: t.exposeBoolean("enabled", { nullable: false }),
    offerMinutes: t.exposeInt("offerMinutes", { nullable: false, description: "How long an offer holds its tickets." }),
    waiting: t.exposeInt("waiting", { nullable: false, description: "People waiting (not offered yet)." }),
    waitingTickets: t.exposeInt("waitingTickets", { nullable: false }),
    offered: t.exposeInt("offered", { nullable: false, description: "Offers running now." }),
    byTicketType: t.field({ type: [EventWaitlistGroup], nullable: false, resolve: (w) => w.byTicketType }),
    entries: t.field({ type: [EventWaitlistEntry], nullable: false, description: "In order of arrival (up to 1000).", resolve: (w) => w.entries }),
  }),
});

const JoinWaitlistInput = builder.inputType("JoinWaitlistInput", {
  fields: (t) => ({
    eventSlug: t.string({ required: true }),
    eventDateId: t.id({ description: "Required when the event has more than one date." }),
    ticketTypeId: t.id({ description: "Absent: any ticket of the event." }),
    quantity: t.int({ required: true, description: "1 to the ticket type's per-order maximum." }),
  }),
});

builder.queryFields((t) => ({
  myWaitlist: t.field({
    type: [WaitlistEntry],
    nullable: false,
    description: "The signed-in account's waiting-list entries, offered and waiting first.",
    resolve: (_root, _args, { ctx }) => waitlist.myWaitlist(ctx),
  }),
  eventWaitlist: t.field({
    type: EventWaitlist,
    nullable: false,
    description: "The event's waiting list: settings, counts per ticket type and the line. Needs sales:read in the event's organization.",
    args: { eventId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => waitlist.eventWaitlist(ctx, String(args.eventId)),
  }),
}));

builder.mutationFields((t) => ({
  joinWaitlist: t.field({
    type: WaitlistEntry,
    nullable: false,
    description: "Joins a sold-out event's waiting list (signed in). CONFLICT when the list is off, tickets are still on sale, or the account already waits for the same date and ticket type.",
    args: { input: t.arg({ type: JoinWaitlistInput, required: true }) },
    resolve: (_root, { input }, { ctx }) =>
      waitlist.joinWaitlist(ctx, given({ ...input, eventDateId: input.eventDateId == null ? null : String(input.eventDateId), ticketTypeId: input.ticketTypeId == null ? null : String(input.ticketTypeId) })),
  }),
  leaveWaitlist: t.field({
    type: WaitlistEntry,
    nullable: false,
    description: "Leaves the waiting list; a running offer is given to the next person. Someone else's entry is NOT_FOUND.",
    args: { entryId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => waitlist.leaveWaitlist(ctx, String(args.entryId)),
  }),
}));
