import type { LoaderFunctionArgs } from "@remix-run/node";
import { getRequestContext } from "#app/lib/session.server";
import { getPurchaseInvoicePdf } from "#server/orders/purchase-invoices";
import { purchaseAccessError } from "#app/components/tickets/access.server";

/** `/tickets/{billingId}/factura/{invoiceId}/pdf?t=…`: the invoice or credit note of our service charge (docs/invoicing.md), same access as the purchase page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("t");
  const pdf = await getPurchaseInvoicePdf(ctx, params.billingId ?? "", params.invoiceId ?? "", { token }).catch((error) => purchaseAccessError(request, error, headers));
  headers.set("Content-Type", "application/pdf");
  headers.set("Content-Disposition", `attachment; filename="${pdf.filename}"`);
  headers.set("Cache-Control", "private, no-store");
  return new Response(Buffer.from(pdf.content), { headers });
}
