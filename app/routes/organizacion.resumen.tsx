import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listOrganizationEvents } from "#server/events/events";
import { organizationSummary, type SalesFigures } from "#server/reports/summary";
import { formatMoney } from "#common/money";
import { formatDate, formatDateTime } from "#common/dates";
import { fromDateStart } from "#common/filters";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { roleLanding } from "#app/lib/role-landing.server";
import { EventStatusBadge } from "#app/components/backoffice/EventStatus";
import { soldOfStock } from "#app/components/backoffice/format";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { RoleLanding } from "#app/components/backoffice/RoleLanding";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { buttonClasses } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Resumen · Mi organización · Tribuna" }];

/**
 * The organization's events in the filter's window, with tickets sold against stock, and its sales; with an
 * event picked in the filter, only that event's. Only real numbers.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request);
  const fromDate = fromDateStart(bo.filters.opts.fromDate);
  const wanted = bo.filters.eventId || null;
  const allEvents = bo.can["sales:read"] ? await guard(() => listOrganizationEvents(bo.ctx, { organizationId: bo.organization.id, fromDate: wanted ? null : fromDate })) : null;
  // An event the list does not have (another organization's, left in the URL after switching) filters nothing.
  const eventId = wanted && allEvents?.some((e) => e.id === wanted) ? wanted : null;
  const summary = allEvents ? await guard(() => organizationSummary(bo.ctx, bo.organization.id, eventId)) : null;
  const events = !allEvents ? null : eventId ? allEvents.filter((e) => e.id === eventId) : wanted ? await guard(() => listOrganizationEvents(bo.ctx, { organizationId: bo.organization.id, fromDate })) : allEvents;
  const figures = (f: SalesFigures) => ({ orders: f.orders, tickets: f.tickets, menuItems: f.menuItems, revenue: formatMoney(f.revenue) });
  return data(
    {
      organization: bo.organization,
      can: bo.can,
      // The roles without the sales summary get their own landing instead (RoleLanding).
      landing: await roleLanding(bo),
      fromDate: eventId ? null : (fromDate?.toISOString() ?? null),
      eventName: eventId ? (events?.[0]?.name ?? null) : null,
      sales: summary
        ? {
            periods: [
              { label: "Hoy", ...figures(summary.today) },
              { label: "Últimos 7 días", ...figures(summary.lastSevenDays) },
              { label: "Total", ...figures(summary.total) },
            ],
            pendingTransfers: summary.pendingTransfers,
            refundsToDecide: summary.refundsToDecide,
          }
        : null,
      events: events?.map((e) => ({
        id: e.id,
        name: e.name,
        slug: e.slug,
        status: e.status,
        publishedAt: e.publishedAt?.toISOString() ?? null,
        firstDate: e.firstDate?.toISOString() ?? null,
        sold: e.sold,
        stock: e.stock,
      })) ?? null,
    },
    { headers: bo.headers },
  );
}

export default function SummaryPage() {
  const { organization, can, events, fromDate, sales, landing, eventName } = useLoaderData<typeof loader>();
  const href = useBackofficeHref();
  const drafts = events?.filter((e) => !e.publishedAt) ?? [];
  const totals = events?.reduce((acc, e) => ({ sold: acc.sold + e.sold, stock: acc.stock + e.stock }), { sold: 0, stock: 0 });

  return (
    <BackofficePage
      title={`Resumen de ${organization.name}`}
      lead={landing ? undefined : eventName ? `Solo ${eventName} (cambialo con el filtro “Evento” de arriba).` : fromDate ? `Eventos con fechas desde el ${formatDate(fromDate)}.` : "Todos los eventos, también los pasados."}
      actions={
        can["events:manage"] ? (
          <Link to={href(BO.createEvent)} className={buttonClasses("primary")}>
            Crear evento
          </Link>
        ) : null
      }
    >
      {sales ? (
        <section aria-labelledby="sales-title" className="mb-6">
          <h2 id="sales-title" className="sr-only">
            Ventas
          </h2>
          <dl className="grid gap-4 sm:grid-cols-3">
            {sales.periods.map((p) => (
              <div key={p.label} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4" data-testid={`sales-${p.label}`}>
                <dt className="text-sm text-[var(--muted)]">Ventas · {p.label}</dt>
                <dd className="mt-1 text-2xl font-bold tabular-nums">{p.revenue}</dd>
                <dd className="text-sm text-[var(--muted)]">
                  {p.orders} {p.orders === 1 ? "compra" : "compras"} · {p.tickets} {p.tickets === 1 ? "entrada" : "entradas"}
                  {p.menuItems ? ` · ${p.menuItems} ${p.menuItems === 1 ? "consumición" : "consumiciones"}` : ""}
                </dd>
              </div>
            ))}
          </dl>
          {sales.pendingTransfers || sales.refundsToDecide ? (
            <ul className="mt-3 flex flex-col gap-1 text-sm">
              {sales.pendingTransfers ? (
                <li>
                  <Link to={href(BO.bankTransfers)} className="font-bold text-primary-700 underline dark:text-primary-400">
                    {sales.pendingTransfers} {sales.pendingTransfers === 1 ? "transferencia espera" : "transferencias esperan"} tu revisión
                  </Link>
                </li>
              ) : null}
              {sales.refundsToDecide ? (
                <li>
                  <Link to={href(BO.sales)} className="font-bold text-primary-700 underline dark:text-primary-400">
                    {sales.refundsToDecide} {sales.refundsToDecide === 1 ? "solicitud de devolución espera" : "solicitudes de devolución esperan"} tu decisión
                  </Link>
                </li>
              ) : null}
            </ul>
          ) : null}
        </section>
      ) : null}
      {!events ? (
        landing ? <RoleLanding landing={landing} can={can} /> : null
      ) : events.length === 0 ? (
        <EmptyState>
          <p className="font-bold text-[var(--text)]">No hay eventos en este período.</p>
          <p className="mt-1">
            {can["events:manage"] ? (
              <>
                <Link to={href(BO.createEvent)} className="text-[var(--accent)] hover:underline">
                  Creá tu primer evento
                </Link>{" "}
                o mirá también los eventos pasados con el filtro de arriba.
              </>
            ) : (
              "Mirá también los eventos pasados con el filtro de arriba."
            )}
          </p>
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-6">
          <dl className="grid gap-4 sm:grid-cols-3">
            <Stat label="Eventos" value={String(events.length)} />
            <Stat label="Entradas vendidas / stock" value={soldOfStock(totals!.sold, totals!.stock)} />
            <Stat label="Borradores sin publicar" value={String(drafts.length)} />
          </dl>
          <Card title="Eventos">
            <ul className="divide-y divide-[var(--border)]">
              {events.map((event) => (
                <li key={event.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 font-bold">
                      {event.name} <EventStatusBadge event={event} />
                    </p>
                    <p className="text-sm text-[var(--muted)]">
                      {event.firstDate ? formatDateTime(event.firstDate) : "Sin fechas"} · Vendidas {soldOfStock(event.sold, event.stock)}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-3 text-sm">
                    {!event.publishedAt && can["events:manage"] ? (
                      <Link to={href(BO.conditions(event.id), { eventId: event.id })} className="font-bold text-[var(--accent)] hover:underline">
                        Publicar
                      </Link>
                    ) : null}
                    {can["events:manage"] ? (
                      <>
                        <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
                          Editar
                        </Link>
                        <Link to={href(BO.editTickets(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
                          Entradas
                        </Link>
                      </>
                    ) : null}
                    {event.publishedAt ? (
                      <a href={BO.publicEvent(event.slug)} className="text-[var(--accent)] hover:underline">
                        Ver página pública
                      </a>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          </Card>
        </div>
      )}
    </BackofficePage>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
      <dt className="text-sm text-[var(--muted)]">{label}</dt>
      <dd className="mt-1 text-2xl font-bold">{value}</dd>
    </div>
  );
}
