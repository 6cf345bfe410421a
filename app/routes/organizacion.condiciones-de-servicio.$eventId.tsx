import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { acceptServiceConditions, DEFAULT_SERVICE_FEE_BPS, getEventForOrganizer, publishEvent } from "#server/events/events";
import { formatMoney } from "#common/money";
import { formatDateTime } from "#common/dates";
import { failedReply, formReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Condiciones de servicio · Tribuna" }];

const MUST_ACCEPT = "Marcá la casilla para aceptar las condiciones";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request);
  const { event, dates, tickets } = await guard(() => getEventForOrganizer(bo.ctx, params.eventId ?? ""));
  const feeBps = event.serviceFeeBps ?? DEFAULT_SERVICE_FEE_BPS;
  const examplePrice = tickets.find((t) => t.price > 0)?.price ?? 1_000_000;
  return data(
    {
      event: {
        id: event.id,
        name: event.name,
        slug: event.slug,
        publishedAt: event.publishedAt?.toISOString() ?? null,
        acceptedAt: event.serviceConditionsAcceptedAt?.toISOString() ?? null,
        firstDate: dates[0]?.startsAt.toISOString() ?? null,
      },
      feePercent: feeBps / 100,
      example: { price: formatMoney(examplePrice), fee: formatMoney(Math.round((examplePrice * feeBps) / 10_000)), total: formatMoney(examplePrice + Math.round((examplePrice * feeBps) / 10_000)) },
      ticketCount: tickets.filter((t) => t.status === "active").length,
    },
    { headers: bo.headers },
  );
}

/** `acceptServiceConditions`, then `publishEvent` (two buttons, or both at once). */
export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const eventId = params.eventId ?? "";
  const form = await readForm(request);
  const intent = form.values.intent ?? "accept";
  const here = `${BO.conditions(eventId)}${bo.query({ eventId })}`;

  if (intent === "accept" || intent === "acceptAndPublish") {
    if (form.values.accept !== "on") {
      return failedReply(null, form.values, { headers: bo.headers, extraErrors: { accept: [MUST_ACCEPT] } });
    }
    try {
      await acceptServiceConditions(bo.ctx, { eventId });
    } catch (error) {
      return failedReply(error, form.values, { headers: bo.headers, fields: () => false });
    }
    if (intent === "accept") return savedRedirect(here, bo.headers);
  }
  if (intent === "publish" || intent === "acceptAndPublish") {
    try {
      await publishEvent(bo.ctx, { id: eventId });
    } catch (error) {
      return failedReply(error, form.values, { headers: bo.headers, fields: () => false });
    }
    return savedRedirect(`${BO.congrats}${bo.query({ eventId })}`, bo.headers);
  }
  return data(formReply(form.values), { status: 400, headers: bo.headers });
}

export default function ServiceConditionsPage() {
  const { event, feePercent, example, ticketCount } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const posting = useIsPosting();
  const href = useBackofficeHref();

  return (
    <BackofficePage narrow title="Condiciones de servicio" lead={<>Antes de vender entradas de <strong className="text-[var(--text)]">{event.name}</strong>, leé cómo trabajamos.</>}>
      <div className="flex flex-col gap-6">
        <Card>
          <article className="flex flex-col gap-3 text-sm leading-6">
            <h2 className="text-lg font-bold">Cargo de servicio</h2>
            <p>
              Tribuna cobra un <strong>cargo de servicio del {feePercent} %</strong> sobre el precio de cada entrada. Lo paga
              quien compra, aparte del precio que fijás: vos recibís el precio completo de cada entrada vendida.
            </p>
            <p className="rounded-lg border border-[var(--border)] bg-[var(--bg)] p-3">
              Ejemplo: una entrada de {example.price} se cobra {example.total} ({example.price} + {example.fee} de cargo de servicio).
              Las entradas gratis no tienen cargo.
            </p>
            <h2 className="mt-2 text-lg font-bold">Tu responsabilidad como organizador</h2>
            <p>
              Tu organización es la responsable del evento: de que se haga en la fecha y el lugar publicados, de tener
              las habilitaciones necesarias y de la información que publicás (precios, edad mínima, qué incluye cada entrada).
            </p>
            <h2 className="mt-2 text-lg font-bold">Devoluciones</h2>
            <p>
              Las devoluciones siguen la ley argentina. Quien compra puede arrepentirse dentro de los 10 días corridos
              desde que recibe sus entradas, siempre que lo pida al menos 24 horas antes del evento (Disposición 954/2025):
              esa devolución es automática. Si el evento se suspende o cambia de fecha, tenés que devolver el dinero a
              quien lo pida. Podés ser más generoso que la ley, nunca menos.
            </p>
          </article>
        </Card>

        {event.publishedAt ? (
          <Card>
            <p className="font-bold">Este evento ya está publicado.</p>
            <p className="mt-1 text-sm text-[var(--muted)]">
              Condiciones aceptadas el {event.acceptedAt ? formatDateTime(event.acceptedAt) : "—"}.{" "}
              <Link to={href(BO.congrats, { eventId: event.id })} className="text-[var(--accent)] hover:underline">
                Ver el link para compartir
              </Link>
            </p>
          </Card>
        ) : event.acceptedAt ? (
          <Card title="Publicar el evento">
            <p className="mb-4 text-sm text-[var(--muted)]">
              Aceptaste las condiciones el {formatDateTime(event.acceptedAt)}. Al publicarlo, el evento aparece en Tribuna y se
              pueden comprar entradas{ticketCount ? ` (${ticketCount} ${ticketCount === 1 ? "tipo de entrada activo" : "tipos de entrada activos"})` : ""}.
            </p>
            <Form method="post" className="flex flex-col gap-3">
              <FormErrorList reply={reply} />
              <div className="flex flex-wrap justify-end gap-2">
                <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="inline-flex items-center px-4 text-sm text-[var(--accent)] hover:underline">
                  Revisar el evento
                </Link>
                <Button type="submit" name="intent" value="publish" pending={posting} pendingLabel="Publicando…">
                  Publicar evento
                </Button>
              </div>
            </Form>
          </Card>
        ) : (
          <Card title="Aceptar las condiciones">
            <BackofficeForm reply={reply} method="post" className="flex flex-col gap-3">
              <FormErrorList reply={reply} />
              <Checkbox name="accept" label={`Leí y acepto las condiciones de servicio, con el cargo de servicio del ${feePercent} % que paga quien compra.`} />
              <div className="flex flex-wrap justify-end gap-2">
                <Button type="submit" name="intent" value="accept" variant="secondary" pending={posting}>
                  Aceptar y publicar más tarde
                </Button>
                <Button type="submit" name="intent" value="acceptAndPublish" pending={posting} pendingLabel="Publicando…">
                  Aceptar y publicar
                </Button>
              </div>
            </BackofficeForm>
          </Card>
        )}
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
