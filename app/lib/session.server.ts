import { redirect } from "@remix-run/node";
import type { Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { authenticateRequest, clientIp } from "#server/auth/request-auth";
import { CALLBACK_COOKIE, callbackCookie, clearCallbackCookie, clearTokenCookies, parseCookies, tokenCookies } from "#server/auth/cookies";
import type { Tokens } from "#server/auth/sessions";
import { safeReturnPath } from "#server/accounts/sign-in-link";
import { getUserById, toPublicUser } from "#server/accounts/users";
import { admissionFromRequest } from "#server/queue/admission";

export const FORCED_LOGIN_PATH = "/cuenta/iniciar-sesion/email?forcedLogin=true";

/**
 * The domain context for a page request, plus the Set-Cookie headers the
 * response must carry when the tokens were refreshed or went stale.
 */
export async function getRequestContext(request: Request): Promise<{ ctx: Ctx; headers: Headers }> {
  const db = await getDb();
  const now = new Date();
  const auth = await authenticateRequest(db, request, now);
  const headers = new Headers();
  if (auth.refreshed) for (const c of tokenCookies(auth.refreshed)) headers.append("Set-Cookie", c);
  else if (auth.stale && !auth.fromHeaders) for (const c of clearTokenCookies()) headers.append("Set-Cookie", c);
  // The virtual queue's admission, if the browser carries one (its cookie; the domain checks account and event).
  const admission = auth.actor.kind === "user" ? admissionFromRequest(request, now) : undefined;
  return { ctx: { db, actor: auth.actor, now, ip: clientIp(request), ...(admission ? { admission } : {}) }, headers };
}

/** The signed-in user for a page, or a redirect to the forced login saving where they were going. */
export async function requireUser(request: Request) {
  const { ctx, headers } = await getRequestContext(request);
  const user = ctx.actor.kind === "user" ? await getUserById(ctx, ctx.actor.userId) : undefined;
  if (!user) {
    const url = new URL(request.url);
    const out = new Headers(headers);
    out.append("Set-Cookie", callbackCookie(url.pathname + url.search));
    throw redirect(FORCED_LOGIN_PATH, { headers: out });
  }
  return { ctx, headers, user: toPublicUser(user) };
}

/** Where to go after signing in: the saved return path (then forgotten), else home. */
export function consumeReturnPath(request: Request, fallback: string | null = null): { to: string; headers: string[] } {
  const saved = safeReturnPath(parseCookies(request.headers.get("cookie"))[CALLBACK_COOKIE]);
  return { to: saved ?? safeReturnPath(fallback) ?? "/", headers: [clearCallbackCookie()] };
}

/** Redirect after a successful sign-in: sets `at`/`rt`, clears `loggin-callback`. */
export function signedInRedirect(request: Request, tokens: Tokens, options: { fallback?: string | null; flash?: string } = {}) {
  const { to, headers: callbackHeaders } = consumeReturnPath(request, options.fallback ?? null);
  const headers = new Headers();
  for (const c of tokenCookies(tokens)) headers.append("Set-Cookie", c);
  for (const c of callbackHeaders) headers.append("Set-Cookie", c);
  return redirect(to, { headers });
}

export function signedOutHeaders(): Headers {
  const headers = new Headers();
  for (const c of clearTokenCookies()) headers.append("Set-Cookie", c);
  return headers;
}
