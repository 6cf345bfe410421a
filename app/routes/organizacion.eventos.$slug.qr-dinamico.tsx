import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getEventLiveQr, setEventLiveQr } from "#server/door/live-qr";
import { failedReply, guard, readForm, requireOrganizationEvent, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "QR dinámico · Tribuna" }];

const HOURS_MESSAGE = "Escribí las horas como un número entero de 0 a 168.";

/** `/organizacion/eventos/{slug}/qr-dinamico`: the event's live QR and from when its static code counts (docs/door.md, decision 207). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { bo, event } = await requireOrganizationEvent(request, params.slug);
  const settings = await guard(() => getEventLiveQr(bo.ctx, event.id));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { id: event.id, name: event.name, slug: event.slug },
      chosen: settings.chosen,
      defaultEnabled: settings.defaultEnabled,
      defaults: { enabled: settings.enabled ? "on" : "", staticCodeRevealHours: String(settings.staticCodeRevealHours) } as Record<string, string>,
    },
    { headers: bo.headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { bo, event } = await requireOrganizationEvent(request, params.slug);
  const { values } = await readForm(request);
  const url = new URL(request.url);
  const raw = (values.staticCodeRevealHours ?? "").trim();
  const hours = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(hours)) return failedReply(null, values, { headers: bo.headers, extraErrors: { staticCodeRevealHours: [HOURS_MESSAGE] } });
  try {
    await setEventLiveQr(bo.ctx, { eventId: event.id, enabled: values.enabled === "on", staticCodeRevealHours: hours });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => ["enabled", "staticCodeRevealHours"].includes(key) });
  }
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers);
}

export default function EventLiveQrPage() {
  const { event, defaults, chosen, defaultEnabled } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const key = useRemountKey(reply, defaults);
  return (
    <BackofficePage
      narrow
      title={`QR dinámico de ${event.name}`}
      lead={
        <>
          Con el QR dinámico, la entrada en el celular muestra un código que cambia cada 15 segundos, aunque no haya señal. Una captura de pantalla o una foto reenviada deja de servir en la puerta.{" "}
          <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] underline underline-offset-2">
            Volver al evento
          </Link>
        </>
      }
    >
      <Card title="Ajustes">
        <BackofficeForm reply={reply} defaults={defaults} key={key} method="post" className="flex flex-col gap-4">
          <FormErrorList reply={reply} />
          <Checkbox
            name="enabled"
            label="Usar el QR dinámico en las entradas de este evento"
            help={
              chosen
                ? "Lo elegiste vos. Vale para todas las entradas del evento, también las ya vendidas."
                : `Hoy sigue lo recomendado: ${defaultEnabled ? "prendido, porque el evento tiene entradas nominativas, un tope por cuenta o la reventa configurada" : "apagado, porque el evento no tiene entradas nominativas, tope por cuenta ni reventa configurada"}.`
            }
          />
          <TextInput
            name="staticCodeRevealHours"
            label="Mostrar el código fijo en Apple Wallet desde N horas antes de la apertura"
            inputMode="numeric"
            required
            help="De 0 a 168. Desde ese momento la puerta acepta también el código fijo (el del PDF, Apple Wallet o el celular sin JavaScript); antes, solo el que cambia. La apertura es el horario de puertas de cada fecha o, si no lo cargaste, su inicio."
          />
          <div className="flex justify-end">
            <Button type="submit">Guardar</Button>
          </div>
        </BackofficeForm>
      </Card>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
