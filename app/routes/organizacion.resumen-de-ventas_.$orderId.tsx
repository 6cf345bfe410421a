import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { seatLabel } from "#common/seating";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { approveRefund, markRefundTransferred, rejectRefund } from "#server/refunds/refunds";
import { getOrganizationOrder } from "#server/refunds/sales";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { failedReply, guard, requireBackoffice, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { DisplayStatusBadge, LEDGER_KIND_LABEL, PAYMENT_METHOD_LABEL, REFUND_STATUS_LABEL, TICKET_STATUS_LABEL } from "#app/components/sales/status";
import { Badge } from "#app/components/ui/Badge";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";
import { FieldFrame, controlAria, fieldInputClasses } from "#app/components/ui/Field";
import { FormSnackbar } from "#app/components/ui/FormSnackbar";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Detalle de la compra · Tribuna" }];

/**
 * /organizacion/resumen-de-ventas/{orderId} (the file name's `_` keeps it out
 * of the list page's layout): one order for the organizer — buyer, items,
 * amounts, status, tickets, ledger entries and withdrawal requests, with
 * Aprobar / Rechazar and "Marcar como transferido" for money managers.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireBackoffice(request);
  const view = await guard(() => getOrganizationOrder(bo.ctx, params.orderId ?? ""));
  const { order } = view;
  return data(
    {
      canDecide: bo.can["money:manage"] || bo.role === "platform-admin",
      order: {
        id: order.id,
        code: order.code,
        createdAt: formatDateTime(order.createdAt),
        status: order.status,
        gift: order.gift,
        paymentMethod: PAYMENT_METHOD_LABEL[order.paymentMethod] ?? order.paymentMethod,
        payer: order.payer,
        subtotal: formatMoney(order.subtotal),
        serviceFee: formatMoney(order.serviceFee),
        discount: order.discount ? formatMoney(order.discount) : null,
        total: formatMoney(order.total),
        items: order.items.map((i) => ({ id: i.id, name: i.name, qty: i.qty, unitPrice: formatMoney(i.unitPrice), subtotal: formatMoney(i.unitPrice * i.qty) })),
      },
      event: { name: view.event.name, startsAt: formatDateTime(view.event.startsAt) },
      displayStatus: view.displayStatus,
      billings: view.billings.map((b) => ({ id: b.id, status: b.status, provider: b.provider, amount: formatMoney(b.amount), reference: b.providerReference, updatedAt: formatDateTime(b.updatedAt) })),
      tickets: view.tickets.map((t) => ({ id: t.id, holder: t.holderName, seat: seatLabel({ section: t.seatSection, row: t.seatRow, number: t.seatNumber }), status: t.status })),
      ledger: view.ledger.map((e) => ({ id: e.id, kind: e.kind, amount: formatMoney(e.amount), description: e.description, createdAt: formatDateTime(e.createdAt) })),
      ledgerTotal: formatMoney(view.ledger.reduce((sum, e) => sum + e.amount, 0)),
      refunds: view.refunds.map((r) => ({
        id: r.id,
        code: r.code,
        status: r.status,
        automatic: r.automatic,
        method: r.method,
        cbu: r.cbu,
        reason: r.reason,
        rejectionReason: r.rejectionReason,
        transferredAt: r.transferredAt ? formatDateTime(r.transferredAt) : null,
        createdAt: formatDateTime(r.createdAt),
        decidedAt: r.decidedAt ? formatDateTime(r.decidedAt) : null,
      })),
    },
    { headers: bo.headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireBackoffice(request);
  const form = await request.formData();
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
  const id = values.requestId ?? "";
  const back = new URL(request.url);
  try {
    if (values.intent === "approve") {
      await approveRefund(bo.ctx, { id });
      return savedRedirect(back.pathname + back.search, bo.headers, "Aprobaste la devolución: la compra quedó devuelta y las entradas anuladas.");
    }
    if (values.intent === "reject") {
      await rejectRefund(bo.ctx, { id, reason: values.reason ?? "" });
      return savedRedirect(back.pathname + back.search, bo.headers, "Rechazaste la devolución. Le avisamos al comprador.");
    }
    if (values.intent === "transferred") {
      await markRefundTransferred(bo.ctx, { id });
      return savedRedirect(back.pathname + back.search, bo.headers, "Marcaste la devolución como transferida.");
    }
    return data({ message: "Acción desconocida" }, { status: 400 });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, target: id, fields: (key) => key === "reason" });
  } finally {
    void params;
  }
}

const BILLING_STATUS_LABEL: Record<string, string> = { pending: "Pendiente", approved: "Aprobado", cancelled: "Cancelado", refunded: "Devuelto", charged_back: "Contracargo" };

export default function OrderDetailPage() {
  const { order, event, displayStatus, billings, tickets, ledger, ledgerTotal, refunds, canDecide } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const href = useBackofficeHref();
  return (
    <BackofficePage
      title={`Compra ${order.code}`}
      lead={
        <span className="flex flex-wrap items-center gap-2">
          {event.name} · {event.startsAt} · <DisplayStatusBadge status={displayStatus} />
          {order.gift ? <Badge>Regalo</Badge> : null}
        </span>
      }
      actions={
        <Link to={href("/organizacion/resumen-de-ventas")} className={buttonClasses("secondary")}>
          Volver a las ventas
        </Link>
      }
    >
      <FormSnackbar snackbar={reply?.snackbar} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Devoluciones">
          {refunds.length === 0 ? (
            <p className="text-sm text-[var(--muted)]">El comprador no pidió la devolución de esta compra.</p>
          ) : (
            <ul className="flex flex-col gap-4">
              {refunds.map((r) => {
                const mine = reply && reply.target === r.id ? reply : null;
                return (
                  <li key={r.id} className="rounded-xl border border-[var(--border)] p-4" data-refund={r.code}>
                    <p className="flex flex-wrap items-center gap-2 font-bold">
                      {r.code}
                      <Badge tone={r.status === "pending" ? "warning" : r.status === "refunded" ? "secondary" : "neutral"}>{REFUND_STATUS_LABEL[r.status] ?? r.status}</Badge>
                      {r.automatic ? <Badge>Automática (dentro del plazo legal)</Badge> : null}
                    </p>
                    <p className="mt-1 text-sm text-[var(--muted)]">Pedida el {r.createdAt}{r.decidedAt ? ` · resuelta el ${r.decidedAt}` : ""}</p>
                    {r.reason ? <p className="mt-1 text-sm">Motivo del comprador: “{r.reason}”</p> : null}
                    {r.rejectionReason ? <p className="mt-1 text-sm">Motivo del rechazo: {r.rejectionReason}</p> : null}
                    {r.method === "bank_transfer" ? (
                      <p className="mt-1 text-sm">
                        Devolución por transferencia al CBU/CVU <strong className="font-mono tabular-nums">{r.cbu}</strong>
                        {r.transferredAt ? ` · transferida el ${r.transferredAt}` : r.status === "refunded" ? " · falta transferir" : ""}
                      </p>
                    ) : null}
                    {mine?.formErrors.length ? (
                      <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
                        {mine.formErrors.join(" ")}
                      </p>
                    ) : null}
                    {canDecide && r.status === "pending" ? (
                      <div className="mt-3 flex flex-col gap-3">
                        <p className="text-sm text-[var(--muted)]">
                          Está fuera del plazo legal: podés aprobarla igual (se devuelve todo y se anulan las entradas) o rechazarla con un motivo.
                        </p>
                        <Form method="post">
                          <input type="hidden" name="requestId" value={r.id} />
                          <ConfirmButton
                            name="intent"
                            value="approve"
                            title="¿Aprobar la devolución?"
                            description={`Se devuelve ${order.total} al comprador y se anulan sus entradas.`}
                            confirmLabel="Aprobar"
                            tone="primary"
                            className={buttonClasses("primary")}
                            disabled={busy}
                          >
                            Aprobar devolución
                          </ConfirmButton>
                        </Form>
                        <Form method="post" className="flex flex-col gap-2">
                          <input type="hidden" name="requestId" value={r.id} />
                          <FieldFrame id={`reason-${r.id}`} label="Motivo del rechazo" errors={mine?.errors.reason ?? null}>
                            <textarea
                              id={`reason-${r.id}`}
                              name="reason"
                              rows={2}
                              maxLength={500}
                              defaultValue={mine?.values.reason ?? ""}
                              className={fieldInputClasses}
                              {...controlAria(`reason-${r.id}`, undefined, mine?.errors.reason ?? null)}
                            />
                          </FieldFrame>
                          <Button type="submit" name="intent" value="reject" variant="secondary" pending={busy}>
                            Rechazar devolución
                          </Button>
                        </Form>
                      </div>
                    ) : null}
                    {canDecide && r.status === "refunded" && r.method === "bank_transfer" && !r.transferredAt ? (
                      <Form method="post" className="mt-3">
                        <input type="hidden" name="requestId" value={r.id} />
                        <Button type="submit" name="intent" value="transferred" pending={busy}>
                          Marcar como transferido
                        </Button>
                      </Form>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </Card>

        <Card title="Comprador">
          <dl className="grid grid-cols-[auto,1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-[var(--muted)]">Nombre</dt>
            <dd>
              {order.payer.firstName} {order.payer.lastName}
            </dd>
            <dt className="text-[var(--muted)]">Email</dt>
            <dd>{order.payer.email}</dd>
            <dt className="text-[var(--muted)]">Documento</dt>
            <dd>
              {order.payer.documentType.toUpperCase()} {order.payer.documentNumber}
            </dd>
            <dt className="text-[var(--muted)]">Teléfono</dt>
            <dd>{order.payer.phoneNumber}</dd>
            <dt className="text-[var(--muted)]">Comprada</dt>
            <dd>{order.createdAt}</dd>
            <dt className="text-[var(--muted)]">Medio de pago</dt>
            <dd>{order.paymentMethod}</dd>
          </dl>
        </Card>

        <Card title="Entradas compradas">
          <ul className="text-sm">
            {order.items.map((i) => (
              <li key={i.id} className="flex justify-between gap-2 py-1">
                <span>
                  {i.qty} × {i.name} ({i.unitPrice})
                </span>
                <span>{i.subtotal}</span>
              </li>
            ))}
            <li className="flex justify-between gap-2 border-t border-[var(--border)] py-1 text-[var(--muted)]">
              <span>Cargo por servicio</span>
              <span>{order.serviceFee}</span>
            </li>
            {order.discount ? (
              <li className="flex justify-between gap-2 py-1 text-[var(--muted)]">
                <span>Descuento</span>
                <span>−{order.discount}</span>
              </li>
            ) : null}
            <li className="flex justify-between gap-2 py-1 font-bold">
              <span>Total</span>
              <span>{order.total}</span>
            </li>
          </ul>
          <h3 className="mt-4 font-bold">Entradas</h3>
          <ul className="mt-2 text-sm">
            {tickets.length === 0 ? <li className="text-[var(--muted)]">Sin entradas emitidas.</li> : null}
            {tickets.map((t) => (
              <li key={t.id} className="flex justify-between gap-2 py-1" data-ticket-status={t.status}>
                <span>
                  {t.holder}
                  {t.seat ? <span className="block text-[var(--muted)]">{t.seat}</span> : null}
                </span>
                <Badge tone={t.status === "voided" ? "danger" : t.status === "redeemed" ? "neutral" : "success"}>{TICKET_STATUS_LABEL[t.status] ?? t.status}</Badge>
              </li>
            ))}
          </ul>
        </Card>

        <Card title="Pagos y movimientos">
          <ul className="text-sm">
            {billings.map((b) => (
              <li key={b.id} className="py-1">
                {b.provider} · {BILLING_STATUS_LABEL[b.status] ?? b.status} · {b.amount}
                {b.reference ? ` · ref. ${b.reference}` : ""} · {b.updatedAt}
              </li>
            ))}
          </ul>
          <h3 className="mt-4 font-bold">Libro mayor de la compra</h3>
          {ledger.length === 0 ? (
            <p className="text-sm text-[var(--muted)]">Sin movimientos.</p>
          ) : (
            <table className="mt-2 w-full text-left text-sm">
              <tbody className="divide-y divide-[var(--border)]">
                {ledger.map((e) => (
                  <tr key={e.id}>
                    <td className="py-1 pr-2">{LEDGER_KIND_LABEL[e.kind] ?? e.kind}</td>
                    <td className="py-1 pr-2 text-[var(--muted)]">{e.createdAt}</td>
                    <td className="py-1 text-right whitespace-nowrap">{e.amount}</td>
                  </tr>
                ))}
                <tr className="font-bold">
                  <td className="py-1" colSpan={2}>
                    Para la organización
                  </td>
                  <td className="py-1 text-right whitespace-nowrap">{ledgerTotal}</td>
                </tr>
              </tbody>
            </table>
          )}
        </Card>
      </div>
    </BackofficePage>
  );
}
