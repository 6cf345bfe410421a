/**
 * Sentry helpers for the SDK chunk (`sentry.client.ts`, imported lazily and
 * only when the server published a DSN: root data `env.SENTRY_DSN`, mirrored
 * into `window.__ENV`) and the server: sampling, the tunnel, the DSN, the
 * not-found filter. What every page carries is in sentry-route.ts (re-exported
 * here); without a DSN nothing of this file is downloaded.
 */
import { NOT_FOUND_ROUTE_IDS, NOT_FOUND_TRANSACTION } from "./sentry-route";

// What every page carries (route tracking, the not-found marker) lives in sentry-route.ts.
export * from "./sentry-route";

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
