import type { LoaderFunctionArgs } from "@remix-run/node";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { getRequestContext } from "#app/lib/session.server";
import { readBankTransferReceipt } from "#server/bank-transfers/bank-transfers";

/**
 * GET /comprobantes/{receiptId}[?t=…]: a bank-transfer receipt, only for the
 * buyer (the `t` token of the billing, or their account) and the
 * organization's members with `sales:read`. Anyone else gets a plain 404;
 * someone not signed in without a token is asked to sign in (organizers
 * following the link from the back office).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("t");
  try {
    const receipt = await readBankTransferReceipt(ctx, params.receiptId ?? "", { token });
    headers.set("Content-Type", receipt.contentType);
    headers.set("Content-Length", String(receipt.bytes.length));
    // Images open in the browser; a PDF (which can carry scripts) is downloaded, never rendered on our origin.
    headers.set("Content-Disposition", `${receipt.contentType === "application/pdf" ? "attachment" : "inline"}; filename="${receipt.fileName}"`);
    headers.set("Cache-Control", "private, no-store");
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
    headers.set("Referrer-Policy", "no-referrer");
    return new Response(new Uint8Array(receipt.bytes), { status: 200, headers });
  } catch (error) {
    // Not signed in and no token: the forced login, coming back here afterwards; anyone else who may not see it: not there.
    throw pageErrorResponse(error, { conceal: true, notFoundText: "No encontramos el comprobante.", signIn: request });
  }
}
