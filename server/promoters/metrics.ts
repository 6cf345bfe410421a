import { and, asc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { DateTime } from "luxon";
import { z } from "zod";
import { TIME_ZONE } from "#common/dates";
import type { Ctx } from "#server/context";
import { hasRole } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { events, issuedProducts, orders, promoterGroupMembers, promoterGroups, ticketTypes } from "#server/db/schema";
import { requireUserId } from "#server/accounts/users";
import { Forbidden } from "#server/errors";
import { membershipRole, roleAllows } from "#server/organizations/permissions";
import { parseInput } from "#server/validation";

export interface ReferralMetric {
  eventName: string;
  totalCount: number;
  totalAccreditedCount: number;
  tickets: { name: string; count: number; accredited: number }[];
}

export interface ReferralMetricsFilter {
  organizationId?: string | number | null;
  eventId?: string | number | null;
  eventDateId?: string | number | null;
  userId?: string | number | null;
  fromDate?: string | null;
  toDate?: string | null;
}

/** One promoter's tickets of one ticket type: sold (issued and not voided) and accredited (redeemed at the door). */
export interface ReferralSalesRow {
  userId: string;
  eventId: string;
  eventName: string;
  ticketTypeId: string;
  ticketName: string;
  count: number;
  accredited: number;
}

export interface ReferralSalesScope {
  organizationId?: string | null;
  userIds: string[];
  eventId?: string | null;
  eventDateId?: string | null;
  /** Orders created from this instant (inclusive)… */
  from?: Date | null;
  /** …until this one (exclusive). */
  until?: Date | null;
}

/**
 * The one query behind every promoter number (their page, the lead's group,
 * the organization's groups, GraphQL): the tickets of the orders attributed
 * to them. A ticket is sold while it is not voided (a refund or a revoked
 * sale voids it) and accredited once the door redeemed it, so the numbers
 * are exactly what the orders and the door say.
 */
export async function referralSales(db: DbOrTx, scope: ReferralSalesScope): Promise<ReferralSalesRow[]> {
  if (!scope.userIds.length) return [];
  const where: SQL[] = [inArray(orders.promoterUserId, scope.userIds), eq(ticketTypes.kind, "ticket"), eq(orders.gift, false)];
  if (scope.organizationId) where.push(eq(orders.organizationId, scope.organizationId));
  if (scope.eventId) where.push(eq(orders.eventId, scope.eventId));
  if (scope.eventDateId) where.push(eq(orders.eventDateId, scope.eventDateId));
  if (scope.from) where.push(gte(orders.createdAt, scope.from));
  if (scope.until) where.push(lt(orders.createdAt, scope.until));
  const rows = await db
    .select({
      userId: sql<string>`${orders.promoterUserId}`,
      eventId: events.id,
      eventName: events.name,
      ticketTypeId: ticketTypes.id,
      ticketName: ticketTypes.name,
      count: sql<number>`count(*) filter (where ${issuedProducts.status} <> 'voided')::int`,
      accredited: sql<number>`count(*) filter (where ${issuedProducts.status} = 'redeemed')::int`,
    })
    .from(issuedProducts)
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
    .where(and(...where))
    .groupBy(orders.promoterUserId, events.id, events.name, ticketTypes.id, ticketTypes.name, ticketTypes.sortOrder)
    .orderBy(asc(events.name), asc(ticketTypes.sortOrder));
  return rows.filter((r) => r.count > 0 || r.accredited > 0);
}

/** Rows of one person grouped per event, in the spec's shape. */
export function perEvent(rows: ReferralSalesRow[]): (ReferralMetric & { eventId: string })[] {
  const out = new Map<string, ReferralMetric & { eventId: string }>();
  for (const row of rows) {
    const metric = out.get(row.eventId) ?? { eventId: row.eventId, eventName: row.eventName, totalCount: 0, totalAccreditedCount: 0, tickets: [] };
    metric.totalCount += row.count;
    metric.totalAccreditedCount += row.accredited;
    metric.tickets.push({ name: row.ticketName, count: row.count, accredited: row.accredited });
    out.set(row.eventId, metric);
  }
  return [...out.values()];
}

const optionalId = z.preprocess((v) => (v === null || v === undefined || v === "" ? null : String(v)), z.string().uuid("Identificador inválido").nullable());
const optionalDay = z.preprocess(
  (v) => (v === null || v === undefined || v === "" ? null : String(v)),
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Usá el formato AAAA-MM-DD").nullable(),
);
const filterSchema = z.object({ organizationId: optionalId, eventId: optionalId, eventDateId: optionalId, userId: optionalId, fromDate: optionalDay, toDate: optionalDay });

function dayStart(day: string | null): Date | null {
  if (!day) return null;
  const parsed = DateTime.fromISO(day, { zone: TIME_ZONE });
  return parsed.isValid ? parsed.startOf("day").toJSDate() : null;
}

/**
 * May the actor read this promoter's numbers in this organization? Themselves,
 * the lead of the group they sell in, the organization's owners and admins
 * (promoters:manage) and platform admins (support).
 */
export async function mayReadPromoter(ctx: Ctx, organizationId: string, userId: string): Promise<boolean> {
  const me = requireUserId(ctx);
  if (me === userId || hasRole(ctx.actor, "admin")) return true;
  if (roleAllows(await membershipRole(ctx, organizationId), "promoters:manage")) return true;
  const [led] = await ctx.db
    .select({ groupId: promoterGroups.id })
    .from(promoterGroups)
    .innerJoin(promoterGroupMembers, eq(promoterGroupMembers.groupId, promoterGroups.id))
    .where(and(eq(promoterGroups.organizationId, organizationId), eq(promoterGroups.leadUserId, me), eq(promoterGroupMembers.userId, userId)));
  return Boolean(led);
}

/**
 * `getMetricReferralSalesByUser` (docs/promoters.md): per event, the tickets sold
 * through the signed-in promoter's link and how many of them got in. With
 * `userId` (and its `organizationId`), another promoter's numbers, for those
 * who may read them (mayReadPromoter).
 */
export async function getMetricReferralSalesByUser(ctx: Ctx, rawFilter: ReferralMetricsFilter): Promise<(ReferralMetric & { eventId: string })[]> {
  const me = requireUserId(ctx);
  const filter = parseInput(filterSchema, rawFilter ?? {});
  const userId = filter.userId ?? me;
  if (userId !== me) {
    if (!filter.organizationId || !(await mayReadPromoter(ctx, filter.organizationId, userId))) throw new Forbidden("Solo ves tus números, o los de tu grupo si lo liderás.");
  }
  const toDay = dayStart(filter.toDate);
  const rows = await referralSales(ctx.db, {
    organizationId: filter.organizationId,
    userIds: [userId],
    eventId: filter.eventId,
    eventDateId: filter.eventDateId,
    from: dayStart(filter.fromDate),
    until: toDay ? DateTime.fromJSDate(toDay).plus({ days: 1 }).toJSDate() : null,
  });
  return perEvent(rows);
}
