import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";
import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import { CLIENT_IP_HEADER } from "#server/auth/request-auth";
import { requestUrl } from "./request-guard";
import { runWithRequestOrigin } from "./request-origin";

/**
 * gzip for the clients that ask for it (`compression`). A request that names
 * no encoding at all (curl, many HTTP libraries, load generators) would get
 * the response as it is anyway, so it skips the middleware's wrappers
 * (issue 12: about a fifth of a small GraphQL answer's CPU); its response
 * still says `Vary: Accept-Encoding`, so a cache never hands it to a client
 * that wanted gzip, or the other way round.
 */
export function compress(): RequestHandler {
  const gzip = compression();
  return (req, res, next) => {
    if (req.headers["accept-encoding"] !== undefined) return gzip(req, res, next);
    res.setHeader("Vary", "Accept-Encoding");
    next();
  };
}

/**
 * The client address for rate limits: from the socket, or the proxy when
 * trusted ("trust proxy"). Never the client's own header: it is overwritten
 * on every request. Without a trusted proxy `req.ip` is the socket's
 * address; reading it there skips parsing X-Forwarded-For for nothing.
 */
export function clientAddress(): RequestHandler {
  return (req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = (req.app.get("trust proxy") ? req.ip : req.socket.remoteAddress) ?? "";
    next();
  };
}

/** True for exactly `path`, with or without a query string (Node's `req.url`). Other spellings (a trailing slash, capitals) go the usual way. */
export function isPath(url: string | undefined, path: string): boolean {
  return url !== undefined && url.startsWith(path) && (url.length === path.length || url[path.length] === "?");
}

/**
 * One hot path served from Node's request event, with the same Express
 * middleware in front as every other request but without Express's router
 * (issue 12: GraphQL paid Express's layer walk, its query-string parser and
 * a copy of the request into the Fetch API on every call). The request and
 * response get Express's methods the way Express's own init does (so
 * `req.ip`, `req.protocol` and "trust proxy" mean the same), the middleware
 * run in order, and `handler` gets them when all called `next()`. A
 * middleware that answers (a refusal) ends it there; an error is a bare 500,
 * logged.
 */
export function directRoute(app: Express, middleware: RequestHandler[], handler: (req: Request, res: Response) => unknown) {
  const fail = (res: Response, error: unknown) => {
    console.error(error);
    if (res.headersSent) return res.destroy();
    res.statusCode = 500;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end("Error interno del servidor.");
  };
  return (nodeReq: IncomingMessage, nodeRes: ServerResponse) => {
    Object.setPrototypeOf(nodeReq, app.request);
    Object.setPrototypeOf(nodeRes, app.response);
    const req = nodeReq as Request;
    const res = nodeRes as Response;
    req.res = res;
    res.req = req;
    req.originalUrl = req.url;
    res.locals = Object.create(null);
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error) return fail(res, error);
      const step = middleware[index++];
      try {
        if (step) return step(req, res, next);
        Promise.resolve(handler(req, res)).catch((e) => fail(res, e));
      } catch (e) {
        fail(res, e);
      }
    };
    next();
  };
}

/** A Node request listener (yoga's) run with the visitor's origin for the links it builds, as webRequestHandler does for Remix (decision 114). */
export function withRequestOrigin(listener: (req: IncomingMessage, res: ServerResponse) => unknown) {
  return (req: Request, res: Response) => runWithRequestOrigin(requestUrl(req), () => listener(req, res));
}
