import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportReport } from "#server/reports/exports";
import { guard, requireOrganization } from "#app/lib/backoffice.server";

/** The export itself, streamed as it is read (server/reports/exports.ts); `mes` (yyyy-MM) only for `facturas`. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request);
  const url = new URL(request.url);
  const file = await guard(() =>
    exportReport(bo.ctx, { organizationId: bo.organization.id, kind: url.searchParams.get("tipo") ?? "", format: url.searchParams.get("formato") ?? "csv", eventId: bo.filters.eventId || undefined, period: url.searchParams.get("mes") ?? undefined }),
  );
  const headers = new Headers(bo.headers);
  headers.set("Content-Type", file.contentType);
  headers.set("Content-Disposition", `attachment; filename="${file.filename}"`);
  headers.set("Cache-Control", "private, no-store");
  return new Response(file.body, { headers });
}
