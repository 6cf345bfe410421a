import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleAppleWebServiceRequest } from "#server/wallet/apple-service";

/** Apple's PassKit web service (`/api/wallet/apple/v1/…`, docs/wallet.md): a thin route, the service takes its database itself. */
function handle({ request, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  return handleAppleWebServiceRequest(request, params["*"] ?? "");
}

export const loader = handle;
export const action = handle;
