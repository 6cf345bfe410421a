import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import { planProblems, SEATING_MESSAGES, seatIndex } from "#common/seating";
import { seatPlanSchema } from "#common/seating-plan";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { eventDates, eventSeating, seatClaims, seatMaps, type SeatMapRow } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { syncSeatedStock } from "./stock";

/*
 * Seat maps (docs/seating.md): an organization's venues as one JSON plan each
 * (common/seating-plan.ts). Only members who manage events read or write them.
 */

const uuid = z.string().uuid("Identificador inválido");

export const saveSeatMapSchema = z.object({
  /** Absent: a new map. */
  id: uuid.nullish(),
  organizationId: uuid,
  plan: z.unknown(),
  /** The version the editor loaded: a save over a newer one is refused instead of undoing someone's work. */
  version: z.number().int().positive().nullish(),
});

/** The plan checked by its schema and by what a schema cannot see (guids twice, unknown categories); Spanish messages under `plan`. */
function parsePlan(raw: unknown) {
  const parsed = seatPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues.slice(0, 20)) (fieldErrors[["plan", ...issue.path].join(".")] ??= []).push(issue.message);
    throw new Invalid(fieldErrors, "El mapa de asientos tiene datos inválidos.");
  }
  const problems = planProblems(parsed.data);
  if (problems.length) throw new Invalid({ plan: problems.slice(0, 20) }, problems[0]);
  return parsed.data;
}

/**
 * `saveSeatMap`: creates a map or replaces its plan. On a map events already use, every seat that is held,
 * sold or blocked on one of their dates must still be in the plan, each event's categories must still map
 * to a ticket type, and the seated ticket types' stock follows the new seat counts — all in one transaction.
 */
export async function saveSeatMap(ctx: Ctx, rawInput: DomainInput<typeof saveSeatMapSchema>): Promise<SeatMapRow> {
  const input = parseInput(saveSeatMapSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "events:manage");
  const plan = parsePlan(input.plan);
  return ctx.db.transaction(async (tx) => {
    if (!input.id) {
      const [created] = await tx.insert(seatMaps).values({ organizationId: input.organizationId, name: plan.name, plan, createdAt: ctx.now, updatedAt: ctx.now }).returning();
      return created;
    }
    // Locked: two saves of one map are judged one after the other.
    const [current] = await tx.select().from(seatMaps).where(eq(seatMaps.id, input.id)).for("update");
    if (!current || current.organizationId !== input.organizationId) throw new NotFound(SEATING_MESSAGES.mapNotFound);
    if (input.version && input.version !== current.version) throw new Conflict("Alguien más guardó este mapa mientras lo editabas. Volvé a abrirlo y hacé tus cambios de nuevo.");
    const seats = seatIndex(plan);
    const users = await tx.select({ eventId: eventSeating.eventId, categories: eventSeating.categories }).from(eventSeating).where(eq(eventSeating.seatMapId, current.id));
    if (users.length) {
      const claimed = await tx
        .selectDistinct({ seatGuid: seatClaims.seatGuid })
        .from(seatClaims)
        .innerJoin(eventDates, eq(eventDates.id, seatClaims.eventDateId))
        .where(and(inArray(eventDates.eventId, users.map((u) => u.eventId)), ne(seatClaims.state, "released")));
      const missing = claimed.find((c) => !seats.has(c.seatGuid));
      if (missing) throw new Invalid({ plan: [SEATING_MESSAGES.claimedSeatRemoved(missing.seatGuid)] }, SEATING_MESSAGES.claimedSeatRemoved(missing.seatGuid));
      for (const user of users) await syncSeatedStock(tx, { eventId: user.eventId, plan, categories: user.categories, now: ctx.now });
    }
    const [saved] = await tx
      .update(seatMaps)
      .set({ name: plan.name, plan, version: current.version + 1, updatedAt: ctx.now })
      .where(eq(seatMaps.id, current.id))
      .returning();
    return saved;
  });
}

/** `seatMap(id)`: one map, for the members of its organization who manage events. */
export async function getSeatMap(ctx: Ctx, id: string): Promise<SeatMapRow> {
  const map = await loadMap(ctx.db, id);
  await requireCapability(ctx, map.organizationId, "events:manage");
  return map;
}

/** The organization's maps, by name. */
export async function listSeatMaps(ctx: Ctx, organizationId: string): Promise<SeatMapRow[]> {
  await requireCapability(ctx, organizationId, "events:manage");
  return ctx.db.select().from(seatMaps).where(eq(seatMaps.organizationId, organizationId)).orderBy(asc(seatMaps.name));
}

/** A map by id, or NOT_FOUND (an id that is not a UUID names no map). */
export async function loadMap(db: DbOrTx, id: string): Promise<SeatMapRow> {
  if (!uuid.safeParse(id).success) throw new NotFound(SEATING_MESSAGES.mapNotFound);
  const [map] = await db.select().from(seatMaps).where(eq(seatMaps.id, id));
  if (!map) throw new NotFound(SEATING_MESSAGES.mapNotFound);
  return map;
}
