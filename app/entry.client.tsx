import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { isHydrated, isReactRootFailure, keepTypedValues, remixDataArrived } from "#app/lib/hydration";
import { reportHydrationError, startSentry, type SentryPublicConfig } from "#app/lib/sentry-start";
import { errorPagesBeforeHydration } from "#app/components/layout/errorPagesLoader";

declare global {
  interface Window {
    /** Public configuration written by root's Layout (never secrets). */
    __ENV?: SentryPublicConfig & Record<string, unknown>;
  }
}

const app = () => (
  <StrictMode>
    <RemixBrowser />
  </StrictMode>
);

/**
 * Hydration never leaves a page dead (decision 180). It starts once the loader data has arrived
 * (`remixDataArrived`: the cause of React's #345 on a page that was still arriving). A mismatch between the
 * server's HTML and the first render is React's to recover (it renders the document again on the client):
 * `onRecoverableError` only reports it. An error that escapes React before the page hydrated (React gave up on
 * the root) is reported and the document is rendered on the client, once.
 */
function hydrate() {
  // If the document ends up drawn again on the client, what was typed into it is carried over (decision 185).
  keepTypedValues();
  let root: Root | null = null;
  let fellBack = false;
  let recoveredReported = false;
  const clientRender = (error: unknown) => {
    if (fellBack || isHydrated() || !isReactRootFailure(error)) return;
    fellBack = true;
    reportHydrationError(error, "client-render");
    // Out of the event that threw: the failed root is unmounted (its document cleared) and a new one renders it.
    setTimeout(() => {
      root?.unmount();
      // React 18 renders into a document (it replaces its <html>), though its types name only elements.
      createRoot(document as unknown as Element).render(app());
    }, 0);
  };
  window.addEventListener("error", (event) => clientRender(event.error ?? event.message));
  window.addEventListener("unhandledrejection", (event) => clientRender(event.reason));
  startTransition(() => {
    root = hydrateRoot(document, app(), {
      onRecoverableError(error, info) {
        // React calls this for each attempt of one recovery: the first says what went wrong.
        if (recoveredReported) return;
        recoveredReported = true;
        reportHydrationError(error, "recovered", info?.componentStack ?? undefined);
      },
    });
  });
}

// A page the server drew as an error page also waits for their chunk, which is not in the shell (decision 239).
void Promise.all([remixDataArrived(), errorPagesBeforeHydration()]).then(hydrate);

// Monitoring loads after hydration, on idle, and only when a DSN is configured (app/lib/sentry-start.ts).
startSentry(window.__ENV);
