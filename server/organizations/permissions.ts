import { and, eq } from "drizzle-orm";
import type { Ctx } from "#server/context";
import { hasRole } from "#server/context";
import { memberships, type MembershipRole } from "#server/db/schema";
import { Forbidden, NotFound, Unauthenticated } from "#server/errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What each membership role may do inside its organization. */
export const CAPABILITIES = {
  "organization:manage": ["owner", "admin"],
  "members:manage": ["owner", "admin"],
  "money:manage": ["owner", "admin"],
  "events:manage": ["owner", "admin", "operator"],
  "sales:read": ["owner", "admin", "operator"],
  /** Read, rotate and revoke the events' door PINs. */
  "door:pins": ["owner", "admin"],
  /** Undo a redemption someone let in by mistake (audited). */
  "door:undo": ["owner", "admin"],
  "door:operate": ["owner", "admin", "operator", "staff"],
  /** The ad pixel of the events (`/organizacion/marketing-pixel`). */
  "pixel:manage": ["owner", "admin", "operator", "marketing"],
  /** Email templates and campaigns. */
  "campaigns:manage": ["owner", "admin", "marketing"],
  /** Every email the app sent for the organization (`/organizacion/log-emails`). */
  "emails:read": ["owner", "admin", "marketing"],
  /** Promoter groups: create, lead, members, commission, cash handed in (`relaciones-publicas/grupos`). */
  "promoters:manage": ["owner", "admin"],
  /** A promoter's own links and numbers; a lead also runs their group (`relaciones-publicas/mi-grupo`). */
  "promoters:sell": ["promoter", "promoter_lead"],
  /** The organization's record of changes (`/organizacion/registro-de-cambios`). */
  "audit:read": ["owner"],
} as const satisfies Record<string, readonly MembershipRole[]>;
export type Capability = keyof typeof CAPABILITIES;

export async function membershipRole(ctx: Ctx, organizationId: string): Promise<MembershipRole | null> {
  if (ctx.actor.kind !== "user") return null;
  const [row] = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, ctx.actor.userId)));
  return row?.role ?? null;
}

export function roleAllows(role: MembershipRole | null, capability: Capability): boolean {
  return role !== null && (CAPABILITIES[capability] as readonly MembershipRole[]).includes(role);
}

/**
 * Every back-office read and write goes through here: the actor must belong
 * to the organization that owns the data, with a role that allows the action.
 * Platform admins may act on any organization (support).
 */
export async function requireCapability(ctx: Ctx, organizationId: string, capability: Capability): Promise<MembershipRole | "platform-admin"> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  // An id that is not a UUID names no organization (and would make PostgreSQL fail the query).
  if (!UUID.test(organizationId)) throw new NotFound("No encontramos la organización.");
  if (hasRole(ctx.actor, "admin")) return "platform-admin";
  const role = await membershipRole(ctx, organizationId);
  if (!roleAllows(role, capability)) throw new Forbidden();
  return role!;
}

/** The platform team (global role `admin`): its screens under /admin and their GraphQL. */
export function requirePlatformAdmin(ctx: Ctx, message = "Solo el equipo de Tribuna puede hacer esto."): void {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  if (!hasRole(ctx.actor, "admin")) throw new Forbidden(message);
}
