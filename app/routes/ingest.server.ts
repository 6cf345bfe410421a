/**
 * Same-origin analytics proxy: /ingest/* → POSTHOG_HOST (and /ingest/static/*
 * → PostHog's asset host), so the browser only talks to us. Without
 * POSTHOG_KEY everything here is 404.
 */

export const INGEST_PREFIX = "/ingest";
export const MAX_INGEST_BYTES = 2 * 1024 * 1024;

/** Request headers worth passing on; cookies and our own auth never leave. */
const FORWARDED_REQUEST_HEADERS = ["accept", "accept-language", "content-type", "user-agent", "origin", "referer"];
/** Response headers worth passing back. */
const FORWARDED_RESPONSE_HEADERS = ["content-type", "cache-control", "etag", "last-modified", "vary", "access-control-allow-origin"];

/** PostHog Cloud serves its library from `<region>-assets.i.posthog.com`; a self-hosted instance from itself. */
export function assetHostFor(apiHost: string): string {
  const url = new URL(apiHost);
  url.hostname = url.hostname.replace(/\.i\.posthog\.com$/, "-assets.i.posthog.com");
  return url.origin;
}

/**
 * The upstream URL for a splat path and query. The origin is always the
 * configured one: the path is only ever appended to it, never parsed as a URL.
 */
export function upstreamUrl(apiHost: string, splat: string, search: string): URL | null {
  const path = splat.replace(/^\/+/, "");
  if (path.split("/").some((segment) => segment === ".." || segment === ".")) return null;
  const origin = path.startsWith("static/") ? assetHostFor(apiHost) : new URL(apiHost).origin;
  const url = new URL(origin);
  url.pathname = `/${path}`;
  url.search = search;
  return url.origin === origin ? url : null;
}

type Config = { POSTHOG_KEY?: string | null; POSTHOG_HOST: string };

export async function proxyIngest(
  request: Request,
  splat: string,
  config: Config,
  options: { clientIp?: string; fetchImpl?: typeof fetch } = {},
): Promise<Response> {
  if (!config.POSTHOG_KEY) return new Response("Not found", { status: 404 });
  const incoming = new URL(request.url);
  const target = upstreamUrl(config.POSTHOG_HOST, splat, incoming.search);
  if (!target) return new Response("Bad request", { status: 400 });

  const method = request.method.toUpperCase();
  if (!["GET", "HEAD", "POST", "OPTIONS"].includes(method)) {
    return new Response("Method not allowed", { status: 405, headers: { Allow: "GET, HEAD, POST, OPTIONS" } });
  }

  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (options.clientIp) headers.set("x-forwarded-for", options.clientIp);

  let body: ArrayBuffer | undefined;
  if (method === "POST") {
    if (Number(request.headers.get("content-length") ?? "0") > MAX_INGEST_BYTES) {
      return new Response("Payload too large", { status: 413 });
    }
    body = await request.arrayBuffer();
    if (body.byteLength > MAX_INGEST_BYTES) return new Response("Payload too large", { status: 413 });
  }

  let upstream: Response;
  try {
    upstream = await (options.fetchImpl ?? fetch)(target, { method, headers, body, redirect: "manual" });
  } catch {
    return new Response("Upstream unavailable", { status: 502 });
  }
  const out = new Headers();
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value) out.set(name, value);
  }
  // fetch already decoded the body: no content-encoding or length from upstream.
  return new Response(method === "HEAD" ? null : upstream.body, { status: upstream.status, headers: out });
}
