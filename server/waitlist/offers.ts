import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { ANONYMOUS } from "#server/context";
import type { Db, DbOrTx } from "#server/db/client";
import { eventDates, events, resaleListings, ticketTypes, users, waitlistEntries, waitlistOffers, waitlistSettings, type EventRow, type WaitlistEntryRow, type WaitlistOfferRow, type WaitlistSettingsRow } from "#server/db/schema";
import { sendEmail, type EmailMessage } from "#server/email/send";
import { appUrl } from "#server/env";
import { enqueue } from "#server/jobs/queue";
import { recordAudit } from "#server/organizations/audit";
import { holdStock, releaseStock } from "#server/stock/stock";
import { offerEmail, offerMissedEmail } from "./emails";

/*
 * Offers of the waiting list (docs/waitlist.md, decisions 198 and 199). Every
 * change here that moves stock first locks the event's `waitlist_settings`
 * row, then the offer, then the ticket types (server/stock, in id order), then
 * the entries: two offer runs of one event, a claim and an expiry are judged
 * one after the other, and never meet rows in opposite orders.
 */

export const WAITLIST_OFFER_EXPIRE_JOB = "waitlist-offer-expire";
export const DEFAULT_OFFER_MINUTES = 30;
/** How many waiting entries one run looks at: more than any returned stock can serve. */
const LINE_BATCH = 500;

export const claimPath = (offerId: string) => `/lista-de-espera/oferta/${offerId}`;

/** Takes the event's waiting-list lock; null when the event has no waiting list turned on. */
export async function lockWaitlist(tx: DbOrTx, eventId: string) {
  const [settings] = await tx.select().from(waitlistSettings).where(eq(waitlistSettings.eventId, eventId)).for("update");
  return settings ?? null;
}

/** Which tickets a ticket type can offer now: active, public (no code), on sale, and how many are left. */
function offerable(t: typeof ticketTypes.$inferSelect, now: Date) {
  const onSale = (!t.salesStartAt || t.salesStartAt <= now) && (!t.salesEndAt || t.salesEndAt > now);
  return t.kind === "ticket" && t.status === "active" && !t.hidden && !t.presale && onSale;
}

/** The ticket types an entry may be offered, in the order the event page shows them. */
export function candidatesFor(entry: Pick<WaitlistEntryRow, "eventDateId" | "ticketTypeId">, types: (typeof ticketTypes.$inferSelect)[], now: Date) {
  return types
    .filter((t) => (entry.ticketTypeId ? t.id === entry.ticketTypeId : t.eventDateId === null || t.eventDateId === entry.eventDateId))
    .filter((t) => offerable(t, now))
    .sort((a, b) => a.sortOrder - b.sortOrder || a.price - b.price);
}

/**
 * Tickets came back to an event (an unpaid hold ended, a refund, stock the
 * organizer added, an offer nobody claimed; later, a resale listing): the
 * people waiting get them, first joined first, each offer holding its
 * tickets for the event's offer minutes. The single entry point for every
 * way tickets return: run it in the transaction that returned them (the
 * waiting list gets them before anyone else) or from the
 * `tickets-returned` job (server/worker). An entry gets what fits of what
 * it asked for (decision 199); one that fits nothing (its ticket type is
 * still sold out) keeps its place and the next ones are looked at.
 * Returns the offers made.
 */
