import { rememberFields, type RememberedFields } from "#app/lib/typed-values";

/**
 * Whether React has hydrated the document (root.tsx's Layout marks it in an effect, which runs only once a
 * render committed). entry.client.tsx reads it to tell an error that left the page without React from one
 * that happened later (decision 180).
 */
let hydrated = false;
/**
 * Set on `window` as well, for the inline analytics snippet, which waits for it before fetching its library
 * (app/components/layout/Analytics.tsx, decision 239).
 */
export const HYDRATED_FLAG = "__tribunaHydrated";
let typedBeforeHydration: RememberedFields | null = null;

/**
 * Called as hydration starts: if React ends up drawing the document again on the client instead (a mismatch,
 * or decision 180's fallback), what the person had typed is carried over to the new fields (decision 185).
 */
export function keepTypedValues(doc: Document = document): void {
  typedBeforeHydration = rememberFields(doc);
}

export function markHydrated(): void {
  hydrated = true;
  if (typeof window !== "undefined") (window as unknown as Record<string, unknown>)[HYDRATED_FLAG] = true;
  typedBeforeHydration?.restore();
  typedBeforeHydration = null;
}

export function isHydrated(): boolean {
  return hydrated;
}

/**
 * An error React throws out of its own work, which no error boundary catches: in production the minified
 * "Minified React error #345" ("Root did not complete"), in development the full text.
 */
export function isReactRootFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return /Minified React error #\d+|Root did not complete|There was an error while hydrating|Hydration failed/.test(message);
}

interface RemixStreamContext {
  __remixContext?: { streamController?: ReadableStreamDefaultController<unknown> };
}

/**
 * Resolves once the page's loader data has all arrived. With single fetch, Remix writes it after the page as
 * scripts that feed `window.__remixContext.stream`, and its `RemixBrowser` suspends the whole document until
 * that stream is closed and decoded. A hydration that starts earlier (the scripts run after the first paint,
 * decision 132, which can come before the end of a slow page) leaves the root suspended with no Suspense
 * boundary above it, and a tap or a keystroke in that window makes React hydrate synchronously: React 18
 * cannot finish that render and throws #345, "Root did not complete". So hydration waits for the stream's
 * `close()`, or for the document to be parsed (every one of those scripts has run by then).
 */
export function remixDataArrived(win: Window & RemixStreamContext = window, doc: Document = document): Promise<void> {
  return new Promise((resolve) => {
    if (doc.readyState !== "loading") return resolve();
    doc.addEventListener("DOMContentLoaded", () => resolve(), { once: true });
    const controller = win.__remixContext?.streamController;
    if (!controller) return;
    const close = controller.close.bind(controller);
    controller.close = () => {
      close();
      resolve();
    };
  });
}
