import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getEventForOrganizer } from "#server/events/events";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { PAYMENT_METHOD_OPTIONS } from "#app/components/backoffice/EventFields";
import { StatusBadge } from "#app/components/backoffice/EventStatus";
import { soldOfStock } from "#app/components/backoffice/format";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, EmptyState } from "#app/components/backoffice/Page";
import { PickEvent } from "#app/components/backoffice/PickEvent";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { Badge } from "#app/components/ui/Badge";
import { buttonClasses } from "#app/components/ui/Button";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Tipos de entrada · Tribuna" }];

/** The ticket types of the event picked in the filters (and of its date, when one is picked). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "sales:read");
  const { eventId, eventDateId } = bo.filters;
  if (!eventId) return data({ event: null, date: null, tickets: [], canManage: bo.can["events:manage"] }, { headers: bo.headers });
  const { event, dates, tickets } = await guard(() => getEventForOrganizer(bo.ctx, eventId));
  const date = dates.find((d) => d.id === eventDateId) ?? null;
  const dateLabel = new Map(dates.map((d) => [d.id, formatDateTime(d.startsAt)]));
  return data(
    {
      event: { id: event.id, name: event.name, slug: event.slug },
      date: date ? formatDateTime(date.startsAt) : null,
      canManage: bo.can["events:manage"],
      tickets: tickets
        .filter((t) => !date || !t.eventDateId || t.eventDateId === date.id)
        .map((t) => ({
          id: t.id,
          name: t.name,
          price: t.price,
          sold: t.sold,
          stock: t.stock,
          status: t.status,
          hidden: t.hidden,
          presale: t.presale,
          hasCode: Boolean(t.accessCode),
          paymentMethod: PAYMENT_METHOD_OPTIONS.find((o) => o.value === t.paymentMethod)?.label ?? t.paymentMethod,
          date: t.eventDateId ? (dateLabel.get(t.eventDateId) ?? "—") : "Todas",
        })),
    },
    { headers: bo.headers },
  );
}

export default function TicketTypesPage() {
  const { event, date, tickets, canManage } = useLoaderData<typeof loader>();
  const href = useBackofficeHref();
  if (!event) {
    return (
      <BackofficePage title="Tipos de entrada" lead="Precios, stock y ventas de cada tipo de entrada.">
        <PickEvent path={BO.ticketTypes} intro="¿De qué evento querés ver los tipos de entrada?" />
      </BackofficePage>
    );
  }
  return (
    <BackofficePage
      title={`Tipos de entrada de ${event.name}`}
      lead={date ? `Los que valen para la fecha ${date}.` : "De todas las fechas del evento."}
      actions={
        canManage ? (
          <>
            <Link to={href(BO.addStock)} className={buttonClasses("secondary")}>
              Agregar entradas
            </Link>
            <Link to={href(BO.editTickets(event.slug))} className={buttonClasses("primary")}>
              Editar tipos de entrada
            </Link>
          </>
        ) : null
      }
    >
      {tickets.length === 0 ? (
        <EmptyState>Este evento no tiene tipos de entrada.</EmptyState>
      ) : (
        <ScrollTable label="Tipos de entrada">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="bg-[var(--surface)] text-xs uppercase tracking-wide text-[var(--muted)]">
              <tr>
                <th scope="col" className="px-4 py-3">Tipo</th>
                <th scope="col" className="px-4 py-3">Precio</th>
                <th scope="col" className="px-4 py-3">Vendidas / stock</th>
                <th scope="col" className="px-4 py-3">Estado</th>
                <th scope="col" className="px-4 py-3">Fecha</th>
                <th scope="col" className="px-4 py-3">Cobro</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-[var(--border)]">
              {tickets.map((t) => (
                <tr key={t.id}>
                  <th scope="row" className="px-4 py-3 font-bold">
                    <span className="flex flex-wrap items-center gap-1">
                      {t.name}
                      {t.hidden ? <Badge tone="secondary">Oculta</Badge> : null}
                      {t.presale ? <Badge tone="secondary">Preventa</Badge> : null}
                      {t.hasCode ? <Badge>Con código</Badge> : null}
                    </span>
                  </th>
                  <td className="px-4 py-3 whitespace-nowrap">{formatMoney(t.price)}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{soldOfStock(t.sold, t.stock)}</td>
                  <td className="px-4 py-3">
                    <StatusBadge status={t.status} />
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{t.date}</td>
                  <td className="px-4 py-3">{t.paymentMethod}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
    </BackofficePage>
  );
}
