/**
 * Starts the browser SDK lazily: `sentry.client.ts` is its own chunk, loaded
 * only when the server published a DSN, so buyer pages without Sentry never
 * download it. Kept apart from sentry.ts, which the SDK chunk imports.
 */

export type SentryPublicConfig = { SENTRY_DSN?: string | null; MODE?: string };

type SentryClientModule = typeof import("./sentry.client");
let loading: Promise<SentryClientModule> | null = null;

/** From entry.client: loads and starts the SDK only when a DSN is published. */
export function startSentry(config: SentryPublicConfig | undefined): Promise<SentryClientModule> | null {
  const dsn = config?.SENTRY_DSN;
  if (!dsn) return null;
  if (!loading) {
    loading = import("./sentry.client").then((mod) => {
      mod.initSentryClient({ dsn, environment: config?.MODE ?? "production" });
      return mod;
    });
    loading.catch(() => {
      // Monitoring must never break the page (e.g. the chunk is blocked).
    });
  }
  return loading;
}

/** Reports an error caught by an ErrorBoundary, when Sentry is running. */
export function captureBoundaryError(error: unknown) {
  if (!loading) return;
  loading.then((mod) => mod.captureBoundaryError(error)).catch(() => {});
}

/**
 * Reports a hydration that went wrong (decision 180): `recovered` when React rendered the document again on
 * its own (a mismatch), `client-render` when entry.client had to. Also to the console, where the e2e tests see it.
 */
export function reportHydrationError(error: unknown, outcome: "recovered" | "client-render", componentStack?: string) {
  console.error(`Hidratación (${outcome}):`, error);
  if (!loading) return;
  loading.then((mod) => mod.captureHydrationError(error, outcome, componentStack)).catch(() => {});
}
