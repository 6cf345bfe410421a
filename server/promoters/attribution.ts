import { and, eq, inArray, sql } from "drizzle-orm";
import { PATTERNS } from "#common/validation";
import type { DbOrTx } from "#server/db/client";
import { memberships, promoterGroupMembers, promoterGroups, users } from "#server/db/schema";

/*
 * Who a sale through a referral link belongs to (docs/promoters.md): the
 * nick's owner counts only while they are a promoter (or lead) of the
 * event's organization, in a group that sells that event. Anything else
 * (an unknown nick, a promoter of another organization, a group that does
 * not sell this event) is ignored: the purchase goes on, unattributed.
 */

export interface Referrer {
  userId: string;
  /** As its owner spells it. */
  nick: string;
  firstName: string;
  lastName: string;
  groupId: string;
}

export const PROMOTER_ROLES = ["promoter", "promoter_lead"] as const;

export async function referrerForEvent(db: DbOrTx, event: { id: string; organizationId: string }, nick: string | null | undefined): Promise<Referrer | null> {
  const clean = nick?.trim();
  if (!clean || !PATTERNS.nickname.test(clean)) return null;
  const [row] = await db
    .select({ userId: users.id, nick: users.nickname, firstName: users.firstName, lastName: users.lastName, groupId: promoterGroups.id })
    .from(users)
    .innerJoin(promoterGroupMembers, and(eq(promoterGroupMembers.userId, users.id), eq(promoterGroupMembers.organizationId, event.organizationId)))
    .innerJoin(promoterGroups, eq(promoterGroups.id, promoterGroupMembers.groupId))
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.organizationId, event.organizationId), inArray(memberships.role, [...PROMOTER_ROLES])))
    .where(and(sql`lower(${users.nickname}) = ${clean.toLowerCase()}`, sql`(cardinality(${promoterGroups.eventIds}) = 0 or ${event.id}::uuid = any(${promoterGroups.eventIds}))`));
  if (!row?.nick) return null;
  return { userId: row.userId, nick: row.nick, firstName: row.firstName ?? "", lastName: row.lastName ?? "", groupId: row.groupId };
}
