import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getEventForOrganizer, requireEventBySlug, setTicketTypeStatus } from "#server/events/events";
import { saveEventSchedule, type SaveEventScheduleInput } from "#server/events/schedule";
import { formatDateTime, toDateTimeInput } from "#common/dates";
import { formatMoney } from "#common/money";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { readScheduleReport, rowErrorKey, scheduleSavedRedirect } from "#app/lib/schedule.server";
import { PAYMENT_METHOD_OPTIONS, TicketTypeFields } from "#app/components/backoffice/EventFields";
import { EventStatusBadge, StatusBadge } from "#app/components/backoffice/EventStatus";
import { BackofficeForm, DefaultSubmit, FormErrorList, FormSnackbar, useRemountKey } from "#app/components/backoffice/forms";
import { ticketTypeFormSchema } from "#app/components/backoffice/schemas";
import { centavosToInput, soldOfStock } from "#app/components/backoffice/format";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { ChangeBadge, ScheduleReport } from "#app/components/backoffice/ScheduleReport";
import type { FormReply } from "#app/components/backoffice/types";
import { Badge } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Entradas del evento · Tribuna" }];

const TICKET_FIELDS = [
  "name",
  "description",
  "eventDateId",
  "price",
  "stock",
  "minPerOrder",
  "maxPerOrder",
  "salesStartAt",
  "salesEndAt",
  "hidden",
  "presale",
  "accessCode",
  "paymentMethod",
] as const;

const NEW_TICKET = { name: "", price: "", stock: "", minPerOrder: "1", maxPerOrder: "10", paymentMethod: "MercadoPagoAccount" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request);
  const report = readScheduleReport(request);
  if (report.clear) bo.headers.append("Set-Cookie", report.clear);
  const found = await guard(() => requireEventBySlug(bo.ctx, params.slug ?? ""));
  const { event, dates, tickets } = await guard(() => getEventForOrganizer(bo.ctx, found.id));
  return data(
    {
      schedule: report.schedule,
      event: { id: event.id, name: event.name, slug: event.slug, status: event.status, publishedAt: event.publishedAt?.toISOString() ?? null },
      dates: dates.map((d) => ({ value: d.id, label: formatDateTime(d.startsAt) })),
      tickets: tickets.map((t) => ({
        id: t.id,
        name: t.name,
        status: t.status,
        sold: t.sold,
        stock: t.stock,
        price: t.price,
        hidden: t.hidden,
        presale: t.presale,
        paymentMethod: t.paymentMethod,
        values: {
          name: t.name,
          description: t.description,
          eventDateId: t.eventDateId ?? "",
          price: centavosToInput(t.price),
          stock: String(t.stock),
          minPerOrder: String(t.minPerOrder),
          maxPerOrder: String(t.maxPerOrder),
          salesStartAt: toDateTimeInput(t.salesStartAt),
          salesEndAt: toDateTimeInput(t.salesEndAt),
          accessCode: t.accessCode ?? "",
          paymentMethod: t.paymentMethod,
          ...(t.hidden ? { hidden: "on" } : {}),
          ...(t.presale ? { presale: "on" } : {}),
        } as Record<string, string>,
      })),
    },
    { headers: bo.headers },
  );
}

function ticketInput(values: Record<string, string>) {
  const input: Record<string, unknown> = {};
  for (const key of TICKET_FIELDS) if (values[key] !== undefined) input[key] = values[key];
  for (const key of ["minPerOrder", "maxPerOrder", "description"]) if (input[key] === "") delete input[key];
  return input;
}

const isTicketField = (key: string) => (TICKET_FIELDS as readonly string[]).includes(key);

type ScheduleTicketRow = NonNullable<SaveEventScheduleInput["ticketTypes"]>[number];

