import { errorMessages, isFormError } from "#app/lib/domain-errors.server";
import { holdDuration } from "#common/pricing";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { errorResponse, guard, readForm, requireOrganization } from "#app/lib/backoffice.server";
import { withFlash } from "#app/lib/flash.server";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { ConfirmButton } from "#app/components/ui/Dialog";
import {
  approveBankTransfer,
  BANK_TRANSFER_MESSAGES,
  BANK_TRANSFER_STATUSES,
  listBankTransfers,
  receiptPath,
  rejectBankTransfer,
} from "#server/bank-transfers/bank-transfers";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Transferencias bancarias · Tribuna" }];

const PATH = "/organizacion/transferencias-bancarias";
type StatusFilter = (typeof BANK_TRANSFER_STATUSES)[number];

const TABS: { value: StatusFilter; label: string }[] = [
  { value: "pending", label: "Pendientes" },
  { value: "approved", label: "Aprobadas" },
  { value: "rejected", label: "Rechazadas" },
  { value: "expired", label: "Vencidas" },
  { value: "all", label: "Todas" },
];

const STATUS_BADGES: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: "Pendiente", tone: "warning" },
  approved: { label: "Aprobada", tone: "success" },
  rejected: { label: "Rechazada", tone: "danger" },
  expired: { label: "Vencida", tone: "neutral" },
  closed: { label: "Cerrada", tone: "neutral" },
};

function statusOf(url: URL): StatusFilter {
  const value = url.searchParams.get("estado") ?? "pending";
  return (BANK_TRANSFER_STATUSES as readonly string[]).includes(value) ? (value as StatusFilter) : "pending";
}

/**
 * `bankTransfers(organizationId, status)`: members with `sales:read` see
 * them (of the event picked in the global filter, when one is); approving
 * and rejecting needs `money:manage`, checked again by the domain.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "sales:read");
  const url = new URL(request.url);
  const status = statusOf(url);
  const page = Math.max(0, Number(url.searchParams.get("pagina") ?? 0) || 0);
  const list = await guard(() =>
    listBankTransfers(bo.ctx, { organizationId: bo.organization.id, status, eventId: bo.filters.eventId || undefined, page, limit: 50 }),
  );
  return data(
    {
      status,
      canDecide: bo.can["money:manage"],
      filteredEvent: Boolean(bo.filters.eventId),
      tabs: TABS.map((t) => ({ ...t, href: `${PATH}${bo.query({}, { estado: t.value })}` })),
      total: list.total,
      nextHref: (page + 1) * list.limit < list.total ? `${PATH}${bo.query({}, { estado: status, pagina: String(page + 1) })}` : null,
      prevHref: page > 0 ? `${PATH}${bo.query({}, { estado: status, pagina: String(page - 1) })}` : null,
      items: list.items.map((t) => ({
        billingId: t.billingId,
        orderCode: t.orderCode,
        eventName: t.event.name,
        buyerName: t.buyer.name,
        buyerEmail: t.buyer.email,
        buyerDocument: t.buyer.documentNumber,
        amount: formatMoney(t.amount),
        tickets: t.items.map((i) => `${i.qty} × ${i.name}`).join(", "),
        holdExpiresAt: t.holdExpiresAt ? formatDateTime(t.holdExpiresAt) : null,
        createdAt: formatDateTime(t.createdAt),
        status: t.status,
        receipt: t.receipt ? { href: receiptPath(t.receipt.id), name: t.receipt.originalName, uploadedAt: formatDateTime(t.receipt.uploadedAt), isPdf: t.receipt.contentType === "application/pdf" } : null,
        rejectionReason: t.review?.decision === "rejected" ? t.review.reason : null,
      })),
    },
    { headers: bo.headers },
  );
}

/** Aprobar / Rechazar: the same domain functions as GraphQL; the answer is a snackbar on this page. */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  try {
    if (values.intent === "approve") {
      const { outcome } = await approveBankTransfer(bo.ctx, { billingId: values.billingId ?? "" });
      const message =
        outcome === "orphan-refunded"
          ? BANK_TRANSFER_MESSAGES.approvedLateRefund
          : outcome === "already-approved"
            ? BANK_TRANSFER_MESSAGES.alreadyApproved
            : BANK_TRANSFER_MESSAGES.approved;
      return redirect(back, { headers: withFlash(bo.headers, { type: "success", message }) });
    }
    if (values.intent === "reject") {
      const { outcome } = await rejectBankTransfer(bo.ctx, { billingId: values.billingId ?? "", reason: values.reason ?? "" });
      const message = outcome === "already-rejected" ? BANK_TRANSFER_MESSAGES.alreadyRejected : BANK_TRANSFER_MESSAGES.rejected;
      return redirect(back, { headers: withFlash(bo.headers, { type: "success", message }) });
    }
    return redirect(back, { headers: bo.headers });
  } catch (error) {
    if (isFormError(error)) {
      const message = errorMessages(error)[0];
      return redirect(back, { headers: withFlash(bo.headers, { type: "error", message }) });
    }
    throw errorResponse(error);
  }
}

