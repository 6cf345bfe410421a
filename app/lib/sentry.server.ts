/**
 * Sentry on the server: errors from Remix's `handleError` (entry.server.tsx),
 * GraphQL faults (server/monitoring.ts, registered by entry.server.tsx)
 * and the same-origin tunnel (app/routes/monitoring.ts). Without SENTRY_DSN
 * the SDK is never imported.
 */
import { beforeSendTransaction, envelopeEndpoint, parseDsn, SENTRY_SAMPLING } from "./sentry";

type ServerSdk = typeof import("@sentry/remix");
let sdk: Promise<ServerSdk> | null = null;

export function initServerSentry(dsn: string | null | undefined, environment: string): Promise<ServerSdk> | null {
  if (!dsn) return null;
  if (!sdk) {
    sdk = import("@sentry/remix").then((Sentry) => {
      Sentry.init({
        dsn,
        environment,
        tracesSampleRate: SENTRY_SAMPLING.tracesSampleRate,
        beforeSendTransaction,
      });
      return Sentry;
    });
    sdk.catch((error) => console.error("No se pudo iniciar Sentry:", error));
  }
  return sdk;
}

/** Sends one server error to Sentry (no-op without SENTRY_DSN); GraphQL faults come without the Remix request. */
export function captureServerError(error: unknown, request?: Request) {
  if (!sdk) return;
  sdk.then((Sentry) => (request ? Sentry.sentryHandleError(error, { request } as never) : Sentry.captureException(error))).catch(() => {});
}

/** Envelopes bigger than this are refused (replays are sent in small segments). */
export const MAX_ENVELOPE_BYTES = 5 * 1024 * 1024;

type Fetch = typeof fetch;

/**
 * The tunnel: reads the envelope's header line, checks its DSN is ours
 * (same host, project and key) and forwards it to that host only.
 */
export async function forwardEnvelope(
  request: Request,
  configuredDsn: string | null | undefined,
  fetchImpl: Fetch = fetch,
): Promise<Response> {
  const ours = parseDsn(configuredDsn);
  if (!ours) return new Response("Not found", { status: 404 });
  if (request.method !== "POST") return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });

  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_ENVELOPE_BYTES) return new Response("Payload too large", { status: 413 });
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength === 0) return new Response("Empty envelope", { status: 400 });
  if (body.byteLength > MAX_ENVELOPE_BYTES) return new Response("Payload too large", { status: 413 });

  // The header is the first line: JSON with the `dsn` the SDK used.
  const newline = body.indexOf(0x0a);
  const headerText = new TextDecoder().decode(newline === -1 ? body : body.subarray(0, newline));
  let header: { dsn?: unknown };
  try {
    header = JSON.parse(headerText);
  } catch {
    return new Response("Invalid envelope", { status: 400 });
  }
  const theirs = parseDsn(typeof header.dsn === "string" ? header.dsn : null);
  if (
    !theirs ||
    theirs.host !== ours.host ||
    theirs.projectId !== ours.projectId ||
    theirs.publicKey !== ours.publicKey ||
    theirs.pathPrefix !== ours.pathPrefix
  ) {
    return new Response("Unknown DSN", { status: 400 });
  }

  try {
    const upstream = await fetchImpl(envelopeEndpoint(ours), {
      method: "POST",
      headers: { "Content-Type": "application/x-sentry-envelope" },
      body,
    });
    return new Response(null, { status: upstream.status });
  } catch {
    return new Response("Upstream unavailable", { status: 502 });
  }
}
