import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { TEMPLATE_LIMITS, TEMPLATE_VARIABLES } from "#common/campaigns";
import { audienceChoices } from "#server/campaigns/campaigns";
import { createTemplate, getTemplate, previewTemplate, sendTestEmail, updateTemplate } from "#server/campaigns/templates";
import { failedReply, formReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextArea, TextInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { EmailPreview } from "#app/components/campaigns/EmailPreview";
import { Button, buttonClasses } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Plantilla de email · Tribuna" }];

const FIELDS = new Set(["name", "subject", "body", "eventId"]);
const STARTER = {
  name: "",
  subject: "{{evento}}: ¡te esperamos!",
  body: "Hola {{nombre}}:\n\n**{{evento}}** es el {{fecha}} en {{lugar}}.\n\n[Ver el evento]({{link_evento}})\n\n¡Nos vemos!",
};

/**
 * Creates a template, or edits one (`?plantilla={id}`) — docs/campaigns.md.
 * "Ver vista previa" renders what was typed without saving; "Enviarme una
 * prueba" sends it to the signed-in person only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "campaigns:manage");
  const id = new URL(request.url).searchParams.get("plantilla");
  const template = id ? await guard(() => getTemplate(bo.ctx, id)) : null;
  if (template && template.organizationId !== bo.organization.id) throw new Response(null, { status: 404 });
  const choices = await guard(() => audienceChoices(bo.ctx, bo.organization.id));
  const content = template ?? STARTER;
  const preview = await guard(() => previewTemplate(bo.ctx, { organizationId: bo.organization.id, subject: content.subject, body: content.body }));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      template: template ? { id: template.id, name: template.name, subject: template.subject, body: template.body } : null,
      defaults: { name: content.name, subject: content.subject, body: content.body },
      events: choices.events.map((e) => ({ value: e.id, label: e.name })),
      preview: { subject: preview.subject, html: preview.html },
      userEmail: bo.user.email,
    },
    { headers: bo.headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const id = new URL(request.url).searchParams.get("plantilla");
  const content = { organizationId: bo.organization.id, subject: values.subject, body: values.body, eventId: values.eventId };
  try {
    if (values.intent === "preview") {
      const preview = await previewTemplate(bo.ctx, content);
      return data({ ...formReply(values), preview: { subject: preview.subject, html: preview.html } }, { headers: bo.headers });
    }
    if (values.intent === "test") {
      const preview = await previewTemplate(bo.ctx, content);
      const { to } = await sendTestEmail(bo.ctx, content);
      return data({ ...formReply(values, { snackbar: { type: "success", message: `Te mandamos la prueba a ${to}.` } }), preview: { subject: preview.subject, html: preview.html } }, { headers: bo.headers });
    }
    if (id) await updateTemplate(bo.ctx, { id, name: values.name, subject: values.subject, body: values.body });
    else await createTemplate(bo.ctx, { organizationId: bo.organization.id, name: values.name, subject: values.subject, body: values.body });
    return savedRedirect(`${BO.templates}${bo.query()}`, bo.headers, id ? "Guardamos los cambios de la plantilla." : "Guardamos la plantilla. Ya podés usarla en una campaña.");
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => FIELDS.has(key) });
  }
}

export default function TemplateEditorPage() {
  const { template, defaults, events, preview, userEmail } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as (FormReply & { preview?: { subject: string; html: string } }) | undefined;
  const href = useBackofficeHref();
  const posting = useIsPosting();
  const shown = reply?.preview ?? preview;
  return (
    <BackofficePage
      title={template ? `Editar «${template.name}»` : "Crear plantilla"}
      lead="Escribí el correo como un mensaje: separá los párrafos con una línea en blanco. Todo se muestra como texto; no se puede pegar HTML."
      actions={
        <Link to={href(BO.templates)} className={buttonClasses("secondary")}>
          Volver a las plantillas
        </Link>
      }
    >
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_auto]">
        <Card>
          <BackofficeForm reply={reply} defaults={{ ...defaults, eventId: "" }} method="post" className="flex flex-col gap-4">
            <FormErrorList reply={reply} />
            <TextInput name="name" label="Nombre de la plantilla" help="Solo lo ves vos, para elegirla en una campaña." required maxLength={TEMPLATE_LIMITS.name} />
            <TextInput name="subject" label="Asunto" required maxLength={TEMPLATE_LIMITS.subject} />
            <TextArea name="body" label="Texto del correo" rows={12} required maxLength={TEMPLATE_LIMITS.body} help="**negrita**, *cursiva*, listas con «- » al principio de la línea, links como [texto](https://…) y ## para un subtítulo." />
            <SelectInput name="eventId" label="Evento para la vista previa (opcional)" options={events} placeholder="Uno de ejemplo" />
            <details className="rounded-lg border border-[var(--border)] p-3 text-sm">
              <summary className="cursor-pointer font-medium">Variables que podés usar</summary>
              <ul className="mt-2 flex flex-col gap-1">
                {TEMPLATE_VARIABLES.map((v) => (
                  <li key={v.name}>
                    <code>{`{{${v.name}}}`}</code>: {v.help}.
                  </li>
                ))}
              </ul>
            </details>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="submit" name="intent" value="preview" variant="secondary">
                Ver vista previa
              </Button>
              <Button type="submit" name="intent" value="test" variant="secondary" title={`Se manda solo a ${userEmail}`}>
                Enviarme una prueba
              </Button>
              <Button type="submit" name="intent" value="save" pending={posting} pendingLabel="Guardando…">
                Guardar plantilla
              </Button>
            </div>
            <p className="text-right text-sm text-[var(--muted)]">La prueba te llega solo a vos ({userEmail}).</p>
          </BackofficeForm>
        </Card>
        <section aria-labelledby="preview-title">
          <h2 id="preview-title" className="mb-1 text-lg font-bold">
            Vista previa en un celular
          </h2>
          <p className="mb-2 break-words text-sm">
            <span className="text-[var(--muted)]">Asunto:</span> {shown.subject}
          </p>
          <EmailPreview html={shown.html} title="Vista previa del correo" />
        </section>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
