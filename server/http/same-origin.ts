import type { NextFunction, Request, Response } from "express";
import { plainPage } from "./plain-page";

/**
 * A form posted from another site (Origin ≠ Host) is refused with a Spanish
 * 403 page before Remix sees it. Remix refuses it too, but by throwing, which
 * a visitor sees as a bare 500 and monitoring counts as our crash. The rule
 * is Remix's own (x-forwarded-host first, then host; a missing, "null" or
 * unreadable Origin that is present counts as foreign). GraphQL (/api/…)
 * has its own rules: integrators call it from other origins with tokens in
 * headers, and yoga's CSRF check covers cookies.
 */
export const FOREIGN_FORM_PAGE = plainPage("No pudimos procesar el formulario", [
  "Por seguridad, solo aceptamos formularios enviados desde las páginas de Tribuna. Si llegaste desde otro sitio, volvé a Tribuna y probá de nuevo desde ahí.",
]);

function requestHost(req: Request): string | undefined {
  const forwarded = req.headers["x-forwarded-host"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
  return first || req.headers.host || undefined;
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

export function refuseForeignForms() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" || req.path.startsWith("/api/")) return next();
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    const host = requestHost(req);
    if (host && origin !== "null" && originHost(origin) === host) return next();
    res.status(403).set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).send(FOREIGN_FORM_PAGE);
    req.resume();
  };
}
