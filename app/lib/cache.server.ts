import { parseCookies } from "#server/auth/cookies";

/**
 * Public buyer pages (home, organization page, organizer landing) may be
 * cached by the browser and a CDN, but only the anonymous version: a request
 * with session cookies (`at`, `rt`) or a pending snackbar (`flash`) gets a
 * page with Set-Cookie or personal data that no cache may keep.
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=30, stale-while-revalidate=300";
const PERSONAL_COOKIES = ["at", "rt", "flash"];

export function isAnonymousRequest(request: Request): boolean {
  const cookies = parseCookies(request.headers.get("cookie"));
  return !PERSONAL_COOKIES.some((name) => name in cookies);
}

/**
 * Adds the cache headers to a loader's headers: public for anonymous
 * requests whose response sets no cookie, otherwise private and not stored.
 * `Vary: Cookie` because the theme cookie changes the HTML.
 */
export function applyPublicCache(request: Request, headers: Headers): Headers {
  const cacheable = isAnonymousRequest(request) && !headers.has("Set-Cookie");
  headers.set("Cache-Control", cacheable ? PUBLIC_CACHE_CONTROL : "private, no-store");
  headers.set("Vary", "Cookie");
  return headers;
}

/** For a route's `headers` export: pass the loader's cache headers on to the document and data responses. */
export function cacheHeadersFrom(loaderHeaders: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  const cacheControl = loaderHeaders.get("Cache-Control");
  const vary = loaderHeaders.get("Vary");
  if (cacheControl) out["Cache-Control"] = cacheControl;
  if (vary) out.Vary = vary;
  return out;
}
