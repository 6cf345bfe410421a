import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCookies } from "#server/auth/cookies";
import { cspNonce, nonceOfPolicy } from "#server/http/csp";
import type { EventCache } from "#server/events/changes";

/**
 * The micro-cache for anonymous public pages (decision 103, docs/scaling.md): one
 * render serves every identical anonymous request for a few seconds, and
 * concurrent misses wait for that one render instead of each rendering.
 *
 * What may be kept is decided by the response, with HTTP's own words: a 200
 * whose Cache-Control says `public` and that sets no cookie (the routes say
 * `public` only for anonymous requests: app/lib/cache.server.ts). What may
 * be served from it is decided by the request: GET or HEAD, and no cookie
 * that changes the page (session, snackbar, saved cart, anything unknown),
 * only the theme and analytics cookies. The key is the URL and the theme.
 * Stock shown from a copy is advisory: the hold decides. A copy never repeats
 * its Content-Security-Policy nonce: each response it serves gets a fresh one
 * in the header and in every script tag.
 */
export interface PageCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  /** Bytes of every copy together (bodies and headers); a page bigger than a tenth of it is never kept. */
  maxBytes?: number;
  now?: () => number;
}

export interface PageCopy {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  expiresAt: number;
  /** The render's nonce and the body cut around each of its occurrences, to serve every copy with a new one. */
  nonce: string | null;
  bodyAroundNonce: Buffer[] | null;
}

/** Cookies that never change the HTML: the theme is part of the key; analytics cookies are read by scripts only. */
const NEUTRAL_COOKIE = /^(theme$|ph_|_ga|_gid$|_fbp$|_fbc$)/;

export class PageCache implements EventCache {
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private keptBytes = 0;
  private readonly now: () => number;
  private readonly entries = new Map<string, PageCopy>();
  private readonly pending = new Map<string, Promise<PageCopy | null>>();

  constructor(options: PageCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 1_000;
    // 1,000 copies of a ~100 kB page would be 100 MB: the bytes bound is the one that holds (decision 195).
    this.maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** The key for a request that may be served a kept copy, or null when it must be rendered for itself. */
  keyFor(request: Request): string | null {
    return keyOf(request.method, new URL(request.url), request.headers.get("cookie"));
  }

  /**
   * A fresh copy for a Node request, before any framework sees it (server.ts
   * serves it straight from Node's request event, decision 134); null when the
   * request must go the usual way (to be rendered, or to fill the cache).
   */
  freshCopyFor(req: IncomingMessage): PageCopy | null {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://pagina.local");
    } catch {
      return null;
    }
    const cookie = req.headers.cookie;
    const key = keyOf(req.method, url, cookie === undefined ? null : cookie);
    const kept = key === null ? undefined : this.entries.get(key);
    return kept && kept.expiresAt > this.now() ? kept : null;
  }

  async handle(request: Request, render: (request: Request) => Promise<Response>): Promise<Response> {
    const key = this.keyFor(request);
    if (key === null) return render(request);
    const kept = this.entries.get(key);
    if (kept && kept.expiresAt > this.now()) {
      return toResponse(kept, "HIT");
    }
    const inFlight = this.pending.get(key);
    if (inFlight) {
      const shared = await inFlight;
      if (shared) {
        return toResponse(shared, "HIT");
      }
      return render(request);
    }
    let settle!: (entry: PageCopy | null) => void;
    this.pending.set(key, new Promise((resolve) => (settle = resolve)));
    try {
      const response = await render(request);
      if (!isKeepable(response)) {
        settle(null);
        return response;
      }
      const body = await response.arrayBuffer();
      const nonce = nonceOfPolicy(response.headers.get("content-security-policy"));
      const entry: PageCopy = {
        status: response.status,
        headers: [...response.headers.entries()],
        body,
        expiresAt: this.now() + this.ttlMs,
        nonce,
        bodyAroundNonce: nonce ? splitAround(Buffer.from(body), Buffer.from(nonce)) : null,
      };
      this.store(key, entry);
      settle(entry);
      return new Response(body, { status: response.status, headers: withCacheState(response.headers, "MISS") });
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      this.pending.delete(key);
    }
  }

