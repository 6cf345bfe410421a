import { secureCookies } from "#server/env";
import type { Tokens } from "./sessions";

export const ACCESS_COOKIE = "at";
export const REFRESH_COOKIE = "rt";
export const CALLBACK_COOKIE = "loggin-callback";
export const COOKIE_MAX_AGE_SECONDS = 15 * 24 * 60 * 60;
/** A browser remembered after proving the second factor (decision 133): a random token, stored hashed. */
export const TRUSTED_DEVICE_COOKIE = "dispositivo-2fa";

export function parseCookies(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    const raw = part.slice(index + 1).trim();
    if (!name || name in out) continue;
    try {
      out[name] = decodeURIComponent(raw);
    } catch {
      out[name] = raw;
    }
  }
  return out;
}

export function serializeCookie(
  name: string,
  value: string,
  options: { maxAge?: number; httpOnly?: boolean } = {},
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  const maxAge = options.maxAge ?? COOKIE_MAX_AGE_SECONDS;
  parts.push(`Max-Age=${maxAge}`);
  if (maxAge > 0) parts.push(`Expires=${new Date(Date.now() + maxAge * 1000).toUTCString()}`);
  else parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  if (options.httpOnly !== false) parts.push("HttpOnly");
  if (secureCookies()) parts.push("Secure");
  return parts.join("; ");
}

/** The spec's cookies: `at` and `rt`, path /, 15 days. */
export function tokenCookies(tokens: Tokens): string[] {
  return [serializeCookie(ACCESS_COOKIE, tokens.accessToken), serializeCookie(REFRESH_COOKIE, tokens.refreshToken)];
}

export function clearTokenCookies(): string[] {
  return [serializeCookie(ACCESS_COOKIE, "", { maxAge: 0 }), serializeCookie(REFRESH_COOKIE, "", { maxAge: 0 })];
}

export function callbackCookie(path: string): string {
  return serializeCookie(CALLBACK_COOKIE, path, { maxAge: 60 * 60 });
}

export function clearCallbackCookie(): string {
  return serializeCookie(CALLBACK_COOKIE, "", { maxAge: 0 });
}

/** The remembered-device cookie, for as long as the device is remembered (HttpOnly, Secure in production). */
export function trustedDeviceCookie(token: string, maxAgeSeconds: number): string {
  return serializeCookie(TRUSTED_DEVICE_COOKIE, token, { maxAge: maxAgeSeconds });
}
