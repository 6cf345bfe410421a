import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { AUDIENCE_LABELS, CAMPAIGN_STATUS_LABELS } from "#common/campaigns";
import { formatDate, formatDateTime } from "#common/dates";
import { audienceChoices, cancelCampaign, countAudience, createCampaign, deleteCampaign, getCampaign, listCampaigns, listRecipients, scheduleCampaign, sendCampaignNow } from "#server/campaigns/campaigns";
import { getTemplate, listTemplates, previewTemplate } from "#server/campaigns/templates";
import { failedReply, formReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextInput, useFieldState, useIsPosting } from "#app/components/backoffice/forms";
import { DateTimeInput } from "#app/components/backoffice/DateInputs";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { EmailPreview } from "#app/components/campaigns/EmailPreview";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";
import { controlAria, FieldFrame, fieldInputClasses } from "#app/components/ui/Field";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Campañas de email · Tribuna" }];

const FIELDS = new Set(["name", "subject", "templateId", "audience", "eventId", "sendAt"]);
const STATUS_TONE: Record<string, BadgeTone> = { draft: "neutral", scheduled: "secondary", sending: "primary", done: "success", cancelled: "warning" };

/** The audience select's value (`event:{id}`, `date:{id}`, `ticket:{id}`, `org`, `promoters`) as the domain's input. */
function audienceInput(value: string, eventId: string) {
  const [kind, id] = value.split(":");
  if (kind === "event") return { audience: "event", eventId: id };
  if (kind === "date") return { audience: "event_date", eventDateId: id };
  if (kind === "ticket") return { audience: "ticket_type", ticketTypeId: id };
  if (kind === "org") return { audience: "organization", eventId };
  if (kind === "promoters") return { audience: "promoters", eventId };
  return { audience: "" };
}

