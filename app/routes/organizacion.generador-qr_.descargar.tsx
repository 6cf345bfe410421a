import type { LoaderFunctionArgs } from "@remix-run/node";
import { isDomainError } from "#server/errors";
import { linkQr, linkQrPng } from "#server/organizations/link-qr";
import { requireOrganization } from "#app/lib/backoffice.server";

/** The QR of a Tribuna link as a file: `?link=…&formato=png|svg`. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const params = new URL(request.url).searchParams;
  const format = params.get("formato") ?? "png";
  const plain = (status: number, text: string) => new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
  if (format !== "png" && format !== "svg") return plain(400, "Elegí el formato: png o svg.");
  const input = { organizationId: bo.organization.id, url: params.get("link") ?? "" };
  try {
    const headers = new Headers({ "Cache-Control": "private, no-store", "Content-Disposition": `attachment; filename="qr-tribuna.${format}"` });
    if (format === "svg") {
      headers.set("Content-Type", "image/svg+xml");
      return new Response((await linkQr(bo.ctx, input)).svg, { headers });
    }
    headers.set("Content-Type", "image/png");
    return new Response(new Uint8Array((await linkQrPng(bo.ctx, input)).png), { headers });
  } catch (error) {
    if (isDomainError(error) && error.code === "BAD_USER_INPUT") return plain(400, error.fieldErrors.url?.[0] ?? error.message);
    throw error;
  }
}
