import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A guard every request passes (compression, body limit, hostile URLs and
 * cookies, security headers, client address): Connect-style middleware that
 * uses only Node's own request and response, so the same function runs in
 * front of Express's routes (`app.use`) and on a direct route, where requests
 * never get Express's methods (decision 134): giving each GraphQL request
 * Express's prototypes (what Express's init does) cost more CPU than all of
 * yoga's work for `{ __typename }`.
 */
export type Guard = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The path of a Node request URL, as Express's `req.path` gives it (not decoded, no query string). */
export function pathOf(url: string | undefined): string {
  if (!url) return "/";
  const queryAt = url.indexOf("?");
  return queryAt === -1 ? url : url.slice(0, queryAt);
}

/** The URL as it came (Express keeps it as `originalUrl` when it rewrites `url` under a mount path). */
export function originalUrlOf(req: IncomingMessage): string {
  return (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "/";
}

/** A short answer with Node's own methods: status, headers, body (none for HEAD), then any body left unread is drained. */
export function answer(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name]);
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(req.method === "HEAD" ? undefined : body);
  req.resume();
}
