import type { NextFunction, Request, Response } from "express";

/** Pages that may use the camera: the door scanner (and the bar, which shares it). */
const CAMERA_PATHS = /^\/vivos\/acreditacion\//;

/**
 * Headers every response carries, whatever produced it (pages, data
 * requests, GraphQL, files): nobody frames us (clickjacking on the money
 * screens), browser features are off except where a page needs them, a
 * popup we open cannot reach back into our window, and over https the
 * browser never tries plain http again. A Content-Security-Policy for
 * scripts (with per-response nonces) is still to come (issue 14).
 */
export function securityHeaders(options: { https: boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader(
      "Permissions-Policy",
      `camera=${CAMERA_PATHS.test(req.path) ? "(self)" : "()"}, microphone=(), geolocation=(), usb=(), serial=(), hid=(), payment=(), interest-cohort=()`,
    );
    // Mercado Pago's checkout may open in a popup: allow popups, but keep them from scripting this window.
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    if (options.https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
