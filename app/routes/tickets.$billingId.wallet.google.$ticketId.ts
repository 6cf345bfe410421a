import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getRequestContext } from "#app/lib/session.server";
import { purchaseAccessError } from "#app/components/tickets/access.server";
import { googleSaveUrlForBuyer } from "#server/wallet/buyer";

/** `/tickets/{billingId}/wallet/google/{ticketId}?t=…`: to Google's "save" page with the ticket's signed pass, same access as the purchase page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("t");
  const url = await googleSaveUrlForBuyer(ctx, { billingId: params.billingId ?? "", ticketId: params.ticketId ?? "", token }).catch((error) => purchaseAccessError(request, error, headers));
  headers.set("Cache-Control", "private, no-store");
  return redirect(url, { status: 303, headers });
}
