import { and, asc, eq, gte, isNotNull, min, ne } from "drizzle-orm";
import type { Ctx } from "#server/context";
import { eventDates, events } from "#server/db/schema";
import { requireCapability } from "#server/organizations/permissions";
import { DOOR_SESSION_GRACE_MS } from "./access";

/**
 * The organization's events whose door a member can work now or later (`door:operate`): published, not deleted,
 * with a date that has not ended (or ended less than the door's grace ago, as a PIN session lasts). Soonest
 * first, each with that date's start. What the landing of someone who only works the door links to
 * (`/organizacion/resumen`, docs/team.md).
 */
export async function listDoorEvents(ctx: Ctx, organizationId: string) {
  await requireCapability(ctx, organizationId, "door:operate");
  const since = new Date(ctx.now.getTime() - DOOR_SESSION_GRACE_MS);
  const rows = await ctx.db
    .select({ id: events.id, name: events.name, slug: events.slug, startsAt: min(eventDates.startsAt) })
    .from(events)
    .innerJoin(eventDates, and(eq(eventDates.eventId, events.id), ne(eventDates.status, "deleted"), gte(eventDates.endsAt, since)))
    .where(and(eq(events.organizationId, organizationId), ne(events.status, "deleted"), isNotNull(events.publishedAt)))
    .groupBy(events.id)
    .orderBy(asc(min(eventDates.startsAt)), asc(events.name));
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, startsAt: r.startsAt ? new Date(r.startsAt) : null }));
}
