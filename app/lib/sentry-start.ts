/**
 * Starts the browser SDK lazily and late: `sentry.client.ts` is its own chunk, loaded only when the server
 * published a DSN (buyer pages without Sentry never download it), and only once the page is interactive: after
 * the `load` event, React's hydration and an idle moment of the main thread (`afterHydrationOnIdle`), so its
 * ~70 kB of script never compete with hydration for a slow phone's main thread (decision 194). Errors reported
 * before then wait for it, and so do the errors nobody caught (window `error` and `unhandledrejection`): they are
 * kept from the moment entry.client runs and handed to the SDK once it started, which sees later ones itself
 * (decision 239). Kept apart from sentry.ts, which the SDK chunk imports.
 */
import { isHydrated, isReactRootFailure } from "./hydration";

export type SentryPublicConfig = { SENTRY_DSN?: string | null; MODE?: string };

type SentryClientModule = typeof import("./sentry.client");
let loading: Promise<SentryClientModule> | null = null;

/** How long an idle callback may wait for a quiet main thread, and how long we wait for hydration at most. */
export const IDLE_TIMEOUT_MS = 2_000;
export const HYDRATION_WAIT_MS = 10_000;

type IdleWindow = Pick<Window, "addEventListener" | "setTimeout"> & {
  document: Pick<Document, "readyState">;
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
};

/**
 * Calls `start` once: after the window's `load`, on an idle callback (a timer where the browser has none,
 * Safari) once the page has hydrated, or anyway after `HYDRATION_WAIT_MS` of idle callbacks without it.
 */
export function afterHydrationOnIdle(start: () => void, win: IdleWindow = window, hydrated: () => boolean = isHydrated): void {
  const startedAt = Date.now();
  const onIdle = (callback: () => void) => {
    if (win.requestIdleCallback) win.requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
    else win.setTimeout(callback, IDLE_TIMEOUT_MS / 2);
  };
  const attempt = () => {
    if (hydrated() || Date.now() - startedAt >= HYDRATION_WAIT_MS) start();
    else onIdle(attempt);
  };
  if (win.document.readyState === "complete") onIdle(attempt);
  else win.addEventListener("load", () => onIdle(attempt), { once: true });
}

/** An uncaught error that happened before the SDK was running. */
export type EarlyError = { kind: "error" | "unhandledrejection"; error: unknown };

/** At most this many early errors are kept (a page failing in a loop must not grow the buffer without end). */
export const EARLY_ERRORS_MAX = 20;

type ErrorWindow = Pick<Window, "addEventListener" | "removeEventListener">;

/**
 * Keeps the uncaught errors of the page until `stop()`, which returns them and stops listening. The SDK installs
 * its own global handlers when it starts, so stopping right then neither loses nor repeats one.
 */
export function bufferEarlyErrors(win: ErrorWindow = window): { stop: () => EarlyError[] } {
  const errors: EarlyError[] = [];
  const keep = (entry: EarlyError) => {
    // A failed hydration is entry.client's to report, tagged (`reportHydrationError`): kept here too, the SDK's
    // deduplication would drop the tagged report as a repeat of this one.
    if (isReactRootFailure(entry.error)) return;
    if (errors.length < EARLY_ERRORS_MAX) errors.push(entry);
  };
  const onError = (event: ErrorEvent) => keep({ kind: "error", error: event.error ?? event.message });
  const onRejection = (event: PromiseRejectionEvent) => keep({ kind: "unhandledrejection", error: event.reason });
  win.addEventListener("error", onError);
  win.addEventListener("unhandledrejection", onRejection);
  return {
    stop() {
      win.removeEventListener("error", onError);
      win.removeEventListener("unhandledrejection", onRejection);
      return errors.splice(0);
    },
  };
}

/**
 * From entry.client: loads and starts the SDK, after hydration and on idle, only when a DSN is published; the
 * uncaught errors until then are reported as soon as it starts.
 */
export function startSentry(
  config: SentryPublicConfig | undefined,
  schedule: (start: () => void) => void = afterHydrationOnIdle,
  load: () => Promise<SentryClientModule> = () => import("./sentry.client"),
  win?: ErrorWindow,
): Promise<SentryClientModule> | null {
  const dsn = config?.SENTRY_DSN;
  if (!dsn) return null;
  if (!loading) {
    const early = bufferEarlyErrors(win ?? window);
    loading = new Promise<void>((resolve) => schedule(resolve))
      .then(load)
      .then((mod) => {
        mod.initSentryClient({ dsn, environment: config?.MODE ?? "production" });
        mod.captureEarlyErrors(early.stop());
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
