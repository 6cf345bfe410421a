/**
 * The browser SDK. Never imported statically: `startSentry` (app/lib/sentry.ts)
 * loads this chunk only when a DSN is configured, so buyer pages without
 * Sentry do not download it.
 */
import * as Sentry from "@sentry/remix";
import { useEffect } from "react";
import { useLocation, useMatches } from "@remix-run/react";
import {
  beforeSendTransaction,
  onRouteChange,
  SENTRY_REPLAY_OPTIONS,
  SENTRY_SAMPLING,
  SENTRY_TUNNEL_PATH,
  transactionNameFor,
} from "./sentry";
import type { EarlyError } from "./sentry-start";

let started = false;

export function initSentryClient({ dsn, environment }: { dsn: string; environment: string }) {
  if (started) return;
  started = true;
  Sentry.init({
    dsn,
    environment,
    tunnel: SENTRY_TUNNEL_PATH,
    ...SENTRY_SAMPLING,
    integrations: [
      // Page loads are measured by the SDK; navigations are started below, named by Remix route id.
      Sentry.browserTracingIntegration({ useEffect, useLocation, useMatches, instrumentNavigation: false }),
      Sentry.replayIntegration(SENTRY_REPLAY_OPTIONS),
    ],
    beforeSendTransaction,
  });

  onRouteChange((info, initial) => {
    const name = transactionNameFor(info);
    Sentry.getCurrentScope().setTransactionName(name);
    const client = Sentry.getClient();
    const active = Sentry.getActiveSpan();
    const root = active ? Sentry.getRootSpan(active) : undefined;
    if (initial) {
      // The page load span started with the URL; give it the route's name.
      root?.updateName(name);
      root?.setAttribute("sentry.source", "route");
      return;
    }
    root?.end();
    if (client) {
      Sentry.startBrowserTracingNavigationSpan(client, {
        name,
        op: "navigation",
        attributes: { "sentry.source": "route", "sentry.origin": "auto.navigation.remix" },
      });
    }
  });
}

export function captureBoundaryError(error: unknown) {
  Sentry.captureRemixErrorBoundaryError(error);
}

export function captureHydrationError(error: unknown, outcome: "recovered" | "client-render", componentStack?: string) {
  Sentry.captureException(error, { tags: { hydration: outcome }, ...(componentStack ? { contexts: { react: { componentStack } } } : {}) });
}

/**
 * The uncaught errors of the page from before the SDK started (sentry-start.ts keeps them, decision 239), as
 * its own global handlers would have reported them: unhandled, tagged so they can be told apart.
 */
export function captureEarlyErrors(errors: EarlyError[]) {
  for (const { kind, error } of errors) {
    Sentry.withScope((scope) => {
      scope.setTag("before_sdk", "true");
      Sentry.captureException(error, { mechanism: { type: kind === "error" ? "onerror" : "onunhandledrejection", handled: false } });
    });
  }
}
