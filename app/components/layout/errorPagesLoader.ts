/**
 * The error pages (ErrorPages.tsx) in the browser: their own chunk, not the shell every page downloads
 * (decision 239). Root's ErrorBoundary renders them from here once loaded; entry.client loads them before
 * hydrating a document the server drew as an error page, so React never meets them still missing there (a
 * Suspense boundary left waiting during hydration could be re-rendered before its code arrives, and React would
 * then throw the server's HTML away and report a hydration error).
 */
import type * as ErrorPagesModule from "./ErrorPages";

export type ErrorPages = typeof ErrorPagesModule;

/** On the hidden marker root's ErrorBoundary writes before the page (read by entry.client). */
export const ERROR_PAGE_ATTRIBUTE = "data-pagina-de-error";

let loaded: ErrorPages | null = null;
let loading: Promise<ErrorPages> | null = null;

/** Loads the chunk once. */
export function loadErrorPages(): Promise<ErrorPages> {
  loading ??= import("./ErrorPages").then((mod) => (loaded = mod));
  return loading;
}

/** The module, when it has arrived. */
export function loadedErrorPages(): ErrorPages | null {
  return loaded;
}

/** entry.client, before hydrating: resolves once the error pages are here when the document is one of them. */
export function errorPagesBeforeHydration(doc: Pick<Document, "querySelector"> = document): Promise<void> {
  if (!doc.querySelector(`[${ERROR_PAGE_ATTRIBUTE}]`)) return Promise.resolve();
  // A chunk that cannot be fetched must not keep the page from hydrating: Suspense waits for it then.
  return loadErrorPages().then(
    () => undefined,
    () => undefined,
  );
}
