import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import { hasControlCharacters } from "#common/control-characters";
import { readAtMost } from "./body-limit";
import { answer, originalUrlOf, pathOf, type Guard } from "./guard";
import { plainPage } from "./plain-page";
import { runWithRequestOrigin } from "./request-origin";

/**
 * Hostile input refused at the door, before Remix, GraphQL or the database
 * see it (docs/threat-model.md): control characters in the URL or a form (PostgreSQL
 * refuses NUL in text, so any field could be made to crash a request), and
 * forms too big to parse cheaply. Each refusal is a Spanish page (or a
 * GraphQL-shaped error under /api/), a 400 or a 413, never a 500.
 */
export const FORM_LIMITS = {
  /** A urlencoded form body; the largest real one (an event with many dates and ticket types) is a few KB. */
  maxBytes: 256 * 1024,
  /** Fields in one form. */
  maxFields: 2_000,
  /** Rows of a repeated group (`dates[199].startsAt`): indexes from 0 to maxRows - 1. */
  maxRows: 200,
} as const;

export interface Refusal {
  status: 400 | 413;
  title: string;
  message: string;
}

const BAD_CHARACTERS: Refusal = {
  status: 400,
  title: "No pudimos leer el pedido",
  message: "El pedido tiene caracteres de control (como el carácter nulo), que no aceptamos en ningún campo ni dirección. Revisá lo que pegaste y probá de nuevo.",
};
const BAD_ADDRESS: Refusal = { status: 400, title: "La dirección no es válida", message: "Revisá el enlace: tiene caracteres que no se pueden leer." };
const TOO_MANY_FIELDS: Refusal = {
  status: 413,
  title: "El formulario es demasiado grande",
  message: `Un formulario puede tener hasta ${FORM_LIMITS.maxFields.toLocaleString("es-AR")} campos.`,
};
const TOO_MANY_ROWS: Refusal = {
  status: 400,
  title: "El formulario tiene demasiadas filas",
  message: `Un formulario puede tener hasta ${FORM_LIMITS.maxRows} filas por grupo (fechas, entradas…).`,
};
const TOO_BIG: Refusal = {
  status: 413,
  title: "El formulario es demasiado grande",
  message: `Un formulario puede pesar hasta ${FORM_LIMITS.maxBytes / 1024} KB.`,
};

/** Why this URL (path and query string) is refused, or null. Under /api/ a query value may hold line breaks (a GraphQL document sent by GET). */
export function urlRefusal(originalUrl: string): Refusal | null {
  const queryAt = originalUrl.indexOf("?");
  const path = queryAt === -1 ? originalUrl : originalUrl.slice(0, queryAt);
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(path);
  } catch {
    return BAD_ADDRESS;
  }
  if (hasControlCharacters(decodedPath)) return BAD_CHARACTERS;
  if (queryAt === -1) return null;
  const multiLine = path.startsWith("/api/");
  for (const [name, value] of new URLSearchParams(originalUrl.slice(queryAt + 1))) {
    if (hasControlCharacters(name) || hasControlCharacters(value, { multiLine })) return BAD_CHARACTERS;
  }
  return null;
}

const ROW_INDEX = /\[(\d+)\]/g;

/**
 * Why these form fields are refused, or null: too many fields, a row index
 * past the limit (a form parser would otherwise build an array that long),
 * or control characters. Line breaks pass here (multi-line fields); the
 * field schemas refuse them in single-line fields, next to the field.
 */
export function formRefusal(entries: Iterable<[string, string]>): Refusal | null {
  let count = 0;
  for (const [name, value] of entries) {
    if (++count > FORM_LIMITS.maxFields) return TOO_MANY_FIELDS;
    for (const match of name.matchAll(ROW_INDEX)) {
      if (match[1].length > 4 || Number(match[1]) >= FORM_LIMITS.maxRows) return TOO_MANY_ROWS;
    }
    if (hasControlCharacters(name) || hasControlCharacters(value, { multiLine: true })) return BAD_CHARACTERS;
  }
  return null;
}

export function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (refusal.status === 413) headers.Connection = "close";
  if (pathOf(originalUrlOf(req)).startsWith("/api/")) {
    const code = refusal.status === 413 ? "PAYLOAD_TOO_LARGE" : "BAD_USER_INPUT";
    headers["Content-Type"] = "application/json; charset=utf-8";
    answer(req, res, refusal.status, headers, JSON.stringify({ errors: [{ message: `${refusal.title}. ${refusal.message}`, extensions: { code } }] }));
  } else {
    headers["Content-Type"] = "text/html; charset=utf-8";
    answer(req, res, refusal.status, headers, plainPage(refusal.title, [refusal.message]));
  }
}

/**
 * The Cookie header without the cookies whose decoded value holds control
 * characters (null when none had any). Header values themselves cannot
 * carry them (Node's parser refuses the request), but a cookie is decoded
 * (`%00`) before the app reads it. Dropping the cookie, instead of
 * refusing the request, keeps a visitor with a damaged cookie browsing.
 */
