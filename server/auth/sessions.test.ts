import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { refresh } from "#server/accounts/auth";
import { getDb } from "#server/db/client";
import { sessions, users } from "#server/db/schema";
import { createTestUser, ctxAs } from "#tests/support/context";
import { REUSE_GRACE_MS, SESSION_CLOSED_FOR_SAFETY, isSessionActive, rotateRefreshToken, startSession } from "./sessions";
import { REFRESH_TOKEN_TTL_MS, verifyAccessToken } from "./tokens";

const T0 = new Date("2030-05-01T10:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

async function signIn(overrides: Parameters<typeof createTestUser>[0] = {}) {
  const user = await createTestUser(overrides);
  const tokens = await startSession(await getDb(), user, T0);
  return { user, tokens };
}

async function sessionIdOf(accessToken: string, now: Date) {
  const check = await verifyAccessToken(accessToken, now);
  if (!check.ok) throw new Error(check.reason);
  return check.claims.sid!;
}

/** Whether a refresh token still gets a new pair at that moment. */
async function works(refreshToken: string, now: Date) {
  try {
    await rotateRefreshToken(await getDb(), refreshToken, now);
    return true;
  } catch (error) {
    expect(error).toMatchObject({ code: "UNAUTHENTICATED" });
    return false;
  }
}

describe("refresh token rotation", () => {
  it("hands out a new pair and retires the old refresh token", async () => {
    const { user, tokens } = await signIn();
    const next = await refresh(await ctxAs(undefined, at(60_000)), tokens.refreshToken);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(next.userId).toBe(user.id);
    const check = await verifyAccessToken(next.accessToken, at(60_000));
    expect(check.ok && check.claims.sub).toBe(user.id);
    // Fine again and again with the newest token.
    const third = await refresh(await ctxAs(undefined, at(120_000)), next.refreshToken);
    expect(third.refreshToken).not.toBe(next.refreshToken);
  });

  it("treats an old token shown after the grace window as stolen: the whole sign-in ends", async () => {
    const { tokens } = await signIn();
    const db = await getDb();
    const next = await rotateRefreshToken(db, tokens.refreshToken, at(1000));
    const newest = await rotateRefreshToken(db, next.refreshToken, at(2000));

    await expect(rotateRefreshToken(db, tokens.refreshToken, at(1000 + REUSE_GRACE_MS + 1))).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
      message: SESSION_CLOSED_FOR_SAFETY,
    });
    // The revocation was committed although the call failed: the newest token is dead too…
    expect(await works(newest.refreshToken, at(REUSE_GRACE_MS + 5000))).toBe(false);
    // …and so is every access token of that sign-in.
    expect(await isSessionActive(db, await sessionIdOf(newest.accessToken, at(2000)))).toBe(false);
    const family = await db.select().from(sessions).where(eq(sessions.userId, next.userId));
    expect(family).toHaveLength(3);
    expect(family.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it("gives a racing duplicate (two tabs) its own fresh pair inside the grace window", async () => {
    const { tokens } = await signIn();
    const db = await getDb();
    const first = await rotateRefreshToken(db, tokens.refreshToken, at(1000));
    const second = await rotateRefreshToken(db, tokens.refreshToken, at(1000 + REUSE_GRACE_MS));
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    // Neither tab is signed out.
    expect(await works(first.refreshToken, at(1000 + REUSE_GRACE_MS + 10))).toBe(true);
    expect(await works(second.refreshToken, at(1000 + REUSE_GRACE_MS + 20))).toBe(true);
  });

  it("lets parallel requests with the same refresh token all through, without ending the sign-in", async () => {
    const { user, tokens } = await signIn();
    const db = await getDb();
    const pairs = await Promise.all(Array.from({ length: 5 }, () => rotateRefreshToken(db, tokens.refreshToken, at(1000))));
    expect(new Set(pairs.map((p) => p.refreshToken)).size).toBe(5);
    expect(pairs.every((p) => p.userId === user.id)).toBe(true);
    for (const pair of pairs) expect(await works(pair.refreshToken, at(2000))).toBe(true);
  });

  it("refuses unknown and expired refresh tokens, and never extends a sign-in past 15 days", async () => {
    const { tokens } = await signIn();
    const db = await getDb();
    expect(await works("no-es-un-token", at(0))).toBe(false);
    const later = await rotateRefreshToken(db, tokens.refreshToken, at(REFRESH_TOKEN_TTL_MS - 60_000));
    expect(await works(later.refreshToken, at(REFRESH_TOKEN_TTL_MS))).toBe(false);
  });

  it("puts the user's current roles in the new access token", async () => {
    const { user, tokens } = await signIn();
    const db = await getDb();
    await db.update(users).set({ roles: ["producer"] }).where(eq(users.id, user.id));
    const next = await rotateRefreshToken(db, tokens.refreshToken, at(1000));
    const check = await verifyAccessToken(next.accessToken, at(1000));
    expect(check.ok && check.claims.roles).toEqual(["producer"]);
  });

  it("keeps other sign-ins of the same person working when one is revoked for reuse", async () => {
    const { user, tokens } = await signIn();
    const db = await getDb();
    const phone = await startSession(db, user, T0);
    await rotateRefreshToken(db, tokens.refreshToken, at(1000));
    await expect(rotateRefreshToken(db, tokens.refreshToken, at(REUSE_GRACE_MS + 2000))).rejects.toThrow(SESSION_CLOSED_FOR_SAFETY);
    expect(await works(phone.refreshToken, at(REUSE_GRACE_MS + 3000))).toBe(true);
  });
});
