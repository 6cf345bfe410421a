import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { formatDateTime } from "#common/dates";
import { requireEventBySlug } from "#server/events/events";
import { GIVEAWAY_TEMPLATE_CSV } from "#common/invitations";
import { getGiveaway, listGiveawayRows, listGiveaways, previewGiveaway, startGiveaway } from "#server/invitations/giveaways";
import { invitationTarget } from "#server/invitations/invitations";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { FieldErrors } from "#app/components/ui/Field";
import { FileInput } from "#app/components/ui/FileInput";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Mandar entradas con una planilla · Tribuna" }];

const ROWS_PER_PAGE = 200;
const STATUS_VIEW = {
  problemas: { label: "Con error", statuses: ["invalid", "failed"] },
  omitidas: { label: "Ya mandadas antes", statuses: ["skipped"] },
  listas: { label: "Listas o mandadas", statuses: ["ready", "sent"] },
} as const;
type View = keyof typeof STATUS_VIEW;

const ROW_LABEL: Record<string, { label: string; tone: BadgeTone }> = {
  invalid: { label: "Con error", tone: "danger" },
  ready: { label: "Lista", tone: "neutral" },
  sent: { label: "Mandada", tone: "success" },
  skipped: { label: "No se manda", tone: "warning" },
  failed: { label: "No se pudo", tone: "danger" },
};

/**
 * Giveaway in bulk (docs/invitations.md): upload a CSV, read every row's
 * verdict, then send; the job queue sends it and this page shows the
 * progress (`?carga=` is the upload being looked at).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const url = new URL(request.url);
  const event = await guard(() => requireEventBySlug(bo.ctx, params.slug ?? ""));
  const target = await guard(() => invitationTarget(bo.ctx, event.id, null));
  const giveawayId = url.searchParams.get("carga");
  const requested = url.searchParams.get("ver") as View | null;
  const page = Math.max(0, Number.parseInt(url.searchParams.get("pagina") ?? "1", 10) - 1 || 0);
  const dates = target.dates.filter((d) => d.status !== "deleted" && d.endsAt > bo.ctx.now);
  let upload = null;
  if (giveawayId) {
    const progress = await guard(() => getGiveaway(bo.ctx, giveawayId));
    if (progress.giveaway.eventId !== event.id) throw redirect(`${BO.giveaway(event.slug)}${bo.query()}`);
    const { counts } = progress;
    const view: View = requested && requested in STATUS_VIEW ? requested : counts.invalid + counts.failed ? "problemas" : "listas";
    const rows = await Promise.all(STATUS_VIEW[view].statuses.map((status) => guard(() => listGiveawayRows(bo.ctx, { giveawayId, status, page, limit: ROWS_PER_PAGE }))));
    upload = {
      id: progress.giveaway.id,
      fileName: progress.giveaway.fileName,
      status: progress.giveaway.status,
      createdAt: formatDateTime(progress.giveaway.createdAt),
      counts,
      done: progress.done,
      toSend: progress.toSend,
      view,
      pages: Math.max(1, ...rows.map((r) => Math.ceil(r.total / ROWS_PER_PAGE))),
      page,
      rows: rows
        .flatMap((r) => r.items)
        .sort((a, b) => a.line - b.line)
        .map((r) => ({ line: r.line, email: r.email, name: `${r.firstName} ${r.lastName}`.trim(), documentNumber: r.documentNumber, qty: r.qty, ticketTypeName: r.ticketTypeName, status: r.status, error: r.error })),
    };
  }
  const previous = await guard(() => listGiveaways(bo.ctx, event.id));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { id: event.id, name: event.name, slug: event.slug },
      dates: dates.length > 1 ? dates.map((d) => ({ value: d.id, label: formatDateTime(d.startsAt) })) : [],
      ticketNames: target.tickets.map((t) => t.name),
      upload,
      previous: previous.map((g) => ({ id: g.id, fileName: g.fileName, status: g.status, totalRows: g.totalRows, createdAt: formatDateTime(g.createdAt) })),
    },
    { headers: bo.headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values, files } = await readForm(request);
  const event = await guard(() => requireEventBySlug(bo.ctx, params.slug ?? ""));
  const here = (giveawayId: string) => `${BO.giveaway(event.slug)}${bo.query({}, { carga: giveawayId })}`;
  try {
    if (values.intent === "send") {
      const started = await startGiveaway(bo.ctx, values.giveawayId ?? "");
      return savedRedirect(here(started.id), bo.headers, "Empezamos a mandar las entradas. Podés cerrar esta página: sigue solo.");
    }
    const file = files.file;
    const csv = file ? new TextDecoder().decode(file) : "";
    const giveaway = await previewGiveaway(bo.ctx, { eventId: event.id, eventDateId: values.eventDateId, fileName: values.fileName || "invitados.csv", csv });
    return redirect(here(giveaway.id), { headers: bo.headers });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => key === "file" || key === "eventDateId" });
  }
}

/** While the queue sends, the page asks again every two seconds (with JavaScript; without it, reloading shows the same). */
function useRefreshWhileSending(sending: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => state === "idle" && revalidate(), 2000);
    return () => clearInterval(timer);
  }, [sending, revalidate, state]);
}

