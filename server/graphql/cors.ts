import { getCORSHeadersByRequestAndOptions } from "@whatwg-node/server";

/**
 * Integrators may call from any origin with their tokens in headers, and read refreshed tokens from the
 * response. Never with the browser's cookies: without Access-Control-Allow-Credentials another origin cannot
 * use a signed-in visitor's session (yoga's default would allow it).
 */
export const CORS_OPTIONS = {
  origin: "*",
  credentials: false,
  exposedHeaders: ["x-access-token", "x-refresh-token"],
};

/** The CORS headers yoga's CORS hook adds to a response for `request` (none without Origin), with lower-case names as its Headers write them. */
export function corsHeaders(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  const found = getCORSHeadersByRequestAndOptions(request, CORS_OPTIONS);
  if (found) for (const [name, value] of Object.entries(found)) headers[name.toLowerCase()] = value;
  return headers;
}
