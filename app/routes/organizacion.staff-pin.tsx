import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { listDoorPins, revokeDoorPin, rotateDoorPin } from "#server/door/access";
import { appUrl } from "#server/env";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { FormErrorList, FormSnackbar } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "PIN de puerta · Tribuna" }];

/** The organization's events and their door PINs (owners and admins only: the domain checks it). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "door:pins");
  const events = await guard(() => listDoorPins(bo.ctx, bo.organization.id));
  const base = appUrl();
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      events: events.map((e) => ({
        id: e.id,
        name: e.name,
        pin: e.pin,
        finished: e.finished,
        since: e.pinCreatedAt ? formatDateTime(e.pinCreatedAt) : null,
        doorUrl: `${base}${BO.door(e.slug)}`,
        livePath: BO.live(e.slug),
      })),
    },
    { headers: bo.headers },
  );
}

export const DOOR_PIN_MESSAGES = {
  first: "Listo: este es el PIN de la puerta. Pasáselo a tu personal.",
  // Only when there was one before: the first PIN of an event replaces nothing.
  replaced: "Listo: este es el PIN nuevo. El anterior dejó de funcionar.",
  revoked: "Quitamos el PIN: los teléfonos que lo usaban ya no pueden acreditar.",
} as const;

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const eventId = values.eventId ?? "";
  let message: string;
  try {
    if (values.intent === "revoke") {
      await revokeDoorPin(bo.ctx, eventId);
      message = DOOR_PIN_MESSAGES.revoked;
    } else {
      message = (await rotateDoorPin(bo.ctx, eventId)).replaced ? DOOR_PIN_MESSAGES.replaced : DOOR_PIN_MESSAGES.first;
    }
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers });
  }
  return savedRedirect(BO.staffPin, bo.headers, message);
}

export default function StaffPinPage() {
  const { events } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  return (
    <BackofficePage
      title="PIN de puerta"
      lead="Con el PIN, tu personal de puerta abre la pantalla de acreditación desde su teléfono, sin cuenta. Cada PIN sirve para un solo evento y deja de funcionar unas horas después de su última fecha. Si se filtra, cambialo: los teléfonos que usaban el anterior se cierran al instante."
    >
      <FormErrorList reply={reply} />
      {events.length === 0 ? (
        <EmptyState>Todavía no tenés eventos. Cuando crees uno, vas a poder generar su PIN acá.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-4">
          {events.map((event) => (
            <li key={event.id}>
              <Card title={event.name}>
                <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                  <div>
                    {event.pin ? (
                      <>
                        <p className="font-mono text-3xl font-black tracking-[0.25em]" aria-label={`PIN: ${event.pin.split("").join(" ")}`}>
                          {event.pin}
                        </p>
                        <p className="text-sm text-[var(--muted)]">Generado el {event.since}</p>
                      </>
                    ) : (
                      <p className="text-[var(--muted)]">{event.finished ? "El evento ya terminó." : "Sin PIN: solo el equipo con cuenta puede acreditar."}</p>
                    )}
                    <p className="mt-2 break-all text-sm">
                      Pantalla de puerta: <a href={event.doorUrl} className="font-bold text-primary-700 underline dark:text-primary-400">{event.doorUrl}</a>
                    </p>
                    <p className="mt-1 text-sm">
                      <a href={event.livePath} className="font-bold text-primary-700 underline dark:text-primary-400">Ver los ingresos en vivo</a>
                    </p>
                  </div>
                  {event.finished ? null : (
                    <div className="flex flex-wrap gap-2">
                      <Form method="post">
                        <input type="hidden" name="eventId" value={event.id} />
                        <input type="hidden" name="intent" value="rotate" />
                        <Button type="submit" variant={event.pin ? "secondary" : "primary"}>{event.pin ? "Cambiar PIN" : "Generar PIN"}</Button>
                      </Form>
                      {event.pin ? (
                        <Form method="post">
                          <input type="hidden" name="eventId" value={event.id} />
                          <input type="hidden" name="intent" value="revoke" />
                          <Button type="submit" variant="danger">Quitar PIN</Button>
                        </Form>
                      ) : null}
                    </div>
                  )}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
