import type { ResaleListingRow } from "#server/db/schema";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { billings, eventDates, eventResaleSettings, events, issuedProducts, orderItems, orders, refundRequests, resaleListings, ticketTypes } from "#server/db/schema";
import { Conflict, Invalid, NotFound, Unauthenticated } from "#server/errors";
import { parseInput, type DomainInput } from "#server/validation";
import { recordAudit } from "#server/organizations/audit";
import { requireCapability } from "#server/organizations/permissions";
import { isUniqueViolation } from "#server/db/errors";
import { formatMoney } from "#common/money";
import { offerReturnedTickets } from "#server/waitlist/offers";
import { accountLimitRefusal } from "#server/tickets/account-limit";
import { emailListed } from "./emails";
import { RESALE_MESSAGES, resaleTerms, type ResaleRules } from "./rules";

/*
 * The official resale at face value (docs/resale.md, decisions 200 and 201):
 * what the seller lists and cancels, and what buyers see. The sale itself is
 * settled by ./settle.ts from the order lifecycle's onPaid.
 */

const uuid = z.string().uuid(RESALE_MESSAGES.notFound);

/** The event's resale rules (no row: on, face value, no fee). */
export async function resaleRulesOf(db: DbOrTx, eventId: string): Promise<ResaleRules> {
  const [row] = await db.select().from(eventResaleSettings).where(eq(eventResaleSettings.eventId, eventId));
  return { enabled: row?.enabled ?? true, capBps: row?.capBps ?? 10_000, feeBps: row?.feeBps ?? 0 };
}

/** Seller payments the platform can give back through the provider that took them (decision 201). */
export function payoutMethodOf(provider: string): "provider" | "organizer" {
  return provider === "mercadopago" || provider === "sandbox" ? "provider" : "organizer";
}

/**
 * One of the signed-in person's tickets as "No puedo ir" reads it: theirs
 * (the account that bought it), live, its event not started, paid with money
 * (not a gift or a free ticket), not sent to someone else; with its face
 * value, the event's rules and its live listing if any. NotFound otherwise,
 * so a stranger learns nothing.
 */
