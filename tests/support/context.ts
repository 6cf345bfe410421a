import type { Actor, Ctx, Role } from "#server/context";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { users } from "#server/db/schema";
import { hashPassword } from "#server/auth/password";
import { randomTag, RUN_TAG } from "./random";

/** A domain context for the test file's database. */
export async function ctxAs(actor: Actor = ANONYMOUS, now = new Date(), ip = "203.0.113.7"): Promise<Ctx> {
  return { db: await getDb(), actor, now, ip };
}

let counter = 0;

/** Factory: a user with a password, optionally with roles. */
export async function createTestUser(
  overrides: Partial<typeof users.$inferInsert> & { password?: string; roles?: Role[] } = {},
) {
  counter += 1;
  const { password = "clave-segura-1", ...rest } = overrides;
  const db = await getDb();
  const [user] = await db
    .insert(users)
    .values({
      email: `persona${counter}-${RUN_TAG}-${randomTag()}@example.com`,
      firstName: "Sofía",
      lastName: "Peña",
      passwordHash: await hashPassword(password),
      ...rest,
    })
    .returning();
  return { ...user, password };
}

export function actorFor(user: { id: string; email: string; roles: string[] }): Actor {
  return { kind: "user", userId: user.id, email: user.email, roles: user.roles as Role[] };
}

/** The `at` / `rt` cookies of a fresh session for this user, as a browser signed in would send them. */
export async function sessionCookiesFor(userId: string, options: { secondFactor?: boolean } = {}): Promise<{ at: string; rt: string }> {
  const session = await sessionTokensFor(userId, options);
  return { at: session.accessToken, rt: session.refreshToken };
}

/**
 * A fresh session's tokens; with `secondFactor`, the person has two-factor
 * sign-in on and this sign-in proved it (what withdrawals, role changes and
 * Mercado Pago ask for), as /cuenta/verificacion would leave it.
 */
export async function sessionTokensFor(userId: string, options: { secondFactor?: boolean; roles?: string[] } = {}) {
  const [{ startSession }, { verifyAccessToken }, { eq }, schema] = await Promise.all([
    import("#server/auth/sessions"),
    import("#server/auth/tokens"),
    import("drizzle-orm"),
    import("#server/db/schema"),
  ]);
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const now = new Date();
  const tokens = await startSession(db, options.roles ? { ...user, roles: options.roles as Role[] } : user, now);
  const check = await verifyAccessToken(tokens.accessToken, now);
  if (!check.ok || !check.claims.sid) throw new Error("a fresh access token did not verify");
  const sid = check.claims.sid;
  if (options.secondFactor) {
    // The key is never used to check a code here: only its being on matters.
    await db.insert(schema.twoFactorKeys).values({ userId, secretEncrypted: "no-usada-en-tests", enabledAt: now }).onConflictDoUpdate({ target: schema.twoFactorKeys.userId, set: { enabledAt: now } });
    const [session] = await db.select({ familyId: schema.sessions.familyId }).from(schema.sessions).where(eq(schema.sessions.id, sid));
    await db.insert(schema.twoFactorVerifications).values({ familyId: session.familyId, userId, verifiedAt: now }).onConflictDoUpdate({ target: schema.twoFactorVerifications.familyId, set: { verifiedAt: now } });
  }
  return { ...tokens, sessionId: sid };
}

/** The same context acting from a sign-in that proved the second factor (see sessionTokensFor). */
export async function withSecondFactor(ctx: Ctx): Promise<Ctx> {
  if (ctx.actor.kind !== "user") throw new Error("withSecondFactor needs a signed-in actor");
  const { sessionId } = await sessionTokensFor(ctx.actor.userId, { secondFactor: true });
  return { ...ctx, actor: { ...ctx.actor, sessionId } };
}
