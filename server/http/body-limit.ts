import type { Guard } from "./guard";
import { answer } from "./guard";

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
export function bodyLimit(maxBytes = MAX_BODY_BYTES): Guard {
  return (req, res, next) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (Number.isFinite(declared) && declared > maxBytes) {
      return answer(req, res, 413, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" }, "El pedido es demasiado grande.");
    }
    next();
  };
}

/**
 * A body's bytes, or null as soon as it passes `maxBytes`: reading stops
 * there (the caller answers 413 and the connection closes), so a big body
 * is never held whole. Works on a Node request and on a web stream alike.
 */
export async function readAtMost(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A web request's body as text, or null when it says or turns out to be longer than `maxBytes`. */
export async function readTextAtMost(request: globalThis.Request, maxBytes: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return null;
  if (!request.body) return "";
  const bytes = await readAtMost(request.body as unknown as AsyncIterable<Uint8Array>, maxBytes);
  return bytes && bytes.toString("utf8");
}
