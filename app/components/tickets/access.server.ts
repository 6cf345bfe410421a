import { redirect } from "@remix-run/node";
import { callbackCookie } from "#server/auth/cookies";
import { isDomainError } from "#server/errors";
import { FORCED_LOGIN_PATH } from "#app/lib/session.server";

/**
 * A purchase the request may not read: anonymous without the link's token goes
 * to sign in (and comes back here); anyone else gets a 404 (the purchase is
 * not revealed). Other errors pass through.
 */
export function purchaseAccessError(request: Request, error: unknown, headers: Headers): never {
  if (isDomainError(error) && error.code === "UNAUTHENTICATED") {
    const url = new URL(request.url);
    const out = new Headers(headers);
    out.append("Set-Cookie", callbackCookie(url.pathname + url.search));
    throw redirect(FORCED_LOGIN_PATH, { headers: out });
  }
  if (isDomainError(error) && error.code === "NOT_FOUND") throw new Response("No encontramos la compra.", { status: 404, headers });
  throw error;
}
