import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime, formatEventStart } from "#common/dates";
import { eventWaitlist, setEventWaitlist } from "#server/waitlist/waitlist";
import { failedReply, guard, readForm, requireOrganizationEvent, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

import { Figure } from "#app/components/backoffice/Figure";
export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Lista de espera · Tribuna" }];

const STATUS_LABELS = { waiting: "Esperando", offered: "Con entradas guardadas", claimed: "Reclamó", left: "Salió", missed: "No reclamó a tiempo" } as const;
const OFFER_LABELS = { offered: "guardadas", claimed: "reclamadas", expired: "vencidas", withdrawn: "devueltas" } as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { bo, event } = await requireOrganizationEvent(request, params.slug, "sales:read");
  const list = await guard(() => eventWaitlist(bo.ctx, event.id));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { id: event.id, name: event.name, slug: event.slug },
      defaults: { enabled: list.enabled ? "on" : "", offerMinutes: String(list.offerMinutes) } as Record<string, string>,
      list: {
        enabled: list.enabled,
        waiting: list.waiting,
        waitingTickets: list.waitingTickets,
        offered: list.offered,
        byTicketType: list.byTicketType.map((g) => ({ label: g.ticketTypeName ?? "Cualquier entrada", people: g.people, tickets: g.tickets })),
        entries: list.entries.map((e) => ({
          id: e.id,
          name: e.name,
          email: e.email,
          date: formatEventStart(e.startsAt),
          ticket: e.ticketTypeName ?? "Cualquier entrada",
          quantity: e.quantity,
          status: STATUS_LABELS[e.status],
          joined: formatDateTime(e.joinedAt),
          offer: e.offer ? `${e.offer.quantity} «${e.offer.ticketTypeName}» ${OFFER_LABELS[e.offer.status]}${e.offer.status === "offered" ? ` hasta las ${formatDateTime(e.offer.expiresAt)}` : ""}` : null,
        })),
      },
    },
    { headers: bo.headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { bo, event } = await requireOrganizationEvent(request, params.slug);
  const { values } = await readForm(request);
  const url = new URL(request.url);
  try {
    const minutesText = (values.offerMinutes ?? "").trim();
    const minutes = minutesText ? Number(minutesText) : null;
    if (minutes !== null && !Number.isInteger(minutes)) {
      return failedReply(null, values, { headers: bo.headers, extraErrors: { offerMinutes: ["Ingresá los minutos como un número entero."] } });
    }
    await setEventWaitlist(bo.ctx, { eventId: event.id, enabled: values.enabled === "on", offerMinutes: minutes });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => ["enabled", "offerMinutes"].includes(key) });
  }
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers);
}

export default function EventWaitlistPage() {
  const { event, defaults, list } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const key = useRemountKey(reply, defaults);

  return (
    <BackofficePage
      narrow
      title={`Lista de espera de ${event.name}`}
      lead={
        <>
          Cuando el evento se agota, quienes quieran ir se anotan. Si vuelven entradas (una reserva que vence, una devolución o entradas que agregás), se
          las guardamos a la primera persona de la lista y le mandamos un correo para que las reclame y pague; si no las reclama a tiempo, pasan a la siguiente.{" "}
          <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] underline underline-offset-2">
            Volver al evento
          </Link>
        </>
      }
    >
      <div className="flex flex-col gap-6">
        <Card title="Quiénes esperan">
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <Figure label="Personas esperando" value={list.waiting} />
            <Figure label="Entradas que esperan" value={list.waitingTickets} />
            <Figure label="Con entradas guardadas" value={list.offered} />
          </dl>
          {list.byTicketType.length ? (
            <ul className="mt-4 flex flex-col gap-1 text-sm">
              {list.byTicketType.map((g) => (
                <li key={g.label}>
                  {g.label}: {g.people === 1 ? "1 persona" : `${g.people} personas`}, {g.tickets === 1 ? "1 entrada" : `${g.tickets} entradas`}
                </li>
              ))}
            </ul>
          ) : null}
        </Card>
        <Card title="Configuración">
          <BackofficeForm reply={reply} defaults={defaults} key={key} method="post" className="flex flex-col gap-4">
            <FormErrorList reply={reply} />
            <Checkbox name="enabled" label="Usar la lista de espera en este evento" help="Con el evento agotado, la página del evento ofrece anotarse. Si la apagás, no se ofrecen más entradas; las que ya están guardadas siguen hasta que vencen." />
            <TextInput name="offerMinutes" label="Minutos que guardamos las entradas para cada persona" inputMode="numeric" required help="Por defecto 30 (entre 5 y 1440). Cuando las reclama, tiene el tiempo de cualquier compra para pagar." />
            <div className="flex justify-end">
              <Button type="submit" name="intent" value="save">
                Guardar
              </Button>
            </div>
          </BackofficeForm>
        </Card>
        <Card title="La lista, por orden de llegada">
          {list.entries.length ? (
            <ol className="flex flex-col gap-3">
              {list.entries.map((e) => (
                <li key={e.id} className="rounded-xl border border-[var(--border)] p-3 text-sm">
                  <p className="font-bold break-words">
                    {e.name} <span className="font-normal text-[var(--muted)] break-all">· {e.email}</span>
                  </p>
                  <p>
                    {e.quantity === 1 ? "1 entrada" : `${e.quantity} entradas`} · {e.ticket} · {e.date}
                  </p>
                  <p>
                    {e.status} · se anotó el {e.joined}
                    {e.offer ? ` · ${e.offer}` : ""}
                  </p>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-[var(--muted)]">Todavía no se anotó nadie.</p>
          )}
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}

