import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { formatDate, formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { RELEASE_HOURS } from "#common/payouts";
import { getWithdrawalBalance, listWithdrawals } from "#server/payouts/withdrawals";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { buttonClasses } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Extracciones · Tribuna" }];

const STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  requested: { label: "Pedida", tone: "neutral" },
  approved: { label: "Aprobada", tone: "primary" },
  paid: { label: "Transferida", tone: "success" },
  rejected: { label: "Rechazada", tone: "danger" },
};

/** `/organizacion/extracciones` (docs/payouts.md): what can be withdrawn now, what is still to be released and when, and the withdrawals asked for. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "money:manage");
  const [balance, list] = await Promise.all([
    guard(() => getWithdrawalBalance(bo.ctx, bo.organization.id)),
    guard(() => listWithdrawals(bo.ctx, { organizationId: bo.organization.id })),
  ]);
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      available: formatMoney(balance.available),
      canWithdraw: balance.available > 0,
      pendingTotal: formatMoney(balance.pending.reduce((sum, p) => sum + p.amount, 0)),
      pending: balance.pending.map((p) => ({ releaseAt: formatDate(p.releaseAt), amount: formatMoney(p.amount) })),
      owed: balance.total < 0 ? formatMoney(-balance.total) : null,
      withdrawals: list.map((w) => ({
        id: w.id,
        amount: formatMoney(w.amount),
        status: w.status,
        account: `${w.bankName} · terminada en ${w.cbuEnd}`,
        requestedAt: formatDateTime(w.requestedAt),
        reason: w.rejectionReason,
        reference: w.transferReference,
      })),
    },
    { headers: bo.headers },
  );
}

export default function WithdrawalsPage() {
  const { available, canWithdraw, pending, pendingTotal, owed, withdrawals } = useLoaderData<typeof loader>();
  const href = useBackofficeHref();
  return (
    <BackofficePage
      title="Extracciones"
      lead={`La plata de cada evento se libera ${RELEASE_HOURS} horas después de que termina (el plazo de arrepentimiento ya pasó y los contracargos de un evento que se hizo son raros). Lo liberado lo podés pasar a tu cuenta bancaria cuando quieras.`}
      actions={
        canWithdraw ? (
          <Link to={href(BO.newWithdrawal)} className={buttonClasses("primary")}>
            Pedir una extracción
          </Link>
        ) : null
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Card title="Disponible">
          <p className="text-3xl font-black tabular-nums" data-testid="available">
            {available}
          </p>
          {owed ? <p className="mt-1 text-sm">Debés {owed} de cargos por servicio de ventas cobradas fuera de Tribuna (transferencias a tu cuenta, efectivo de tus RRPP).</p> : null}
        </Card>
        <Card title="A liberar">
          <p className="text-3xl font-black tabular-nums">{pendingTotal}</p>
          {pending.length ? (
            <ul className="mt-2 text-sm">
              {pending.map((p) => (
                <li key={p.releaseAt}>
                  {p.amount} el {p.releaseAt}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-sm text-[var(--muted)]">Nada pendiente.</p>
          )}
        </Card>
      </div>
      <section aria-labelledby="withdrawals-title" className="mt-6">
        <h2 id="withdrawals-title" className="mb-3 text-lg font-bold">
          Tus extracciones
        </h2>
        {withdrawals.length === 0 ? (
          <EmptyState>Todavía no pediste ninguna extracción.</EmptyState>
        ) : (
          <ul className="flex flex-col gap-3">
            {withdrawals.map((w) => (
              <li key={w.id} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
                <p className="font-bold">
                  {w.amount} <Badge tone={STATUS[w.status].tone}>{STATUS[w.status].label}</Badge>
                </p>
                <p className="text-sm">{w.account}</p>
                <p className="text-sm text-[var(--muted)]">Pedida el {w.requestedAt}</p>
                {w.reference ? <p className="text-sm">Referencia de la transferencia: {w.reference}</p> : null}
                {w.reason ? <p className="text-sm">Motivo del rechazo: {w.reason}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </BackofficePage>
  );
}
