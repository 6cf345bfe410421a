import { useEffect } from "react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { formatEventStart, formatTime, parseDateTime, toDateTimeInput } from "#common/dates";
import { eventQueue, pauseEventQueue, resumeEventQueue, setEventQueue } from "#server/queue/queue";
import { failedReply, guard, readForm, requireOrganizationEvent, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, SelectInput, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { DateTimeInput } from "#app/components/backoffice/DateInputs";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

import { Figure } from "#app/components/backoffice/Figure";
export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Fila virtual · Tribuna" }];

const PACE_OPTIONS = [
  { value: "auto", label: "Automático: según las entradas que quedan" },
  { value: "max", label: "Un máximo de personas por minuto" },
];

/** The figures refresh every few seconds while the page is open (with JavaScript; without it, reloading shows the same). */
const LIVE_REFRESH_MS = 5000;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { bo, event } = await requireOrganizationEvent(request, params.slug);
  const queue = await guard(() => eventQueue(bo.ctx, event.id));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { id: event.id, name: event.name, slug: event.slug },
      defaults: {
        enabled: queue?.enabled ? "on" : "",
        opensAt: queue ? toDateTimeInput(queue.opensAt) : "",
        admissionMinutes: String(queue?.admissionMinutes ?? 10),
        pace: queue?.admitPerMinute ? "max" : "auto",
        admitPerMinute: queue?.admitPerMinute ? String(queue.admitPerMinute) : "",
      } as Record<string, string>,
      live: queue
        ? {
            enabled: queue.enabled,
            paused: queue.paused,
            soldOut: queue.soldOut,
            opened: queue.opensAt.getTime() <= bo.ctx.now.getTime(),
            opensAtLabel: formatEventStart(queue.opensAt),
            waiting: queue.waiting,
            admitted: queue.admitted,
            bought: queue.bought,
            left: queue.left,
            paceLabel: queue.admitPerMinute ? `Hasta ${queue.admitPerMinute} por minuto` : "Automático",
            drawCommitment: queue.drawCommitment,
            drawSeed: queue.drawSeed,
            updatedLabel: formatTime(bo.ctx.now),
          }
        : null,
    },
    { headers: bo.headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { bo, event } = await requireOrganizationEvent(request, params.slug);
  const { values } = await readForm(request);
  const url = new URL(request.url);
  const here = `${url.pathname}${url.search}`;
  try {
    if (values.intent === "pause") {
      await pauseEventQueue(bo.ctx, event.id);
      return savedRedirect(here, bo.headers, "Pausamos el ingreso: nadie pierde su lugar.");
    }
    if (values.intent === "resume") {
      await resumeEventQueue(bo.ctx, event.id);
      return savedRedirect(here, bo.headers, "Retomamos el ingreso.");
    }
    const opensAt = parseDateTime(values.opensAt ?? "");
    const extraErrors: Record<string, string[]> = {};
    if (!opensAt) extraErrors.opensAt = ["Ingresá la fecha y hora de apertura (dd/mm/aaaa hh:mm)."];
    // Left blank, the minutes are the default; the pace per minute has none.
    const minutesText = (values.admissionMinutes ?? "").trim();
    const minutes = minutesText ? Number(minutesText) : 10;
    if (!Number.isInteger(minutes)) extraErrors.admissionMinutes = ["Ingresá los minutos como un número entero."];
    const perMinuteText = (values.admitPerMinute ?? "").trim();
    const perMinute = values.pace === "max" ? (perMinuteText ? Number(perMinuteText) : Number.NaN) : null;
    if (perMinute !== null && !Number.isInteger(perMinute)) extraErrors.admitPerMinute = ["Ingresá cuántas personas por minuto, como un número entero."];
    if (Object.keys(extraErrors).length) return failedReply(null, values, { headers: bo.headers, extraErrors });
    await setEventQueue(bo.ctx, {
      eventId: event.id,
      enabled: values.enabled === "on",
      opensAt: opensAt!,
      admissionMinutes: minutes,
      admitPerMinute: perMinute,
    });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => ["enabled", "opensAt", "admissionMinutes", "admitPerMinute"].includes(key) });
  }
  return savedRedirect(here, bo.headers);
}