export async function offerReturnedTickets(tx: DbOrTx, input: { eventId: string }, now: Date): Promise<WaitlistOfferRow[]> {
  const settings = await lockWaitlist(tx, input.eventId);
  if (!settings?.enabled) return [];
  const waiting = await tx
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, input.eventId), eq(waitlistEntries.status, "waiting")))
    .orderBy(asc(waitlistEntries.position))
    .limit(LINE_BATCH);
  if (!waiting.length) return [];
  const [event] = await tx.select().from(events).where(eq(events.id, input.eventId));
  if (!event || event.status !== "active" || !event.publishedAt) return [];
  const types = await tx.select().from(ticketTypes).where(eq(ticketTypes.eventId, input.eventId));
  // What is left, read once: the hold below is conditional anyway, so a stale count only costs a refused hold.
  const left = new Map(types.map((t) => [t.id, Math.max(0, t.stock - t.sold)]));
  const made: WaitlistOfferRow[] = [];
  for (const entry of waiting) {
    if (![...left.values()].some((n) => n > 0)) break;
    const pick = candidatesFor(entry, types, now)
      .map((t) => ({ type: t, qty: Math.min(entry.quantity, left.get(t.id) ?? 0, t.maxPerOrder) }))
      .find(({ type, qty }) => qty >= type.minPerOrder);
    if (!pick) continue;
    const hold = await holdStock(tx, [{ ticketTypeId: pick.type.id, qty: pick.qty }], now, { onlyActive: true });
    if ("short" in hold) {
      left.set(pick.type.id, 0);
      continue;
    }
    left.set(pick.type.id, (left.get(pick.type.id) ?? 0) - pick.qty);
    const [moved] = await tx
      .update(waitlistEntries)
      .set({ status: "offered", updatedAt: now })
      .where(and(eq(waitlistEntries.id, entry.id), eq(waitlistEntries.status, "waiting")))
      .returning();
    if (!moved) {
      // The person left a moment ago: the tickets stay for the next one.
      await releaseStock(tx, hold.held, now);
      left.set(pick.type.id, (left.get(pick.type.id) ?? 0) + pick.qty);
      continue;
    }
    const expiresAt = new Date(now.getTime() + settings.offerMinutes * 60_000);
    const [offer] = await tx
      .insert(waitlistOffers)
      .values({ entryId: entry.id, ticketTypeId: pick.type.id, quantity: pick.qty, offeredAt: now, expiresAt })
      .returning();
    await announceOffer(tx, { offer, entry, event, ticketName: pick.type.name, resale: false }, now);
    made.push(offer);
  }
  // Then the resale listings on sale nobody holds (a listing is a ticket somebody sold back: it goes to the line first).
  made.push(...(await offerResaleListings(tx, { settings, event, types }, now)));
  return made;
}

/** The offer's expiry job, its audit and its email (with the claim link). */
async function announceOffer(
  tx: DbOrTx,
  input: { offer: WaitlistOfferRow; entry: WaitlistEntryRow; event: EventRow; ticketName: string; resale: boolean },
  now: Date,
) {
  const { offer, entry, event } = input;
  await enqueue(tx, WAITLIST_OFFER_EXPIRE_JOB, { offerId: offer.id }, offer.expiresAt);
  await recordAudit(tx, { actor: ANONYMOUS, now }, {
    organizationId: event.organizationId,
    action: "waitlist.offer",
    targetId: offer.id,
    data: { eventId: event.id, entryId: entry.id, ticketType: input.ticketName, quantity: offer.quantity, wanted: entry.quantity, listingId: offer.listingId ?? null },
  });
  const [[user], [date]] = await Promise.all([
    tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, entry.userId)),
    tx.select({ startsAt: eventDates.startsAt }).from(eventDates).where(eq(eventDates.id, entry.eventDateId)),
  ]);
  if (!user) return;
  const message = offerEmail({
    firstName: user.firstName,
    eventName: event.name,
    startsAt: date?.startsAt ?? now,
    ticketName: input.ticketName,
    quantity: offer.quantity,
    wanted: entry.quantity,
    expiresAt: offer.expiresAt,
    claimUrl: `${appUrl()}${claimPath(offer.id)}`,
    resale: input.resale,
  });
  await sendSafely(tx, { to: user.email, ...message, organizationId: event.organizationId });
}

/**
 * The resale listings of the event that are on sale (`active`, not yet
 * started) go to the people waiting for their date and ticket type (or any
 * ticket), first joined first, before "Reventa oficial" shows them: the
 * listing moves active → held with no order (a conditional UPDATE: a buyer
 * who took it a moment earlier keeps it), and the offer points at it
 * (`waitlist_offers.listing_id`, one ticket). Nobody sells to themselves:
 * the seller's own entry is skipped. The caller holds the event's lock.
 */
