import { spawn } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logout } from "#server/accounts/auth";
import { getDatabase, getDb } from "#server/db/client";
import { startNotifications, type NotificationsListener } from "#server/db/notify";
import { sessions } from "#server/db/schema";
import { createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer, withDatabase } from "#tests/support/db";
import { SessionCache, sessionCache, SESSION_CACHE_TTL_MS } from "./session-cache";
import { isSessionActive, revokeAllSessions, startSession } from "./sessions";
import { verifyAccessToken } from "./tokens";
import { until } from "#tests/support/until";

async function signIn(now = new Date()) {
  const user = await createTestUser();
  const tokens = await startSession(await getDb(), user, now);
  const check = await verifyAccessToken(tokens.accessToken, now);
  if (!check.ok) throw new Error(check.reason);
  return { user, tokens, sid: check.claims.sid };
}

/** Ends the session's row behind the cache's back (no notification): what only the cache still calls active. */
async function revokeSilently(sid: string) {
  await (await getDb()).update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sid));
}

describe("the session cache (decision 196)", () => {
  it("answers an active session from memory, for at most the TTL", async () => {
    const db = await getDb();
    const now = new Date();
    const { sid } = await signIn(now);
    expect(await isSessionActive(db, sid, now)).toBe(true);
    await revokeSilently(sid);
    // Remembered: no database read (the row says revoked, and nobody was told).
    expect(await isSessionActive(db, sid, new Date(now.getTime() + 1000))).toBe(true);
    // The safety net: past the TTL it asks the database again.
    expect(await isSessionActive(db, sid, new Date(now.getTime() + SESSION_CACHE_TTL_MS + 1))).toBe(false);
  });

  it("a logout in this process is refused at once", async () => {
    const db = await getDb();
    const now = new Date();
    const { user, tokens, sid } = await signIn(now);
    expect(await isSessionActive(db, sid, now)).toBe(true);
    await logout(await ctxAs({ kind: "user", userId: user.id, email: user.email, roles: [], sessionId: sid }, now), tokens.refreshToken);
    expect(await isSessionActive(db, sid, now)).toBe(false);
  });

  it("ending every session of an account (password recovery) is refused at once", async () => {
    const db = await getDb();
    const now = new Date();
    const { user, sid } = await signIn(now);
    const second = await startSession(db, user, now);
    const check = await verifyAccessToken(second.accessToken, now);
    const sid2 = check.ok ? check.claims.sid : "";
    expect(await isSessionActive(db, sid, now)).toBe(true);
    expect(await isSessionActive(db, sid2, now)).toBe(true);
    await db.transaction((tx) => revokeAllSessions(tx, user.id, now));
    expect(await isSessionActive(db, sid, now)).toBe(false);
    expect(await isSessionActive(db, sid2, now)).toBe(false);
  });

  it("stays bounded: past its size the oldest entries go first", () => {
    const cache = new SessionCache(30_000, 100);
    const now = Date.now();
    const expiresAt = new Date(now + 3600_000);
    for (let i = 0; i < 1000; i++) cache.remember(`s${i}`, { userId: `u${i}`, familyId: `f${i}`, expiresAt }, now);
    expect(cache.size).toBe(100);
    expect(cache.isActive("s0", now)).toBe(false);
    expect(cache.isActive("s999", now)).toBe(true);
    // Its indexes shrink with it: forgetting an evicted family does nothing, a kept one works.
    cache.forget("family", "f0");
    cache.forget("user", "u999");
    expect(cache.isActive("s999", now)).toBe(false);
    expect(cache.size).toBe(99);
    // Never past the session's own expiry.
    cache.remember("short", { userId: "u", familyId: "f", expiresAt: new Date(now + 10) }, now);
    expect(cache.isActive("short", now + 11)).toBe(false);
    cache.close();
  });

  it("an account with several sign-ins: ending one family keeps the others, ending the account ends them all", () => {
    const cache = new SessionCache(30_000, 100);
    const now = Date.now();
    const expiresAt = new Date(now + 3600_000);
    cache.remember("phone", { userId: "u", familyId: "f1", expiresAt }, now);
    cache.remember("laptop", { userId: "u", familyId: "f2", expiresAt }, now);
    cache.remember("laptop-rotated", { userId: "u", familyId: "f2", expiresAt }, now);
    cache.remember("tablet", { userId: "u", familyId: "f3", expiresAt }, now);
    cache.forget("family", "f2");
    expect(["phone", "laptop", "laptop-rotated", "tablet"].map((sid) => cache.isActive(sid, now))).toEqual([true, false, false, true]);
    cache.forget("family", "f1");
    expect(cache.isActive("tablet", now)).toBe(true);
    cache.remember("phone", { userId: "u", familyId: "f1", expiresAt }, now);
    cache.forget("user", "u");
    expect(["phone", "tablet"].map((sid) => cache.isActive(sid, now))).toEqual([false, false]);
    expect(cache.size).toBe(0);
    cache.close();
  });
});

describe.skipIf(!hasPostgresServer)("the session cache across processes", () => {
  let listener: NotificationsListener;
  let url: string;

  beforeAll(async () => {
    const database = await getDatabase();
    const [{ name }] = (await database.db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
    url = withDatabase(process.env.DATABASE_URL!, name);
    listener = await startNotifications(database, { url, checkEveryMs: 200, retryMs: 50 });
  });

  afterAll(async () => {
    await listener?.stop();
    sessionCache.clear();
  });

  it("a logout in another process is refused here once its notification arrives", async () => {
    const db = await getDb();
    const { user, tokens, sid } = await signIn();
    expect(await isSessionActive(db, sid)).toBe(true);
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/revoke-session.ts", tokens.refreshToken], { env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    await new Promise((resolve) => child.on("exit", resolve));
    expect(JSON.parse(out)).toEqual({ userId: user.id });
    // Without the notification the cache would say "active" for up to 30 s.
    await until(async () => !(await isSessionActive(db, sid)));
  });

  it("forgets everything when notifications may have been missed", async () => {
    const db = await getDb();
    const { sid } = await signIn();
    expect(await isSessionActive(db, sid)).toBe(true);
    await revokeSilently(sid);
    expect(await isSessionActive(db, sid)).toBe(true);
    // The listening connection dies: it comes back and every copy is dropped.
    await db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'tribuna-notifications' and datname = current_database()`);
    await until(async () => !(await isSessionActive(db, sid)));
  });
});
