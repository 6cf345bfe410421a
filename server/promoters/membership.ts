import { and, eq, inArray, sql } from "drizzle-orm";
import { nicknameSchema } from "#common/validation";
import type { DbOrTx } from "#server/db/client";
import { isUniqueViolation } from "#server/db/errors";
import { auditLog, memberships, promoterGroupMembers, promoterGroups, users } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { PROMOTER_ROLES } from "./attribution";

export const PROMOTER_MESSAGES = {
  otherRole: "Esa persona ya es parte del equipo con otro rol: no puede ser RRPP.",
  otherGroup: (group: string) => `Esa persona ya es RRPP del grupo ${group}.`,
  nicknameNeeded: "Elegí tu apodo: es el final de tu link de RRPP.",
  nicknameTaken: "Ese apodo ya lo usa otra persona.",
  groupGone: "Ese grupo de RRPP ya no existe.",
} as const;

/** The group a person already sells in, in this organization (one at most). */
export async function groupOfPromoter(db: DbOrTx, organizationId: string, userId: string) {
  const [row] = await db
    .select({ id: promoterGroups.id, name: promoterGroups.name, leadUserId: promoterGroups.leadUserId })
    .from(promoterGroupMembers)
    .innerJoin(promoterGroups, eq(promoterGroups.id, promoterGroupMembers.groupId))
    .where(and(eq(promoterGroupMembers.organizationId, organizationId), eq(promoterGroupMembers.userId, userId)));
  return row ?? null;
}

/**
 * Someone accepting a promoter invitation joins the organization as promoter
 * (or lead) and the group (a lead replaces the group's previous one, who
 * stays as a promoter). They need a nickname: it is their link.
 */
export async function joinPromoterGroup(tx: DbOrTx, input: { organizationId: string; groupId: string; userId: string; role: "promoter" | "promoter_lead"; nickname?: string | null; now: Date }) {
  const [group] = await tx.select().from(promoterGroups).where(and(eq(promoterGroups.id, input.groupId), eq(promoterGroups.organizationId, input.organizationId)));
  if (!group) throw new NotFound(PROMOTER_MESSAGES.groupGone);
  const [user] = await tx.select({ nickname: users.nickname }).from(users).where(eq(users.id, input.userId));
  if (!user?.nickname) {
    const parsed = nicknameSchema.safeParse(input.nickname ?? "");
    if (!parsed.success || !parsed.data) throw new Invalid({ nickname: [input.nickname ? (parsed.error?.issues[0]?.message ?? PROMOTER_MESSAGES.nicknameNeeded) : PROMOTER_MESSAGES.nicknameNeeded] });
    try {
      await tx.transaction((sp) => sp.update(users).set({ nickname: parsed.data, updatedAt: input.now }).where(eq(users.id, input.userId)));
    } catch (error) {
      if (isUniqueViolation(error, "users_nickname_key")) throw new Invalid({ nickname: [PROMOTER_MESSAGES.nicknameTaken] });
      throw error;
    }
  }
  const [member] = await tx.select({ role: memberships.role }).from(memberships).where(and(eq(memberships.organizationId, input.organizationId), eq(memberships.userId, input.userId)));
  if (member && !(PROMOTER_ROLES as readonly string[]).includes(member.role)) throw new Conflict(PROMOTER_MESSAGES.otherRole);
  const current = await groupOfPromoter(tx, input.organizationId, input.userId);
  if (current && current.id !== group.id) throw new Conflict(PROMOTER_MESSAGES.otherGroup(current.name));
  if (!current) await tx.insert(promoterGroupMembers).values({ groupId: group.id, organizationId: input.organizationId, userId: input.userId, addedAt: input.now });
  if (input.role === "promoter_lead") await makeLead(tx, { organizationId: input.organizationId, groupId: group.id, userId: input.userId });
  else if (!member) await tx.insert(memberships).values({ organizationId: input.organizationId, userId: input.userId, role: "promoter", createdAt: input.now });
}

/** The group's lead becomes this member; the previous lead stays in the group as a promoter. */
export async function makeLead(tx: DbOrTx, input: { organizationId: string; groupId: string; userId: string }) {
  const [group] = await tx.select({ leadUserId: promoterGroups.leadUserId }).from(promoterGroups).where(eq(promoterGroups.id, input.groupId)).for("update");
  if (group?.leadUserId && group.leadUserId !== input.userId) {
    await tx.update(memberships).set({ role: "promoter" }).where(and(eq(memberships.organizationId, input.organizationId), eq(memberships.userId, group.leadUserId), eq(memberships.role, "promoter_lead")));
  }
  await tx.update(promoterGroups).set({ leadUserId: input.userId, updatedAt: sql`now()` }).where(eq(promoterGroups.id, input.groupId));
  await tx
    .insert(memberships)
    .values({ organizationId: input.organizationId, userId: input.userId, role: "promoter_lead" })
    .onConflictDoUpdate({ target: [memberships.organizationId, memberships.userId], set: { role: "promoter_lead" }, where: inArray(memberships.role, [...PROMOTER_ROLES]) });
}

/** Out of the group and of the organization (their link stops counting from now on; past sales stay theirs). */
export async function leavePromoterGroup(tx: DbOrTx, input: { organizationId: string; groupId: string; userId: string; actorId: string | null; now: Date }) {
  await tx.delete(promoterGroupMembers).where(and(eq(promoterGroupMembers.groupId, input.groupId), eq(promoterGroupMembers.userId, input.userId)));
  await tx.update(promoterGroups).set({ leadUserId: null, updatedAt: input.now }).where(and(eq(promoterGroups.id, input.groupId), eq(promoterGroups.leadUserId, input.userId)));
  await tx.delete(memberships).where(and(eq(memberships.organizationId, input.organizationId), eq(memberships.userId, input.userId), inArray(memberships.role, [...PROMOTER_ROLES])));
  await tx.insert(auditLog).values({ actorId: input.actorId, action: "promoters.remove", targetId: input.userId, data: { organizationId: input.organizationId, groupId: input.groupId }, createdAt: input.now });
}