function useLiveFigures(on: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => state === "idle" && document.visibilityState === "visible" && revalidate(), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [on, revalidate, state]);
}

export default function EventQueuePage() {
  const { event, defaults, live } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const key = useRemountKey(reply, defaults);
  useLiveFigures(Boolean(live?.enabled));

  return (
    <BackofficePage
      narrow
      title={`Fila virtual de ${event.name}`}
      lead={
        <>
          Para una salida a la venta con mucha demanda: quienes se sumen antes de la apertura entran en un orden sorteado, y después por orden de llegada.
          Tribuna deja pasar a la gente al ritmo que las entradas alcanzan.{" "}
          <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] underline underline-offset-2">
            Volver al evento
          </Link>
        </>
      }
    >
      <div className="flex flex-col gap-6">
        {live ? <LiveFigures live={live} slug={event.slug} /> : null}
        <Card title="Configuración">
          <BackofficeForm reply={reply} defaults={defaults} key={key} method="post" className="flex flex-col gap-4">
            <FormErrorList reply={reply} />
            <Checkbox name="enabled" label="Usar la fila virtual en este evento" help="Mientras esté activa, para comprar hay que pasar por la fila: la página del evento manda a la fila a quien no tenga su turno." />
            <DateTimeInput name="opensAt" label="Apertura de la venta (hora de Buenos Aires)" required />
            <TextInput name="admissionMinutes" label="Minutos para comprar cuando llega el turno" inputMode="numeric" required help="Por defecto 10. Si no compra en ese tiempo, pasa la persona que sigue." />
            <SelectInput name="pace" label="Ritmo de ingreso" options={PACE_OPTIONS} />
            <TextInput name="admitPerMinute" label="Máximo de personas por minuto (solo con ese ritmo)" inputMode="numeric" help="Con el ritmo automático, Tribuna deja pasar solo a quienes las entradas que quedan pueden atender." />
            <div className="flex justify-end">
              <Button type="submit" name="intent" value="save">
                Guardar
              </Button>
            </div>
          </BackofficeForm>
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}

type Live = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["live"]>;

function LiveFigures({ live, slug }: { live: Live; slug: string }) {
  const state = !live.enabled ? "Apagada" : live.soldOut ? "Agotado" : !live.opened ? `Abre el ${live.opensAtLabel.charAt(0).toLowerCase()}${live.opensAtLabel.slice(1)}` : live.paused ? "Ingreso en pausa" : "Abierta, dejando pasar gente";
  return (
    <Card title="En vivo">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-bold" data-testid="queue-state">
          {state}
        </p>
        <p className="text-sm text-[var(--muted)]" aria-live="polite">
          Actualizado a las {live.updatedLabel}
          {live.enabled ? " · se actualiza sola" : ""}
        </p>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Esperando" value={live.waiting} />
        <Figure label="Con turno" value={live.admitted} />
        <Figure label="Compraron" value={live.bought} />
        <Figure label="Se fueron" value={live.left} />
      </dl>
      <p className="mt-3 text-sm">Ritmo: {live.paceLabel}</p>
      <div className="mt-3 flex flex-col gap-1 text-sm">
        <p>
          Huella del sorteo (SHA-256): <code className="break-all">{live.drawCommitment}</code>
        </p>
        <p>
          Semilla: {live.drawSeed ? <code className="break-all">{live.drawSeed}</code> : <span className="text-[var(--muted)]">se revela en la apertura</span>}
        </p>
        <p>
          <a href={`/fila/${slug}`} className="text-[var(--accent)] underline underline-offset-2">
            Ver la página de la fila
          </a>
        </p>
      </div>
      {live.enabled ? (
        <Form method="post" className="mt-4">
          {live.paused ? (
            <Button type="submit" name="intent" value="resume">
              Retomar el ingreso
            </Button>
          ) : (
            <Button type="submit" name="intent" value="pause" variant="secondary">
              Pausar el ingreso
            </Button>
          )}
        </Form>
      ) : null}
    </Card>
  );
}