export async function getResalableTicket(ctx: Ctx, ticketId: string) {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  if (!uuid.safeParse(ticketId).success) throw new NotFound(RESALE_MESSAGES.notFound);
  const [row] = await ctx.db
    .select({
      ticket: issuedProducts,
      order: orders,
      unitPrice: orderItems.unitPrice,
      ticketTypeName: orderItems.name,
      kind: ticketTypes.kind,
      event: { id: events.id, name: events.name, slug: events.slug, organizationId: events.organizationId },
      startsAt: eventDates.startsAt,
    })
    .from(issuedProducts)
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .innerJoin(orderItems, eq(orderItems.id, issuedProducts.orderItemId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .leftJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
    .where(eq(issuedProducts.id, ticketId));
  if (!row || row.order.buyerUserId !== ctx.actor.userId) throw new NotFound(RESALE_MESSAGES.notFound);
  const [billing] = await ctx.db.select().from(billings).where(and(eq(billings.orderId, row.order.id), eq(billings.status, "approved")));
  const [listing] = await ctx.db
    .select()
    .from(resaleListings)
    .where(and(eq(resaleListings.issuedProductId, ticketId), inArray(resaleListings.status, ["active", "held", "sold"])));
  // A withdrawal in progress gives the whole purchase back: its tickets cannot also be sold (docs/resale.md).
  const [openRefund] = await ctx.db
    .select({ id: refundRequests.id })
    .from(refundRequests)
    .where(and(eq(refundRequests.orderId, row.order.id), eq(refundRequests.status, "pending")))
    .limit(1);
  const rules = await resaleRulesOf(ctx.db, row.event.id);
  const terms = resaleTerms(row.unitPrice, rules);
  // Why it cannot be listed, if it cannot (null: it can).
  const refusal =
    listing ? null
    : !billing || row.ticket.status === "voided" ? RESALE_MESSAGES.voided
    : openRefund ? RESALE_MESSAGES.refundPending
    : row.ticket.status === "redeemed" ? RESALE_MESSAGES.used
    : row.startsAt <= ctx.now ? RESALE_MESSAGES.started
    : row.order.gift || row.unitPrice <= 0 || billing.provider === "free" ? RESALE_MESSAGES.free
    : row.ticket.holderEmail.toLowerCase() !== row.order.payer.email.toLowerCase() && (await wasTransferred(ctx.db, ticketId)) ? RESALE_MESSAGES.transferred
    : (row.kind ?? "ticket") !== "ticket" ? RESALE_MESSAGES.notTicket
    : !rules.enabled ? RESALE_MESSAGES.disabled
    : null;
  return {
    ticket: row.ticket,
    order: row.order,
    billing: billing ?? null,
    event: row.event,
    startsAt: row.startsAt,
    ticketTypeName: row.ticketTypeName,
    terms,
    payoutMethod: billing ? payoutMethodOf(billing.provider) : null,
    listing: listing ?? null,
    refusal,
  };
}

async function wasTransferred(db: DbOrTx, ticketId: string) {
  const rows = await db.execute<{ n: number }>(sql`select count(*)::int as n from ticket_transfers where issued_product_id = ${ticketId}`);
  return Number((rows as unknown as { n: number }[])[0]?.n ?? 0) > 0;
}

const listSchema = z.object({
  ticketId: uuid,
  /** Centavos. */
  price: z.number({ error: RESALE_MESSAGES.priceRequired }).int(RESALE_MESSAGES.priceRequired).min(1, RESALE_MESSAGES.priceRequired),
});

/**
 * listForResale: the seller offers one ticket at `price`, never above the
 * face value they paid nor the organizer's cap (Invalid on `price`, at every
 * door: this function, and the database's CHECK behind it). The QR keeps
 * working until somebody buys it. Audited; the seller gets an email.
 */
export async function listForResale(ctx: Ctx, rawInput: DomainInput<typeof listSchema>): Promise<ResaleListingRow> {
  const input = parseInput(listSchema, rawInput);
  const found = await getResalableTicket(ctx, input.ticketId);
  if (found.listing) throw new Conflict(RESALE_MESSAGES.alreadyListed);
  if (found.refusal || !found.billing) throw new Conflict(found.refusal ?? RESALE_MESSAGES.voided);
  const { terms } = found;
  if (input.price > terms.maxPrice) throw new Invalid({ price: [RESALE_MESSAGES.aboveCap(formatMoney(terms.maxPrice))] }, RESALE_MESSAGES.aboveCap(formatMoney(terms.maxPrice)));
  const fee = Math.round((input.price * terms.feeBps) / 10_000);
  let listing: ResaleListingRow;
  try {
    listing = await ctx.db.transaction(async (tx) => {
      // Against a withdrawal of the same purchase at the same moment (decision 216): one waits for the other and sees it.
      await lockOrderForResale(tx, found.order.id);
      const [refund] = await tx
        .select({ id: refundRequests.id })
        .from(refundRequests)
        .where(and(eq(refundRequests.orderId, found.order.id), inArray(refundRequests.status, ["pending", "refunded"])))
        .limit(1);
      if (refund) throw new Conflict(RESALE_MESSAGES.refundPending);
      const [row] = await tx
        .insert(resaleListings)
        .values({
          organizationId: found.event.organizationId,
          eventId: found.event.id,
          eventDateId: found.order.eventDateId,
          ticketTypeId: found.ticket.ticketTypeId,
          issuedProductId: found.ticket.id,
          sellerUserId: found.order.buyerUserId!,
          sellerOrderId: found.order.id,
          sellerBillingId: found.billing!.id,
          faceValue: terms.faceValue,
          price: input.price,
          fee,
          payout: input.price - fee,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await recordAudit(tx, ctx, { organizationId: row.organizationId, action: "resale.list", targetId: row.id, data: { eventId: row.eventId, ticketId: row.issuedProductId, price: row.price } });
      await emailListed(tx, row, { eventName: found.event.name, to: found.order.payer.email });
      // The waiting list first (docs/resale.md, "Lista de espera"): when someone waits for this date and ticket
      // type, the listing is held for them in this transaction, so "Reventa oficial" never shows it meanwhile.
      await offerReturnedTickets(tx, { eventId: row.eventId }, ctx.now);
      const [now] = await tx.select().from(resaleListings).where(eq(resaleListings.id, row.id));
      return now ?? row;
    });
  } catch (error) {
    if (isUniqueViolation(error, "resale_listings_live_ticket_key")) throw new Conflict(RESALE_MESSAGES.alreadyListed);
    throw error;
  }
  return listing;
}

/**
 * Serializes the resale of an order's tickets with a withdrawal of the same
 * order (decision 216): a transaction-scoped advisory lock per order, taken by
 * listForResale and by requestRefund / approveRefund before they check the other.
 */
export async function lockOrderForResale(tx: DbOrTx, orderId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tribuna:order-resale:${orderId}`}, 0))`);
}

/** The order's tickets that are listed, held by a buyer or sold in the resale (what a whole refund would pay twice). */
export async function liveListingsOfOrder(tx: DbOrTx, orderId: string) {
  return tx
    .select({ id: resaleListings.id, status: resaleListings.status })
    .from(resaleListings)
    .where(and(eq(resaleListings.sellerOrderId, orderId), inArray(resaleListings.status, ["active", "held", "sold"])));
}

const cancelSchema = z.object({ listingId: uuid });

/** cancelResaleListing: the seller takes an active listing back (a conditional UPDATE: not once a buyer holds or bought it). */
export async function cancelResaleListing(ctx: Ctx, rawInput: DomainInput<typeof cancelSchema>): Promise<ResaleListingRow> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const { listingId } = parseInput(cancelSchema, rawInput);
  return ctx.db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(resaleListings)
      .set({ status: "cancelled", cancelledAt: ctx.now, updatedAt: ctx.now })
      .where(and(eq(resaleListings.id, listingId), eq(resaleListings.sellerUserId, (ctx.actor as { userId: string }).userId), eq(resaleListings.status, "active")))
      .returning();
    if (!cancelled) {
      const [row] = await tx.select().from(resaleListings).where(eq(resaleListings.id, listingId));
      if (!row || row.sellerUserId !== (ctx.actor as { userId: string }).userId) throw new NotFound(RESALE_MESSAGES.listingNotFound);
      throw new Conflict(row.status === "cancelled" ? RESALE_MESSAGES.alreadyCancelled : RESALE_MESSAGES.notCancellable);
    }
    await recordAudit(tx, ctx, { organizationId: cancelled.organizationId, action: "resale.cancel", targetId: cancelled.id, data: { eventId: cancelled.eventId } });
    return cancelled;
  });
}

