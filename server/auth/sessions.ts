import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { sessions, users } from "#server/db/schema";
import { Unauthenticated } from "#server/errors";
import type { Role } from "#server/context";
import { REFRESH_TOKEN_TTL_MS, hashToken, randomToken, signAccessToken } from "./tokens";

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

/** Exchanges a refresh token for a new pair; the old one stops working. */
export async function rotateRefreshToken(db: DbOrTx, refreshToken: string, now: Date): Promise<Tokens & { userId: string }> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(refreshToken)))
      .for("update");
    if (!current || current.revokedAt || current.expiresAt <= now) throw new Unauthenticated();

    if (current.rotatedAt) {
      const withinGrace = now.getTime() - current.rotatedAt.getTime() <= REUSE_GRACE_MS;
      if (!withinGrace) {
        await tx
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(eq(sessions.familyId, current.familyId), isNull(sessions.revokedAt)));
        // The revocation must persist even though this call fails.
        return { revoked: true } as never;
      }
    } else {
      await tx.update(sessions).set({ rotatedAt: now }).where(eq(sessions.id, current.id));
    }

    const [user] = await tx
      .select({ id: users.id, email: users.email, roles: users.roles })
      .from(users)
      .where(eq(users.id, current.userId));
    if (!user) throw new Unauthenticated();
    const next = await insertSession(
      tx,
      { userId: user.id, familyId: current.familyId, impersonatorId: current.impersonatorId, expiresAt: current.expiresAt },
      now,
    );
    return { accessToken: await accessTokenFor(user, next.id, now), refreshToken: next.refreshToken, userId: user.id };
  }).then((result) => {
    if ((result as { revoked?: boolean }).revoked) throw new Unauthenticated("Tu sesión se cerró por seguridad. Iniciá sesión de nuevo.");
    return result;
  });
}

/** Ends the sign-in the refresh token belongs to (its whole family). */
export async function revokeSessionFamily(db: DbOrTx, refreshToken: string, now: Date): Promise<string | null> {
  const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(refreshToken)));
  if (!row) return null;
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.familyId, row.familyId), isNull(sessions.revokedAt)));
  return row.userId;
}

/** Whether the session an access token names is still alive (logout kills access tokens too). */
export async function isSessionActive(db: DbOrTx, sessionId: string): Promise<boolean> {
  const [row] = await db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.id, sessionId));
  return Boolean(row && !row.revokedAt);
}
