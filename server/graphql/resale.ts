import type { ResaleListingRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import { formatMoney } from "#common/money";
import { cancelResaleListing, getEventResale, listForResale, resaleListingsOfEvent, setEventResale } from "#server/resale/listings";
import { markResalePayoutDone, retryResalePayout } from "#server/resale/payouts";
import type { ResaleRules } from "#server/resale/rules";

/**
 * The official resale at face value (docs/resale.md): the seller lists and
 * cancels, anyone reads an event's offer; buying is `createOrder` with
 * `resaleListingId`. The same domain functions as "Mis tickets" and the
 * event page.
 */

const ResaleListingStatusEnum = builder.enumType("ResaleListingStatus", {
  values: {
    ACTIVE: { description: "On sale." },
    HELD: { description: "A buyer's checkout holds it (back on sale if the hold ends unpaid)." },
    SOLD: { description: "Bought: the seller's QR no longer gets in." },
    CANCELLED: { description: "Taken back by the seller." },
  } as const,
});

const ResalePayoutStatusEnum = builder.enumType("ResalePayoutStatus", { values: ["NONE", "PENDING", "DONE", "FAILED"] as const });

const ResaleListing = builder.objectRef<ResaleListingRow>("ResaleListing").implement({
  description: "One of the seller's tickets offered in the official resale (their own view).",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    ticketId: t.exposeID("issuedProductId", { nullable: false }),
    eventId: t.exposeID("eventId", { nullable: false }),
    status: t.field({ type: ResaleListingStatusEnum, nullable: false, resolve: (l) => l.status.toUpperCase() as "ACTIVE" }),
    faceValue: t.exposeInt("faceValue", { nullable: false, description: "Centavos the seller paid for this ticket: the highest price allowed." }),
    price: t.exposeInt("price", { nullable: false, description: "Centavos." }),
    priceFormatted: t.string({ nullable: false, resolve: (l) => formatMoney(l.price) }),
    fee: t.exposeInt("fee", { nullable: false, description: "The organizer's resale fee, kept from the payout (centavos)." }),
    payout: t.exposeInt("payout", { nullable: false, description: "What the seller gets back once sold: price − fee (centavos)." }),
    payoutStatus: t.field({ type: ResalePayoutStatusEnum, nullable: false, resolve: (l) => l.payoutStatus.toUpperCase() as "NONE" }),
    createdAt: t.string({ nullable: false, resolve: (l) => isoDate(l.createdAt)! }),
    soldAt: t.string({ resolve: (l) => isoDate(l.soldAt) }),
  }),
});

type Offer = Awaited<ReturnType<typeof resaleListingsOfEvent>>[number];
const ResaleOffer = builder.objectRef<Offer>("ResaleOffer").implement({
  description: "A ticket on sale in an event's official resale (\"Reventa oficial\"): buy it with createOrder's resaleListingId.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    ticketTypeId: t.exposeID("ticketTypeId", { nullable: false }),
    ticketTypeName: t.exposeString("ticketTypeName", { nullable: false }),
    eventDateId: t.exposeID("eventDateId", { nullable: false }),
    startsAt: t.string({ nullable: false, resolve: (o) => isoDate(o.startsAt)! }),
    price: t.exposeInt("price", { nullable: false, description: "Centavos (never above faceValue); the event's service fee is added at checkout." }),
    priceFormatted: t.string({ nullable: false, resolve: (o) => formatMoney(o.price) }),
    faceValue: t.exposeInt("faceValue", { nullable: false }),
  }),
});

const ListForResaleInput = builder.inputType("ListForResaleInput", {
  fields: (t) => ({
    ticketId: t.id({ required: true, description: "One of the signed-in account's tickets (myTickets)." }),
    price: t.int({ required: true, description: "Centavos; at most the face value paid (and the organizer's cap): above it, BAD_USER_INPUT on price." }),
  }),
});