  /** Drops every copy (an event changed: its pages, the home and the organization's page all show it). */
  clear(): void {
    this.entries.clear();
    this.keptBytes = 0;
  }

  /** An event changed, through this process or another (server/events/changes.ts): every page may show it. */
  forget(): void {
    this.clear();
  }

  /** Notifications may have been missed: nothing kept can be trusted. */
  forgetAll(): void {
    this.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes the kept copies hold (bodies and headers). */
  get bytes(): number {
    return this.keptBytes;
  }

  private store(key: string, entry: PageCopy) {
    const bytes = bytesOf(entry);
    this.delete(key);
    if (bytes > this.maxBytes / 10) return;
    // Expired copies go first, then the oldest (Map keeps insertion order): bounded in count and bytes, never a leak.
    const now = this.now();
    for (const [kept, copy] of this.entries) if (copy.expiresAt <= now) this.delete(kept);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < this.maxEntries && this.keptBytes + bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
    this.entries.set(key, entry);
    this.keptBytes += bytes;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.keptBytes -= bytesOf(entry);
  }
}

/** A copy's size: its body (the nonce cuts are views of the same bytes) and its headers. */
function bytesOf(entry: PageCopy): number {
  return entry.body.byteLength + entry.headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
}

function keyOf(method: string, url: URL, cookieHeader: string | null): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  if (url.pathname.startsWith("/api/")) return null;
  const cookies = parseCookies(cookieHeader);
  if (Object.keys(cookies).some((name) => !NEUTRAL_COOKIE.test(name))) return null;
  return `${cookies.theme ?? ""} ${method} ${url.pathname}${url.search}`;
}

function isKeepable(response: Response): boolean {
  if (response.status !== 200 || response.headers.has("set-cookie")) return false;
  const cacheControl = response.headers.get("cache-control") ?? "";
  return /\bpublic\b/.test(cacheControl) && !/\b(no-store|private)\b/.test(cacheControl);
}

function withCacheState(source: Headers | [string, string][], state: "HIT" | "MISS"): Headers {
  const headers = new Headers(source);
  headers.set("X-Cache", state);
  return headers;
}

/** A copy's headers and body with a nonce of its own (never the render's, never another visitor's). */
function freshCopy(entry: PageCopy, state: "HIT" | "MISS"): { headers: Headers; body: Buffer | ArrayBuffer } {
  const headers = withCacheState(entry.headers, state);
  if (!entry.nonce || !entry.bodyAroundNonce) return { headers, body: entry.body };
  const fresh = cspNonce();
  headers.set("Content-Security-Policy", (headers.get("Content-Security-Policy") ?? "").replaceAll(entry.nonce, fresh));
  const parts: Buffer[] = [];
  const freshBytes = Buffer.from(fresh);
  entry.bodyAroundNonce.forEach((part, index) => {
    if (index > 0) parts.push(freshBytes);
    parts.push(part);
  });
  return { headers, body: Buffer.concat(parts) };
}

function toResponse(entry: PageCopy, state: "HIT" | "MISS"): Response {
  const { headers, body } = freshCopy(entry, state);
  return new Response(body as ArrayBuffer, { status: entry.status, headers });
}

/** A kept copy written straight to Node's response (a HEAD gets the headers only). */
export function writeCopy(entry: PageCopy, method: string | undefined, res: ServerResponse): void {
  const { headers, body } = freshCopy(entry, "HIT");
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  // A kept copy never sets a cookie (isKeepable), so every header is one value.
  for (const [name, value] of headers) res.setHeader(name, value);
  res.setHeader("Content-Length", bytes.length);
  res.writeHead(entry.status);
  res.end(method === "HEAD" ? undefined : bytes);
}

function splitAround(body: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(separator, start); at !== -1; at = body.indexOf(separator, start)) {
    parts.push(body.subarray(start, at));
    start = at + separator.length;
  }
  parts.push(body.subarray(start));
  return parts;
}
