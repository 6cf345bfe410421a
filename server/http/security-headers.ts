import type { ServerResponse } from "node:http";
import { pathOf, type Guard } from "./guard";

/** Pages that may use the camera: the door scanner (and the bar, which shares it). */
const CAMERA_PATHS = /^\/vivos\/acreditacion\//;

/**
 * Headers every response carries, whatever produced it (pages, data
 * requests, GraphQL, files): nobody frames us (clickjacking on the money
 * screens), browser features are off except where a page needs them, a
 * popup we open cannot reach back into our window, and over https the
 * browser never tries plain http again. HTML pages replace the
 * frame-ancestors-only policy with the full one, nonce included
 * (server/http/csp.ts).
 *
 * A response's own value of one of these wins (a receipt's stricter CSP,
 * Remix's nosniff). Express's routes append their headers (Remix's adapter,
 * server/http/request-guard.ts), so there ours are set at the last moment,
 * where the response has none, from a wrapper around writeHead. Behind a
 * direct route (`setUpFront`: yoga's Node adapter, a page copy) every handler
 * *sets* its headers, which replaces ours: they are set before the handler
 * runs, without the wrapper (decision 134: an own writeHead on every response
 * cost ~13 µs of CPU per GraphQL request, about an eighth of `{ __typename }`).
 */
export function securityHeaders(options: { https: boolean; setUpFront?: boolean }): Guard {
  // Two fixed lists, built once (not per request): the door screens may use the camera, nothing else may.
  const defaults = (camera: boolean): [string, string][] => [
    ["X-Frame-Options", "DENY"],
    ["Content-Security-Policy", "frame-ancestors 'none'"],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Permissions-Policy", `camera=${camera ? "(self)" : "()"}, microphone=(), geolocation=(), usb=(), serial=(), hid=(), payment=(), interest-cohort=()`],
    // Mercado Pago's checkout may open in a popup: allow popups, but keep them from scripting this window.
    ["Cross-Origin-Opener-Policy", "same-origin-allow-popups"],
    ...(options.https ? [["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as [string, string]] : []),
  ];
  const withCamera = defaults(true);
  const withoutCamera = defaults(false);
  if (options.setUpFront) {
    return (req, res, next) => {
      for (const [name, value] of CAMERA_PATHS.test(pathOf(req.url)) ? withCamera : withoutCamera) res.setHeader(name, value);
      next();
    };
  }
  return (req, res, next) => {
    const headers = CAMERA_PATHS.test(pathOf(req.url)) ? withCamera : withoutCamera;
    // Set when the headers go out, and only where the response did not set its own (a route's stricter
    // CSP for a receipt, Remix's nosniff on pages): Remix appends its headers, so setting them here first
    // would send two values.
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      for (const [name, value] of headers) if (!res.hasHeader(name)) res.setHeader(name, value);
      return writeHead.apply(this, args);
    } as ServerResponse["writeHead"];
    next();
  };
}
