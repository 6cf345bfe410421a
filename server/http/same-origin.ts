import type { NextFunction, Request, Response } from "express";

/**
 * A form posted from another site (Origin ≠ Host) is refused with a Spanish
 * 403 page before Remix sees it. Remix refuses it too, but by throwing, which
 * a visitor sees as a bare 500 and monitoring counts as our crash. The rule
 * is Remix's own (x-forwarded-host first, then host; a missing, "null" or
 * unreadable Origin that is present counts as foreign). GraphQL (/api/…)
 * has its own rules: integrators call it from other origins with tokens in
 * headers, and yoga's CSRF check covers cookies.
 */
export const FOREIGN_FORM_PAGE = `<!doctype html>
<html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Formulario rechazado · Tribuna</title>
<style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#0b1416;color:#e7f3f3}main{max-width:32rem;padding:2rem}a{color:#5eead4}@media (prefers-color-scheme: light){body{background:#f6fbfb;color:#0b1416}a{color:#0f766e}}</style>
</head><body><main>
<h1>No pudimos procesar el formulario</h1>
<p>Por seguridad, solo aceptamos formularios enviados desde las páginas de Tribuna. Si llegaste desde otro sitio, volvé a Tribuna y probá de nuevo desde ahí.</p>
<p><a href="/">Ir al inicio</a></p>
</main></body></html>`;

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
