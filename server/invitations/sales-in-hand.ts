import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { emailSchema, optional } from "#common/validation";
import type { Ctx } from "#server/context";
import { isUniqueViolation } from "#server/db/errors";
import { auditLog, eventDates, events, promoterGroups, ticketTypes, users, type OrderRow } from "#server/db/schema";
import { Conflict, Forbidden, Invalid } from "#server/errors";
import { guestDocumentSchema, guestNameSchema, invitationDate, issueDirectOrder } from "./invitations";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput } from "#server/validation";
import { groupOfPromoter } from "#server/promoters/membership";
import { assertWithinAccountLimit } from "#server/tickets/account-limit";

/*
 * PromoterAccount (docs/promoters.md, decision 108): ticket types whose
 * payment method is the promoter's account are not sold online; a promoter
 * of a group that sells them issues them on the spot to a buyer who paid them
 * in cash. The order is paid (PROMOTER, approved `promoter` billing), counts
 * as the promoter's sale, and the cash is booked as collected outside
 * Tribuna: the promoter owes it to the organization until it records that
 * they handed it in (recordPromoterSettlement).
 */

export const IN_HAND_MESSAGES = {
  ticketType: "Elegí una entrada que vendas en mano.",
  qty: (max: number) => `La cantidad tiene que ser un número entre 1 y ${max}.`,
  notEnough: (name: string, left: number) => (left > 0 ? `No alcanza el stock de ${name}: ${left === 1 ? "queda 1" : `quedan ${left}`}.` : `No queda stock de ${name}.`),
  noGroup: "Todavía no sos RRPP de ningún grupo de esta organización.",
} as const;

const MAX_IN_HAND_QTY = 20;

const saleSchema = z.object({
  organizationId: z.string().uuid("Identificador inválido"),
  ticketTypeId: z.string({ error: IN_HAND_MESSAGES.ticketType }).uuid(IN_HAND_MESSAGES.ticketType),
  eventDateId: optional(z.string().uuid("Elegí la fecha.")),
  qty: z.coerce.number({ error: IN_HAND_MESSAGES.qty(MAX_IN_HAND_QTY) }).int(IN_HAND_MESSAGES.qty(MAX_IN_HAND_QTY)).min(1, IN_HAND_MESSAGES.qty(MAX_IN_HAND_QTY)).max(MAX_IN_HAND_QTY, IN_HAND_MESSAGES.qty(MAX_IN_HAND_QTY)),
  email: emailSchema,
  firstName: guestNameSchema,
  lastName: guestNameSchema,
  documentNumber: guestDocumentSchema,
});

/** The PromoterAccount ticket types the signed-in promoter may sell in hand, per event, with what is left. */
export async function ticketsSellableInHand(ctx: Ctx, organizationId: string) {
  await requireCapability(ctx, organizationId, "promoters:sell");
  const me = ctx.actor.kind === "user" ? ctx.actor.userId : "";
  const mine = await groupOfPromoter(ctx.db, organizationId, me);
  if (!mine) return [];
  const [group] = await ctx.db.select().from(promoterGroups).where(eq(promoterGroups.id, mine.id));
  const rows = await ctx.db
    .select({ ticket: ticketTypes, eventName: events.name })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      and(
        eq(events.organizationId, organizationId),
        eq(events.status, "active"),
        isNotNull(events.publishedAt),
        eq(ticketTypes.kind, "ticket"),
        eq(ticketTypes.status, "active"),
        eq(ticketTypes.paymentMethod, "PromoterAccount"),
        group.eventIds.length ? inArray(events.id, group.eventIds) : undefined,
        group.ticketTypeIds.length ? inArray(ticketTypes.id, group.ticketTypeIds) : undefined,
      ),
    )
    .orderBy(asc(events.name), asc(ticketTypes.sortOrder));
  const eventIds = [...new Set(rows.map((r) => r.ticket.eventId))];
  const dates = eventIds.length
    ? await ctx.db.select().from(eventDates).where(and(inArray(eventDates.eventId, eventIds), ne(eventDates.status, "deleted"))).orderBy(asc(eventDates.startsAt))
    : [];
  return rows
    .map((r) => ({
      id: r.ticket.id,
      name: r.ticket.name,
      eventId: r.ticket.eventId,
      eventName: r.eventName,
      price: r.ticket.price,
      left: Math.max(0, r.ticket.stock - r.ticket.sold),
      dates: dates.filter((d) => d.eventId === r.ticket.eventId && d.endsAt > ctx.now && (!r.ticket.eventDateId || d.id === r.ticket.eventDateId)).map((d) => ({ id: d.id, startsAt: d.startsAt })),
    }))
    .filter((t) => t.dates.length > 0);
}

