import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "#server/db/client";
import { appleWebService } from "#server/wallet/apple-service";
import { appleWalletConfig } from "#server/wallet/config";

/** Apple's PassKit web service (`/api/wallet/apple/v1/…`, docs/wallet.md); 404 when Apple Wallet is not set up. */
async function handle({ request, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const config = appleWalletConfig();
  if (!config) return new Response(null, { status: 404 });
  return appleWebService(await getDb(), config, request, params["*"] ?? "");
}

export const loader = handle;
export const action = handle;
