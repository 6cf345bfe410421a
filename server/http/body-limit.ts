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

/**
 * A request's body as text, or null when it is (or says it is) longer than
 * `maxBytes`: reading stops there, so a big body is never held whole.
 */
export async function readTextAtMost(request: globalThis.Request, maxBytes: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