async function offerResaleListings(tx: DbOrTx, input: { settings: WaitlistSettingsRow; event: EventRow; types: (typeof ticketTypes.$inferSelect)[] }, now: Date): Promise<WaitlistOfferRow[]> {
  const { settings, event } = input;
  const listings = await tx
    .select({ listing: resaleListings })
    .from(resaleListings)
    .innerJoin(eventDates, eq(eventDates.id, resaleListings.eventDateId))
    .where(and(eq(resaleListings.eventId, event.id), eq(resaleListings.status, "active"), gt(eventDates.startsAt, now)))
    .orderBy(asc(resaleListings.createdAt))
    .limit(LINE_BATCH);
  const made: WaitlistOfferRow[] = [];
  for (const { listing } of listings) {
    const [entry] = await tx
      .select()
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.eventId, event.id),
          eq(waitlistEntries.status, "waiting"),
          eq(waitlistEntries.eventDateId, listing.eventDateId),
          or(isNull(waitlistEntries.ticketTypeId), eq(waitlistEntries.ticketTypeId, listing.ticketTypeId)),
          sql`${waitlistEntries.userId} <> ${listing.sellerUserId}`,
        ),
      )
      .orderBy(asc(waitlistEntries.position))
      .limit(1);
    if (!entry) continue;
    const [held] = await tx
      .update(resaleListings)
      .set({ status: "held", heldByOrderId: null, updatedAt: now })
      .where(and(eq(resaleListings.id, listing.id), eq(resaleListings.status, "active")))
      .returning();
    if (!held) continue;
    await tx.update(waitlistEntries).set({ status: "offered", updatedAt: now }).where(and(eq(waitlistEntries.id, entry.id), eq(waitlistEntries.status, "waiting")));
    const expiresAt = new Date(now.getTime() + settings.offerMinutes * 60_000);
    const [offer] = await tx
      .insert(waitlistOffers)
      .values({ entryId: entry.id, ticketTypeId: listing.ticketTypeId, listingId: listing.id, quantity: 1, offeredAt: now, expiresAt })
      .returning();
    const ticketName = input.types.find((t) => t.id === listing.ticketTypeId)?.name ?? "Entrada";
    await announceOffer(tx, { offer, entry, event, ticketName, resale: true }, now);
    made.push(offer);
  }
  return made;
}

/**
 * What an offer that ends unclaimed (expired, its person left) gives back:
 * its stock, or its resale listing back on sale (held with no order → active).
 * The caller then runs offerReturnedTickets, which offers either to the next person.
 */
async function giveBack(tx: DbOrTx, offer: WaitlistOfferRow, now: Date) {
  if (offer.listingId) {
    await tx
      .update(resaleListings)
      .set({ status: "active", updatedAt: now })
      .where(and(eq(resaleListings.id, offer.listingId), eq(resaleListings.status, "held"), isNull(resaleListings.heldByOrderId)));
  } else {
    await releaseStock(tx, [{ ticketTypeId: offer.ticketTypeId, qty: offer.quantity }], now);
  }
}

/**
 * The `tickets-returned` job (queued by server/stock when an order gives its
 * units back, and by the organizer's stock increase): one offer run per
 * event of those ticket types that has people waiting, each in its own
 * transaction.
 */
export async function runReturnedTickets(db: Db, payload: { ticketTypeIds?: unknown; eventId?: unknown }, now: Date) {
  const ids = Array.isArray(payload.ticketTypeIds) ? payload.ticketTypeIds.map(String).filter((id) => /^[0-9a-f-]{36}$/i.test(id)) : [];
  const eventIds = new Set<string>();
  if (typeof payload.eventId === "string" && /^[0-9a-f-]{36}$/i.test(payload.eventId)) eventIds.add(payload.eventId);
  if (ids.length) {
    const rows = await db.selectDistinct({ eventId: ticketTypes.eventId }).from(ticketTypes).where(inArray(ticketTypes.id, ids));
    for (const row of rows) eventIds.add(row.eventId);
  }
  let offered = 0;
  for (const eventId of eventIds) {
    offered += (await db.transaction((tx) => offerReturnedTickets(tx, { eventId }, now))).length;
  }
  return offered;
}