function UploadForm({ reply, dates }: { reply?: FormReply; dates: { value: string; label: string }[] }) {
  const posting = useIsPosting();
  const fileErrors = reply?.errors?.file;
  return (
    <BackofficeForm reply={reply} defaults={{}} method="post" encType="multipart/form-data" className="flex flex-col gap-4">
      <FormErrorList reply={reply} />
      <div className="flex flex-col gap-1">
        <label htmlFor="giveaway-file" className="font-medium">
          Planilla en CSV
        </label>
        <FileInput
          id="giveaway-file"
          name="file"
          accept=".csv,text/csv"
          buttonLabel="Elegir la planilla"
          required
          aria-describedby="giveaway-file-help"
          aria-invalid={fileErrors?.length ? true : undefined}
          onChange={(e) => {
            const name = e.currentTarget.files?.[0]?.name;
            const hidden = e.currentTarget.form?.elements.namedItem("fileName") as HTMLInputElement | null;
            if (hidden && name) hidden.value = name;
          }}
        />
        <input type="hidden" name="fileName" />
        <p id="giveaway-file-help" className="text-sm text-[var(--muted)]">
          Columnas: email, nombre, apellido, dni, cantidad y tipo de entrada (la primera fila con esos títulos). Separada por comas o por punto y coma, como la guarda Excel. Hasta 10.000 filas.
        </p>
        <FieldErrors id="giveaway-file" errors={fileErrors} />
      </div>
      {dates.length ? <SelectInput name="eventDateId" label="Fecha" options={dates} placeholder="Elegí una" required /> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(GIVEAWAY_TEMPLATE_CSV)}`} download="invitados.csv" className="text-sm font-bold text-primary-700 underline dark:text-primary-400">
          Bajar una planilla de ejemplo
        </a>
        <Button type="submit" name="intent" value="upload" pending={posting} pendingLabel="Revisando…">
          Revisar la planilla
        </Button>
      </div>
    </BackofficeForm>
  );
}

export default function GiveawayPage() {
  const { event, dates, ticketNames, upload, previous } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const posting = useIsPosting();
  useRefreshWhileSending(upload?.status === "sending");
  const base = BO.giveaway(event.slug);
  return (
    <BackofficePage
      title={`Mandar entradas a ${event.name}`}
      lead="Subí una planilla con tus invitados: antes de mandar nada te mostramos cada fila y lo que tiene mal. Cada persona recibe sus entradas por email una sola vez, aunque subas el mismo archivo de nuevo."
      actions={
        <Link to={href(BO.invitations, { eventId: event.id })} className={buttonClasses("secondary")}>
          Ver invitaciones
        </Link>
      }
    >
      {upload ? (
        <Card title={upload.fileName}>
          <p className="text-sm text-[var(--muted)]">Subida el {upload.createdAt}</p>
          <ul className="mt-3 flex flex-wrap gap-2 text-sm" aria-label="Filas por estado">
            <li>
              <Badge tone="neutral">{upload.counts.ready + upload.counts.sent} listas</Badge>
            </li>
            <li>
              <Badge tone={upload.counts.invalid ? "danger" : "neutral"}>{upload.counts.invalid} con error</Badge>
            </li>
            <li>
              <Badge tone={upload.counts.skipped ? "warning" : "neutral"}>{upload.counts.skipped} ya mandadas antes</Badge>
            </li>
            {upload.counts.failed ? (
              <li>
                <Badge tone="danger">{upload.counts.failed} no se pudieron mandar</Badge>
              </li>
            ) : null}
          </ul>
          {upload.status === "preview" ? (
            upload.counts.ready ? (
              <Form noValidate method="post" className="mt-4 flex flex-wrap items-center gap-3">
                <input type="hidden" name="giveawayId" value={upload.id} />
                <Button type="submit" name="intent" value="send" pending={posting} pendingLabel="Empezando…">
                  Mandar {upload.counts.ready} {upload.counts.ready === 1 ? "fila" : "filas"}
                </Button>
                <span className="text-sm text-[var(--muted)]">Las filas con error no se mandan. Si querés, corregilas en la planilla y subila de nuevo: lo ya mandado no se repite.</span>
              </Form>
            ) : (
              <p className="mt-4">No hay filas listas para mandar. Corregí la planilla y subila de nuevo.</p>
            )
          ) : (
            <div className="mt-4">
              <label htmlFor="giveaway-progress" className="text-sm font-medium">
                {upload.status === "done" ? `Terminado: se mandaron ${upload.counts.sent} de ${upload.toSend}.` : `Mandando… ${upload.done} de ${upload.toSend}`}
              </label>
              <progress id="giveaway-progress" value={upload.done} max={Math.max(1, upload.toSend)} className="mt-1 block h-3 w-full accent-primary-500" />
              {upload.status === "sending" ? (
                <p className="mt-1 text-sm text-[var(--muted)]">
                  Se actualiza solo. <Link to={href(base, {}, { carga: upload.id })}>Actualizar</Link>
                </p>
              ) : null}
            </div>
          )}

          <nav aria-label="Qué filas ver" className="mt-5 flex flex-wrap gap-2">
            {(Object.keys(STATUS_VIEW) as View[]).map((view) => (
              <Link key={view} to={href(base, {}, { carga: upload.id, ver: view })} aria-current={upload.view === view ? "page" : undefined} className={buttonClasses(upload.view === view ? "primary" : "ghost")}>
                {STATUS_VIEW[view].label}
              </Link>
            ))}
          </nav>
          {upload.rows.length ? (
            <ScrollTable label="Filas de la planilla" className="mt-3" surface framed={false}>
              <table className="w-full min-w-[40rem] text-left text-sm">
                <caption className="sr-only">Filas de la planilla</caption>
                <thead>
                  <tr className="border-b border-[var(--border)]">
                    <th scope="col" className="py-2 pr-2">Fila</th>
                    <th scope="col" className="py-2 pr-2">Persona</th>
                    <th scope="col" className="py-2 pr-2">Entradas</th>
                    <th scope="col" className="py-2">Estado</th>
                  </tr>
                </thead>
                <tbody>
                  {upload.rows.map((row) => (
                    <tr key={row.line} className="border-b border-[var(--border)] align-top">
                      <td className="py-2 pr-2 tabular-nums">{row.line}</td>
                      <td className="py-2 pr-2">
                        <span className="block">{row.name || "—"}</span>
                        <span className="block break-all text-[var(--muted)]">{row.email || "—"}{row.documentNumber ? ` · DNI ${row.documentNumber}` : ""}</span>
                      </td>
                      <td className="py-2 pr-2">
                        {row.qty} × {row.ticketTypeName || "—"}
                      </td>
                      <td className="py-2">
                        <Badge tone={ROW_LABEL[row.status].tone}>{ROW_LABEL[row.status].label}</Badge>
                        {row.error ? <span className="mt-1 block">{row.error}</span> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          ) : (
            <p className="mt-3 text-[var(--muted)]">No hay filas en esta vista.</p>
          )}
          {upload.pages > 1 ? (
            <nav aria-label="Páginas" className="mt-3 flex items-center justify-between text-sm">
              {upload.page > 0 ? <Link to={href(base, {}, { carga: upload.id, ver: upload.view, pagina: String(upload.page) })}>← Anteriores</Link> : <span />}
              <span>
                Página {upload.page + 1} de {upload.pages}
              </span>
              {upload.page + 1 < upload.pages ? <Link to={href(base, {}, { carga: upload.id, ver: upload.view, pagina: String(upload.page + 2) })}>Siguientes →</Link> : <span />}
            </nav>
          ) : null}
        </Card>
      ) : null}

      <Card title={upload ? "Subir otra planilla" : "Subir la planilla"} className="mt-6">
        <UploadForm reply={reply} dates={dates} />
        {ticketNames.length ? <p className="mt-3 text-sm text-[var(--muted)]">Tipos de entrada de este evento: {ticketNames.join(", ")}.</p> : null}
      </Card>

      {previous.length ? (
        <section aria-labelledby="previous-uploads" className="mt-6">
          <h2 id="previous-uploads" className="mb-2 text-lg font-bold">
            Planillas anteriores
          </h2>
          <ul className="flex flex-col gap-1 text-sm">
            {previous.map((g) => (
              <li key={g.id}>
                <Link to={href(base, {}, { carga: g.id })} className="font-bold text-primary-700 underline dark:text-primary-400">
                  {g.fileName}
                </Link>{" "}
                · {g.totalRows} filas · {g.createdAt} · {g.status === "preview" ? "sin mandar" : g.status === "sending" ? "mandando" : "mandada"}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