const EventResale = builder.objectRef<{ eventId: string; rules: ResaleRules; listings?: ResaleListingRow[] }>("EventResale").implement({
  description: "An event's official resale as its organizer runs it: the rules and the listings (newest first, up to 200).",
  fields: (t) => ({
    eventId: t.exposeID("eventId", { nullable: false }),
    enabled: t.boolean({ nullable: false, resolve: (r) => r.rules.enabled }),
    capPercent: t.int({ nullable: false, description: "The most a listing may ask, in percent of the face value the seller paid (1 to 100).", resolve: (r) => r.rules.capBps / 100 }),
    feePercent: t.float({ nullable: false, description: "The organizer's resale fee, percent of the price kept from the seller's payout (0 to 50).", resolve: (r) => r.rules.feeBps / 100 }),
    listings: t.field({ type: [ResaleListing], nullable: false, resolve: (r) => r.listings ?? [] }),
  }),
});

const SetEventResaleInput = builder.inputType("SetEventResaleInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    enabled: t.boolean({ required: true }),
    capPercent: t.int({ required: true, description: "1 to 100 (BAD_USER_INPUT outside); a lower cap applies to new listings only." }),
    feePercent: t.float({ required: true, description: "0 to 50 (BAD_USER_INPUT outside)." }),
  }),
});

builder.queryFields((t) => ({
  eventResale: t.field({
    type: EventResale,
    nullable: false,
    description: "The event's resale rules and listings for its organizer (events:manage). NOT_FOUND for an unknown event.",
    args: { eventId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const { event, rules, listings } = await getEventResale(ctx, String(args.eventId));
      return { eventId: event.id, rules, listings };
    },
  }),
  resaleListings: t.field({
    type: [ResaleOffer],
    nullable: false,
    description: "The event's official resale offer (public), cheapest first. NOT_FOUND for an unknown event.",
    args: { eventSlug: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => resaleListingsOfEvent(ctx, args.eventSlug),
  }),
}));

builder.mutationFields((t) => ({
  listForResale: t.field({
    type: ResaleListing,
    nullable: false,
    description:
      "Offers one of the signed-in account's tickets in the official resale. Its QR keeps working until sold; when sold it stops getting in and the seller gets price − fee back. BAD_USER_INPUT above the face value; CONFLICT when it cannot be resold (used, voided, sent, free, started, already listed); NOT_FOUND for a ticket that is not theirs.",
    args: { input: t.arg({ type: ListForResaleInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => listForResale(ctx, given({ ticketId: String(input.ticketId), price: input.price })),
  }),
  cancelResaleListing: t.field({
    type: ResaleListing,
    nullable: false,
    description: "Takes the seller's listing back while nobody holds or bought it (CONFLICT afterwards; NOT_FOUND when not theirs).",
    args: { listingId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => cancelResaleListing(ctx, { listingId: String(args.listingId) }),
  }),
  setEventResale: t.field({
    type: EventResale,
    nullable: false,
    description: "Sets the event's resale rules: on or off, the cap and the fee (events:manage; audited).",
    args: { input: t.arg({ type: SetEventResaleInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const eventId = String(input.eventId);
      const rules = await setEventResale(ctx, { eventId, enabled: input.enabled, capPercent: input.capPercent, feePercent: input.feePercent });
      return { eventId, rules };
    },
  }),
  markResalePayoutDone: t.field({
    type: ResaleListing,
    nullable: false,
    description: "The organizer paid a sold listing's seller back by bank transfer (sellers who did not pay with Mercado Pago): PENDING → DONE. money:manage; CONFLICT when it is not such a payout or already done.",
    args: { listingId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => markResalePayoutDone(ctx, { listingId: String(args.listingId) }),
  }),
  retryResalePayout: t.field({
    type: ResaleListing,
    nullable: false,
    description: "Queues again a Mercado Pago payout that FAILED (same idempotency key: it never pays twice). money:manage; CONFLICT when it did not fail.",
    args: { listingId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => retryResalePayout(ctx, { listingId: String(args.listingId) }),
  }),
}));
