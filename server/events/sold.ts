import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Ctx } from "#server/context";
import { events } from "#server/db/schema";
import { requireCapability } from "#server/organizations/permissions";

/*
 * What "vendidas" means wherever an organizer reads it (the summary's events, "Mis eventos", the
 * sales list; decisions 116 and 153): the tickets of the sales the money figures count
 * (server/reports/paid.ts: billed, not a gift, payment still approved), whatever they were paid
 * with — Mercado Pago, a bank transfer, cash to a promoter, or nothing for a free ticket. Left
 * out: stock held by unpaid orders (a checkout in progress, a transfer waiting for review),
 * invitations, refunded or charged-back orders (their tickets are void) and menu items. Stock
 * accounting (`ticket_types.sold`) counts holds and gifts too: it says what is left to sell, not
 * what was sold.
 */

/** Tickets sold of the event `eventId` (a column reference or a value), as SQL to select or correlate. */
export function soldTicketsOfEvent(eventId: SQL): SQL<number> {
  return sql<number>`coalesce((
    select sum(si.qty) from order_items si
    join orders so on so.id = si.order_id
    join ticket_types st on st.id = si.ticket_type_id
    where so.event_id = ${eventId} and st.kind = 'ticket' and so.status = 'billed' and not so.gift
      and exists (select 1 from billings sb where sb.order_id = so.id and sb.status = 'approved')
  ), 0)::int`;
}

/**
 * `soldTickets`: tickets sold by the organization, of one event or of all its events. Needs sales:read.
 */
export async function soldTickets(ctx: Ctx, input: { organizationId: string; eventId?: string | null }): Promise<number> {
  await requireCapability(ctx, input.organizationId, "sales:read");
  const [row] = await ctx.db
    .select({ sold: sql<number>`coalesce(sum(${soldTicketsOfEvent(sql`${events.id}`)}), 0)::int` })
    .from(events)
    .where(and(eq(events.organizationId, input.organizationId), input.eventId ? eq(events.id, input.eventId) : undefined));
  return Number(row?.sold ?? 0);
}
