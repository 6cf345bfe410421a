import crypto from "node:crypto";
import type { AdmissionGrant } from "#server/context";
import { parseCookies, serializeCookie } from "#server/auth/cookies";
import { safeEqual } from "#server/auth/tokens";
import { authSecret } from "#server/env";

/**
 * The queue's admission (docs/queue.md, decision 188): a short-lived grant,
 * signed with HMAC-SHA256 under a key derived from AUTH_SECRET (its own key:
 * no other token can pass for it), naming the event, the account and the
 * place, and when it ends. Pages carry it in the `admision-fila` cookie;
 * GraphQL needs no cookie: the domain also finds the account's admission in
 * the queue itself.
 */

export const ADMISSION_COOKIE = "admision-fila";

let cachedKey: { secret: string; key: Buffer } | null = null;
function signingKey(): Buffer {
  const secret = authSecret();
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: crypto.createHmac("sha256", secret).update("tribuna:queue-admission").digest() };
  return cachedKey.key;
}

function sign(body: string): string {
  return crypto.createHmac("sha256", signingKey()).update(body).digest("base64url");
}

/** The grant as text: `<payload base64url>.<signature base64url>`. */
export function signAdmission(grant: AdmissionGrant): string {
  const body = Buffer.from(JSON.stringify({ e: grant.eventId, u: grant.userId, p: grant.placeId, x: grant.expiresAt.getTime() })).toString("base64url");
  return `${body}.${sign(body)}`;
}

/** The grant a text carries, when its signature holds and it has not ended at `now`; null otherwise. */
export function verifyAdmission(token: string | null | undefined, now: Date): AdmissionGrant | null {
  if (!token || token.length > 600) return null;
  const dot = token.indexOf(".");
  if (dot <= 0) return null;
  const body = token.slice(0, dot);
  if (!safeEqual(sign(body), token.slice(dot + 1))) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    const { e, u, p, x } = claims;
    if (typeof e !== "string" || typeof u !== "string" || typeof p !== "string" || typeof x !== "number") return null;
    if (x <= now.getTime()) return null;
    return { eventId: e, userId: u, placeId: p, expiresAt: new Date(x) };
  } catch {
    return null;
  }
}

/** The verified grant of a page request's cookie, if any (for the page context). */
export function admissionFromRequest(request: Request, now: Date): AdmissionGrant | undefined {
  return verifyAdmission(parseCookies(request.headers.get("cookie"))[ADMISSION_COOKIE], now) ?? undefined;
}

/** Set-Cookie for a grant: HttpOnly, lasting exactly as long as the admission. */
export function admissionCookieHeader(grant: AdmissionGrant, now: Date = new Date()): string {
  const maxAge = Math.max(1, Math.ceil((grant.expiresAt.getTime() - now.getTime()) / 1000));
  return serializeCookie(ADMISSION_COOKIE, signAdmission(grant), { maxAge });
}
