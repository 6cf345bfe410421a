import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";
import { CLIENT_IP_HEADER } from "#server/auth/request-auth";
import type { Guard } from "./guard";
import { requestUrl } from "./request-guard";
import { runWithRequestOrigin } from "./request-origin";

/**
 * gzip for the clients that ask for it (`compression`). A request that names
 * no encoding at all (curl, many HTTP libraries, load generators) would get
 * the response as it is anyway, so it skips the middleware's wrappers
 * (about a fifth of a small GraphQL answer's CPU, decision 134); its response
 * still says `Vary: Accept-Encoding`, so a cache never hands it to a client
 * that wanted gzip, or the other way round.
 */
export function compress(): Guard {
  const gzip = compression() as unknown as Guard;
  return (req, res, next) => {
    if (req.headers["accept-encoding"] !== undefined) return gzip(req, res, next);
    res.setHeader("Vary", "Accept-Encoding");
    next();
  };
}

/**
 * The address a trusting Express gives as `req.ip` ("trust proxy" true): the
 * furthest one in X-Forwarded-For (its first entry), else the socket's.
 */
export function forwardedClient(req: IncomingMessage): string | undefined {
  // Node joins repeated X-Forwarded-For lines into one value, with commas.
  const header = req.headers["x-forwarded-for"] as string | undefined;
  if (header) {
    for (const entry of header.split(",")) {
      const address = entry.replace(/^ +| +$/g, "");
      if (address) return address;
    }
  }
  return req.socket.remoteAddress;
}

/**
 * The client address for rate limits: from the socket, or from the proxy
 * when it is trusted (TRUST_PROXY, the same setting as Express's "trust
 * proxy"). Never the client's own header: it is overwritten on every request.
 */
export function clientAddress(options: { trustProxy: boolean }): Guard {
  return (req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = (options.trustProxy ? forwardedClient(req) : req.socket.remoteAddress) ?? "";
    next();
  };
}

/** True for exactly `path`, with or without a query string (Node's `req.url`). Other spellings (a trailing slash, capitals) go the usual way. */
export function isPath(url: string | undefined, path: string): boolean {
  return url !== undefined && url.startsWith(path) && (url.length === path.length || url[path.length] === "?");
}

/**
 * One hot path served from Node's request event, with the same guards in
 * front as every other request but without Express (decision 129: GraphQL paid
 * Express's layer walk, its query-string parser and a copy of the request
 * into the Fetch API on every call). The guards run in order on Node's own
 * request and response (./guard.ts: giving them Express's prototypes, as
 * Express does, cost more than yoga itself), and `handler` gets them when all
 * called `next()`. A guard that answers (a refusal) ends it there; an error is
 * a bare 500, logged.
 */
export function directRoute(guards: Guard[], handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const fail = (res: ServerResponse, error: unknown) => {
    console.error(error);
    if (res.headersSent) return res.destroy();
    res.statusCode = 500;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end("Error interno del servidor.");
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    let index = 0;
    const next = (error?: unknown) => {
      if (error) return fail(res, error);
      const guard = guards[index++];
      try {
        if (guard) return guard(req, res, next);
        Promise.resolve(handler(req, res)).catch((e) => fail(res, e));
      } catch (e) {
        fail(res, e);
      }
    };
    next();
  };
}

/**
 * A Node request listener (yoga's) run with the visitor's origin for the links it builds, as webRequestHandler
 * does for Remix (decision 114). With APP_URL set (`fixedOrigin`) links never read that origin (server/env.ts
 * `appUrl`), so the listener runs as it is: no URL to build and parse per request.
 */
export function withRequestOrigin(listener: (req: IncomingMessage, res: ServerResponse) => unknown, options: { trustProxy: boolean; fixedOrigin?: boolean }) {
  if (options.fixedOrigin) return listener;
  return (req: IncomingMessage, res: ServerResponse) => runWithRequestOrigin(requestUrl(req, options.trustProxy), () => listener(req, res));
}