/** `sellTicketsInHand`: the promoter issues paid tickets to a buyer who gave them the cash. */
export async function sellTicketsInHand(ctx: Ctx, rawInput: z.input<typeof saleSchema>): Promise<OrderRow> {
  const input = parseInput(saleSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "promoters:sell");
  const me = ctx.actor.kind === "user" ? ctx.actor.userId : "";
  const mine = await groupOfPromoter(ctx.db, input.organizationId, me);
  if (!mine) throw new Forbidden(IN_HAND_MESSAGES.noGroup);
  const [group] = await ctx.db.select().from(promoterGroups).where(eq(promoterGroups.id, mine.id));
  const [found] = await ctx.db
    .select({ ticket: ticketTypes, event: events })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(and(eq(ticketTypes.id, input.ticketTypeId), eq(events.organizationId, input.organizationId)));
  const sellable =
    found &&
    found.ticket.kind === "ticket" &&
    found.ticket.status === "active" &&
    found.event.status === "active" &&
    found.event.publishedAt !== null &&
    found.ticket.paymentMethod === "PromoterAccount" &&
    (!group.eventIds.length || group.eventIds.includes(found.event.id)) &&
    (!group.ticketTypeIds.length || group.ticketTypeIds.includes(found.ticket.id));
  if (!sellable) throw new Invalid({ ticketTypeId: [IN_HAND_MESSAGES.ticketType] });
  const { ticket, event } = found;
  const dates = await ctx.db.select().from(eventDates).where(eq(eventDates.eventId, event.id)).orderBy(asc(eventDates.startsAt));
  const date = invitationDate(ticket, dates, input.eventDateId, ctx.now);
  const [promoter] = await ctx.db.select({ nickname: users.nickname }).from(users).where(eq(users.id, me));
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        // The event's per-account limit (decision 203) counts a sale in hand to that person's email, account or not.
        const [holder] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`);
        await assertWithinAccountLimit(tx, { eventId: event.id, accountId: holder?.id ?? null, email: input.email, adding: input.qty, limit: event.maxTicketsPerAccount, now: ctx.now, who: "recipient", field: "qty" });
        const outcome = await issueDirectOrder(tx, {
          event,
          date,
          ticket,
          qty: input.qty,
          guest: input,
          invitedByUserId: null,
          sale: { promoterUserId: me, referredNick: promoter?.nickname ?? "", serviceFeeBps: event.serviceFeeBps ?? 0 },
          now: ctx.now,
        });
        if ("short" in outcome) throw new Conflict(IN_HAND_MESSAGES.notEnough(outcome.short.name, outcome.short.left));
        // A seated type (docs/seating.md): no seats together for all of them; the promoter can sell fewer.
        if ("noSeats" in outcome) throw new Conflict(outcome.noSeats, { qty: [outcome.noSeats] });
        if (!("order" in outcome)) throw new Error("unreachable: a sale has no gift key");
        await tx.insert(auditLog).values({ actorId: me, action: "promoters.sale-in-hand", targetId: outcome.order.id, data: { organizationId: input.organizationId, ticketTypeId: ticket.id, qty: input.qty, total: outcome.order.total }, createdAt: ctx.now });
        return outcome.order;
      });
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error, "orders_code_key")) continue;
      throw error;
    }
  }
}
