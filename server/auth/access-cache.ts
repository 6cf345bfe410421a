import crypto from "node:crypto";
import { verifyAccessToken, type AccessClaims, type AccessTokenCheck } from "./tokens";

/**
 * Access tokens already verified by this process, until they expire (decision 197): checking an HS256
 * signature through jose costs tens of microseconds, more than everything else the queue's poll does. The
 * token is keyed by its SHA-256 (never kept as it came), only good tokens are kept, and the cache is
 * bounded by count (the oldest go first). Whether the session still lives is asked separately, every time
 * (./session-cache.ts): a token remembered here is worth nothing once its session ends.
 */
const MAX_ENTRIES = 50_000;
const verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();

export async function verifyAccessTokenCached(token: string, now: Date): Promise<AccessTokenCheck> {
  const key = crypto.createHash("sha256").update(token).digest("base64url");
  const known = verified.get(key);
  if (known && known.expiresAt > now.getTime()) return { ok: true, claims: known.claims };
  if (known) verified.delete(key);
  const check = await verifyAccessToken(token, now);
  if (check.ok) {
    const exp = (JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as { exp?: number }).exp;
    if (typeof exp === "number") {
      verified.set(key, { claims: check.claims, expiresAt: exp * 1000 });
      if (verified.size > MAX_ENTRIES) verified.delete(verified.keys().next().value!);
    }
  }
  return check;
}