/**
 * The public offer of an event: its active listings, cheapest first (what the event page shows as "Reventa oficial").
 * `serviceFeeBps` is the event's service fee, which the resale buyer pays on the price (as /reventa/{listingId} and
 * createOrder compute it), so a page can show the final price (docs/prices.md).
 */
export async function resaleListingsOfEvent(ctx: Pick<Ctx, "db" | "now">, eventSlug: string) {
  const [event] = await ctx.db
    .select({ id: events.id, status: events.status, publishedAt: events.publishedAt, serviceFeeBps: events.serviceFeeBps })
    .from(events)
    .where(eq(events.slug, eventSlug.trim()));
  if (!event || event.status !== "active" || !event.publishedAt) throw new NotFound("No encontramos ese evento.");
  const rules = await resaleRulesOf(ctx.db, event.id);
  if (!rules.enabled) return [];
  const rows = await ctx.db
    .select({
      id: resaleListings.id,
      price: resaleListings.price,
      faceValue: resaleListings.faceValue,
      ticketTypeId: resaleListings.ticketTypeId,
      ticketTypeName: ticketTypes.name,
      eventDateId: resaleListings.eventDateId,
      startsAt: eventDates.startsAt,
    })
    .from(resaleListings)
    .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, resaleListings.eventDateId))
    .where(and(eq(resaleListings.eventId, event.id), eq(resaleListings.status, "active"), gt(eventDates.startsAt, ctx.now)))
    .orderBy(asc(resaleListings.price), asc(resaleListings.createdAt))
    .limit(100);
  return rows.map((row) => ({ ...row, serviceFeeBps: event.serviceFeeBps ?? 0 }));
}

