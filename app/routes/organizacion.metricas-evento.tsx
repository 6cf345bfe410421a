import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDateTime, formatTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { getEventForOrganizer } from "#server/events/events";
import { eventMetrics } from "#server/reports/metrics";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { BarChart } from "#app/components/backoffice/BarChart";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { PickEvent } from "#app/components/backoffice/PickEvent";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Métricas del evento · Tribuna" }];

/** `/organizacion/metricas-evento`: the event chosen in the filter, in numbers and server-drawn charts (server/reports/metrics.ts). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "sales:read");
  const eventId = bo.filters.eventId || null;
  if (!eventId) return data({ event: null, metrics: null }, { headers: bo.headers });
  // The date chosen in the filter narrows everything to it.
  const eventDateId = bo.filters.eventDateId || null;
  const [{ event, dates }, metrics] = await Promise.all([guard(() => getEventForOrganizer(bo.ctx, eventId)), guard(() => eventMetrics(bo.ctx, eventId, eventDateId))]);
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { name: event.name, date: eventDateId ? (dates.find((d) => d.id === eventDateId)?.startsAt.toISOString() ?? null) : null, dates: dates.length },
      metrics: {
        salesPerDay: metrics.salesPerDay.map((d) => ({ label: `${d.day.slice(8, 10)}/${d.day.slice(5, 7)}`, orders: d.orders, tickets: d.tickets, revenue: d.revenue, revenueLabel: formatMoney(d.revenue) })),
        ticketTypes: metrics.ticketTypes.map((t) => ({ ...t, revenueLabel: formatMoney(t.revenue) })),
        menuItems: metrics.menuItems.filter((m) => m.sold > 0).map((m) => ({ ...m, revenueLabel: formatMoney(m.revenue) })),
        // The same pesos as the days' total (and the summary's): tickets after their discounts plus the menu.
        revenueLabel: formatMoney(metrics.salesPerDay.reduce((sum, d) => sum + d.revenue, 0)),
        coupons: metrics.coupons.map((c) => ({ ...c, discountLabel: formatMoney(c.discount) })),
        promoters: metrics.promoters,
        entries: {
          sold: metrics.entries.sold,
          entered: metrics.entries.entered,
          rate: metrics.entries.sold ? Math.round((metrics.entries.entered / metrics.entries.sold) * 100) : 0,
          perQuarterHour: metrics.entries.perQuarterHour.map((q) => ({ label: formatTime(q.at), entered: q.entered })),
        },
      },
    },
    { headers: bo.headers },
  );
}

function Table({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <table className="mt-3 w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-left text-[var(--muted)]">
          {head.map((h, i) => (
            <th key={h} scope="col" className={`font-normal ${i ? "text-right" : ""}`}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={String(row[0])} className="border-t border-[var(--border)]">
            {row.map((cell, i) =>
              i === 0 ? (
                <th key={i} scope="row" className="py-1 text-left font-medium">
                  {cell}
                </th>
              ) : (
                <td key={i} className="py-1 text-right tabular-nums">
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function EventMetricsPage() {
  const { event, metrics } = useLoaderData<typeof loader>();
  if (!event || !metrics) {
    return (
      <BackofficePage title="Métricas del evento" lead="Ventas por día, por tipo de entrada, cupones, RRPP e ingresos de la noche.">
        <PickEvent path={BO.eventMetrics} intro="¿De qué evento querés ver las métricas?" />
      </BackofficePage>
    );
  }
  const { salesPerDay, ticketTypes, menuItems, coupons, promoters, entries, revenueLabel } = metrics;
  return (
    <BackofficePage
      title={`Métricas de ${event.name}`}
      lead={`${event.date ? `Solo la función del ${formatDateTime(event.date)}. ` : event.dates > 1 ? "Todas las funciones: elegí una fecha arriba para ver solo esa. " : ""}Compras pagadas (sin invitaciones); la recaudación es lo que queda para vos, sin el cargo por servicio.`}
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Ventas por día">
          {salesPerDay.length ? (
            <>
              <BarChart title="Recaudación por día" bars={salesPerDay.map((d) => ({ label: d.label, value: d.revenue, valueLabel: d.revenueLabel }))} />
              <Table caption="Ventas por día" head={["Día", "Compras", "Entradas", "Recaudación"]} rows={salesPerDay.map((d) => [d.label, d.orders, d.tickets, d.revenueLabel])} />
            </>
          ) : (
            <EmptyState>Todavía no hay ventas.</EmptyState>
          )}
        </Card>
        <Card title="Por tipo de entrada">
          <BarChart title="Entradas vendidas por tipo" bars={ticketTypes.map((t) => ({ label: t.name, value: t.sold, valueLabel: `${t.sold} de ${t.stock}` }))} />
          <Table caption="Por tipo de entrada" head={["Tipo", "Vendidas", "Stock", "Recaudación"]} rows={ticketTypes.map((t) => [t.name, t.sold, t.stock, t.revenueLabel])} />
          {menuItems.length ? <Table caption="Menú" head={["Consumición", "Vendidas", "Stock", "Recaudación"]} rows={menuItems.map((m) => [m.name, m.sold, m.stock, m.revenueLabel])} /> : null}
          <p className="mt-3 text-sm text-[var(--muted)]" data-testid="metrics-revenue">
            Recaudación total: <strong className="tabular-nums text-[var(--text)]">{revenueLabel}</strong> (después de los descuentos de cupones{menuItems.length ? ", con el menú" : ""}).
          </p>
        </Card>
        <Card title="Ingresos de la noche">
          <p className="text-3xl font-black tabular-nums" data-testid="check-in-rate">
            {entries.rate} %
          </p>
          <p className="text-sm text-[var(--muted)]">
            Ingresaron {entries.entered} de {entries.sold} entradas válidas (invitaciones incluidas).
          </p>
          {entries.perQuarterHour.length ? <BarChart title="Ingresos cada 15 minutos" bars={entries.perQuarterHour.map((q) => ({ label: q.label, value: q.entered, valueLabel: String(q.entered) }))} /> : null}
        </Card>
        <Card title="Cupones y RRPP">
          {coupons.length ? <Table caption="Cupones usados" head={["Cupón", "Usos", "Descuento"]} rows={coupons.map((c) => [c.code, c.uses, c.discountLabel])} /> : <p className="text-sm text-[var(--muted)]">Ninguna compra usó cupones.</p>}
          {promoters.length ? (
            <Table caption="Ranking de RRPP" head={["RRPP", "Compras", "Entradas"]} rows={promoters.map((p) => [p.nick, p.orders, p.tickets])} />
          ) : (
            <p className="mt-3 text-sm text-[var(--muted)]">Sin ventas por link de RRPP.</p>
          )}
        </Card>
      </div>
    </BackofficePage>
  );
}
