import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { sessions, twoFactorDevices, users } from "#server/db/schema";
import { Unauthenticated } from "#server/errors";
import type { Actor, Role } from "#server/context";
import { REFRESH_TOKEN_TTL_MS, hashToken, randomToken, signAccessToken } from "./tokens";
import { publishRevocation, sessionCache } from "./session-cache";

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * Two requests that raced with the same refresh token (two tabs, parallel
 * loaders) are not an attack: inside this window the late one gets its own
 * fresh pair. After it, presenting a rotated token revokes the whole family.
 */
export const REUSE_GRACE_MS = 20_000;

/** Session ids come from signed tokens, but a malformed one must not reach a uuid column. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type UserForToken = { id: string; email: string; roles: string[] };

async function accessTokenFor(user: UserForToken, sessionId: string, now: Date) {
  return signAccessToken({ sub: user.id, email: user.email, roles: user.roles as Role[], sid: sessionId }, now);
}

async function insertSession(
  db: DbOrTx,
  values: { userId: string; familyId: string; impersonatorId?: string | null; expiresAt: Date },
  now: Date,
) {
  const refreshToken = randomToken();
  const [row] = await db
    .insert(sessions)
    .values({ ...values, tokenHash: hashToken(refreshToken), createdAt: now })
    .returning({ id: sessions.id });
  return { id: row.id, refreshToken };
}

/** A new sign-in: a new family. */
export async function startSession(
  db: DbOrTx,
  user: UserForToken,
  now: Date,
  options: { impersonatorId?: string } = {},
): Promise<Tokens> {
  const { id, refreshToken } = await insertSession(
    db,
    {
      userId: user.id,
      familyId: crypto.randomUUID(),
      impersonatorId: options.impersonatorId ?? null,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    },
    now,
  );
  return { accessToken: await accessTokenFor(user, id, now), refreshToken };
}

export const SESSION_CLOSED_FOR_SAFETY = "Tu sesión se cerró por seguridad. Iniciá sesión de nuevo.";

type Rotation =
  | { kind: "rotated"; tokens: Tokens & { userId: string } }
  | { kind: "unknown" }
  | { kind: "reused" };

/**
 * Exchanges a refresh token for a new pair; the old one stops working.
 * Presenting an already rotated token after REUSE_GRACE_MS means it leaked:
 * the whole family is revoked (that must be committed, so the transaction
 * returns the outcome and the error is thrown after it).
 */
export async function rotateRefreshToken(db: DbOrTx, refreshToken: string, now: Date): Promise<Tokens & { userId: string }> {
  const outcome = await db.transaction(async (tx): Promise<Rotation> => {
    const [current] = await tx
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(refreshToken)))
      .for("update");
    if (!current || current.revokedAt || current.expiresAt <= now) return { kind: "unknown" };

    if (current.rotatedAt) {
      const withinGrace = now.getTime() - current.rotatedAt.getTime() <= REUSE_GRACE_MS;
      if (!withinGrace) {
        await revokeFamily(tx, current.familyId, now);
        return { kind: "reused" };
      }
    } else {
      await tx.update(sessions).set({ rotatedAt: now }).where(eq(sessions.id, current.id));
    }

    const [user] = await tx
      .select({ id: users.id, email: users.email, roles: users.roles })
      .from(users)
      .where(eq(users.id, current.userId));
    if (!user) return { kind: "unknown" };
    const next = await insertSession(
      tx,
      { userId: user.id, familyId: current.familyId, impersonatorId: current.impersonatorId, expiresAt: current.expiresAt },
      now,
    );
    const accessToken = await accessTokenFor(user, next.id, now);
    return { kind: "rotated", tokens: { accessToken, refreshToken: next.refreshToken, userId: user.id } };
  });
  switch (outcome.kind) {
    case "rotated":
      return outcome.tokens;
    case "reused":
      throw new Unauthenticated(SESSION_CLOSED_FOR_SAFETY);
    case "unknown":
      throw new Unauthenticated();
  }
}

async function revokeFamily(db: DbOrTx, familyId: string, now: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
  // Every process's session cache forgets the family (decision 196): this one at once, the others on commit.
  await publishRevocation(db, "family", familyId);
}

/**
 * Ends the sign-in the refresh token belongs to (its whole family). Returns
 * its user only when the token was still good (not revoked, not expired), so
 * an old token found somewhere tells nothing about its owner.
 */
export async function revokeSessionFamily(db: DbOrTx, refreshToken: string, now: Date): Promise<string | null> {
  const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(refreshToken)));
  if (!row) return null;
  await revokeFamily(db, row.familyId, now);
  return !row.revokedAt && row.expiresAt > now ? row.userId : null;
}

/** Ends the sign-in a session id (an access token's `sid`) belongs to. Returns its user when it was still active. */
export async function revokeSessionFamilyById(db: DbOrTx, sessionId: string, now: Date): Promise<string | null> {
  if (!UUID.test(sessionId)) return null;
  const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
  if (!row) return null;
  await revokeFamily(db, row.familyId, now);
  return !row.revokedAt ? row.userId : null;
}

/** Ends every sign-in of a user (after a password recovery), and forgets every browser remembered for the second factor. */
export async function revokeAllSessions(db: DbOrTx, userId: string, now: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  await publishRevocation(db, "user", userId);
  await db.delete(twoFactorDevices).where(eq(twoFactorDevices.userId, userId));
}

/**
 * Whether the session an access token names is still alive: not logged out (logout kills access tokens too), not
 * expired. An active one is remembered for a few seconds (./session-cache.ts, decision 196): a revocation anywhere
 * reaches the cache, so most requests skip the database.
 */
export async function isSessionActive(db: DbOrTx, sessionId: string, now = new Date()): Promise<boolean> {
  if (sessionCache.isActive(sessionId, now.getTime())) return true;
  if (!UUID.test(sessionId)) return false;
  const [row] = await db
    .select({ userId: sessions.userId, familyId: sessions.familyId, revokedAt: sessions.revokedAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  const active = Boolean(row && !row.revokedAt && row.expiresAt > now);
  if (active) sessionCache.remember(sessionId, row, now.getTime());
  return active;
}

/**
 * The actor as it stands now, for what lasts longer than a request (a live stream): null when its session
 * ended (logout, expiry) or the account is gone; else its current global roles, read again (an access token's
 * roles are a copy from when it was signed).
 */
export async function currentActor(db: DbOrTx, actor: Actor, now: Date): Promise<Actor | null> {
  if (actor.kind !== "user") return null;
  if (actor.sessionId && !(await isSessionActive(db, actor.sessionId, now))) return null;
  const [user] = await db.select({ email: users.email, roles: users.roles }).from(users).where(eq(users.id, actor.userId));
  if (!user) return null;
  return { ...actor, email: user.email, roles: user.roles as Role[] };
}
