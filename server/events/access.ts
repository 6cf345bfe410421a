import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { events } from "#server/db/schema";
import { NotFound } from "#server/errors";
import { requireCapability, type Capability } from "#server/organizations/permissions";

const uuid = z.string().uuid("Identificador inválido");

/**
 * Loads an event and checks the actor may act on it (its organization, with the capability).
 * Its own module so events.ts and schedule.ts both use it without importing each other in a circle.
 */
export async function requireEvent(ctx: Ctx, eventId: string, capability: Capability = "events:manage") {
  if (!uuid.safeParse(eventId).success) throw new NotFound("No encontramos el evento.");
  const [event] = await ctx.db.select().from(events).where(eq(events.id, eventId));
  if (!event) throw new NotFound("No encontramos el evento.");
  await requireCapability(ctx, event.organizationId, capability);
  return event;
}
