import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { refundsOverview, type RefundsOverview } from "#server/admin/overview";
import { isDomainError } from "#server/errors";
import { errorMessages, pageErrorResponse } from "#app/lib/domain-errors.server";
import { requireUser } from "#app/lib/session.server";
import { AdminNav, AdminPager, adminTable } from "#app/components/admin/AdminNav";
import { REFUND_STATUS_LABEL } from "#app/components/sales/status";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Devoluciones y contracargos · Equipo de Tribuna" }, { name: "robots", content: "noindex" }];

const PATH = "/admin/devoluciones";

/** The refund request statuses of the filter, in the order of the select (values as in the schema). */
const STATUS_OPTIONS = ["pending", "refunded", "rejected"] as const;
const STATUS_TONE: Record<string, BadgeTone> = { pending: "warning", refunded: "secondary", rejected: "neutral" };
const METHOD_LABEL: Record<string, string> = { provider: "Por el medio de pago", bank_transfer: "Transferencia al comprador" };
const PROBLEM: Record<string, { label: string; tone: BadgeTone; help: string }> = {
  failed: { label: "Falló", tone: "danger", help: "Se agotaron los reintentos: hay que devolverla a mano." },
  retrying: { label: "Reintentando", tone: "warning", help: "El proveedor respondió con un error; se vuelve a intentar sola." },
  stuck: { label: "Trabada", tone: "warning", help: "Hace más de una hora que nadie la intentó: revisá que corran los trabajos." },
};
const PROVIDER_LABEL: Record<string, string> = { mercadopago: "Mercado Pago", sandbox: "Sandbox", bank_transfer: "Transferencia", free: "Sin cargo", promoter: "RRPP" };

