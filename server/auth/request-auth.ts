import type { Actor } from "#server/context";
import { ANONYMOUS } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { ACCESS_COOKIE, REFRESH_COOKIE, TRUSTED_DEVICE_COOKIE, parseCookies } from "./cookies";
import { isSessionActive, rotateRefreshToken, type Tokens } from "./sessions";
import { verifyAccessToken } from "./tokens";

export interface RequestAuth {
  actor: Actor;
  /** New tokens when the request's access token had expired and was refreshed. */
  refreshed?: Tokens;
  /** The request carried tokens that no longer work: the client should drop them. */
  stale: boolean;
  /** Tokens came in headers (API clients) rather than cookies (browsers). */
  fromHeaders: boolean;
}

export function readTokens(request: Request) {
  const cookies = parseCookies(request.headers.get("cookie"));
  const headerAccess = request.headers.get("x-access-token") || null;
  const headerRefresh = request.headers.get("x-refresh-token") || null;
  const fromHeaders = Boolean(headerAccess || headerRefresh);
  return {
    accessToken: headerAccess ?? (fromHeaders ? null : cookies[ACCESS_COOKIE] || null),
    refreshToken: headerRefresh ?? (fromHeaders ? null : cookies[REFRESH_COOKIE] || null),
    fromHeaders,
  };
}

const memo = new WeakMap<Request, Promise<RequestAuth>>();

/**
 * Who is asking: a valid access token of an active session; else a refresh
 * token, rotated once per request (loaders of one request share the result).
 * Any other signed token (an email-verification link, a door session) is not
 * an access token and leaves the caller anonymous (decision 146).
 */
export function authenticateRequest(db: DbOrTx, request: Request, now = new Date()): Promise<RequestAuth> {
  let pending = memo.get(request);
  if (!pending) {
    pending = resolve(db, request, now);
    memo.set(request, pending);
  }
  return pending;
}

/** The remembered-device token the browser sent, as an actor field (only read when a sensitive action asks). */
function deviceOf(request: Request): { deviceToken?: string } {
  const token = parseCookies(request.headers.get("cookie"))[TRUSTED_DEVICE_COOKIE];
  return token ? { deviceToken: token } : {};
}

async function resolve(db: DbOrTx, request: Request, now: Date): Promise<RequestAuth> {
  const { accessToken, refreshToken, fromHeaders } = readTokens(request);
  if (accessToken) {
    // Only an access token (its purpose), and only while its session lives: logout ends it at once.
    const check = await verifyAccessToken(accessToken, now);
    if (check.ok && (await isSessionActive(db, check.claims.sid, now))) {
      return {
        actor: { kind: "user", userId: check.claims.sub, email: check.claims.email, roles: check.claims.roles, sessionId: check.claims.sid, ...deviceOf(request) },
        stale: false,
        fromHeaders,
      };
    }
  }
  if (refreshToken) {
    try {
      const tokens = await rotateRefreshToken(db, refreshToken, now);
      const check = await verifyAccessToken(tokens.accessToken, now);
      if (check.ok) {
        return {
          actor: { kind: "user", userId: check.claims.sub, email: check.claims.email, roles: check.claims.roles, sessionId: check.claims.sid, ...deviceOf(request) },
          refreshed: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
          stale: false,
          fromHeaders,
        };
      }
    } catch {
      // Expired, revoked or reused: the caller is anonymous.
    }
  }
  return { actor: ANONYMOUS, stale: Boolean(accessToken || refreshToken), fromHeaders };
}

/** Set by server.ts from the socket (or the trusted proxy), never taken from the client as is. */
export const CLIENT_IP_HEADER = "x-tribuna-client-ip";

export function clientIp(request: Request): string | undefined {
  return request.headers.get(CLIENT_IP_HEADER) ?? undefined;
}
