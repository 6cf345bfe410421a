import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { action, loader } from "#app/routes/api.graphql";
import { CLIENT_IP_HEADER } from "#server/auth/request-auth";

/**
 * Calls /api/graphql the way a client does: a real `Request` handed to the
 * Remix resource route (loader for GET, action for POST), a real `Response`
 * back. Nothing of ours is mocked.
 */
export const GRAPHQL_URL = "http://localhost/api/graphql";

export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; fieldErrors?: Record<string, string[]>; [key: string]: unknown };
}

export interface GraphQLBody<T> {
  data?: T | null;
  errors?: GraphQLErrorBody[];
}

export interface TokenPair {
  accessToken?: string | null;
  refreshToken?: string | null;
}

export interface GqlOptions {
  variables?: Record<string, unknown>;
  operationName?: string;
  /** Sent as x-access-token / x-refresh-token (API clients). */
  tokens?: TokenPair;
  /** Sent as the `at` / `rt` cookies (browsers). */
  cookies?: TokenPair;
  /** The client address server.ts would set from the socket. */
  ip?: string;
  headers?: Record<string, string>;
}

export interface GqlResult<T> {
  status: number;
  headers: Headers;
  body: GraphQLBody<T>;
  /** Set-Cookie lines of the response. */
  setCookies: string[];
  /** Tokens the response handed back in x-access-token / x-refresh-token, if any. */
  issued: { accessToken: string | null; refreshToken: string | null };
}

export function cookieHeader(tokens: TokenPair): string {
  const parts: string[] = [];
  if (tokens.accessToken) parts.push(`at=${encodeURIComponent(tokens.accessToken)}`);
  if (tokens.refreshToken) parts.push(`rt=${encodeURIComponent(tokens.refreshToken)}`);
  return parts.join("; ");
}

function requestHeaders(options: GqlOptions, contentType: string | null): Headers {
  const headers = new Headers(options.headers);
  if (contentType) headers.set("content-type", contentType);
  if (!headers.has("accept")) headers.set("accept", "application/graphql-response+json, application/json");
  if (options.tokens?.accessToken) headers.set("x-access-token", options.tokens.accessToken);
  if (options.tokens?.refreshToken) headers.set("x-refresh-token", options.tokens.refreshToken);
  if (options.cookies) headers.set("cookie", cookieHeader(options.cookies));
  if (options.ip) headers.set(CLIENT_IP_HEADER, options.ip);
  return headers;
}

/** Sends any request to the route and reads the answer. */
export async function send<T = Record<string, unknown>>(request: Request): Promise<GqlResult<T>> {
  const args = { request, params: {}, context: {} };
  const response =
    request.method === "GET" ? await loader(args as LoaderFunctionArgs) : await action(args as ActionFunctionArgs);
  const text = await response.text();
  let body: GraphQLBody<T> = {};
  try {
    body = JSON.parse(text) as GraphQLBody<T>;
  } catch {
    body = { errors: [{ message: text }] };
  }
  return {
    status: response.status,
    headers: response.headers,
    body,
    setCookies: response.headers.getSetCookie(),
    issued: {
      accessToken: response.headers.get("x-access-token"),
      refreshToken: response.headers.get("x-refresh-token"),
    },
  };
}

/** A JSON POST, as the app's client and integrators send it. */
export function gql<T = Record<string, unknown>>(query: string, options: GqlOptions = {}): Promise<GqlResult<T>> {
  const request = new Request(GRAPHQL_URL, {
    method: "POST",
    headers: requestHeaders(options, "application/json"),
    body: JSON.stringify({ query, variables: options.variables, operationName: options.operationName }),
  });
  return send<T>(request);
}

/** A POST with a body of any type (forms, multipart, text): for the CSRF rule. */
export function postRaw<T = Record<string, unknown>>(
  body: BodyInit,
  options: GqlOptions & { contentType?: string | null } = {},
): Promise<GqlResult<T>> {
  const headers = requestHeaders(options, options.contentType ?? null);
  return send<T>(new Request(GRAPHQL_URL, { method: "POST", headers, body }));
}

/** A GET with the query in the URL. */
export function gqlGet<T = Record<string, unknown>>(query: string, options: GqlOptions = {}): Promise<GqlResult<T>> {
  const url = new URL(GRAPHQL_URL);
  url.searchParams.set("query", query);
  if (options.variables) url.searchParams.set("variables", JSON.stringify(options.variables));
  return send<T>(new Request(url, { method: "GET", headers: requestHeaders(options, null) }));
}

/** The first error's extension code, the way a client decides what to do. */
export function errorCode(result: GqlResult<unknown>): string | undefined {
  return result.body.errors?.[0]?.extensions?.code;
}

/** The value of one cookie set by the response ("" when it is being cleared). */
export function setCookieValue(result: GqlResult<unknown>, name: string): string | undefined {
  const line = result.setCookies.find((c) => c.startsWith(`${name}=`));
  if (line === undefined) return undefined;
  return decodeURIComponent(line.slice(name.length + 1).split(";")[0]);
}