const settingsSchema = z.object({
  eventId: z.string().uuid("Identificador inválido"),
  enabled: z.boolean(),
  /** Percent of the face value (1 to 100). */
  capPercent: z.number({ error: RESALE_MESSAGES.capRange }).int(RESALE_MESSAGES.capRange).min(1, RESALE_MESSAGES.capRange).max(100, RESALE_MESSAGES.capRange),
  /** Percent of the price kept by the organizer (0 to 50). */
  feePercent: z.number({ error: RESALE_MESSAGES.feeRange }).min(0, RESALE_MESSAGES.feeRange).max(50, RESALE_MESSAGES.feeRange),
});

/** The organizer's resale rules for one event (events:manage), and the event's listings for the back office. */
export async function getEventResale(ctx: Ctx, eventId: string) {
  if (!z.string().uuid().safeParse(eventId).success) throw new NotFound("No encontramos ese evento.");
  const [event] = await ctx.db.select({ id: events.id, organizationId: events.organizationId, name: events.name, slug: events.slug }).from(events).where(eq(events.id, eventId));
  if (!event) throw new NotFound("No encontramos ese evento.");
  await requireCapability(ctx, event.organizationId, "events:manage");
  const [rules, listings] = await Promise.all([
    resaleRulesOf(ctx.db, event.id),
    ctx.db.select().from(resaleListings).where(eq(resaleListings.eventId, event.id)).orderBy(sql`${resaleListings.createdAt} desc`).limit(200),
  ]);
  return { event, rules, listings };
}

/** Saves an event's resale rules (events:manage; audited). A lower cap applies to new listings only. */
export async function setEventResale(ctx: Ctx, rawInput: DomainInput<typeof settingsSchema>) {
  const input = parseInput(settingsSchema, rawInput);
  const [event] = await ctx.db.select({ id: events.id, organizationId: events.organizationId }).from(events).where(eq(events.id, input.eventId));
  if (!event) throw new NotFound("No encontramos ese evento.");
  await requireCapability(ctx, event.organizationId, "events:manage");
  const values = { enabled: input.enabled, capBps: input.capPercent * 100, feeBps: Math.round(input.feePercent * 100), updatedAt: ctx.now };
  await ctx.db.transaction(async (tx) => {
    await tx.insert(eventResaleSettings).values({ eventId: event.id, ...values }).onConflictDoUpdate({ target: eventResaleSettings.eventId, set: values });
    await recordAudit(tx, ctx, { organizationId: event.organizationId, action: "resale.settings", targetId: event.id, data: values });
  });
  return resaleRulesOf(ctx.db, event.id);
}

/** One listing as its buyer's page reads it (public): NotFound when unknown or cancelled; `available` while on sale. */
export async function resaleListingForBuyer(ctx: Pick<Ctx, "db" | "now"> & { actor?: Ctx["actor"] }, listingId: string) {
  if (!uuid.safeParse(listingId).success) throw new NotFound(RESALE_MESSAGES.listingNotFound);
  const [row] = await ctx.db
    .select({ listing: resaleListings, eventName: events.name, eventSlug: events.slug, serviceFeeBps: events.serviceFeeBps, ticketTypeName: ticketTypes.name, startsAt: eventDates.startsAt })
    .from(resaleListings)
    .innerJoin(events, eq(events.id, resaleListings.eventId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, resaleListings.eventDateId))
    .where(eq(resaleListings.id, listingId));
  if (!row || row.listing.status === "cancelled") throw new NotFound(RESALE_MESSAGES.listingNotFound);
  const available = row.listing.status === "active" && row.startsAt > ctx.now;
  const accountId = ctx.actor?.kind === "user" ? ctx.actor.userId : null;
  return {
    eventId: row.listing.eventId,
    ticketTypeId: row.listing.ticketTypeId,
    eventName: row.eventName,
    eventSlug: row.eventSlug,
    ticketTypeName: row.ticketTypeName,
    price: row.listing.price,
    serviceFeeBps: row.serviceFeeBps ?? 0,
    available,
    /** The event's per-account limit, said before the payer form (null: within it, or nothing to buy). */
    limitRefusal: available ? await accountLimitRefusal(ctx.db, { eventId: row.listing.eventId, accountId, adding: 1, now: ctx.now }) : null,
  };
}
