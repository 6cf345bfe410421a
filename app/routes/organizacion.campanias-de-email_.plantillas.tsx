import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { deleteTemplate, listTemplates } from "#server/campaigns/templates";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { FormErrorList, FormSnackbar } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { buttonClasses } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Plantillas de email · Tribuna" }];

/** The organization's email templates (docs/campaigns.md), to edit or delete one no campaign uses. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "campaigns:manage");
  const templates = await guard(() => listTemplates(bo.ctx, bo.organization.id));
  bo.headers.set("Cache-Control", "private, no-store");
  return data({ templates: templates.map((t) => ({ id: t.id, name: t.name, subject: t.subject, updatedAt: formatDateTime(t.updatedAt) })) }, { headers: bo.headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  try {
    await deleteTemplate(bo.ctx, values.templateId ?? "");
    return savedRedirect(`${BO.templates}${bo.query()}`, bo.headers, "Borramos la plantilla.");
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: () => false });
  }
}

export default function TemplatesPage() {
  const { templates } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  return (
    <BackofficePage
      title="Plantillas de email"
      lead="El texto de tus campañas, con variables como {{nombre}} o {{evento}} que se completan para cada persona."
      actions={
        <>
          <Link to={href(BO.campaigns)} className={buttonClasses("secondary")}>
            Campañas
          </Link>
          <Link to={href(BO.newTemplate)} className={buttonClasses("primary")}>
            Crear plantilla
          </Link>
        </>
      }
    >
      <FormErrorList reply={reply} />
      {templates.length === 0 ? (
        <EmptyState>Todavía no tenés plantillas. Creá la primera para mandar una campaña.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3">
          {templates.map((t) => (
            <li key={t.id} className="flex flex-col gap-2 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <Link to={href(BO.newTemplate, {}, { plantilla: t.id })} className="font-bold text-primary-700 underline dark:text-primary-400">
                  {t.name}
                </Link>
                <p className="break-words text-sm">{t.subject}</p>
                <p className="text-sm text-[var(--muted)]">Modificada el {t.updatedAt}</p>
              </div>
              <div className="flex shrink-0 gap-2">
                <Link to={href(BO.newTemplate, {}, { plantilla: t.id })} className={buttonClasses("secondary")}>
                  Editar
                </Link>
                <Form method="post">
                  <input type="hidden" name="templateId" value={t.id} />
                  <ConfirmButton name="intent" value="delete" title="¿Borrar la plantilla?" description={`«${t.name}» se borra para siempre.`} confirmLabel="Borrar" className={buttonClasses("ghost")}>
                    Borrar
                  </ConfirmButton>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
