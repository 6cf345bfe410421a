import type { NextFunction, Request, Response } from "express";

/**
 * Largest request body the app accepts: a 5 MB transfer receipt or a 2 MB
 * event image plus the rest of its form, with room to spare. Everything else
 * (forms, GraphQL) is far smaller.
 */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Refuses, before anything reads it, a request whose declared body is bigger
 * than `maxBytes` (413), so nobody can make the server buffer a huge GraphQL
 * or form body. Uploads are also cut per part where they are read; this is
 * the limit for the whole request.
 */
export function bodyLimit(maxBytes = MAX_BODY_BYTES) {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.status(413).set({ "Content-Type": "text/plain; charset=utf-8", Connection: "close" }).send("El pedido es demasiado grande.");
      req.resume();
      return;
    }
    next();
  };
}
