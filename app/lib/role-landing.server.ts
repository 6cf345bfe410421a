import { listDoorEvents } from "#server/door/door-events";
import { guard, type Backoffice } from "#app/lib/backoffice.server";
import type { RoleLandingData } from "#app/components/backoffice/RoleLanding";

/**
 * What `/organizacion/resumen` shows someone whose role does not read sales (staff, marketing, RRPP and their
 * leads) instead of the summary: their role and, for the door staff, the events whose door they can open. Null
 * for the roles that read sales: the summary is their landing. The links come from the same capabilities the
 * domain checks (docs/team.md); the component is app/components/backoffice/RoleLanding.tsx.
 */
export async function roleLanding(bo: Pick<Backoffice, "ctx" | "role" | "can"> & { organization: { id: string } }): Promise<RoleLandingData | null> {
  if (bo.can["sales:read"]) return null;
  const doors = bo.can["door:operate"] ? await guard(() => listDoorEvents(bo.ctx, bo.organization.id)) : [];
  return { role: bo.role, doors: doors.map((e) => ({ id: e.id, name: e.name, slug: e.slug, startsAt: e.startsAt?.toISOString() ?? null })) };
}
