import type { ActionFunctionArgs } from "@remix-run/node";
import { env } from "#server/env";
import { forwardEnvelope } from "#app/lib/sentry.server";

/**
 * Sentry tunnel (the SDK's `tunnel: "/monitoring"`): envelopes from the
 * browser are checked against our DSN and forwarded to its host only.
 * Without SENTRY_DSN it answers 404.
 */
export function action({ request }: ActionFunctionArgs) {
  return forwardEnvelope(request, env().SENTRY_DSN);
}

export function loader() {
  const enabled = Boolean(env().SENTRY_DSN);
  return new Response(enabled ? "Method not allowed" : "Not found", {
    status: enabled ? 405 : 404,
    headers: enabled ? { Allow: "POST" } : undefined,
  });
}