export default function BankTransfersPage() {
  const { status, canDecide, filteredEvent, tabs, total, items, nextHref, prevHref } = useLoaderData<typeof loader>();
  return (
    <BackofficePage
      title="Transferencias bancarias"
      lead={
        <>
          Compras que se pagan por transferencia. Revisá en tu banco que llegó el monto con el código de compra y aprobala antes de que venza la
          reserva ({holdDuration("BANK_TRANSFER")}): las entradas le llegan al comprador por email. Si no llegó, rechazala y las entradas vuelven a la venta.
        </>
      }
    >
      <nav aria-label="Estado" className="mb-4 flex flex-wrap gap-2">
        {tabs.map((tab) => (
          <Link
            key={tab.value}
            to={tab.href}
            aria-current={tab.value === status ? "page" : undefined}
            className={`rounded-full border px-3 py-1 text-sm font-bold ${tab.value === status ? "border-primary-500 bg-primary-500 text-black" : "border-[var(--border)]"}`}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      <p className="mb-4 text-sm text-[var(--muted)]">
        {total === 1 ? "1 transferencia" : `${total} transferencias`}
        {filteredEvent ? " del evento elegido" : ""}.
      </p>
      {items.length === 0 ? (
        <EmptyState>{status === "pending" ? "No hay transferencias pendientes." : "No hay transferencias en este estado."}</EmptyState>
      ) : (
        <ul className="flex flex-col gap-4">
          {items.map((t) => (
            <li key={t.billingId} data-testid="bank-transfer" data-order-code={t.orderCode}>
              <Card>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <p className="flex flex-wrap items-center gap-2 text-lg font-bold">
                      {t.orderCode}
                      <Badge tone={STATUS_BADGES[t.status]?.tone ?? "neutral"}>{STATUS_BADGES[t.status]?.label ?? t.status}</Badge>
                    </p>
                    <p className="text-sm text-[var(--muted)]">{t.eventName}</p>
                  </div>
                  <p className="text-xl font-bold">{t.amount}</p>
                </div>
                <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
                  <dt className="text-[var(--muted)]">Comprador</dt>
                  <dd>
                    {t.buyerName} · {t.buyerEmail} · DNI {t.buyerDocument}
                  </dd>
                  <dt className="text-[var(--muted)]">Entradas</dt>
                  <dd>{t.tickets}</dd>
                  <dt className="text-[var(--muted)]">Compra</dt>
                  <dd>{t.createdAt}</dd>
                  {t.status === "pending" && t.holdExpiresAt ? (
                    <>
                      <dt className="text-[var(--muted)]">Reserva hasta</dt>
                      <dd className="font-bold">{t.holdExpiresAt}</dd>
                    </>
                  ) : null}
                  <dt className="text-[var(--muted)]">Comprobante</dt>
                  <dd>
                    {t.receipt ? (
                      <a href={t.receipt.href} target="_blank" rel="noreferrer" className="font-medium text-[var(--accent)] underline">
                        {t.receipt.isPdf ? "Descargar" : "Ver"} comprobante ({t.receipt.name}, {t.receipt.uploadedAt})
                      </a>
                    ) : (
                      <span className="text-[var(--muted)]">Sin comprobante todavía</span>
                    )}
                  </dd>
                  {t.rejectionReason ? (
                    <>
                      <dt className="text-[var(--muted)]">Motivo del rechazo</dt>
                      <dd>{t.rejectionReason}</dd>
                    </>
                  ) : null}
                </dl>
                {t.status === "pending" && canDecide ? (
                  <div className="mt-4 flex flex-col gap-3 border-t border-[var(--border)] pt-4 sm:flex-row sm:items-end sm:justify-between">
                    <Form method="post" className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end">
                      <input type="hidden" name="billingId" value={t.billingId} />
                      <label className="flex flex-1 flex-col gap-1 text-sm" htmlFor={`reason-${t.billingId}`}>
                        Motivo del rechazo (opcional, se lo mandamos al comprador)
                        <input
                          id={`reason-${t.billingId}`}
                          name="reason"
                          maxLength={500}
                          className="rounded-lg border border-[var(--border)] bg-[var(--bg)] px-3 py-2"
                          placeholder="Por ejemplo: no llegó la transferencia"
                        />
                      </label>
                      <ConfirmButton
                        name="intent"
                        value="reject"
                        className="rounded-lg border border-red-600 px-4 py-2 text-sm font-bold text-red-700 dark:border-red-500 dark:text-red-400"
                        title={`¿Rechazar la transferencia de ${t.orderCode}?`}
                        description="La compra se cancela, las entradas vuelven a la venta y le avisamos al comprador por email."
                        confirmLabel="Rechazar"
                      >
                        Rechazar
                      </ConfirmButton>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="billingId" value={t.billingId} />
                      <ConfirmButton
                        name="intent"
                        value="approve"
                        tone="primary"
                        className="inline-flex items-center justify-center rounded-lg bg-primary-500 px-4 py-2.5 text-sm font-bold text-black hover:bg-primary-400"
                        title={`¿Aprobar la transferencia de ${t.orderCode}?`}
                        description={`Confirmás que llegaron ${t.amount} a tu cuenta. Las entradas le llegan al comprador por email.`}
                        confirmLabel="Aprobar"
                      >
                        Aprobar
                      </ConfirmButton>
                    </Form>
                  </div>
                ) : null}
                {t.status === "pending" && !canDecide ? (
                  <p className="mt-3 text-sm text-[var(--muted)]">Solo quienes administran el dinero de la organización pueden aprobar o rechazar.</p>
                ) : null}
              </Card>
            </li>
          ))}
        </ul>
      )}
      {prevHref || nextHref ? (
        <nav aria-label="Páginas" className="mt-4 flex justify-between">
          {prevHref ? <Link to={prevHref}>← Anteriores</Link> : <span />}
          {nextHref ? <Link to={nextHref}>Siguientes →</Link> : null}
        </nav>
      ) : null}
    </BackofficePage>
  );
}

