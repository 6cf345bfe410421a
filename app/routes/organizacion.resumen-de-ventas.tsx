import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listOrganizationOrders } from "#server/refunds/sales";
import { soldTickets } from "#server/events/sold";
import { listRefundRequests } from "#server/refunds/refunds";
import { getOrganizationLedger } from "#server/ledger/ledger";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { ListSearch } from "#app/components/backoffice/ListSearch";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { DisplayStatusBadge, PAYMENT_METHOD_LABEL } from "#app/components/sales/status";
import { Badge } from "#app/components/ui/Badge";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Resumen de ventas · Tribuna" }];

const SALES_PATH = "/organizacion/resumen-de-ventas";

/** `?contenido=`: what the list shows (all, tickets only —"Sin consumiciones"— or the menu's orders). */
const CONTENT = [
  { param: "", label: "Todo", content: null },
  { param: "entradas", label: "Sin consumiciones", content: "tickets" },
  { param: "consumiciones", label: "Solo consumiciones", content: "menu" },
] as const;

/**
 * The organization's sales: the spec's default order list (billed, not gift,
 * Mercado Pago and bank transfer, 10 a page, newest first) for the event in
 * the global filters, plus the withdrawal requests waiting for someone.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "sales:read");
  const url = new URL(request.url);
  const page = Math.max(0, Math.min(100_000, Number.parseInt(url.searchParams.get("pagina") ?? "0", 10) || 0));
  const eventId = bo.filters.eventId || null;
  const promoterNick = url.searchParams.get("rrpp")?.trim().slice(0, 31) || null;
  // An unknown value shows everything, as the page does without one.
  const shown = CONTENT.find((c) => c.param === (url.searchParams.get("contenido") ?? "")) ?? CONTENT[0];
  const [list, sold, pending, toTransfer, ledger] = await Promise.all([
    guard(() => listOrganizationOrders(bo.ctx, { organizationId: bo.organization.id, eventId, page, promoterNick, content: shown.content })),
    // The same count as "Vendidas" in the summary and "Mis eventos" (server/events/sold.ts).
    guard(() => soldTickets(bo.ctx, { organizationId: bo.organization.id, eventId })),
    guard(() => listRefundRequests(bo.ctx, { organizationId: bo.organization.id, eventId, status: "pending" })),
    guard(() => listRefundRequests(bo.ctx, { organizationId: bo.organization.id, eventId, status: "transfer" })),
    // The money (balance and latest movements) is for owners and admins only.
    bo.can["money:manage"] ? guard(() => getOrganizationLedger(bo.ctx, { organizationId: bo.organization.id, limit: 10 })) : null,
  ]);
  const refundRow = (r: (typeof pending)[number]) => ({
    id: r.id,
    code: r.code,
    orderId: r.orderId,
    orderCode: r.orderCode,
    eventName: r.eventName,
    buyerName: r.buyerName,
    amount: formatMoney(r.amount),
    createdAt: formatDateTime(r.createdAt),
    reason: r.reason,
  });
  return data(
    {
      promoterNick,
      content: shown.param,
      sold,
      page: list.page,
      limit: list.limit,
      total: list.total,
      orders: list.items.map((o) => ({
        id: o.id,
        code: o.code,
        createdAt: formatDateTime(o.createdAt),
        eventName: o.eventName,
        buyer: `${o.payer.firstName} ${o.payer.lastName}`.trim(),
        email: o.payer.email,
        units: o.units,
        total: formatMoney(o.total),
        paymentMethod: PAYMENT_METHOD_LABEL[o.paymentMethod] ?? o.paymentMethod,
        promoter: o.promoterUserId ? o.referredNick : null,
        displayStatus: o.displayStatus,
        pendingRefund: o.pendingRefund,
      })),
      pending: pending.map(refundRow),
      toTransfer: toTransfer.map(refundRow),
      ledger: ledger
        ? {
            balance: formatMoney(ledger.balance),
            negative: ledger.balance < 0,
            total: ledger.total,
            items: ledger.items.map((e) => ({ id: e.id, description: e.description, amount: formatMoney(e.amount), positive: e.amount >= 0, createdAt: formatDateTime(e.createdAt) })),
          }
        : null,
    },
    { headers: bo.headers },
  );
}

export default function SalesPage() {
  const { orders, sold, page, limit, total, pending, toTransfer, ledger, promoterNick, content } = useLoaderData<typeof loader>();
  const href = useBackofficeHref();
  const pages = Math.max(1, Math.ceil(total / limit));
  const detail = (orderId: string) => href(`${SALES_PATH}/${orderId}`);
  const listParams = (extra: Record<string, string>) => ({ ...(promoterNick ? { rrpp: promoterNick } : {}), ...(content ? { contenido: content } : {}), ...extra });
  return (
    <BackofficePage title="Resumen de ventas" lead="Compras pagadas con Mercado Pago o transferencia, de la más nueva a la más vieja. Elegí un evento arriba para ver solo las suyas.">
      <div className="flex flex-col gap-6">
        {ledger ? (
          <Card title="Saldo">
            <p className="text-3xl font-bold tabular-nums" data-balance>
              {ledger.balance}
            </p>
            <p className="mt-1 text-sm text-[var(--muted)]">
              {ledger.negative
                ? "Es lo que debés de cargos por servicio de ventas cobradas fuera de Tribuna (transferencias a tu cuenta, efectivo de tus RRPP); se descuenta de lo próximo que cobres con Mercado Pago."
                : "Lo cobrado con Mercado Pago menos nuestro cargo por servicio y las devoluciones, de todos tus eventos."}
            </p>
            {ledger.items.length ? (
              <ul className="mt-4 divide-y divide-[var(--border)] text-sm" aria-label="Últimos movimientos">
                {ledger.items.map((e) => (
                  <li key={e.id} className="flex items-baseline justify-between gap-3 py-2">
                    <span>
                      {e.description}
                      <span className="block text-xs text-[var(--muted)]">{e.createdAt}</span>
                    </span>
                    <span className={`tabular-nums whitespace-nowrap ${e.positive ? "" : "text-[var(--muted)]"}`}>{e.amount}</span>
                  </li>
                ))}
              </ul>
            ) : null}
            {ledger.total > ledger.items.length ? (
              <p className="mt-2 text-xs text-[var(--muted)]">
                Últimos {ledger.items.length} de {ledger.total} movimientos.
              </p>
            ) : null}
          </Card>
        ) : null}

        <Card title={`Devoluciones pendientes (${pending.length})`}>
          {pending.length === 0 ? (
            <p className="text-sm text-[var(--muted)]">No hay solicitudes de devolución esperando tu respuesta.</p>
          ) : (
            <ul className="divide-y divide-[var(--border)]" aria-label="Devoluciones pendientes">
              {pending.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div>
                    <p className="font-bold">
                      {r.code} · {r.orderCode} · {r.buyerName}
                    </p>
                    <p className="text-sm text-[var(--muted)]">
                      {r.eventName} · {r.amount} · pedida el {r.createdAt}
                      {r.reason ? ` · “${r.reason}”` : ""}
                    </p>
                  </div>
                  <Link to={detail(r.orderId)} className="text-[var(--accent)] hover:underline">
                    Revisar {r.orderCode}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>

        {toTransfer.length ? (
          <Card title={`Devoluciones para transferir (${toTransfer.length})`}>
            <ul className="divide-y divide-[var(--border)]">
              {toTransfer.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <p>
                    {r.code} · {r.orderCode} · {r.buyerName} · {r.amount}
                  </p>
                  <Link to={detail(r.orderId)} className="text-[var(--accent)] hover:underline">
                    Ver {r.orderCode}
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        ) : null}

        <section aria-labelledby="ventas">
          <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
            <h2 id="ventas" className="text-lg font-bold">
              {promoterNick ? `Ventas de @${promoterNick.replace(/^@/, "")}` : "Ventas"} ({total})
            </h2>
            {promoterNick ? null : (
              <p className="w-full text-sm text-[var(--muted)] sm:order-last" data-sold-tickets={sold}>
                {sold} {sold === 1 ? "entrada vendida" : "entradas vendidas"} (pagas y sin devolver; sin invitaciones, consumiciones ni reservas sin pagar).
              </p>
            )}
            <ListSearch path={SALES_PATH} label="Ventas de un RRPP (apodo)" name="rrpp" value={promoterNick ?? ""} inputProps={{ autoCapitalize: "none", spellCheck: false }} />
          </div>
          <nav aria-label="Qué compras mostrar" className="mb-3 flex flex-wrap gap-3 text-sm">
            {CONTENT.map((c) =>
              c.param === content ? (
                <span key={c.param} aria-current="page" className="font-bold">
                  {c.label}
                </span>
              ) : (
                <Link key={c.param} to={href(SALES_PATH, {}, { ...(promoterNick ? { rrpp: promoterNick } : {}), ...(c.param ? { contenido: c.param } : {}) })} className="text-[var(--accent)] hover:underline">
                  {c.label}
                </Link>
              ),
            )}
          </nav>
          {orders.length === 0 ? (
            <EmptyState>Todavía no hay ventas para mostrar.</EmptyState>
          ) : (
            <ScrollTable label="Ventas">
              <table className="w-full min-w-[48rem] text-left text-sm">
                <thead className="bg-[var(--surface)] text-xs uppercase tracking-wide text-[var(--muted)]">
                  <tr>
                    <th scope="col" className="px-4 py-3">Compra</th>
                    <th scope="col" className="px-4 py-3">Fecha</th>
                    <th scope="col" className="px-4 py-3">Evento</th>
                    <th scope="col" className="px-4 py-3">Comprador</th>
                    <th scope="col" className="px-4 py-3">Entradas</th>
                    <th scope="col" className="px-4 py-3">Total</th>
                    <th scope="col" className="px-4 py-3">Medio</th>
                    <th scope="col" className="px-4 py-3">RRPP</th>
                    <th scope="col" className="px-4 py-3">Estado</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-[var(--border)]">
                  {orders.map((o) => (
                    <tr key={o.id}>
                      <th scope="row" className="px-4 py-3 font-bold whitespace-nowrap">
                        <Link to={detail(o.id)} className="text-[var(--accent)] hover:underline">
                          {o.code}
                        </Link>
                      </th>
                      <td className="px-4 py-3 whitespace-nowrap">{o.createdAt}</td>
                      <td className="px-4 py-3">{o.eventName}</td>
                      <td className="px-4 py-3">
                        {o.buyer}
                        <span className="block text-xs text-[var(--muted)]">{o.email}</span>
                      </td>
                      <td className="px-4 py-3">{o.units}</td>
                      <td className="px-4 py-3 whitespace-nowrap">{o.total}</td>
                      <td className="px-4 py-3">{o.paymentMethod}</td>
                      <td className="px-4 py-3">{o.promoter ? `@${o.promoter}` : "—"}</td>
                      <td className="px-4 py-3">
                        <span className="flex flex-wrap gap-1">
                          <DisplayStatusBadge status={o.displayStatus} />
                          {o.pendingRefund ? <Badge tone="warning">Devolución pedida</Badge> : null}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
          {pages > 1 ? (
            <nav aria-label="Páginas" className="mt-4 flex items-center justify-between text-sm">
              {page > 0 ? (
                <Link to={href(SALES_PATH, {}, listParams({ pagina: String(page - 1) }))} className="text-[var(--accent)] hover:underline">
                  ← Anteriores
                </Link>
              ) : (
                <span />
              )}
              <span className="text-[var(--muted)]">
                Página {page + 1} de {pages}
              </span>
              {page + 1 < pages ? (
                <Link to={href(SALES_PATH, {}, listParams({ pagina: String(page + 1) }))} className="text-[var(--accent)] hover:underline">
                  Siguientes →
                </Link>
              ) : (
                <span />
              )}
            </nav>
          ) : null}
        </section>
      </div>
    </BackofficePage>
  );
}