/**
 * Email campaigns (docs/campaigns.md): the list, the form that creates a
 * draft, and one campaign (`?campania=`) with its audience size, preview,
 * send now / schedule / cancel, and its progress while the queue sends it
 * (the page refreshes itself).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "campaigns:manage");
  const url = new URL(request.url);
  const orgId = bo.organization.id;
  const [templates, choices, list] = await Promise.all([guard(() => listTemplates(bo.ctx, orgId)), guard(() => audienceChoices(bo.ctx, orgId)), guard(() => listCampaigns(bo.ctx, orgId))]);
  const selectedId = url.searchParams.get("campania");
  let selected = null;
  if (selectedId) {
    const view = await guard(() => getCampaign(bo.ctx, selectedId));
    if (view.campaign.organizationId !== orgId) throw redirect(`${BO.campaigns}${bo.query()}`);
    const { campaign } = view;
    const template = await guard(() => getTemplate(bo.ctx, campaign.templateId));
    const preview = await guard(() => previewTemplate(bo.ctx, { organizationId: orgId, subject: campaign.sentSubject ?? campaign.subject, body: campaign.sentBody ?? template.body, eventId: campaign.eventId ?? undefined }));
    const failed = view.counts.failed ? await guard(() => listRecipients(bo.ctx, { campaignId: campaign.id, status: "failed", limit: 50 })) : null;
    selected = {
      id: campaign.id,
      name: campaign.name,
      subject: campaign.subject,
      status: campaign.status,
      templateName: view.templateName,
      audienceLabel: view.audienceLabel,
      audienceSize: view.audienceSize,
      counts: view.counts,
      scheduledAt: campaign.scheduledAt ? formatDateTime(campaign.scheduledAt) : null,
      finishedAt: campaign.finishedAt ? formatDateTime(campaign.finishedAt) : null,
      previewHtml: preview.html,
      failed: failed?.items.map((r) => ({ email: r.email, error: r.error })) ?? [],
    };
  }
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      templates: templates.map((t) => ({ value: t.id, label: t.name })),
      audienceGroups: [
        {
          label: "Toda la organización",
          options: [
            { value: "org", label: AUDIENCE_LABELS.organization },
            { value: "promoters", label: AUDIENCE_LABELS.promoters },
          ],
        },
        ...choices.events.map((e) => ({
          label: e.name,
          options: [
            { value: `event:${e.id}`, label: `Compradores de ${e.name}` },
            ...(e.dates.length > 1 ? e.dates.map((d) => ({ value: `date:${d.id}`, label: `Compradores de la fecha ${formatDateTime(d.startsAt)}` })) : []),
            ...e.ticketTypes.map((t) => ({ value: `ticket:${t.id}`, label: `Compradores de ${t.name}` })),
          ],
        })),
      ],
      events: choices.events.map((e) => ({ value: e.id, label: e.name })),
      campaigns: list.map((v) => ({
        id: v.campaign.id,
        name: v.campaign.name,
        status: v.campaign.status,
        audienceLabel: v.audienceLabel,
        audienceSize: v.audienceSize,
        sent: v.counts.sent,
        createdAt: formatDate(v.campaign.createdAt),
        scheduledAt: v.campaign.scheduledAt ? formatDateTime(v.campaign.scheduledAt) : null,
      })),
      selected,
    },
    { headers: bo.headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const here = (campaignId?: string) => `${BO.campaigns}${bo.query({}, campaignId ? { campania: campaignId } : {})}`;
  const target = values.intent === "create" || values.intent === "count" ? "create" : "campaign";
  try {
    switch (values.intent) {
      case "count": {
        const n = await countAudience(bo.ctx, { organizationId: bo.organization.id, ...audienceInput(values.audience ?? "", values.eventId ?? "") });
        return data({ ...formReply(values, { target }), audienceCount: n }, { headers: bo.headers });
      }
      case "send":
        await sendCampaignNow(bo.ctx, values.campaignId ?? "");
        return savedRedirect(here(values.campaignId), bo.headers, "Empezamos a mandar la campaña. Podés cerrar esta página: sigue sola.");
      case "schedule": {
        const row = await scheduleCampaign(bo.ctx, { id: values.campaignId ?? "", sendAt: values.sendAt ?? "" });
        return savedRedirect(here(row.id), bo.headers, `Listo: la campaña sale el ${formatDateTime(row.scheduledAt!)} (hora de Buenos Aires).`);
      }
      case "cancel":
        await cancelCampaign(bo.ctx, values.campaignId ?? "");
        return savedRedirect(here(values.campaignId), bo.headers, "Cancelamos el envío programado. No sale hasta que la mandes o la programes de nuevo.");
      case "delete":
        await deleteCampaign(bo.ctx, values.campaignId ?? "");
        return savedRedirect(here(), bo.headers, "Borramos la campaña.");
      default: {
        const campaign = await createCampaign(bo.ctx, { organizationId: bo.organization.id, name: values.name, subject: values.subject, templateId: values.templateId, ...audienceInput(values.audience ?? "", values.eventId ?? "") });
        return savedRedirect(here(campaign.id), bo.headers, "Guardamos la campaña. Revisala y mandala cuando quieras.");
      }
    }
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, target, fields: (key) => FIELDS.has(key), mapKey: (key) => (key === "eventDateId" || key === "ticketTypeId" ? "audience" : key) });
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

type Group = { label: string; options: { value: string; label: string }[] };

function AudienceSelect({ groups }: { groups: Group[] }) {
  const { id, value, errors } = useFieldState("audience");
  const help = "Compradores: quienes pagaron una compra (no las invitaciones). Nadie que se haya dado de baja.";
  return (
    <FieldFrame id={id} label="A quién" help={help} errors={errors} className="sm:col-span-2">
      <select id={id} name="audience" defaultValue={value ?? ""} required className={fieldInputClasses} {...controlAria(id, help, errors)}>
        <option value="">Elegí a quién</option>
        {groups.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </FieldFrame>
  );
}

function CreateForm({ reply, templates, groups, events }: { reply?: FormReply & { audienceCount?: number }; templates: { value: string; label: string }[]; groups: Group[]; events: { value: string; label: string }[] }) {
  const posting = useIsPosting();
  const count = reply?.target === "create" ? reply.audienceCount : undefined;
  return (
    <BackofficeForm reply={reply} target="create" idPrefix="c" method="post" className="flex flex-col gap-4">
      <FormErrorList reply={reply} target="create" />
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        <TextInput name="name" label="Nombre de la campaña" help="Solo lo ves vos." required maxLength={80} />
        <SelectInput name="templateId" label="Plantilla" options={templates} placeholder="Elegí una" required />
        <TextInput name="subject" label="Asunto (opcional)" help="Si lo dejás vacío, va el de la plantilla. Puede llevar variables, como {{nombre}}." className="sm:col-span-2" maxLength={150} />
        <AudienceSelect groups={groups} />
        <SelectInput name="eventId" label="Evento del que habla (opcional)" options={events} placeholder="Ninguno" help="Para {{evento}}, {{fecha}}, {{lugar}} y {{link_evento}} cuando le escribís a toda la organización o a tus RRPP." className="sm:col-span-2" />
      </div>
      {count !== undefined ? (
        <p role="status" className="font-medium">
          {count === 1 ? "Le llega a 1 persona." : `Le llega a ${count.toLocaleString("es-AR")} personas.`}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="submit" name="intent" value="count" variant="secondary">
          Ver a cuántos les llega
        </Button>
        <Button type="submit" name="intent" value="create" pending={posting} pendingLabel="Guardando…">
          Guardar campaña
        </Button>
      </div>
    </BackofficeForm>
  );
}

export default function CampaignsPage() {
  const { templates, audienceGroups, events, campaigns, selected } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as (FormReply & { audienceCount?: number }) | undefined;
  const href = useBackofficeHref();
  const posting = useIsPosting();
  useRefreshWhileSending(selected?.status === "sending");
  const total = selected ? selected.counts.sent + selected.counts.failed + selected.counts.skipped + selected.counts.pending : 0;
  return (
    <BackofficePage
      title="Campañas de email"
      lead="Escribile a quienes te compraron entradas o a tus RRPP. Cada correo lleva un link para darse de baja, y a quien se da de baja no le llegan más campañas tuyas (sí sus entradas)."
      actions={
        <Link to={href(BO.templates)} className={buttonClasses("secondary")}>
          Plantillas
        </Link>
      }
    >
      {selected ? (
        <Card title={selected.name} className="mb-6">
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="font-medium">Estado</dt>
            <dd>
              <Badge tone={STATUS_TONE[selected.status]}>{CAMPAIGN_STATUS_LABELS[selected.status]}</Badge>
              {selected.status === "scheduled" && selected.scheduledAt ? ` · sale el ${selected.scheduledAt}` : ""}
              {selected.status === "done" && selected.finishedAt ? ` · terminó el ${selected.finishedAt}` : ""}
            </dd>
            <dt className="font-medium">Asunto</dt>
            <dd className="break-words">{selected.subject}</dd>
            <dt className="font-medium">Plantilla</dt>
            <dd>{selected.templateName}</dd>
            <dt className="font-medium">A quién</dt>
            <dd>
              {selected.audienceLabel} · <strong>{selected.audienceSize === 1 ? "1 persona" : `${selected.audienceSize.toLocaleString("es-AR")} personas`}</strong>
            </dd>
          </dl>

          {selected.status === "sending" || selected.status === "done" ? (
            <div className="mt-4">
              <label htmlFor="campaign-progress" className="text-sm font-medium">
                {selected.status === "done" ? `Terminado: ${selected.counts.sent} enviados, ${selected.counts.failed} con error, ${selected.counts.skipped} se dieron de baja antes.` : `Enviando… ${total - selected.counts.pending} de ${total}`}
              </label>
              <progress id="campaign-progress" value={total - selected.counts.pending} max={Math.max(1, total)} className="mt-1 block h-3 w-full accent-primary-500" />
              <ul className="mt-2 flex flex-wrap gap-2 text-sm" aria-label="Correos por estado">
                <li><Badge tone="success">{selected.counts.sent} enviados</Badge></li>
                <li><Badge tone={selected.counts.failed ? "danger" : "neutral"}>{selected.counts.failed} con error</Badge></li>
                <li><Badge tone="neutral">{selected.counts.pending} por enviar</Badge></li>
                {selected.counts.skipped ? <li><Badge tone="warning">{selected.counts.skipped} se dieron de baja</Badge></li> : null}
              </ul>
              {selected.status === "sending" ? (
                <p className="mt-1 text-sm text-[var(--muted)]">
                  Se actualiza solo. <Link to={href(BO.campaigns, {}, { campania: selected.id })}>Actualizar</Link>
                </p>
              ) : null}
              {selected.failed.length ? (
                <div className="mt-3">
                  <h3 className="font-bold">No se pudieron enviar</h3>
                  <ul className="text-sm">
                    {selected.failed.map((f) => (
                      <li key={f.email} className="break-all">
                        {f.email}: {f.error}
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </div>
          ) : (
            <div className="mt-4 flex flex-col gap-4">
              <Form noValidate method="post" className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="campaignId" value={selected.id} />
                {selected.status === "scheduled" ? (
                  <Button type="submit" name="intent" value="cancel" variant="secondary">
                    Cancelar el envío programado
                  </Button>
                ) : (
                  <>
                    <ConfirmButton
                      name="intent"
                      value="send"
                      tone="primary"
                      title="¿Mandar la campaña ahora?"
                      description={`Le llega a ${selected.audienceSize} ${selected.audienceSize === 1 ? "persona" : "personas"}. No se puede deshacer.`}
                      confirmLabel="Mandar ahora"
                      className={buttonClasses("primary")}
                    >
                      Mandar ahora
                    </ConfirmButton>
                    <ConfirmButton name="intent" value="delete" title="¿Borrar la campaña?" description="No se mandó a nadie todavía." confirmLabel="Borrar" className={buttonClasses("ghost")}>
                      Borrar
                    </ConfirmButton>
                  </>
                )}
              </Form>
              <BackofficeForm reply={reply} target="campaign" idPrefix="s" method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="campaignId" value={selected.id} />
                <DateTimeInput name="sendAt" label={selected.status === "scheduled" ? "Cambiar la fecha y hora" : "O programala (hora de Buenos Aires)"} className="min-w-0 flex-1 basis-72" required />
                <Button type="submit" name="intent" value="schedule" variant="secondary" pending={posting} className="mb-6">
                  Programar
                </Button>
              </BackofficeForm>
              <FormErrorList reply={reply} target="campaign" />
            </div>
          )}
          <h3 className="mb-2 mt-6 font-bold">Así se ve en un celular</h3>
          <EmailPreview html={selected.previewHtml} title={`Vista previa de ${selected.name}`} />
          <p className="mt-2 text-sm text-[var(--muted)]">Con datos de ejemplo: cada persona ve su nombre.</p>
        </Card>
      ) : null}

      <Card title="Nueva campaña">
        {templates.length ? (
          <CreateForm reply={reply} templates={templates} groups={audienceGroups} events={events} />
        ) : (
          <p>
            Primero creá una plantilla: es el texto del correo.{" "}
            <Link to={href(BO.newTemplate)} className="font-bold text-primary-700 underline dark:text-primary-400">
              Crear una plantilla
            </Link>
          </p>
        )}
      </Card>

      <section aria-labelledby="campaign-list" className="mt-6">
        <h2 id="campaign-list" className="mb-3 text-lg font-bold">
          Tus campañas
        </h2>
        {campaigns.length === 0 ? (
          <EmptyState>Todavía no creaste campañas.</EmptyState>
        ) : (
          <ul className="flex flex-col gap-3">
            {campaigns.map((c) => (
              <li key={c.id} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
                <Link to={href(BO.campaigns, {}, { campania: c.id })} className="font-bold text-primary-700 underline dark:text-primary-400">
                  {c.name}
                </Link>{" "}
                <Badge tone={STATUS_TONE[c.status]}>{CAMPAIGN_STATUS_LABELS[c.status]}</Badge>
                <p className="text-sm text-[var(--muted)]">
                  {c.audienceLabel} · {c.audienceSize} {c.audienceSize === 1 ? "persona" : "personas"}
                  {c.status === "scheduled" && c.scheduledAt ? ` · sale el ${c.scheduledAt}` : ""}
                  {c.status === "done" || c.status === "sending" ? ` · ${c.sent} enviados` : ""} · creada el {c.createdAt}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
