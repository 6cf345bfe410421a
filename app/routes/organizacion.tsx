import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { getEventForOrganizer, listOrganizationEvents } from "#server/events/events";
import { formatDateTime } from "#common/dates";
import { guard, POR_CREAR_PATH, requireBackoffice } from "#app/lib/backoffice.server";
import { BackofficeShell } from "#app/components/backoffice/Shell";
import { ROLE_LABELS } from "#app/components/backoffice/nav";
import type { ShellData } from "#app/components/backoffice/types";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Mi organización · Tribuna" }, { name: "robots", content: "noindex" }];

/**
 * The back-office shell of every /organizacion page: a signed-in user (else
 * the forced login), their organizations, and the global filters from the
 * URL resolved against them. A user without organizations goes to
 * /organizacion/por-crear.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const onCreatePage = new URL(request.url).pathname.startsWith(POR_CREAR_PATH);
  const bo = await requireBackoffice(request, { allowNoOrganization: onCreatePage });
  let events: ShellData["events"] = [];
  let dates: ShellData["dates"] = [];
  const filters = { ...bo.filters };
  const eventsCapability = bo.can["sales:read"] ? "sales:read" : bo.can["pixel:manage"] ? "pixel:manage" : bo.can["campaigns:manage"] ? "campaigns:manage" : null;
  if (bo.organization && eventsCapability) {
    const list = await guard(() => listOrganizationEvents(bo.ctx, { organizationId: bo.organization!.id, fromDate: null }, eventsCapability));
    events = list.map((e) => ({ id: e.id, name: e.name, slug: e.slug, firstDate: e.firstDate?.toISOString() ?? null }));
    // A page about one event by its path (editar/{slug}, condiciones-de-servicio/{eventId}…) shows it in the selector.
    const fromPath = events.find((e) => (params.slug && e.slug === params.slug) || (params.eventId && e.id === params.eventId));
    if (fromPath && fromPath.id !== filters.eventId) {
      filters.eventId = fromPath.id;
      filters.eventDateId = "";
    }
    if (!events.some((e) => e.id === filters.eventId)) filters.eventId = "";
    else if (bo.can["sales:read"]) {
      const detail = await guard(() => getEventForOrganizer(bo.ctx, filters.eventId));
      dates = detail.dates.map((d) => ({ id: d.id, label: formatDateTime(d.startsAt) }));
    }
  } else filters.eventId = "";
  if (!dates.some((d) => d.id === filters.eventDateId)) filters.eventDateId = "";

  const linkFilters = { ...bo.linkFilters, eventId: filters.eventId, eventDateId: filters.eventDateId };
  const shell: ShellData = {
    organizations: bo.organizations,
    organization: bo.organization,
    roleLabel: bo.role ? (ROLE_LABELS[bo.role] ?? bo.role) : null,
    can: bo.can,
    filters,
    linkFilters,
    query: bo.query({ eventId: filters.eventId, eventDateId: filters.eventDateId }),
    now: bo.ctx.now.toISOString(),
    events,
    dates,
  };
  return data(shell, { headers: bo.headers });
}

export default function OrganizacionLayout() {
  const shell = useLoaderData<typeof loader>() as ShellData;
  return (
    <BackofficeShell shell={shell}>
      <Outlet />
    </BackofficeShell>
  );
}
