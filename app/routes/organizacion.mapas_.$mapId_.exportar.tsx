import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportSeatMap } from "#server/seating/maps";
import { guard, requireOrganization } from "#app/lib/backoffice.server";

/** A seat map as pretix's seating-plan JSON (server/seating/pretix.ts), downloaded. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const { fileName, json } = await guard(() => exportSeatMap(bo.ctx, bo.organization.id, params.mapId ?? ""));
  const headers = new Headers(bo.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Content-Disposition", `attachment; filename="${fileName}"`);
  headers.set("Cache-Control", "private, no-store");
  return new Response(json, { headers });
}
