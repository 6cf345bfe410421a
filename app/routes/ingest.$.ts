import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { env } from "#server/env";
import { clientIp } from "#server/auth/request-auth";
import { proxyIngest } from "./ingest.server";

/** /ingest/* → PostHog (see ingest.server.ts). 404 when POSTHOG_KEY is not set. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return proxyIngest(request, params["*"] ?? "", env(), { clientIp: clientIp(request) });
}

export function action({ request, params }: ActionFunctionArgs) {
  return proxyIngest(request, params["*"] ?? "", env(), { clientIp: clientIp(request) });
}
