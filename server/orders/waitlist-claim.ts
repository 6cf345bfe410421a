import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { eventDates, events, resaleListings, ticketTypes, waitlistEntries, waitlistOffers, type WaitlistOfferStatus } from "#server/db/schema";
import { Conflict, NotFound, Unauthenticated } from "#server/errors";
import { billingAccessToken } from "#server/auth/billing-access";
import { createOrder, createOrderSchema } from "./orders";
import { createResaleOrder } from "./resale-order";
import { recordAudit } from "#server/organizations/audit";
import { releaseStock } from "#server/stock/stock";
import { parseInput, type DomainInput } from "#server/validation";
import { lockWaitlist } from "#server/waitlist/offers";
import { bestSeatsOfTicketType } from "#server/seating/claims";
import { accountLimitRefusal } from "#server/tickets/account-limit";
import { retryOnDeadlock } from "#server/db/errors";

/*
 * Claiming an offer (decision 198): the tickets the offer holds become the
 * claimant's order, a normal draft with its normal hold and checkout
 * (/checkout/{billingId}). In ONE transaction, after the event's waiting-list
 * lock: the offer moves offered → claimed (a conditional UPDATE: of a claim
 * and the offer's expiry only one wins), its units are given back and the
 * order takes them again while this transaction still holds the ticket
 * types' row locks, so no other buyer can take them in between.
 */

export const CLAIM_MESSAGES = {
  notFound: "No encontramos esta reserva de la lista de espera.",
  over: "Esta reserva ya no está disponible: venció o ya la usaste.",
} as const;

export interface OfferView {
  id: string;
  status: WaitlistOfferStatus;
  /** Still claimable now. */
  open: boolean;
  quantity: number;
  wanted: number;
  expiresAt: Date;
  orderId: string | null;
  /** The resale listing the offer holds (docs/waitlist.md, "Reventa"); null: returned stock. */
  listingId: string | null;
  ticketTypeId: string;
  ticketTypeName: string;
  unitPrice: number;
  /** The event's service fee on what is paid (common/pricing.ts), for the final price the page shows. */
  serviceFeeBps: number;
  eventId: string;
  eventSlug: string;
  eventName: string;
  eventDateId: string;
  startsAt: Date;
  /** The event's per-account limit, said before the form (null: within it). The claim checks it again. */
  limitRefusal: string | null;
}

const uuid = z.string().uuid();

/** The offer as the person it was made to sees it; anybody else gets NOT_FOUND. */
export async function getWaitlistOffer(ctx: Ctx, offerId: string): Promise<OfferView> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated("Iniciá sesión con la cuenta con la que te anotaste en la lista de espera.");
  if (!uuid.safeParse(offerId).success) throw new NotFound(CLAIM_MESSAGES.notFound);
  const [row] = await ctx.db
    .select({
      offer: waitlistOffers,
      entry: waitlistEntries,
      event: { id: events.id, slug: events.slug, name: events.name, serviceFeeBps: events.serviceFeeBps },
      startsAt: eventDates.startsAt,
      type: { name: ticketTypes.name, price: ticketTypes.price },
      listingPrice: resaleListings.price,
    })
    .from(waitlistOffers)
    .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
    .innerJoin(events, eq(events.id, waitlistEntries.eventId))
    .innerJoin(eventDates, eq(eventDates.id, waitlistEntries.eventDateId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, waitlistOffers.ticketTypeId))
    .leftJoin(resaleListings, eq(resaleListings.id, waitlistOffers.listingId))
    .where(and(eq(waitlistOffers.id, offerId), eq(waitlistEntries.userId, ctx.actor.userId)));
  if (!row) throw new NotFound(CLAIM_MESSAGES.notFound);
  const open = row.offer.status === "offered" && row.offer.expiresAt > ctx.now;
  return {
    id: row.offer.id,
    status: row.offer.status,
    open,
    quantity: row.offer.quantity,
    wanted: row.entry.quantity,
    expiresAt: row.offer.expiresAt,
    orderId: row.offer.orderId,
    listingId: row.offer.listingId,
    ticketTypeId: row.offer.ticketTypeId,
    ticketTypeName: row.type.name,
    unitPrice: row.listingPrice ?? row.type.price,
    serviceFeeBps: row.event.serviceFeeBps ?? 0,
    eventId: row.event.id,
    eventSlug: row.event.slug,
    eventName: row.event.name,
    eventDateId: row.entry.eventDateId,
    startsAt: row.startsAt,
    limitRefusal: open ? await accountLimitRefusal(ctx.db, { eventId: row.event.id, accountId: ctx.actor.userId, adding: row.offer.quantity, now: ctx.now }) : null,
  };
}

