import type { LoaderFunctionArgs } from "@remix-run/node";
import { accreditationsCsv } from "#server/door/accreditations";
import { guard, requireOrganization } from "#app/lib/backoffice.server";

/** The accreditations list of the same filters as CSV (every row). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "sales:read");
  const query = new URL(request.url).searchParams.get("buscar") ?? "";
  const { csv, filename } = await guard(() =>
    accreditationsCsv(bo.ctx, { organizationId: bo.organization.id, eventId: bo.filters.eventId || null, eventDateId: bo.filters.eventDateId || null, query }),
  );
  const headers = new Headers(bo.headers);
  headers.set("Content-Type", "text/csv; charset=utf-8");
  headers.set("Content-Disposition", `attachment; filename="${filename}"`);
  headers.set("Cache-Control", "private, no-store");
  return new Response(csv, { headers });
}
