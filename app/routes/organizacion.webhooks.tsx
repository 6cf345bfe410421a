import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { WEBHOOK_DELIVERY_STATUS_LABELS, WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, WEBHOOK_MESSAGES, WEBHOOK_TIMEOUT_SECONDS, type WebhookEventType } from "#common/webhooks";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
  retryFailedWebhookDeliveries,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "#server/webhooks/endpoints";
import { failedReply, formReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, TextInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import type { FormReply } from "#app/components/backoffice/types";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Webhooks · Tribuna" }];

const FIELDS = new Set(["url", "description", "events"]);
const DELIVERIES_SHOWN = 20;

/** The checkbox of each event in the form. */
function eventField(type: WebhookEventType): string {
  return `evento-${type.replace(/[^a-z]+/g, "-")}`;
}

/** A secret shown once, in the reply of the POST that created or rotated it (never stored in clear, never in a cookie). */
type SecretReply = FormReply & { secret?: { value: string; url: string } };

/**
 * Outgoing webhooks (docs/webhooks.md): the organization's endpoints, the
 * form to add one, and the latest deliveries with their attempts and
 * "Reenviar". Owners and admins (organization:manage); the domain checks again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "organization:manage");
  const [endpoints, deliveries, failed] = await Promise.all([
    guard(() => listWebhookEndpoints(bo.ctx, bo.organization.id)),
    guard(() => listWebhookDeliveries(bo.ctx, { organizationId: bo.organization.id, limit: DELIVERIES_SHOWN })),
    guard(() => listWebhookDeliveries(bo.ctx, { organizationId: bo.organization.id, status: "failed", limit: 1 })),
  ]);
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      endpoints: endpoints.map((e) => ({ id: e.id, url: e.url, description: e.description, events: e.events, active: e.active, createdAt: formatDateTime(e.createdAt) })),
      deliveries: deliveries.items.map((d) => ({
        id: d.id,
        eventType: d.eventType,
        endpointUrl: d.endpointUrl,
        status: d.status,
        attempts: d.attempts,
        lastStatusCode: d.lastStatusCode,
        lastError: d.lastError,
        createdAt: formatDateTime(d.createdAt),
        attemptLog: d.attemptLog.map((a) => ({
          id: a.id,
          statusCode: a.statusCode,
          durationMs: a.durationMs,
          error: a.error,
          replay: a.replay,
          attemptedAt: formatDateTime(a.attemptedAt),
        })),
      })),
      totalDeliveries: deliveries.total,
      failedDeliveries: failed.total,
    },
    { headers: bo.headers }
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const back = BO.webhooks;
  try {
    switch (values.intent) {
      case "pause":
      case "resume":
        await updateWebhookEndpoint(bo.ctx, { id: values.endpointId ?? "", active: values.intent === "resume" });
        return savedRedirect(back, bo.headers, values.intent === "resume" ? WEBHOOK_MESSAGES.resumed : WEBHOOK_MESSAGES.paused);
      case "delete":
        await deleteWebhookEndpoint(bo.ctx, { id: values.endpointId ?? "" });
        return savedRedirect(back, bo.headers, WEBHOOK_MESSAGES.deleted);
      case "replay":
        await replayWebhookDelivery(bo.ctx, { deliveryId: values.deliveryId ?? "" });
        return savedRedirect(back, bo.headers, WEBHOOK_MESSAGES.replayed);
      case "retry-failed": {
        const { count } = await retryFailedWebhookDeliveries(bo.ctx, { organizationId: bo.organization.id, endpointId: values.endpointId || undefined });
        return savedRedirect(back, bo.headers, WEBHOOK_MESSAGES.retried(count));
      }
      case "update":
        await updateWebhookEndpoint(bo.ctx, {
          id: values.endpointId ?? "",
          url: values.url ?? "",
          description: values.description ?? "",
          events: WEBHOOK_EVENT_TYPES.filter((t) => values[eventField(t)] === "on"),
        });
        return savedRedirect(back, bo.headers, WEBHOOK_MESSAGES.updated);
      case "rotate": {
        const { endpoint, secret } = await rotateWebhookSecret(bo.ctx, { id: values.endpointId ?? "" });
        const reply: SecretReply = { ...formReply({}, { snackbar: { type: "success", message: WEBHOOK_MESSAGES.rotated } }), secret: { value: secret, url: endpoint.url } };
        return data(reply, { headers: bo.headers });
      }
      default: {
        const { endpoint, secret } = await createWebhookEndpoint(bo.ctx, {
          organizationId: bo.organization.id,
          url: values.url ?? "",
          description: values.description ?? "",
          events: WEBHOOK_EVENT_TYPES.filter((t) => values[eventField(t)] === "on"),
        });
        const reply: SecretReply = { ...formReply({}, { snackbar: { type: "success", message: WEBHOOK_MESSAGES.created } }), secret: { value: secret, url: endpoint.url } };
        return data(reply, { headers: bo.headers });
      }
    }
  } catch (error) {
    const target = values.intent === "create" ? "create" : values.intent === "update" ? `edit-${values.endpointId ?? ""}` : null;
    return failedReply(error, values, { headers: bo.headers, target, fields: (key) => FIELDS.has(key) });
  }
}

type EndpointValues = { id: string; url: string; description: string | null; events: string[] };

function defaultsOf(endpoint: EndpointValues): Record<string, string> {
  const values: Record<string, string> = { url: endpoint.url, description: endpoint.description ?? "" };
  for (const type of endpoint.events) values[eventField(type as WebhookEventType)] = "on";
  return values;
}

/** The form to add an endpoint, or to edit one (`endpoint`): the same fields, the edit one filled in. */
function EndpointForm({ reply, endpoint }: { reply?: FormReply; endpoint?: EndpointValues }) {
  const posting = useIsPosting();
  const target = endpoint ? `edit-${endpoint.id}` : "create";
  const idPrefix = endpoint ? `editar-${endpoint.id.slice(0, 8)}` : "nuevo";
  const eventErrors = reply?.target === target ? reply.errors.events : undefined;
  return (
    <BackofficeForm reply={reply} target={target} idPrefix={idPrefix} defaults={endpoint ? defaultsOf(endpoint) : undefined} method="post" className="flex flex-col gap-4">
      {endpoint ? <input type="hidden" name="endpointId" value={endpoint.id} /> : null}
      <FormErrorList reply={reply} target={target} />
      <TextInput
        name="url"
        label="URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        required
        placeholder="https://tu-sistema.com/webhooks/tribuna"
        help="Le mandamos un POST con JSON a esta dirección. Tiene que ser https."
      />
      <TextInput
        name="description"
        label="Descripción (opcional)"
        autoComplete="off"
        maxLength={200}
        help="Para acordarte para qué es, por ejemplo «Sistema de acreditaciones»."
      />
      <fieldset className="flex flex-col gap-2" aria-describedby={eventErrors ? `${idPrefix}-events-error` : undefined}>
        <legend className="mb-1 text-sm font-medium">Eventos que querés recibir</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox key={type} name={eventField(type)} label={WEBHOOK_EVENT_LABELS[type]} help={<code>{type}</code>} />
        ))}
        {eventErrors?.length ? (
          <p id={`${idPrefix}-events-error`} className="text-sm text-red-700 dark:text-red-300">
            {eventErrors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" name="intent" value={endpoint ? "update" : "create"} pending={posting} pendingLabel={endpoint ? "Guardando…" : "Creando…"}>
          {endpoint ? "Guardar cambios" : "Agregar webhook"}
        </Button>
      </div>
    </BackofficeForm>
  );
}

function SecretOnce({ secret }: { secret: { value: string; url: string } }) {
  return (
    <Card title="Tu clave de firma" className="mb-6 border-primary-500/60">
      <p className="text-sm">
        Es la clave para verificar que los avisos a <span className="break-all font-medium">{secret.url}</span> los mandamos nosotros. Copiala y guardala en tu sistema:{" "}
        <strong>no la vamos a volver a mostrar</strong>. Si la perdés, generá una nueva.
      </p>
      <label className="mt-3 flex flex-col gap-1 text-sm">
        <span className="font-medium">Clave de firma</span>
        <input
          readOnly
          value={secret.value}
          className="rounded-lg border border-[var(--border)] bg-[var(--surface)] px-3 py-2 font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
    </Card>
  );
}

const STATUS_TONES: Record<string, BadgeTone> = { delivered: "success", failed: "danger", pending: "warning" };

function statusLabel(status: string): string {
  return WEBHOOK_DELIVERY_STATUS_LABELS[status as keyof typeof WEBHOOK_DELIVERY_STATUS_LABELS] ?? status;
}

function eventLabel(type: string): string {
  return WEBHOOK_EVENT_LABELS[type as WebhookEventType] ?? type;
}

export default function WebhooksPage() {
  const { endpoints, deliveries, totalDeliveries, failedDeliveries } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as SecretReply | undefined;
  return (
    <BackofficePage
      title="Webhooks"
      lead={`Avisos automáticos a tu sistema cada vez que se paga o se devuelve una compra, entra alguien por la puerta o aprobás una transferencia. Cada aviso va firmado; si tu sistema no responde con 2xx en ${WEBHOOK_TIMEOUT_SECONDS} segundos, lo reintentamos durante unas horas.`}
    >
      {reply?.secret ? <SecretOnce secret={reply.secret} /> : null}

      <section aria-labelledby="webhook-endpoints" className="mb-6">
        <h2 id="webhook-endpoints" className="mb-3 text-lg font-bold">
          Tus webhooks
        </h2>
        {endpoints.length === 0 ? (
          <EmptyState>Todavía no agregaste ningún webhook.</EmptyState>
        ) : (
          <ul className="flex flex-col gap-3">
            {endpoints.map((e) => (
              <li key={e.id} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
                <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0">
                    <p className="break-all font-bold">
                      {e.url} {e.active ? <Badge tone="success">Activo</Badge> : <Badge tone="warning">Pausado</Badge>}
                    </p>
                    {e.description ? <p className="text-sm">{e.description}</p> : null}
                    <p className="text-sm text-[var(--muted)]">
                      {e.events.map(eventLabel).join(", ")} · desde el {e.createdAt}
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-wrap gap-2">
                    <Form noValidate method="post">
                      <input type="hidden" name="endpointId" value={e.id} />
                      <Button type="submit" name="intent" value={e.active ? "pause" : "resume"} variant="secondary">
                        {e.active ? "Pausar" : "Reactivar"}
                      </Button>
                    </Form>
                    <Form noValidate method="post">
                      <input type="hidden" name="endpointId" value={e.id} />
                      <ConfirmButton
                        name="intent"
                        value="rotate"
                        tone="primary"
                        className={buttonClasses("secondary")}
                        title="¿Generar una clave de firma nueva?"
                        description="La clave actual deja de servir en el momento: actualizá tu sistema con la nueva, que vas a ver una sola vez."
                        confirmLabel="Generar clave nueva"
                      >
                        Nueva clave
                      </ConfirmButton>
                    </Form>
                    <Form noValidate method="post">
                      <input type="hidden" name="endpointId" value={e.id} />
                      <ConfirmButton
                        name="intent"
                        value="delete"
                        title="¿Borrar el webhook?"
                        description={`Dejamos de mandar avisos a ${e.url} y se borra su registro de envíos. No se puede deshacer.`}
                        confirmLabel="Borrar"
                        className="rounded-lg border border-red-600 px-4 py-2 text-sm font-bold text-red-600"
                      >
                        Borrar
                      </ConfirmButton>
                    </Form>
                  </div>
                </div>
                {/* Open after a failed save, so the errors are in view. */}
                <details className="mt-3" open={reply?.target === `edit-${e.id}`}>
                  <summary className="cursor-pointer text-sm font-medium">Editar</summary>
                  <div className="mt-3">
                    <EndpointForm reply={reply} endpoint={e} />
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>

      <Card title="Agregar un webhook">
        <EndpointForm reply={reply} />
      </Card>

      <section aria-labelledby="webhook-deliveries" className="mt-6">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="webhook-deliveries" className="text-lg font-bold">
            Últimos envíos {totalDeliveries ? <span className="text-sm font-normal text-[var(--muted)]">({totalDeliveries})</span> : null}
          </h2>
          {failedDeliveries ? (
            <Form noValidate method="post">
              <Button type="submit" name="intent" value="retry-failed" variant="secondary">
                Reintentar los fallidos ({failedDeliveries})
              </Button>
            </Form>
          ) : null}
        </div>
        {deliveries.length === 0 ? (
          <EmptyState>Todavía no mandamos ningún aviso.</EmptyState>
        ) : (
          <ul className="flex flex-col gap-3">
            {deliveries.map((d) => (
              <li key={d.id} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0">
                    <p className="font-bold">
                      {eventLabel(d.eventType)} <Badge tone={STATUS_TONES[d.status] ?? "neutral"}>{statusLabel(d.status)}</Badge>
                    </p>
                    <p className="break-all text-sm">{d.endpointUrl}</p>
                    <p className="text-sm text-[var(--muted)]">
                      {d.createdAt} · {d.attempts === 1 ? "1 intento" : `${d.attempts} intentos`}
                      {d.lastStatusCode ? ` · última respuesta HTTP ${d.lastStatusCode}` : ""}
                      {d.lastError ? ` · ${d.lastError}` : ""}
                    </p>
                    <p className="break-all text-xs text-[var(--muted)]">
                      Id <code>{d.id}</code>
                    </p>
                  </div>
                  <Form noValidate method="post" className="shrink-0">
                    <input type="hidden" name="deliveryId" value={d.id} />
                    <Button type="submit" name="intent" value="replay" variant="secondary">
                      Reenviar
                    </Button>
                  </Form>
                </div>
                {d.attemptLog.length ? (
                  <details className="mt-2">
                    <summary className="cursor-pointer text-sm font-medium">Ver intentos</summary>
                    <ScrollTable label="Intentos de la entrega" className="mt-2" surface framed={false}>
                      <table className="w-full min-w-[28rem] text-left text-sm">
                        <thead>
                          <tr className="border-b border-[var(--border)]">
                            <th className="py-1 pr-3 font-medium">Cuándo</th>
                            <th className="py-1 pr-3 font-medium">Respuesta</th>
                            <th className="py-1 pr-3 font-medium">Duración</th>
                            <th className="py-1 font-medium">Detalle</th>
                          </tr>
                        </thead>
                        <tbody>
                          {d.attemptLog.map((a) => (
                            <tr key={a.id} className="border-b border-[var(--border)] last:border-0">
                              <td className="py-1 pr-3 whitespace-nowrap">
                                {a.attemptedAt}
                                {a.replay ? " (reenvío)" : ""}
                              </td>
                              <td className="py-1 pr-3">{a.statusCode ? `HTTP ${a.statusCode}` : "Sin respuesta"}</td>
                              <td className="py-1 pr-3 whitespace-nowrap">{a.durationMs} ms</td>
                              <td className="py-1">{a.error ?? "Entregado"}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </ScrollTable>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
