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
export async function sessionCookiesFor(userId: string): Promise<{ at: string; rt: string }> {
  const { startSession } = await import("#server/auth/sessions");
  const { eq } = await import("drizzle-orm");
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const session = await startSession(db, user, new Date());
  return { at: session.accessToken, rt: session.refreshToken };
}
