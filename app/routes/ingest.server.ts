import { gunzipSync } from "node:zlib";
import { scrubAnalyticsValue, stripUrlQueries } from "#common/analytics-urls";

/**
 * Same-origin analytics proxy: /ingest/* → POSTHOG_HOST (and /ingest/static/*
 * → PostHog's asset host), so the browser only talks to us. Without
 * POSTHOG_KEY everything here is 404. What goes on carries no URL query but
 * utm_* (common/analytics-urls.ts), whatever the browser sent: the Referer is
 * stripped, and a POST body is decoded (gzip, base64 form or JSON), scrubbed
 * and forwarded as plain JSON; a body that cannot be read is not forwarded.
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

/**
 * A PostHog request body as data: gzip (`compression=gzip-js`), a form with
 * `data=` (base64 with `compression=base64`, else JSON), or JSON text.
 * Undefined when it is none of them (an empty body is `null`).
 */
export function readIngestBody(raw: Buffer, compression: string | null, contentType: string | null): unknown {
  try {
    if (!raw.byteLength) return null;
    let text: string;
    if (compression === "gzip-js" || (raw[0] === 0x1f && raw[1] === 0x8b)) text = gunzipSync(raw, { maxOutputLength: 8 * MAX_INGEST_BYTES }).toString("utf8");
    else text = raw.toString("utf8");
    if ((contentType ?? "").includes("application/x-www-form-urlencoded") || /^data=/.test(text)) {
      const data = new URLSearchParams(text).get("data") ?? "";
      text = compression === "base64" || !/^\s*[[{]/.test(data) ? Buffer.from(data, "base64").toString("utf8") : data;
    }
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
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
    if (value) headers.set(name, name === "referer" ? stripUrlQueries(value) : value);
  }
  if (options.clientIp) headers.set("x-forwarded-for", options.clientIp);

  let body: ArrayBuffer | undefined;
  if (method === "POST") {
    if (Number(request.headers.get("content-length") ?? "0") > MAX_INGEST_BYTES) {
      return new Response("Payload too large", { status: 413 });
    }
    const raw = await request.arrayBuffer();
    if (raw.byteLength > MAX_INGEST_BYTES) return new Response("Payload too large", { status: 413 });
    const events = readIngestBody(Buffer.from(raw), target.searchParams.get("compression"), request.headers.get("content-type"));
    if (events === undefined) return new Response("Bad request", { status: 400 });
    body = new TextEncoder().encode(JSON.stringify(scrubAnalyticsValue(events))).buffer as ArrayBuffer;
    // Sent on as plain JSON: the compression the browser chose no longer applies.
    target.searchParams.delete("compression");
    headers.set("content-type", "application/json");
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