export function withoutHostileCookies(header: string | undefined): string | null {
  if (!header || !header.includes("%")) return null;
  const pairs = header.split(/;\s*/);
  const kept = pairs.filter((pair) => {
    try {
      return !hasControlCharacters(decodeURIComponent(pair));
    } catch {
      return true; // not percent-encoding: the app's cookie parser leaves it as it is
    }
  });
  return kept.length === pairs.length ? null : kept.join("; ");
}

/** A guard (./guard.ts): every request's path and query string (refused) and cookies (dropped). */
export function refuseHostileRequests(): Guard {
  return (req, res, next) => {
    const refusal = urlRefusal(originalUrlOf(req));
    if (refusal) return refuse(req, res, refusal);
    const cookies = withoutHostileCookies(req.headers.cookie);
    if (cookies !== null) req.headers.cookie = cookies;
    next();
  };
}

const isForm = (req: Request) =>
  req.method !== "GET" && req.method !== "HEAD" && !req.path.startsWith("/api/") && (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");

/** A header's first value (a proxy may have sent several, comma-separated), as Express reads X-Forwarded-*. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const comma = value.indexOf(",");
  return comma === -1 ? value : value.slice(0, comma);
}

/**
 * The URL the browser asked for: scheme and host from the proxy when trusted (as Express's `req.protocol` and
 * `req.hostname` read them under "trust proxy"), port kept. Node's own request is enough (the direct routes'
 * requests have no Express methods); `trustProxy` is Express's "trust proxy" setting when not given.
 */
export function requestUrl(req: IncomingMessage, trustProxy = Boolean((req as Partial<Request>).app?.get("trust proxy"))): string {
  const plain = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const protocol = trustProxy ? (firstValue(req.headers["x-forwarded-proto"]) ?? plain).trim() : plain;
  const forwardedHost = trustProxy ? (req.headers["x-forwarded-host"] as string | undefined) : undefined;
  const hostHeader = forwardedHost ? (forwardedHost.includes(",") ? firstValue(forwardedHost)!.trimEnd() : forwardedHost) : req.headers.host;
  let hostname: string | undefined;
  if (hostHeader) {
    const colon = hostHeader.indexOf(":", hostHeader[0] === "[" ? hostHeader.indexOf("]") + 1 : 0);
    hostname = colon === -1 ? hostHeader : hostHeader.slice(0, colon);
  }
  const host = (req.headers["x-forwarded-host"] as string | undefined) ?? req.headers.host ?? "";
  const port = Number.parseInt(host.split(":")[1] ?? "", 10);
  return `${protocol}://${hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${originalUrlOf(req)}`;
}

function requestHeaders(req: Request): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else if (values) headers.set(key, values);
  }
  return headers;
}

/**
 * A web-standard handler (Remix's request handler, yoga) served by Express:
 * what @remix-run/express does, in a few lines, with urlencoded forms read
 * here first: bounded in size, checked field by field with `formRefusal`,
 * and handed on whole.
 * Multipart forms (images, receipts) are bounded where they are read
 * (app/lib/backoffice.server.ts readForm runs the same `formRefusal`).
 */
export function webRequestHandler(handleRequest: (request: globalThis.Request) => Promise<globalThis.Response>, options: { fixedOrigin?: boolean } = {}) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      let body: BodyInit | undefined;
      if (isForm(req)) {
        if (Number(req.headers["content-length"] ?? 0) > FORM_LIMITS.maxBytes) return refuse(req, res, TOO_BIG);
        const bytes = await readAtMost(req, FORM_LIMITS.maxBytes);
        if (!bytes) return refuse(req, res, TOO_BIG);
        const refusal = formRefusal(new URLSearchParams(bytes.toString("utf8")));
        if (refusal) return refuse(req, res, refusal);
        body = new Uint8Array(bytes);
      } else if (req.method !== "GET" && req.method !== "HEAD") {
        body = createReadableStreamFromReadable(req);
      }
      // Loaders and actions are aborted when the browser goes away before the response is sent.
      const controller = new AbortController();
      let sent = false;
      res.on("finish", () => (sent = true));
      res.on("close", () => sent || controller.abort());
      const request = new Request(requestUrl(req), {
        method: req.method,
        headers: requestHeaders(req),
        signal: controller.signal,
        ...(body ? { body, duplex: "half" } : {}),
      } as RequestInit);
      // Links and redirects built while serving it use the visitor's own origin when APP_URL is not set (decision 114);
      // with APP_URL (`fixedOrigin`) nothing reads it, and no request pays for an AsyncLocalStorage context.
      const response = await (options.fixedOrigin ? handleRequest(request) : runWithRequestOrigin(request.url, () => handleRequest(request)));
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      next(error);
    }
  };
}
