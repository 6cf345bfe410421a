import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { listAccreditations, undoRedemption } from "#server/door/accreditations";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { FormErrorList, FormSnackbar } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref, useShell } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Acreditaciones · Tribuna" }];

/** Who entered, newest first, of the event (and date) chosen in the filters; searchable by holder, order code or door. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "sales:read");
  const url = new URL(request.url);
  const page = Math.max(0, Math.min(100_000, Number.parseInt(url.searchParams.get("pagina") ?? "0", 10) || 0));
  const query = url.searchParams.get("buscar") ?? "";
  const filter = { organizationId: bo.organization.id, eventId: bo.filters.eventId || null, eventDateId: bo.filters.eventDateId || null, query, page };
  const list = await guard(() => listAccreditations(bo.ctx, filter));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      query,
      page: list.page,
      limit: list.limit,
      total: list.total,
      canUndo: bo.can["door:undo"],
      // The device by its label, as the CSV says it ("Dispositivo 3F9A"); its raw id never leaves the server.
      items: list.items.map(({ deviceId: _deviceId, ...a }) => ({ ...a, redeemedAt: formatDateTime(a.redeemedAt), eventDateStartsAt: formatDateTime(a.eventDateStartsAt) })),
    },
    { headers: bo.headers },
  );
}

/** `undo`: the ticket can enter again (owners and admins; audited). */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  try {
    await undoRedemption(bo.ctx, { issuedProductId: values.issuedProductId ?? "", reason: values.reason });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers });
  }
  const url = new URL(request.url);
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers, "Listo: deshicimos el ingreso. La entrada puede volver a usarse.");
}

export default function AccreditationsPage() {
  const { items, total, page, limit, query, canUndo } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const shell = useShell();
  const pages = Math.max(1, Math.ceil(total / limit));
  const csv = href(BO.accreditationsCsv, {}, query ? { buscar: query } : {});
  return (
    <BackofficePage
      title="Acreditaciones"
      lead="Quién entró, cuándo, por qué puerta y con qué dispositivo. Elegí un evento y una fecha arriba para ver solo los suyos."
      actions={
        <a href={csv} className={buttonClasses("secondary")} download>
          Descargar CSV
        </a>
      }
    >
      <FormErrorList reply={reply} />
      <Form method="get" role="search" className="mb-4 flex gap-2">
        {shell
          ? Object.entries({ organizationId: shell.linkFilters.organizationId, eventId: shell.linkFilters.eventId, eventDateId: shell.linkFilters.eventDateId })
              .filter(([, v]) => v)
              .map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)
          : null}
        <label htmlFor="buscar" className="sr-only">Buscar por titular, compra o puerta</label>
        <input id="buscar" name="buscar" defaultValue={query} placeholder="Titular, código de compra o puerta" className={fieldInputClasses} />
        <Button type="submit" variant="secondary">Buscar</Button>
      </Form>
      <p className="mb-2 text-sm text-[var(--muted)]">{total === 1 ? "1 ingreso" : `${total.toLocaleString("es-AR")} ingresos`}</p>
      {items.length === 0 ? (
        <EmptyState>{query ? `No hay ingresos que coincidan con “${query}”.` : "Todavía no entró nadie."}</EmptyState>
      ) : (
        <ul className="flex flex-col divide-y divide-[var(--border)] rounded-2xl border border-[var(--border)]" data-testid="accreditations">
          {items.map((a) => (
            <li key={a.issuedProductId} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="font-bold">{a.holderName}</p>
                <p className="text-sm">
                  {a.ticketTypeName}
                  {a.seatLabel ? ` · ${a.seatLabel}` : ""} · {a.orderCode} · {a.eventName}
                </p>
                <p className="text-sm text-[var(--muted)]">
                  Entró {a.redeemedAt}
                  {a.door ? ` por ${a.door}` : ""}
                  {a.scannedBy ? ` · ${a.scannedBy}` : ""}
                  {a.deviceLabel ? ` · ${a.deviceLabel}` : ""}
                  {a.offline ? " · sin conexión" : ""}
                </p>
              </div>
              {canUndo ? (
                <Form method="post" className="flex gap-2">
                  <input type="hidden" name="issuedProductId" value={a.issuedProductId} />
                  <input type="hidden" name="reason" value="Deshecho desde Acreditaciones" />
                  <Button type="submit" variant="secondary" aria-label={`Deshacer el ingreso de ${a.holderName}`}>
                    Deshacer ingreso
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label="Páginas" className="mt-4 flex items-center justify-between text-sm">
          {page > 0 ? <Link to={href(BO.accreditations, {}, { pagina: String(page - 1), ...(query ? { buscar: query } : {}) })} className="text-primary-600 hover:underline dark:text-primary-400">Anterior</Link> : <span />}
          <span>
            Página {page + 1} de {pages}
          </span>
          {page + 1 < pages ? <Link to={href(BO.accreditations, {}, { pagina: String(page + 1), ...(query ? { buscar: query } : {}) })} className="text-primary-600 hover:underline dark:text-primary-400">Siguiente</Link> : <span />}
        </nav>
      ) : null}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