/**
 * Ends an unclaimed offer at its time (the `waitlist-offer-expire` job):
 * exactly once, its tickets to the next person in line in the same
 * transaction. The entry leaves the line ("missed": decision 198).
 * "not-due" when it is still running (the job ran early and retries).
 */
export async function expireWaitlistOffer(db: Db, offerId: string, now: Date): Promise<"expired" | "not-due" | "skipped"> {
  if (!/^[0-9a-f-]{36}$/i.test(offerId)) return "skipped";
  const [found] = await db.select({ eventId: waitlistEntries.eventId }).from(waitlistOffers).innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId)).where(eq(waitlistOffers.id, offerId));
  if (!found) return "skipped";
  return db.transaction(async (tx) => {
    await lockWaitlist(tx, found.eventId);
    const [offer] = await tx
      .update(waitlistOffers)
      .set({ status: "expired", endedAt: now })
      .where(and(eq(waitlistOffers.id, offerId), eq(waitlistOffers.status, "offered"), lte(waitlistOffers.expiresAt, now)))
      .returning();
    if (!offer) {
      const [still] = await tx.select({ status: waitlistOffers.status }).from(waitlistOffers).where(eq(waitlistOffers.id, offerId));
      return still?.status === "offered" ? "not-due" : "skipped";
    }
    await giveBack(tx, offer, now);
    const [entry] = await tx
      .update(waitlistEntries)
      .set({ status: "missed", updatedAt: now })
      .where(and(eq(waitlistEntries.id, offer.entryId), eq(waitlistEntries.status, "offered")))
      .returning();
    const [event] = await tx.select().from(events).where(eq(events.id, found.eventId));
    if (event && entry) {
      await recordAudit(tx, { actor: ANONYMOUS, now }, { organizationId: event.organizationId, action: "waitlist.offer-expired", targetId: offer.id, data: { eventId: event.id, entryId: entry.id, quantity: offer.quantity } });
      const [user] = await tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, entry.userId));
      if (user) await sendSafely(tx, { to: user.email, ...offerMissedEmail({ firstName: user.firstName, eventName: event.name, eventUrl: `${appUrl()}/eventos/${event.slug}` }), organizationId: event.organizationId });
    }
    await offerReturnedTickets(tx, { eventId: found.eventId }, now);
    return "expired";
  });
}

/**
 * Takes back a running offer (the person left the list): its tickets go to the
 * next person in the same transaction. The caller holds the event's lock.
 */
export async function withdrawOffer(tx: DbOrTx, entryId: string, now: Date): Promise<WaitlistOfferRow | null> {
  const [offer] = await tx
    .update(waitlistOffers)
    .set({ status: "withdrawn", endedAt: now })
    .where(and(eq(waitlistOffers.entryId, entryId), eq(waitlistOffers.status, "offered")))
    .returning();
  if (offer) await giveBack(tx, offer, now);
  return offer ?? null;
}

/** People waiting ahead of an entry (same event, earlier position, still waiting or being offered). */
export async function aheadOf(db: DbOrTx, entry: Pick<WaitlistEntryRow, "eventId" | "position" | "status">) {
  if (entry.status !== "waiting") return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, entry.eventId), inArray(waitlistEntries.status, ["waiting", "offered"]), sql`${waitlistEntries.position} < ${entry.position}`));
  return row?.n ?? 0;
}

/** In a savepoint: the offer stands even if writing its email fails (the error is logged). */
async function sendSafely(tx: DbOrTx, message: EmailMessage) {
  try {
    await tx.transaction((sp) => sendEmail(sp, message));
  } catch (error) {
    console.error(error);
  }
}
