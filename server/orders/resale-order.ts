import type { BillingRow, OrderItemRow, OrderRow } from "#server/db/schema";
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { attendeeSchema, payerSchema } from "#common/validation";
import { serviceFeeOf, HOLD_MINUTES } from "#common/pricing";
import type { Ctx } from "#server/context";
import { billings, eventCustomFields, eventDates, events, orderItems, orders, resaleListings, ticketTypes } from "#server/db/schema";
import { paymentsMode } from "#server/env";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { enqueue } from "#server/jobs/queue";
import { parseInput, type DomainInput } from "#server/validation";
import { isUniqueViolation } from "#server/db/errors";
import { holdListing } from "#server/resale/settle";
import { RESALE_MESSAGES } from "#server/resale/rules";
import { accountLimitOf, accountRequired, assertWithinAccountLimit } from "#server/tickets/account-limit";
import { placedStatuses } from "./lifecycle";
import { checkCustomFields, customFieldAnswersSchema, EXPIRE_ORDER_JOB, holdersOf, newOrderCode } from "./orders";

/*
 * `createOrder` with a `resaleListingId` (docs/resale.md): the same order,
 * billing, hold and expiry job as any sale (docs/orders.md, "place"), but
 * what it holds is the listing (a conditional UPDATE: of any number of buyers
 * exactly one gets it), not the ticket type's stock — the seller's ticket
 * already counts as sold. One ticket at the listing's price plus the event's
 * service fee, paid with Mercado Pago (decision 200). The lifecycle settles
 * the resale when the order is paid (onPaid → server/resale/settle.ts).
 */

export const createResaleOrderSchema = z.object({
  resaleListingId: z.string({ error: RESALE_MESSAGES.listingNotFound }).uuid(RESALE_MESSAGES.listingNotFound),
  payer: payerSchema,
  paymentMethod: z.enum(["MERCADO_PAGO", "BANK_TRANSFER"]).nullish(),
  /** The new holder, required when the event asks for one holder per ticket (decision 202): the new ticket carries it. */
  attendees: z.array(attendeeSchema).max(1).nullish(),
  /** The event's custom fields, answered like in any purchase. */
  customFields: customFieldAnswersSchema.nullish(),
});

export async function createResaleOrder(ctx: Ctx, rawInput: DomainInput<typeof createResaleOrderSchema>): Promise<{ order: OrderRow & { items: OrderItemRow[] }; billing: BillingRow }> {
  const input = parseInput(createResaleOrderSchema, rawInput);
  if (input.paymentMethod === "BANK_TRANSFER") throw new Invalid({ paymentMethod: [RESALE_MESSAGES.resaleMercadoPago] }, RESALE_MESSAGES.resaleMercadoPago);
  const [row] = await ctx.db
    .select({ listing: resaleListings, ticketTypeName: ticketTypes.name, serviceFeeBps: events.serviceFeeBps, oneHolderPerTicket: events.oneHolderPerTicket, startsAt: eventDates.startsAt })
    .from(resaleListings)
    .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
    .innerJoin(events, eq(events.id, resaleListings.eventId))
    .innerJoin(eventDates, eq(eventDates.id, resaleListings.eventDateId))
    .where(eq(resaleListings.id, input.resaleListingId));
  if (!row) throw new NotFound(RESALE_MESSAGES.listingNotFound);
  const { listing } = row;
  if (listing.status !== "active" || row.startsAt <= ctx.now) throw new Conflict(RESALE_MESSAGES.listingGone);
  const buyerUserId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  if (buyerUserId && buyerUserId === listing.sellerUserId) throw new Conflict("Esta entrada es tuya: cancelá la publicación desde Mis tickets si querés usarla.");

  // The same questions as any purchase of the event: its custom fields and, on a named event, the new holder.
  const fields = await ctx.db.select().from(eventCustomFields).where(eq(eventCustomFields.eventId, listing.eventId)).orderBy(asc(eventCustomFields.sortOrder));
  const customFields = checkCustomFields(fields, input.customFields ?? {});
  const attendees = holdersOf(row.oneHolderPerTicket, new Map([[listing.ticketTypeId, 1]]), input.attendees);

  // The event's per-account limit (decision 203) counts a resale bought like any other way in.
  const limit = await accountLimitOf(ctx.db, listing.eventId);
  if (limit != null && !buyerUserId) throw accountRequired(limit);

  const serviceFee = serviceFeeOf(listing.price, row.serviceFeeBps ?? 0);
  const total = listing.price + serviceFee;
  const placed = placedStatuses("sale");
  const holdExpiresAt = new Date(ctx.now.getTime() + HOLD_MINUTES.MERCADO_PAGO * 60_000);
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        // Before this order exists: its own unit must not count as already held.
        await assertWithinAccountLimit(tx, { eventId: listing.eventId, accountId: buyerUserId, adding: 1, limit, now: ctx.now });
        const [order] = await tx
          .insert(orders)
          .values({
            code: newOrderCode(),
            eventId: listing.eventId,
            eventDateId: listing.eventDateId,
            organizationId: listing.organizationId,
            buyerUserId,
            payer: input.payer,
            attendees,
            customFields,
            status: placed.order,
            paymentMethod: "MERCADO_PAGO",
            subtotal: listing.price,
            serviceFee,
            total,
            holdExpiresAt,
            createdAt: ctx.now,
            updatedAt: ctx.now,
          })
          .returning();
        // The hot row last: its lock lasts only until the commit (docs/locking.md).
        if (!(await holdListing(tx, listing.id, order.id, ctx.now))) throw new Conflict(RESALE_MESSAGES.listingGone);
        const items = await tx.insert(orderItems).values({ orderId: order.id, ticketTypeId: listing.ticketTypeId, name: row.ticketTypeName, qty: 1, unitPrice: listing.price }).returning();
        const [billing] = await tx
          .insert(billings)
          .values({ orderId: order.id, status: placed.billing, provider: paymentsMode() === "sandbox" ? "sandbox" : "mercadopago", amount: total, createdAt: ctx.now, updatedAt: ctx.now })
          .returning();
        await enqueue(tx, EXPIRE_ORDER_JOB, { orderId: order.id }, holdExpiresAt);
        return { order: { ...order, items }, billing };
      });
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error, "orders_code_key")) continue;
      throw error;
    }
  }
}
