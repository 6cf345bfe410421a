import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { startSentry, type SentryPublicConfig } from "#app/lib/sentry-start";

declare global {
  interface Window {
    /** Public configuration written by root's Layout (never secrets). */
    __ENV?: SentryPublicConfig & Record<string, unknown>;
  }
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});

// Monitoring loads after hydration, and only when a DSN is configured.
startSentry(window.__ENV);
