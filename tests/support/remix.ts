import { CLIENT_IP_HEADER } from "#server/auth/request-auth";

/**
 * Calling Remix loaders and actions the way the server does: a real Request
 * in, whatever they return or throw (redirect Response, `data()`, plain
 * object) normalised into status, headers, cookies set and data.
 */
export const BASE_URL = "http://localhost:3000";

type Cookies = Record<string, string | undefined | null>;

function cookieHeader(cookies: Cookies = {}): string {
  return Object.entries(cookies)
    .filter(([, value]) => value != null)
    // As a browser does: the value goes back exactly as the server set it.
    .map(([name, value]) => `${name}=${String(value)}`)
    .join("; ");
}

export function getRequest(path: string, options: { cookies?: Cookies; ip?: string; headers?: HeadersInit } = {}) {
  const headers = new Headers(options.headers);
  const cookie = cookieHeader(options.cookies);
  if (cookie) headers.set("cookie", cookie);
  headers.set(CLIENT_IP_HEADER, options.ip ?? "198.51.100.10");
  return new Request(new URL(path, BASE_URL), { headers });
}

/** A POST of an HTML form (application/x-www-form-urlencoded), as a browser without JavaScript sends it. */
export function formRequest(path: string, fields: Record<string, string>, options: { cookies?: Cookies; ip?: string } = {}) {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  const cookie = cookieHeader(options.cookies);
  if (cookie) headers.set("cookie", cookie);
  headers.set(CLIENT_IP_HEADER, options.ip ?? "198.51.100.10");
  return new Request(new URL(path, BASE_URL), { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}

export interface SetCookie {
  /** Decoded, for assertions. */
  value: string;
  /** As sent in Set-Cookie, what the browser sends back. */
  raw: string;
  maxAge: number | null;
  attributes: string[];
}

export interface RouteResult<T = any> {
  status: number;
  headers: Headers;
  /** Location of a redirect, or null. */
  location: string | null;
  /** Cookies the response sets (the last one wins for repeated names, as in a browser). */
  cookies: Record<string, SetCookie>;
  data: T;
}

export function parseSetCookies(headers: Headers): Record<string, SetCookie> {
  const out: Record<string, SetCookie> = {};
  for (const line of headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const index = pair.indexOf("=");
    const name = pair.slice(0, index);
    const maxAge = attributes.find((a) => a.toLowerCase().startsWith("max-age="));
    const raw = pair.slice(index + 1);
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not URI-encoded: keep it as is.
    }
    out[name] = {
      value,
      raw,
      maxAge: maxAge ? Number(maxAge.split("=")[1]) : null,
      attributes,
    };
  }
  return out;
}

function normalise(value: unknown): RouteResult {
  if (value instanceof Response) {
    return {
      status: value.status,
      headers: value.headers,
      location: value.headers.get("location"),
      cookies: parseSetCookies(value.headers),
      data: null,
    };
  }
  if (value && typeof value === "object" && (value as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: unknown; init: ResponseInit | null };
    const headers = new Headers(init?.headers);
    return { status: init?.status ?? 200, headers, location: null, cookies: parseSetCookies(headers), data };
  }
  return { status: 200, headers: new Headers(), location: null, cookies: {}, data: value };
}

/** Runs a loader or an action; a thrown Response or `data()` (redirect, 404), as Remix renders it, is a result too. */
export async function run<T = any>(fn: (args: any) => unknown, request: Request, params: Record<string, string> = {}): Promise<RouteResult<T>> {
  try {
    return normalise(await fn({ request, params, context: {} })) as RouteResult<T>;
  } catch (error) {
    if (error instanceof Response) return normalise(error) as RouteResult<T>;
    if (error && typeof error === "object" && (error as { type?: string }).type === "DataWithResponseInit") return normalise(error) as RouteResult<T>;
    throw error;
  }
}

/** The cookies a browser would send next, after this response (cleared ones dropped). */
export function cookiesAfter(result: RouteResult, before: Cookies = {}): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const [name, value] of Object.entries(before)) if (value != null) jar[name] = String(value);
  for (const [name, cookie] of Object.entries(result.cookies)) {
    if (cookie.maxAge !== null && cookie.maxAge <= 0) delete jar[name];
    else jar[name] = cookie.raw;
  }
  return jar;
}
