import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { listOrganizationEvents, setEventStatus } from "#server/events/events";
import type { Status } from "#server/db/schema";
import { formatDate, formatDateTime } from "#common/dates";
import { fromDateStart } from "#common/filters";
import { guard, requireOrganization, statusIntentAction } from "#app/lib/backoffice.server";
import { EventStatusBadge } from "#app/components/backoffice/EventStatus";
import { FormErrorList, FormSnackbar } from "#app/components/backoffice/forms";
import { soldOfStock } from "#app/components/backoffice/format";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, EmptyState } from "#app/components/backoffice/Page";
import { StatusActions } from "#app/components/backoffice/StatusActions";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { buttonClasses } from "#app/components/ui/Button";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Mis eventos · Tribuna" }];

const SHOW_DELETED = "eliminados";

/** The organization's events from the filter's window (by default from seven days before today). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "sales:read");
  const showDeleted = new URL(request.url).searchParams.get("ver") === SHOW_DELETED;
  const fromDate = fromDateStart(bo.filters.opts.fromDate);
  const statuses: Status[] = showDeleted ? ["active", "paused", "deleted"] : ["active", "paused"];
  const events = await guard(() => listOrganizationEvents(bo.ctx, { organizationId: bo.organization.id, fromDate, statuses }));
  return data(
    {
      organization: bo.organization,
      canManage: bo.can["events:manage"],
      showDeleted,
      fromDate: fromDate?.toISOString() ?? null,
      events: events.map((e) => ({
        id: e.id,
        name: e.name,
        slug: e.slug,
        status: e.status,
        publishedAt: e.publishedAt?.toISOString() ?? null,
        firstDate: e.firstDate?.toISOString() ?? null,
        sold: e.sold,
        stock: e.stock,
      })),
    },
    { headers: bo.headers },
  );
}

/** Pause, resume or delete an event (`setEventStatus`); the domain checks it is this member's to change. */
export function action({ request }: ActionFunctionArgs) {
  return statusIntentAction(request, { idName: "eventId", unknownIntent: "Elegí qué hacer con el evento", setStatus: setEventStatus });
}

export default function MyEventsPage() {
  const { events, canManage, showDeleted, fromDate } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();

  return (
    <BackofficePage
      title="Mis eventos"
      lead={fromDate ? `Eventos con fechas desde el ${formatDate(fromDate)} (última semana en adelante).` : "Todos los eventos, también los pasados."}
      actions={
        <>
          <Link to={href(BO.events, {}, showDeleted ? {} : { ver: SHOW_DELETED })} className={buttonClasses("secondary")}>
            {showDeleted ? "Ocultar eliminados" : "Mostrar eliminados"}
          </Link>
          {canManage ? (
            <Link to={href(BO.createEvent)} className={buttonClasses("primary")}>
              Crear evento
            </Link>
          ) : null}
        </>
      }
    >
      <FormErrorList reply={reply} />
      {events.length === 0 ? (
        <EmptyState>
          <p className="font-bold text-[var(--text)]">No hay eventos para mostrar.</p>
          <p className="mt-1">Si buscás eventos pasados, usá “Ver también los pasados” en los filtros.</p>
        </EmptyState>
      ) : (
        <ScrollTable label="Eventos">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="bg-[var(--surface)] text-xs uppercase tracking-wide text-[var(--muted)]">
              <tr>
                <th scope="col" className="px-4 py-3">Evento</th>
                <th scope="col" className="px-4 py-3">Estado</th>
                <th scope="col" className="px-4 py-3">Primera fecha</th>
                <th scope="col" className="px-4 py-3">Vendidas / stock</th>
                <th scope="col" className="px-4 py-3">Acciones</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-[var(--border)]">
              {events.map((event) => (
                <tr key={event.id} data-event={event.slug}>
                  <th scope="row" className="px-4 py-3 font-bold">
                    {event.publishedAt && event.status !== "deleted" ? (
                      <a href={BO.publicEvent(event.slug)} className="hover:underline">
                        {event.name}
                      </a>
                    ) : (
                      event.name
                    )}
                  </th>
                  <td className="px-4 py-3">
                    <EventStatusBadge event={event} />
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{event.firstDate ? formatDateTime(event.firstDate) : "Sin fechas"}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{soldOfStock(event.sold, event.stock)}</td>
                  <td className="px-4 py-3">
                    {canManage && event.status !== "deleted" ? (
                      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                        {!event.publishedAt ? (
                          <Link to={href(BO.conditions(event.id), { eventId: event.id })} className="font-bold text-[var(--accent)] hover:underline">
                            Publicar
                          </Link>
                        ) : null}
                        <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
                          Editar
                        </Link>
                        <Link to={href(BO.editTickets(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
                          Entradas
                        </Link>
                        <StatusActions
                          idName="eventId"
                          id={event.id}
                          paused={event.status === "paused"}
                          deleteTitle={`¿Eliminar “${event.name}”?`}
                          deleteDescription="Deja de verse y de venderse. Las compras hechas y sus entradas siguen valiendo. No se puede deshacer."
                          deleteConfirmLabel="Eliminar evento"
                        />
                      </div>
                    ) : (
                      <span className="text-[var(--muted)]">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
