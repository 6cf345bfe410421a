import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { listInvoicesForAdmin } from "#server/invoicing/queries";
import { RETRY_MESSAGES } from "#common/invoicing";
import { retryRejectedInvoice } from "#server/invoicing/retry";
import { CONFLICT_FORM_STATUS, errorMessages, isFormError, pageErrorResponse } from "#app/lib/domain-errors.server";
import { requireUser } from "#app/lib/session.server";
import { AdminNav, AdminPager, adminTable } from "#app/components/admin/AdminNav";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Facturas · Equipo de Tribuna" }, { name: "robots", content: "noindex" }];

const PATH = "/admin/facturas";

/** The invoice statuses of the filter, in the order of the select (values as in the schema). */
const STATUS_OPTIONS = ["pending", "sending", "rejected", "authorised"] as const;
const STATUS_LABEL: Record<string, string> = { pending: "Pendiente", sending: "Enviada, sin respuesta", rejected: "Rechazada", authorised: "Autorizada" };
const STATUS_TONE: Record<string, BadgeTone> = { pending: "warning", sending: "warning", rejected: "danger", authorised: "secondary" };
const KIND_LABEL: Record<string, string> = { invoice: "Factura", credit_note: "Nota de crédito" };

/**
 * The platform team's view of the invoices of our service charge (docs/invoicing.md): pending, sent without
 * an answer yet, rejected (with ARCA's codes and observations as ARCA wrote them) and authorised, with their
 * CAE. `?estado=` filters (an unknown one shows all), `?pagina=` pages. A rejected one has «Reintentar» (the action).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  headers.set("Cache-Control", "private, no-store");
  const url = new URL(request.url);
  let list: Awaited<ReturnType<typeof listInvoicesForAdmin>>;
  try {
    list = await listInvoicesForAdmin(ctx, { status: url.searchParams.get("estado"), page: Number.parseInt(url.searchParams.get("pagina") ?? "1", 10) });
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
  return data(
    {
      // After «Reintentar»: the voucher that went back to ARCA (the action's redirect says which).
      retried: url.searchParams.get("reintentada"),
      status: list.status ?? "",
      counts: list.counts,
      page: list.page,
      pages: list.pages,
      items: list.items.map((i) => ({
        id: i.id,
        kind: i.kind,
        voucher: `${KIND_LABEL[i.kind] ?? i.kind} ${i.letter}`,
        number: i.number ? `${String(i.pointOfSale).padStart(5, "0")}-${String(i.number).padStart(8, "0")}` : `${String(i.pointOfSale).padStart(5, "0")}-…`,
        organizationName: i.organizationName,
        eventName: i.eventName,
        orderCode: i.orderCode,
        total: formatMoney(i.total),
        status: i.status,
        cae: i.cae,
        caeDueDate: i.caeDueDate,
        reasons: [...i.errors, ...i.observations].map((m) => `${m.code}: ${m.message}`),
        lastError: i.lastError,
        environment: i.environment,
        createdAt: formatDateTime(i.createdAt),
      })),
    },
    { headers },
  );
}

/**
 * «Reintentar» on a rejected voucher: `retryRejectedInvoice` (platform admin only, checked there) puts it back
 * in the queue; back to the same list, which says so. A refusal (no longer rejected) is said on its row.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  headers.set("Cache-Control", "private, no-store");
  const form = await request.formData();
  const invoiceId = String(form.get("invoiceId") ?? "");
  try {
    if (form.get("intent") !== "retry") return data({ invoiceId, error: "No entendimos qué querías hacer." }, { status: 400, headers });
    await retryRejectedInvoice(ctx, invoiceId);
    const back = new URL(request.url);
    back.searchParams.set("reintentada", invoiceId);
    return redirect(`${PATH}${back.search}`, { headers });
  } catch (error) {
    if (isFormError(error)) return data({ invoiceId, error: errorMessages(error)[0] }, { status: CONFLICT_FORM_STATUS[error.code], headers });
    throw pageErrorResponse(error, { headers });
  }
}

function pageHref(status: string, page: number) {
  const params = new URLSearchParams();
  if (status) params.set("estado", status);
  if (page > 1) params.set("pagina", String(page));
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

export default function AdminInvoices() {
  const { status, counts, page, pages, items, retried } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const { wrapper, head, body, th, td } = adminTable;
  return (
    <main className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminNav />
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold">Facturas del cargo por servicio</h1>
        <p className="text-sm text-[var(--muted)]">
          Las facturas y notas de crédito que Tribuna pide a ARCA por su cargo por servicio. Las pendientes se reintentan solas; las rechazadas muestran lo que dijo ARCA y, una vez resuelto el problema, se pueden reintentar.
        </p>
      </div>
      {retried ? (
        <p role="status" className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-3 text-sm">
          {RETRY_MESSAGES.queued}
        </p>
      ) : null}

      <section aria-labelledby="totales">
        <h2 id="totales" className="sr-only">
          Totales
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {STATUS_OPTIONS.map((s) => (
            <div key={s} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
              <dt className="text-sm text-[var(--muted)]">{STATUS_LABEL[s]}</dt>
              <dd className="mt-1 text-2xl font-bold tabular-nums">{counts[s]}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="comprobantes" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id="comprobantes" className="text-lg font-bold">
            Comprobantes
          </h2>
          <Form method="get" className="flex items-end gap-2">
            <label className="flex flex-col gap-1 text-sm">
              <span>Estado</span>
              <select name="estado" defaultValue={status} className={fieldInputClasses}>
                <option value="">Todos los estados</option>
                {STATUS_OPTIONS.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABEL[s]}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="secondary">
              Filtrar
            </Button>
          </Form>
        </div>
        {items.length === 0 ? (
          <p className="text-[var(--muted)]">{status ? "No hay comprobantes con ese estado." : "Todavía no hay comprobantes."}</p>
        ) : (
          <div className={wrapper}>
            <table className="w-full min-w-[64rem] text-left text-sm">
              <thead className={head}>
                <tr>
                  <th scope="col" className={th}>
                    Comprobante
                  </th>
                  <th scope="col" className={th}>
                    Organización y evento
                  </th>
                  <th scope="col" className={th}>
                    Compra
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Importe
                  </th>
                  <th scope="col" className={th}>
                    Estado
                  </th>
                  <th scope="col" className={th}>
                    CAE
                  </th>
                  <th scope="col" className={th}>
                    Lo que dijo ARCA
                  </th>
                  <th scope="col" className={th}>
                    Pedida
                  </th>
                </tr>
              </thead>
              <tbody className={body}>
                {items.map((i) => (
                  <tr key={i.id} data-invoice={i.id}>
                    <th scope="row" className={`${td} whitespace-nowrap`}>
                      {i.voucher}
                      <span className="block font-mono text-xs text-[var(--muted)]">{i.number}</span>
                      {i.environment === "homologacion" ? <span className="block text-xs text-[var(--muted)]">Homologación</span> : null}
                    </th>
                    <td className={td}>
                      <span className="font-bold">{i.organizationName}</span>
                      <span className="block text-[var(--muted)]">{i.eventName}</span>
                    </td>
                    <td className={`${td} whitespace-nowrap font-mono text-xs`}>{i.orderCode}</td>
                    <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{i.total}</td>
                    <td className={td}>
                      <Badge tone={STATUS_TONE[i.status]}>{STATUS_LABEL[i.status] ?? i.status}</Badge>
                    </td>
                    <td className={`${td} whitespace-nowrap`}>
                      {i.cae ? (
                        <>
                          <span className="font-mono text-xs">{i.cae}</span>
                          <span className="block text-xs text-[var(--muted)]">Vence {i.caeDueDate}</span>
                        </>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className={`${td} max-w-sm break-words`}>
                      {i.reasons.length ? (
                        <ul className="flex flex-col gap-1">
                          {i.reasons.map((r) => (
                            <li key={r}>{r}</li>
                          ))}
                        </ul>
                      ) : null}
                      {i.lastError ? <span className="block text-red-700 dark:text-red-300">Último intento: {i.lastError}</span> : null}
                      {!i.reasons.length && !i.lastError ? "—" : null}
                    </td>
                    <td className={`${td} whitespace-nowrap`}>
                      {i.createdAt}
                      {i.status === "rejected" ? (
                        <Form method="post" className="mt-2">
                          <input type="hidden" name="intent" value="retry" />
                          <input type="hidden" name="invoiceId" value={i.id} />
                          <Button type="submit" variant="secondary" className="min-h-11" aria-label={`Reintentar ${i.voucher} de la compra ${i.orderCode}`}>
                            Reintentar
                          </Button>
                        </Form>
                      ) : null}
                      {failure?.invoiceId === i.id ? (
                        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
                          {failure.error}
                        </p>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <AdminPager page={page} pages={pages} href={(p) => pageHref(status, p)} />
      </section>
    </main>
  );
}
