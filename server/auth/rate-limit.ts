import { and, count, gt, inArray, lt } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { loginAttempts } from "#server/db/schema";
import { TooManyRequests } from "#server/errors";

export const RATE_LIMIT_WINDOW_MS = 15 * 60 * 1000;
/** Per key (an email or an IP) in the window. An IP may be shared (offices, mobile carriers), so it gets more room. */
export const LIMITS = { email: 5, ip: 30 } as const;

/** What is being limited: password guesses, recovery-code emails, sign-in-link emails, email-verification emails. */
export type LimitScope = "login" | "recovery" | "sign-in-link" | "verify-email";

export function attemptKeys(scope: LimitScope, email: string, ip?: string) {
  const keys: { key: string; limit: number }[] = [{ key: `${scope}:email:${email.toLowerCase()}`, limit: LIMITS.email }];
  if (ip) keys.push({ key: `${scope}:ip:${ip}`, limit: LIMITS.ip });
  return keys;
}

/**
 * Counts one attempt under every key, and refuses it (TooManyRequests) when
 * that goes over a key's limit. The attempt is written before it is counted,
 * so requests sent at the same moment cannot all slip under the limit: the
 * n-th of them sees at least n rows. A refused attempt is not kept (retrying
 * while limited does not push the window further). `release()` forgets an
 * attempt that turned out fine (a successful login).
 */
export async function takeAttempt(db: DbOrTx, keys: { key: string; limit: number }[], now: Date) {
  const rows = await db
    .insert(loginAttempts)
    .values(keys.map((k) => ({ key: k.key, createdAt: now })))
    .returning({ id: loginAttempts.id });
  const ids = rows.map((r) => r.id);
  const release = async () => {
    if (ids.length) await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
  };
  const since = new Date(now.getTime() - RATE_LIMIT_WINDOW_MS);
  const counts = await db
    .select({ key: loginAttempts.key, n: count() })
    .from(loginAttempts)
    .where(and(inArray(loginAttempts.key, keys.map((k) => k.key)), gt(loginAttempts.createdAt, since)))
    .groupBy(loginAttempts.key);
  if (keys.some(({ key, limit }) => (counts.find((c) => c.key === key)?.n ?? 0) > limit)) {
    await release();
    throw new TooManyRequests();
  }
  // Keep the table small: rows older than a day say nothing any more.
  await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(now.getTime() - 24 * 3600 * 1000)));
  return { release };
}

/** Forgets the failures counted under the email keys (after a successful sign-in). */
export async function clearAttempts(db: DbOrTx, keys: { key: string }[]) {
  const emailKeys = keys.filter((k) => k.key.includes(":email:")).map((k) => k.key);
  if (emailKeys.length) await db.delete(loginAttempts).where(inArray(loginAttempts.key, emailKeys));
}
