import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { exportNotices } from "#server/reports/exports";
import { invoiceExportMonths, mayExportInvoices } from "#server/invoicing/export";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref, useShell } from "#app/components/backoffice/Shell";
import { SelectField } from "#app/components/ui/Select";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Informes · Tribuna" }];

const REPORTS = [
  { kind: "ventas", title: "Ventas", lead: "Las compras pagadas (sin invitaciones), también las devueltas, con su estado, comprador, medio de pago, importes, lo que te deja cada una, RRPP y los datos extra.", money: false },
  { kind: "asistentes", title: "Asistentes", lead: "Cada entrada con su titular, estado, ingreso y los datos extra de la compra.", money: false },
  { kind: "acreditaciones", title: "Acreditaciones", lead: "Quién entró, cuándo, por qué puerta y con qué dispositivo (la puerta, con o sin conexión).", money: false },
  { kind: "cupones", title: "Usos de cupones", lead: "Cada compra que usó un cupón y cuánto descontó.", money: false },
  { kind: "rrpp", title: "Ventas de RRPP", lead: "Cada compra hecha con el link de un RRPP o vendida en mano, con sus entradas, cuántas ingresaron y cuántas se anularon.", money: false },
  { kind: "libro-mayor", title: "Libro mayor", lead: "Cada movimiento de plata: pagos, cargos, devoluciones, contracargos y extracciones.", money: true },
] as const;

/** `/organizacion/informes`: the organization's data to download, for the event chosen in the filter or all of them. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "sales:read");
  const notices = await guard(() => exportNotices(bo.ctx, bo.organization.id));
  // Tribuna's own invoices (decision 234): only the platform team sees the card; the export itself checks it again.
  const invoiceMonths = mayExportInvoices(bo.ctx) ? invoiceExportMonths(bo.ctx.now) : null;
  return data({ canMoney: bo.can["money:manage"], eventId: bo.filters.eventId || null, orderColumnRenamed: notices.orderColumnRenamed, invoiceMonths }, { headers: bo.headers });
}

export default function ReportsPage() {
  const { canMoney, eventId, orderColumnRenamed, invoiceMonths } = useLoaderData<typeof loader>();
  const href = useBackofficeHref();
  const shell = useShell();
  const eventName = shell?.events.find((e) => e.id === eventId)?.name;
  return (
    <BackofficePage
      title="Informes"
      lead={`${eventName ? `De ${eventName}` : "De todos tus eventos"} (cambialo con el filtro “Evento” de arriba). Se descargan completos, aunque sean cientos de miles de filas. El CSV abre en cualquier planilla; en el Excel los montos y las fechas ya son números y fechas, listos para sumar y ordenar.`}
    >
      {orderColumnRenamed ? (
        <p className="mb-4 rounded-lg border border-[var(--border)] bg-[var(--surface)] p-3 text-sm" data-testid="renamed-column">
          <strong>Cambió un encabezado:</strong> la columna que se llamaba «Orden» ahora se llama «Compra», como en el resto de
          Tribuna (el contenido es el mismo, el código <span className="whitespace-nowrap">TRB-…</span>). Si una planilla tuya la busca por nombre, actualizala.
        </p>
      ) : null}
      <ul className="grid gap-4 sm:grid-cols-2">
        {REPORTS.filter((r) => canMoney || !r.money).map((report) => (
          <li key={report.kind}>
            <Card title={report.title}>
              <p className="text-sm text-[var(--muted)]">{report.lead}</p>
              <p className="mt-3 flex gap-4 font-bold">
                <a href={href("/organizacion/informes/descargar", {}, { tipo: report.kind, formato: "csv" })} className="text-primary-700 underline dark:text-primary-400" download>
                  Bajar CSV<span className="sr-only"> de {report.title}</span>
                </a>
                <a href={href("/organizacion/informes/descargar", {}, { tipo: report.kind, formato: "xlsx" })} className="text-primary-700 underline dark:text-primary-400" download>
                  Bajar Excel<span className="sr-only"> de {report.title}</span>
                </a>
              </p>
            </Card>
          </li>
        ))}
        {invoiceMonths ? (
          <li>
            <Card title="Facturas y notas de crédito">
              <p className="text-sm text-[var(--muted)]">
                Para el contador, solo para el equipo de Tribuna: cada comprobante del cargo por servicio de <strong>toda la plataforma</strong> (no solo de
                esta organización ni del evento elegido), con su CAE, receptor, neto, IVA, total y estado.
              </p>
              {/* A plain GET form: the file downloads as a normal navigation, with or without JavaScript. */}
              <form method="get" action="/organizacion/informes/descargar" className="mt-3 flex flex-col gap-3">
                {shell?.linkFilters.organizationId ? <input type="hidden" name="organizationId" value={shell.linkFilters.organizationId} /> : null}
                <input type="hidden" name="tipo" value="facturas" />
                <SelectField
                  label="Mes de emisión"
                  selectProps={{ id: "facturas-mes", name: "mes", defaultValue: invoiceMonths[0]?.value ?? "" }}
                  options={[...invoiceMonths, { value: "", label: "Todos los meses" }]}
                />
                <p className="flex flex-wrap gap-3">
                  <Button type="submit" variant="secondary" name="formato" value="csv">
                    Bajar CSV<span className="sr-only"> de facturas y notas de crédito</span>
                  </Button>
                  <Button type="submit" variant="secondary" name="formato" value="xlsx">
                    Bajar Excel<span className="sr-only"> de facturas y notas de crédito</span>
                  </Button>
                </p>
              </form>
            </Card>
          </li>
        ) : null}
      </ul>
    </BackofficePage>
  );
}
