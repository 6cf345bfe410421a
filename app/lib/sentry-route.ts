/**
 * Sentry, the part every page carries (root and the error pages): which
 * route each page is, for the SDK that loads later, and the not-found
 * marker. Nothing of the SDK; the rest of the helpers (DSN, tunnel, event
 * filters) are in sentry.ts, which only the SDK chunk and the server import.
 */
import { useEffect } from "react";
import { useLocation, useMatches } from "@remix-run/react";

/** Route ids that render the "not found" page; their transactions are never sent. */
export const NOT_FOUND_ROUTE_IDS = ["routes/$", "routes/404"] as const;
/** Name given to every transaction that ended on the not-found page (e.g. a thrown 404). */
export const NOT_FOUND_TRANSACTION = "routes/404";
/** Marker on the not-found content, read after render to name the transaction. */
export const NOT_FOUND_MARKER = "data-not-found";

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
