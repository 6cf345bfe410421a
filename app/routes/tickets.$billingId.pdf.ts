import type { LoaderFunctionArgs } from "@remix-run/node";
import { getRequestContext } from "#app/lib/session.server";
import { ticketsPdf, ticketsPdfFilename } from "#server/tickets/pdf";
import { getPurchaseTickets } from "#server/orders/purchase-tickets";
import { staticQrValidFrom } from "#server/wallet/static-qr";
import { purchaseAccessError } from "#app/components/tickets/access.server";

/** `/tickets/{billingId}/pdf?t=…`: the tickets PDF (one page per valid ticket), same access as the purchase page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("t");
  const purchase = await getPurchaseTickets(ctx, params.billingId ?? "", { token }).catch((error) => purchaseAccessError(request, error, headers));
  const tickets = purchase.tickets.filter((t) => t.status !== "voided" && !t.transferredTo);
  if (purchase.state !== "confirmed" || !tickets.length) {
    throw new Response("Esta compra no tiene nada para descargar.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  // A live-QR event whose printed code counts later: each entrada's page says from when (decision 207).
  const staticQrFrom = tickets.some((t) => t.kind !== "menu") ? await staticQrValidFrom(ctx.db, purchase.event, ctx.now) : null;
  const pdf = await ticketsPdf({ orderCode: purchase.orderCode, event: purchase.event, tickets, staticQrFrom });
  headers.set("Content-Type", "application/pdf");
  headers.set("Content-Disposition", `attachment; filename="${ticketsPdfFilename(purchase.orderCode, tickets)}"`);
  headers.set("Cache-Control", "private, no-store");
  return new Response(Buffer.from(pdf), { headers });
}
