import type { LoaderFunctionArgs } from "@remix-run/node";
import { getRequestContext } from "#app/lib/session.server";
import { purchaseAccessError } from "#app/components/tickets/access.server";
import { applePassForBuyer } from "#server/wallet/buyer";

/** `/tickets/{billingId}/wallet/apple/{ticketId}?t=…`: one ticket's Apple Wallet pass, same access as the purchase page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("t");
  const pass = await applePassForBuyer(ctx, { billingId: params.billingId ?? "", ticketId: params.ticketId ?? "", token }).catch((error) => purchaseAccessError(request, error, headers));
  headers.set("Content-Type", "application/vnd.apple.pkpass");
  headers.set("Content-Disposition", `attachment; filename="${pass.filename}"`);
  headers.set("Cache-Control", "private, no-store");
  return new Response(new Uint8Array(pass.body), { headers });
}