const claimSchema = createOrderSchema.pick({ payer: true, paymentMethod: true, attendees: true, customFields: true });

/**
 * Claims the offer for its person: returns the order placed with its held
 * tickets and the checkout's access token. A payer error leaves the offer as
 * it was (the transaction rolls back); an offer that ran out is a CONFLICT.
 * If the claimant asked for more than the offer held, the rest keeps waiting
 * in the same place (decision 199).
 */
export async function claimWaitlistOffer(ctx: Ctx, offerId: string, rawInput: DomainInput<typeof claimSchema>) {
  const view = await getWaitlistOffer(ctx, offerId);
  if (!view.open) throw new Conflict(CLAIM_MESSAGES.over);
  const input = parseInput(claimSchema, rawInput);
  // Its seats are claimed after the offer gives its stock back (the ticket type's row locked): a buyer who chose one
  // of them on the map at that instant waits for the row while this waits for the seat, and PostgreSQL breaks the
  // cycle by rolling one back; run again, it finds the seat taken or free (decision 236).
  const placed = await retryOnDeadlock(() => ctx.db.transaction(async (tx) => {
    await lockWaitlist(tx, view.eventId);
    const [offer] = await tx
      .update(waitlistOffers)
      .set({ status: "claimed", endedAt: ctx.now })
      .where(and(eq(waitlistOffers.id, offerId), eq(waitlistOffers.status, "offered"), gt(waitlistOffers.expiresAt, ctx.now)))
      .returning();
    if (!offer) throw new Conflict(CLAIM_MESSAGES.over);
    let placed;
    if (offer.listingId) {
      // A resale listing: back on sale and held by this order under the same row lock (a buyer of the
      // event page waits for it and then finds it held), through the resale checkout (docs/resale.md).
      await tx
        .update(resaleListings)
        .set({ status: "active", updatedAt: ctx.now })
        .where(and(eq(resaleListings.id, offer.listingId), eq(resaleListings.status, "held"), isNull(resaleListings.heldByOrderId)));
      placed = await createResaleOrder({ ...ctx, db: tx }, { resaleListingId: offer.listingId, payer: input.payer, attendees: input.attendees, customFields: input.customFields });
    } else {
      // Reserved seating (docs/seating.md, decision 236): a seated type's best seats for the quantity offered —
      // together if there are, else the best single ones (the claimant cannot ask for fewer) — picked under the
      // date's lock (held until this commits: no best-available buyer takes them meanwhile) and claimed by
      // createOrder as the claimant's own seats. Null for general admission: the items, as always.
      const seats = await bestSeatsOfTicketType(tx, { eventDateId: view.eventDateId, ticketTypeId: offer.ticketTypeId, quantity: offer.quantity, apart: true, field: "_form" });
      // Given back and taken again under the same row locks: nobody else sees them free.
      await releaseStock(tx, [{ ticketTypeId: offer.ticketTypeId, qty: offer.quantity }], ctx.now);
      placed = await createOrder(
        { ...ctx, db: tx },
        { eventSlug: view.eventSlug, eventDateId: view.eventDateId, items: seats ? [] : [{ ticketId: offer.ticketTypeId, qty: offer.quantity }], ...(seats ? { seats } : {}), ...input },
      );
    }
    const { order, billing } = placed;
    await tx.update(waitlistOffers).set({ orderId: order.id }).where(eq(waitlistOffers.id, offer.id));
    const rest = view.wanted - offer.quantity;
    await tx
      .update(waitlistEntries)
      .set(rest > 0 ? { status: "waiting", quantity: rest, updatedAt: ctx.now } : { status: "claimed", updatedAt: ctx.now })
      .where(and(eq(waitlistEntries.id, offer.entryId), eq(waitlistEntries.status, "offered")));
    await recordAudit(tx, ctx, { organizationId: order.organizationId, action: "waitlist.claim", targetId: offer.id, data: { eventId: view.eventId, orderId: order.id, quantity: offer.quantity, stillWaiting: Math.max(0, rest) } });
    return { order, billing };
  }));
  return { ...placed, accessToken: billingAccessToken(placed.billing.id) };
}