/**
 * Create, edit and delete ticket types through `saveEventSchedule` (the same
 * domain function as GraphQL's), coming back to the page with its change report;
 * pause and resume are status changes. The domain checks the event is this
 * member's and every row is of this event.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const event = await guard(() => requireEventBySlug(bo.ctx, params.slug ?? ""));
  const { values } = await readForm(request);
  const intent = values.intent ?? "";
  const id = values.id ?? "";
  const url = new URL(request.url);
  const target = intent === "create" ? "new" : `ticket:${id}`;
  const row: ScheduleTicketRow | null =
    intent === "create" ? ticketInput(values) : intent === "update" ? { id, ...ticketInput(values) } : intent === "delete" ? { id, remove: true } : null;
  try {
    if (row) return scheduleSavedRedirect(await saveEventSchedule(bo.ctx, { eventId: event.id, ticketTypes: [row] }), `${url.pathname}${url.search}`, bo.headers);
    if (intent === "pause" || intent === "resume") await setTicketTypeStatus(bo.ctx, { id, status: intent === "pause" ? "paused" : "active" });
    else return failedReply(null, values, { headers: bo.headers, extraErrors: { _form: ["No sabemos qué querías guardar. Probá de nuevo."] } });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, target, fields: isTicketField, mapKey: rowErrorKey("ticketTypes") });
  }
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers);
}

export default function EventTicketsPage() {
  const { event, dates, tickets, schedule } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const key = useRemountKey(reply, tickets);
  const dateOptions = dates.length > 1 ? dates : undefined;

  return (
    <BackofficePage
      narrow
      title={`Entradas de ${event.name}`}
      lead={
        <span className="flex flex-wrap items-center gap-2">
          <EventStatusBadge event={event} />
          <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
            Datos y fechas del evento
          </Link>
          <span aria-hidden="true">·</span>
          <Link to={href(BO.addStock, { eventId: event.id })} className="text-[var(--accent)] hover:underline">
            Agregar entradas a un tipo
          </Link>
        </span>
      }
    >
      <div key={key} className="flex flex-col gap-6">
        <ScheduleReport schedule={schedule} />
        {tickets.length === 0 ? <EmptyState>Este evento todavía no tiene entradas. Creá la primera abajo.</EmptyState> : null}
        {tickets.map((ticket) => {
          const target = `ticket:${ticket.id}`;
          return (
            <details
              key={ticket.id}
              open={reply?.target === target}
              className="group rounded-2xl border border-[var(--border)] bg-[var(--surface)]"
              data-ticket={ticket.name}
            >
              <summary className="flex cursor-pointer list-none flex-wrap items-center gap-2 p-4 sm:px-6 [&::-webkit-details-marker]:hidden">
                <span aria-hidden="true" className="text-[var(--muted)] transition-transform group-open:rotate-90">
                  ▸
                </span>
                <h2 className="text-lg font-bold">{ticket.name}</h2>
                <StatusBadge status={ticket.status} />
                <ChangeBadge schedule={schedule} id={ticket.id} />
                {ticket.hidden ? <Badge tone="secondary">Oculta</Badge> : null}
                {ticket.presale ? <Badge tone="secondary">Preventa</Badge> : null}
                <span className="text-sm text-[var(--muted)]">
                  {formatMoney(ticket.price)} · Vendidas {soldOfStock(ticket.sold, ticket.stock)} ·{" "}
                  {PAYMENT_METHOD_OPTIONS.find((o) => o.value === ticket.paymentMethod)?.label ?? ticket.paymentMethod}
                </span>
                <span className="ml-auto text-sm text-[var(--accent)] group-open:hidden">Editar</span>
              </summary>
              <BackofficeForm reply={reply} target={target} defaults={ticket.values} idPrefix={`ticket-${ticket.id.slice(0, 8)}`} schema={ticketTypeFormSchema} method="post" className="flex flex-col gap-3 border-t border-[var(--border)] p-4 sm:px-6">
                <DefaultSubmit value="update" label="Guardar" />
                <input type="hidden" name="id" value={ticket.id} />
                <FormErrorList reply={reply} target={target} />
                <TicketTypeFields dates={dateOptions} salesWindow />
                <div className="flex flex-wrap justify-end gap-2">
                  <ConfirmButton
                    name="intent"
                    value="delete"
                    formNoValidate
                    className="px-3 text-sm text-red-700 hover:underline dark:text-red-400"
                    title={`¿Eliminar “${ticket.name}”?`}
                    description="Deja de verse y de venderse. Las entradas ya vendidas siguen valiendo."
                    confirmLabel="Eliminar entrada"
                  >
                    Eliminar
                  </ConfirmButton>
                  <Button type="submit" name="intent" value={ticket.status === "paused" ? "resume" : "pause"} variant="secondary" formNoValidate>
                    {ticket.status === "paused" ? "Reanudar venta" : "Pausar venta"}
                  </Button>
                  <Button type="submit" name="intent" value="update">
                    Guardar
                  </Button>
                </div>
              </BackofficeForm>
            </details>
          );
        })}

        <Card title="Nuevo tipo de entrada">
          <BackofficeForm reply={reply} target="new" defaults={NEW_TICKET} idPrefix="nueva-entrada" schema={ticketTypeFormSchema} method="post" className="flex flex-col gap-3">
            <FormErrorList reply={reply} target="new" />
            <TicketTypeFields dates={dateOptions} salesWindow />
            <div className="flex justify-end">
              <Button type="submit" name="intent" value="create">
                Crear tipo de entrada
              </Button>
            </div>
          </BackofficeForm>
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
