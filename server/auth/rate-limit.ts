import { and, count, gt, inArray, lt } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { loginAttempts } from "#server/db/schema";
import { TooManyRequests } from "#server/errors";

export const RATE_LIMIT_WINDOW_MS = 15 * 60 * 1000;
/** Per key (an email or an IP) in the window. An IP may be shared (offices, mobile carriers), so it gets more room. */
export const LIMITS = { email: 5, ip: 30 } as const;

export function attemptKeys(scope: "login" | "recovery", email: string, ip?: string) {
  const keys: { key: string; limit: number }[] = [{ key: `${scope}:email:${email.toLowerCase()}`, limit: LIMITS.email }];
  if (ip) keys.push({ key: `${scope}:ip:${ip}`, limit: LIMITS.ip });
  return keys;
}

/** Throws TooManyRequests when any key already used up its attempts. */
export async function assertNotLimited(db: DbOrTx, keys: { key: string; limit: number }[], now: Date) {
  const since = new Date(now.getTime() - RATE_LIMIT_WINDOW_MS);
  const rows = await db
    .select({ key: loginAttempts.key, n: count() })
    .from(loginAttempts)
    .where(and(inArray(loginAttempts.key, keys.map((k) => k.key)), gt(loginAttempts.createdAt, since)))
    .groupBy(loginAttempts.key);
  for (const { key, limit } of keys) {
    const used = rows.find((r) => r.key === key)?.n ?? 0;
    if (used >= limit) throw new TooManyRequests();
  }
}

export async function recordFailedAttempt(db: DbOrTx, keys: { key: string }[], now: Date) {
  await db.insert(loginAttempts).values(keys.map((k) => ({ key: k.key, createdAt: now })));
  // Keep the table small: rows older than a day say nothing any more.
  await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(now.getTime() - 24 * 3600 * 1000)));
}

export async function clearAttempts(db: DbOrTx, keys: { key: string }[]) {
  await db.delete(loginAttempts).where(inArray(loginAttempts.key, keys.filter((k) => k.key.includes(":email:")).map((k) => k.key)));
}
