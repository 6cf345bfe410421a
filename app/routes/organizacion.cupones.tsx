import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { couponLabel, listCoupons, setCouponStatus } from "#server/coupons/coupons";
import { appUrl } from "#server/env";
import { formatDateTime } from "#common/dates";
import { guard, requireOrganization, statusIntentAction } from "#app/lib/backoffice.server";
import { FormErrorList, FormSnackbar } from "#app/components/backoffice/forms";
import { BackofficePage, EmptyState } from "#app/components/backoffice/Page";
import { StatusActions } from "#app/components/backoffice/StatusActions";
import { useBackofficeHref, useShell } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Badge } from "#app/components/ui/Badge";
import { buttonClasses } from "#app/components/ui/Button";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Cupones · Tribuna" }];

export const COUPONS_PATH = "/organizacion/cupones";

/** The organization's coupons, of the event chosen in the global filter when there is one. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const eventId = bo.filters.eventId || undefined;
  const list = await guard(() => listCoupons(bo.ctx, { organizationId: bo.organization.id, eventId, limit: 100 }));
  const base = appUrl();
  return data(
    {
      eventId: eventId ?? null,
      total: list.total,
      coupons: list.items.map((c) => ({
        id: c.id,
        code: c.code,
        event: c.event,
        discount: couponLabel(c),
        onlyFor: c.ticketTypeNames,
        uses: c.uses,
        maxUses: c.maxUses,
        validFrom: c.validFrom ? formatDateTime(c.validFrom) : null,
        validUntil: c.validUntil ? formatDateTime(c.validUntil) : null,
        status: c.status,
        link: `${base}/canjear/${c.id}`,
      })),
    },
    { headers: bo.headers },
  );
}

/** Pause, resume or delete a coupon (`setCouponStatus`); the domain checks it is this member's. */
export function action({ request }: ActionFunctionArgs) {
  return statusIntentAction(request, {
    idName: "couponId",
    unknownIntent: "Elegí qué hacer con el cupón",
    setStatus: setCouponStatus,
    messages: { deleted: "Eliminamos el cupón", paused: "Pausamos el cupón", active: "Reactivamos el cupón" },
  });
}

export default function CouponsPage() {
  const { coupons, eventId } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const shell = useShell();
  const events = shell?.events ?? [];

  return (
    <BackofficePage
      title="Cupones"
      lead="Descuentos con código para tus eventos: compartí el link de canje y el cupón queda aplicado."
      actions={
        <Link to={href(`${COUPONS_PATH}/nuevo`)} className={buttonClasses("primary")}>
          Crear cupón
        </Link>
      }
    >
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-2" aria-label="Filtrar cupones por evento">
        {Object.entries(shell?.linkFilters ?? {})
          .filter(([k, v]) => k === "organizationId" && v)
          .map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={String(v)} />
          ))}
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Evento</span>
          <select name="eventId" defaultValue={eventId ?? ""} className="min-h-10 rounded-lg border border-[var(--border)] bg-[var(--bg)] px-3">
            <option value="">Todos los eventos</option>
            {events.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClasses("secondary")}>
          Filtrar
        </button>
      </Form>
      <FormErrorList reply={reply} />
      {coupons.length === 0 ? (
        <EmptyState>
          <p className="font-bold text-[var(--text)]">{eventId ? "Este evento no tiene cupones." : "Todavía no creaste cupones."}</p>
          <p className="mt-1">Creá uno con un porcentaje o un monto fijo de descuento.</p>
        </EmptyState>
      ) : (
        <ScrollTable label="Cupones">
          <table className="w-full min-w-[56rem] text-left text-sm">
            <thead className="bg-[var(--surface)] text-xs uppercase tracking-wide text-[var(--muted)]">
              <tr>
                <th scope="col" className="px-4 py-3">Código</th>
                <th scope="col" className="px-4 py-3">Descuento</th>
                <th scope="col" className="px-4 py-3">Usos / límite</th>
                <th scope="col" className="px-4 py-3">Validez</th>
                <th scope="col" className="px-4 py-3">Link de canje</th>
                <th scope="col" className="px-4 py-3">Acciones</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-[var(--border)]">
              {coupons.map((c) => (
                <tr key={c.id} data-coupon={c.code}>
                  <th scope="row" className="px-4 py-3 align-top">
                    <span className="font-bold">{c.code}</span>{" "}
                    <Badge tone={c.status === "active" ? "success" : "warning"}>{c.status === "active" ? "Activo" : "Pausado"}</Badge>
                    <span className="block text-xs font-normal text-[var(--muted)]">{c.event.name}</span>
                  </th>
                  <td className="px-4 py-3 align-top">
                    {c.discount}
                    <span className="block text-xs text-[var(--muted)]">{c.onlyFor.length ? `Solo: ${c.onlyFor.join(", ")}` : "Todas las entradas"}</span>
                  </td>
                  <td className="px-4 py-3 align-top whitespace-nowrap" data-uses="">
                    {c.uses} / {c.maxUses ?? "sin límite"}
                  </td>
                  <td className="px-4 py-3 align-top text-xs">
                    {c.validFrom ? <span className="block">Desde {c.validFrom}</span> : null}
                    {c.validUntil ? <span className="block">Hasta {c.validUntil}</span> : null}
                    {!c.validFrom && !c.validUntil ? "Siempre" : null}
                  </td>
                  <td className="px-4 py-3 align-top">
                    <label className="sr-only" htmlFor={`link-${c.id}`}>
                      Link de canje de {c.code}
                    </label>
                    <input
                      id={`link-${c.id}`}
                      readOnly
                      value={c.link}
                      onFocus={(e) => e.currentTarget.select()}
                      className="w-64 rounded-lg border border-[var(--border)] bg-[var(--bg)] px-2 py-1 font-mono text-xs"
                    />
                  </td>
                  <td className="px-4 py-3 align-top">
                    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                      <Link to={href(`${COUPONS_PATH}/${c.id}`)} className="text-[var(--accent)] hover:underline">
                        Editar
                      </Link>
                      <StatusActions
                        idName="couponId"
                        id={c.id}
                        paused={c.status === "paused"}
                        deleteTitle={`¿Eliminar el cupón “${c.code}”?`}
                        deleteDescription="Deja de valer para compras nuevas; las compras hechas con él no cambian. No se puede deshacer."
                        deleteConfirmLabel="Eliminar cupón"
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