/**
 * The platform team's view of refunds and chargebacks across every
 * organization (docs/admin.md): totals of the last 30 days, the buyers'
 * refund requests (`?estado=`, `?pagina=`), the provider refunds that failed
 * or are stuck, and the chargebacks. Read-only: organizers decide refunds in
 * their back office. A status that does not exist shows every request with a
 * notice instead of failing.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  headers.set("Cache-Control", "private, no-store");
  const url = new URL(request.url);
  const estado = url.searchParams.get("estado") ?? "";
  const pagina = url.searchParams.get("pagina") ?? "1";
  let notice: string | null = null;
  let overview: RefundsOverview;
  try {
    try {
      overview = await refundsOverview(ctx, { status: estado, page: pagina });
    } catch (error) {
      if (!isDomainError(error) || error.code !== "BAD_USER_INPUT") throw error;
      notice = errorMessages(error)[0] ?? error.message;
      overview = await refundsOverview(ctx, { page: pagina });
    }
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
  const { totals, requests } = overview;
  return data(
    {
      notice,
      status: overview.status ?? "",
      totals: {
        refundedAmount: formatMoney(totals.refundedAmount),
        refundedCount: totals.refundedCount,
        chargebackAmount: formatMoney(totals.chargebackAmount),
        chargebackCount: totals.chargebackCount,
        pendingRequests: totals.pendingRequests,
      },
      page: requests.page,
      pages: requests.pages,
      total: requests.total,
      requests: requests.items.map((r) => ({
        id: r.id,
        code: r.code,
        organizationName: r.organizationName,
        eventName: r.eventName,
        orderCode: r.orderCode,
        buyerName: r.buyerName,
        buyerEmail: r.buyerEmail,
        amount: formatMoney(r.amount),
        status: r.status,
        automatic: r.automatic,
        method: r.method,
        createdAt: formatDateTime(r.createdAt),
        decidedAt: r.decidedAt ? formatDateTime(r.decidedAt) : null,
      })),
      providerRefunds: overview.providerRefunds.map((r) => ({
        id: r.id,
        organizationName: r.organizationName,
        orderCode: r.orderCode,
        provider: r.provider,
        providerPaymentId: r.providerPaymentId,
        amount: formatMoney(r.amount),
        reason: r.reason,
        problem: r.problem,
        lastError: r.lastError,
        createdAt: formatDateTime(r.createdAt),
      })),
      chargebacks: overview.chargebacks.map((c) => ({
        billingId: c.billingId,
        organizationName: c.organizationName,
        eventName: c.eventName,
        orderCode: c.orderCode,
        provider: c.provider,
        amount: formatMoney(c.amount),
        chargedBackAt: formatDateTime(c.chargedBackAt),
      })),
    },
    { headers }
  );
}

function pageHref(status: string, page: number) {
  const params = new URLSearchParams();
  if (status) params.set("estado", status);
  if (page > 1) params.set("pagina", String(page));
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

function Total({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
      <dt className="text-sm text-[var(--muted)]">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums">{value}</dd>
      {detail ? <dd className="text-sm text-[var(--muted)]">{detail}</dd> : null}
    </div>
  );
}

export default function RefundsAndChargebacks() {
  const { notice, status, totals, requests, page, pages, total, providerRefunds, chargebacks } = useLoaderData<typeof loader>();
  const { wrapper, head, body, th, td } = adminTable;
  return (
    <main className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminNav />
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold">Devoluciones y contracargos</h1>
        <p className="text-sm text-[var(--muted)]">
          De todas las organizaciones. Las devoluciones las decide cada organización desde su panel; acá ves cómo vienen y qué necesita que lo mires.
        </p>
      </div>

      <section aria-labelledby="totales">
        <h2 id="totales" className="sr-only">
          Totales
        </h2>
        <dl className="grid gap-3 sm:grid-cols-3">
          <Total label="Devuelto en los últimos 30 días" value={totals.refundedAmount} detail={plural(totals.refundedCount, "devolución", "devoluciones")} />
          <Total label="Contracargos en los últimos 30 días" value={totals.chargebackAmount} detail={plural(totals.chargebackCount, "contracargo", "contracargos")} />
          <Total label="Solicitudes esperando a la organización" value={String(totals.pendingRequests)} />
        </dl>
      </section>

      <section aria-labelledby="solicitudes" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id="solicitudes" className="text-lg font-bold">
            Solicitudes de devolución <span className="text-sm font-normal text-[var(--muted)]">({total})</span>
          </h2>
          <Form method="get" className="flex items-end gap-2">
            <label className="flex flex-col gap-1 text-sm">
              <span>Estado</span>
              <select name="estado" defaultValue={status} className={fieldInputClasses}>
                <option value="">Todos los estados</option>
                {STATUS_OPTIONS.map((s) => (
                  <option key={s} value={s}>
                    {REFUND_STATUS_LABEL[s]}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="secondary">
              Filtrar
            </Button>
          </Form>
        </div>
        {notice ? (
          <p role="alert" className="rounded-lg border border-amber-500/40 bg-amber-500/15 px-3 py-2 text-sm text-amber-800 dark:text-amber-300">
            {notice} Te mostramos todas.
          </p>
        ) : null}
        {requests.length === 0 ? (
          <p className="text-[var(--muted)]">{status ? "No hay solicitudes con ese estado." : "Todavía no hay solicitudes de devolución."}</p>
        ) : (
          <div className={wrapper}>
            <table className="w-full min-w-[64rem] text-left text-sm">
              <thead className={head}>
                <tr>
                  <th scope="col" className={th}>
                    Gestión
                  </th>
                  <th scope="col" className={th}>
                    Organización y evento
                  </th>
                  <th scope="col" className={th}>
                    Compra
                  </th>
                  <th scope="col" className={th}>
                    Comprador
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Monto
                  </th>
                  <th scope="col" className={th}>
                    Estado
                  </th>
                  <th scope="col" className={th}>
                    Automática
                  </th>
                  <th scope="col" className={th}>
                    Pedida
                  </th>
                  <th scope="col" className={th}>
                    Resuelta
                  </th>
                </tr>
              </thead>
              <tbody className={body}>
                {requests.map((r) => (
                  <tr key={r.id} data-refund-request={r.code}>
                    <th scope="row" className={`${td} whitespace-nowrap font-mono text-xs`}>
                      {r.code}
                    </th>
                    <td className={td}>
                      <span className="font-bold">{r.organizationName}</span>
                      <span className="block text-[var(--muted)]">{r.eventName}</span>
                    </td>
                    <td className={`${td} whitespace-nowrap font-mono text-xs`}>{r.orderCode}</td>
                    <td className={td}>
                      {r.buyerName}
                      <span className="block break-all text-xs text-[var(--muted)]">{r.buyerEmail}</span>
                    </td>
                    <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{r.amount}</td>
                    <td className={td}>
                      <Badge tone={STATUS_TONE[r.status]}>{REFUND_STATUS_LABEL[r.status] ?? r.status}</Badge>
                      <span className="block text-xs text-[var(--muted)]">{METHOD_LABEL[r.method] ?? r.method}</span>
                    </td>
                    <td className={td}>{r.automatic ? "Sí" : "No"}</td>
                    <td className={`${td} whitespace-nowrap`}>{r.createdAt}</td>
                    <td className={`${td} whitespace-nowrap`}>{r.decidedAt ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <AdminPager page={page} pages={pages} href={(p) => pageHref(status, p)} />
      </section>

      <section aria-labelledby="proveedor" className="flex flex-col gap-3">
        <div>
          <h2 id="proveedor" className="text-lg font-bold">
            Devoluciones por el medio de pago con problemas
          </h2>
          <p className="text-sm text-[var(--muted)]">Las que fallaron, las que el proveedor sigue rechazando y las que hace más de una hora que esperan sin intentarse.</p>
        </div>
        {providerRefunds.length === 0 ? (
          <p className="text-[var(--muted)]">No hay devoluciones con problemas.</p>
        ) : (
          <div className={wrapper}>
            <table className="w-full min-w-[56rem] text-left text-sm">
              <thead className={head}>
                <tr>
                  <th scope="col" className={th}>
                    Situación
                  </th>
                  <th scope="col" className={th}>
                    Organización
                  </th>
                  <th scope="col" className={th}>
                    Compra
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Monto
                  </th>
                  <th scope="col" className={th}>
                    Pago en el proveedor
                  </th>
                  <th scope="col" className={th}>
                    Motivo
                  </th>
                  <th scope="col" className={th}>
                    Último error
                  </th>
                  <th scope="col" className={th}>
                    Desde
                  </th>
                </tr>
              </thead>
              <tbody className={body}>
                {providerRefunds.map((r) => (
                  <tr key={r.id} data-provider-refund={r.id}>
                    <th scope="row" className={td}>
                      <Badge tone={PROBLEM[r.problem]?.tone} title={PROBLEM[r.problem]?.help}>
                        {PROBLEM[r.problem]?.label ?? r.problem}
                      </Badge>
                    </th>
                    <td className={td}>{r.organizationName}</td>
                    <td className={`${td} whitespace-nowrap font-mono text-xs`}>{r.orderCode}</td>
                    <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{r.amount}</td>
                    <td className={`${td} whitespace-nowrap`}>
                      {PROVIDER_LABEL[r.provider] ?? r.provider} · <span className="font-mono text-xs">{r.providerPaymentId}</span>
                    </td>
                    <td className={td}>{r.reason}</td>
                    <td className={`${td} max-w-xs break-words text-red-700 dark:text-red-300`}>{r.lastError ?? "—"}</td>
                    <td className={`${td} whitespace-nowrap`}>{r.createdAt}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="contracargos" className="flex flex-col gap-3">
        <h2 id="contracargos" className="text-lg font-bold">
          Contracargos
        </h2>
        {chargebacks.length === 0 ? (
          <p className="text-[var(--muted)]">No hubo contracargos.</p>
        ) : (
          <div className={wrapper}>
            <table className="w-full min-w-[44rem] text-left text-sm">
              <thead className={head}>
                <tr>
                  <th scope="col" className={th}>
                    Compra
                  </th>
                  <th scope="col" className={th}>
                    Organización y evento
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Monto
                  </th>
                  <th scope="col" className={th}>
                    Medio de pago
                  </th>
                  <th scope="col" className={th}>
                    Fecha
                  </th>
                </tr>
              </thead>
              <tbody className={body}>
                {chargebacks.map((c) => (
                  <tr key={c.billingId} data-chargeback={c.orderCode}>
                    <th scope="row" className={`${td} whitespace-nowrap font-mono text-xs`}>
                      {c.orderCode}
                    </th>
                    <td className={td}>
                      <span className="font-bold">{c.organizationName}</span>
                      <span className="block text-[var(--muted)]">{c.eventName}</span>
                    </td>
                    <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{c.amount}</td>
                    <td className={td}>{PROVIDER_LABEL[c.provider] ?? c.provider}</td>
                    <td className={`${td} whitespace-nowrap`}>{c.chargedBackAt}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="text-sm text-[var(--muted)]">
          Se muestran los últimos 100. ¿Necesitás ver una organización en particular? Buscala en{" "}
          <Link to="/admin/organizaciones" className="text-primary-700 underline underline-offset-2 dark:text-primary-400">
            Organizaciones
          </Link>{" "}
          y entrá como soporte.
        </p>
      </section>
    </main>
  );
}
