/**
 * Sentry, the part every page carries: tiny and without the SDK. The SDK
 * (`sentry.client.ts`) is imported lazily, and only when the server published
 * a DSN (root data `env.SENTRY_DSN`, mirrored into `window.__ENV`). Without a
 * DSN nothing of Sentry is downloaded or initialised.
 */
import { useEffect } from "react";
import { useLocation, useMatches } from "@remix-run/react";

/** Same-origin tunnel (app/routes/monitoring.ts): reports survive ad blockers. */
export const SENTRY_TUNNEL_PATH = "/monitoring";

/** The spec's monitoring: every trace, replay on every error and on 10 % of sessions. */
export const SENTRY_SAMPLING = {
  tracesSampleRate: 1.0,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const;

/** All text masked and all media blocked in replays. */
export const SENTRY_REPLAY_OPTIONS = { maskAllText: true, blockAllMedia: true } as const;

/** Route ids that render the "not found" page; their transactions are never sent. */
export const NOT_FOUND_ROUTE_IDS = ["routes/$", "routes/404"] as const;
/** Name given to every transaction that ended on the not-found page (e.g. a thrown 404). */
export const NOT_FOUND_TRANSACTION = "routes/404";
/** Marker on the not-found content, read after render to name the transaction. */
export const NOT_FOUND_MARKER = "data-not-found";

type TransactionLike = {
  transaction?: string;
  contexts?: {
    trace?: { data?: Record<string, unknown> };
    response?: { status_code?: number };
  };
};

/** True for transactions of the 404 route (client: by route name; server: by response status). */
export function isNotFoundTransaction(event: TransactionLike): boolean {
  const name = event.transaction ?? "";
  if ((NOT_FOUND_ROUTE_IDS as readonly string[]).includes(name) || name === NOT_FOUND_TRANSACTION) return true;
  if (name === "/404" || name.endsWith(" /404")) return true;
  const data = event.contexts?.trace?.data ?? {};
  const status = data["http.response.status_code"] ?? data["http.status_code"] ?? event.contexts?.response?.status_code;
  return Number(status) === 404;
}

/** `beforeSendTransaction` for both SDKs: drops the 404 route's transactions. */
export function beforeSendTransaction<T extends TransactionLike>(event: T): T | null {
  return isNotFoundTransaction(event) ? null : event;
}

/** The part of a DSN the tunnel needs: `https://KEY@HOST[/PATH]/PROJECT`. */
export type ParsedDsn = { origin: string; host: string; pathPrefix: string; projectId: string; publicKey: string };

export function parseDsn(dsn: string | null | undefined): ParsedDsn | null {
  if (!dsn) return null;
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const segments = url.pathname.split("/").filter(Boolean);
  const projectId = segments.pop();
  if (!projectId || !/^\d+$/.test(projectId) || !url.username) return null;
  return {
    origin: url.origin,
    host: url.host,
    pathPrefix: segments.length ? `/${segments.join("/")}` : "",
    projectId,
    publicKey: decodeURIComponent(url.username),
  };
}

/** Where Sentry accepts envelopes for a DSN. */
export function envelopeEndpoint(dsn: ParsedDsn): string {
  return `${dsn.origin}${dsn.pathPrefix}/api/${dsn.projectId}/envelope/`;
}

// ── Route tracking: the lazily loaded SDK learns which route each page is ──

export type RouteInfo = { routeId: string; pathname: string; notFound: boolean };
type Listener = (info: RouteInfo, initial: boolean) => void;

let currentRoute: RouteInfo | null = null;
let listener: Listener | null = null;

export function transactionNameFor(info: RouteInfo): string {
  return info.notFound ? NOT_FOUND_TRANSACTION : info.routeId;
}

/** Called by the SDK module once initialised; receives the current route at once. */
export function onRouteChange(fn: Listener) {
  listener = fn;
  if (currentRoute) fn(currentRoute, true);
}

function reportRoute(info: RouteInfo) {
  currentRoute = info;
  listener?.(info, false);
}

/** Used once in root's Layout: reports every committed location to Sentry (no-op without Sentry). */
export function useSentryRouteReporting() {
  const location = useLocation();
  const matches = useMatches();
  const leaf = matches[matches.length - 1]?.id ?? "root";
  useEffect(() => {
    const notFound =
      (NOT_FOUND_ROUTE_IDS as readonly string[]).includes(leaf) || document.querySelector(`[${NOT_FOUND_MARKER}]`) !== null;
    reportRoute({ routeId: leaf, pathname: location.pathname, notFound });
    // The location key changes on every navigation, even to the same URL.
  }, [location.key, location.pathname, leaf]);
}
