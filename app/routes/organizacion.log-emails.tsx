import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { EMAIL_STATUS_LABELS, emailKindLabel } from "#common/campaigns";
import { formatDateTime } from "#common/dates";
import { getLoggedEmail, listEmailLog, resendEmail } from "#server/campaigns/email-log";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { FormErrorList, FormSnackbar } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { ListSearch } from "#app/components/backoffice/ListSearch";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { EmailPreview, previewHtml } from "#app/components/campaigns/EmailPreview";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { Pager } from "#app/components/ui/Pager";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Emails enviados · Tribuna" }];

const PAGE_SIZE = 50;
const STATUS_TONE: Record<string, BadgeTone> = { logged: "neutral", sent: "success", failed: "danger" };

/**
 * Every email the app sent for the organization (docs/campaigns.md): entradas,
 * devoluciones, transferencias, invitaciones, campañas… Search by recipient,
 * open one (`?correo=`) to see it as it went, and resend it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "emails:read");
  const url = new URL(request.url);
  const search = url.searchParams.get("q")?.trim() ?? "";
  const page = Math.max(0, Number.parseInt(url.searchParams.get("pagina") ?? "1", 10) - 1 || 0);
  const selectedId = url.searchParams.get("correo");
  const [list, selected] = await Promise.all([
    guard(() => listEmailLog(bo.ctx, { organizationId: bo.organization.id, search: search || undefined, page, limit: PAGE_SIZE })),
    selectedId ? guard(() => getLoggedEmail(bo.ctx, selectedId)) : null,
  ]);
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      search,
      page,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      total: list.total,
      emails: list.items.map((e) => ({ id: e.id, to: e.to, subject: e.subject, kind: emailKindLabel(e.kind), status: e.status, createdAt: formatDateTime(e.createdAt) })),
      selected:
        selected && selected.organizationId === bo.organization.id
          ? { id: selected.id, to: selected.to, subject: selected.subject, kind: emailKindLabel(selected.kind), status: selected.status, error: selected.error, createdAt: formatDateTime(selected.createdAt), html: previewHtml(selected.html), attachments: selected.attachments }
          : null,
    },
    { headers: bo.headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  try {
    const sent = await resendEmail(bo.ctx, values.emailId ?? "");
    return savedRedirect(`${BO.emailLog}${bo.query({}, { correo: sent.id })}`, bo.headers, `Listo: lo reenviamos a ${sent.to}.`);
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: () => false });
  }
}

export default function EmailLogPage() {
  const { emails, search, page, pages, total, selected } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  return (
    <BackofficePage title="Emails enviados" lead="Todo lo que Tribuna mandó por tu organización: entradas, devoluciones, transferencias, invitaciones y campañas. Reenviá uno si alguien no lo encuentra.">
      {selected ? (
        <Card title={selected.subject} className="mb-6">
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="font-medium">Para</dt>
            <dd className="break-all">{selected.to}</dd>
            <dt className="font-medium">Tipo</dt>
            <dd>{selected.kind}</dd>
            <dt className="font-medium">Estado</dt>
            <dd>
              <Badge tone={STATUS_TONE[selected.status]}>{EMAIL_STATUS_LABELS[selected.status]}</Badge>
              {selected.error ? ` · ${selected.error}` : ""}
            </dd>
            <dt className="font-medium">Cuándo</dt>
            <dd>{selected.createdAt}</dd>
            {selected.attachments.length ? (
              <>
                <dt className="font-medium">Adjuntos</dt>
                <dd>{selected.attachments.map((a) => a.filename).join(", ")}</dd>
              </>
            ) : null}
          </dl>
          <Form method="post" className="my-4">
            <input type="hidden" name="emailId" value={selected.id} />
            <Button type="submit" name="intent" value="resend" variant="secondary">
              Reenviar este correo
            </Button>
          </Form>
          <FormErrorList reply={reply} />
          <EmailPreview html={selected.html} title={`Correo a ${selected.to}`} />
        </Card>
      ) : null}

      <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
        <h2 className="text-lg font-bold">
          Correos {total ? <span className="text-sm font-normal text-[var(--muted)]">({total})</span> : null}
        </h2>
        <ListSearch path={BO.emailLog} label="Buscar por destinatario" value={search} inputProps={{ type: "search", inputMode: "email" }} />
      </div>
      {emails.length === 0 ? (
        <EmptyState>{search ? "No hay correos a esa dirección." : "Todavía no se mandaron correos por tu organización."}</EmptyState>
      ) : (
        <ul className="flex flex-col gap-2">
          {emails.map((e) => (
            <li key={e.id} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-3">
              <Link to={href(BO.emailLog, {}, { q: search, correo: e.id, ...(page ? { pagina: String(page + 1) } : {}) })} className="font-bold text-primary-700 underline dark:text-primary-400">
                {e.subject}
              </Link>
              <p className="break-all text-sm">{e.to}</p>
              <p className="text-sm text-[var(--muted)]">
                {e.kind} · <Badge tone={STATUS_TONE[e.status]}>{EMAIL_STATUS_LABELS[e.status]}</Badge> · {e.createdAt}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page + 1} pages={pages} href={(n) => href(BO.emailLog, {}, { q: search, pagina: String(n) })} />
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
