import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  getEventForOrganizer,
  requireEventBySlug,
  setEventDateStatus,
  setPresaleCode,
  updateEvent,
  updateEventSchema,
} from "#server/events/events";
import { saveEventSchedule, type SaveEventScheduleInput } from "#server/events/schedule";
import { EVENT_CATEGORIES } from "#common/events";
import { toDateTimeInput } from "#common/dates";
import {
  acceptImageUpload,
  failedReply,
  guard,
  readForm,
  requireOrganization,
  savedRedirect,
  schemaErrors,
} from "#app/lib/backoffice.server";
import { readScheduleReport, rowErrorKey, scheduleSavedRedirect } from "#app/lib/schedule.server";
import { BasicEventFields, DateFields, VenueFields } from "#app/components/backoffice/EventFields";
import { coordinatesWarning } from "#common/venue-coordinates";
import { EventStatusBadge, StatusBadge } from "#app/components/backoffice/EventStatus";
import { BackofficeForm, Checkbox, DefaultSubmit, FormErrorList, FormSnackbar, ImageInput, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { eventDateFormSchema, eventFormSchema } from "#app/components/backoffice/schemas";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { ChangeBadge, ScheduleReport } from "#app/components/backoffice/ScheduleReport";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Editar evento · Tribuna" }];

const EVENT_FIELDS = ["name", "description", "category", "minAge", "venueName", "venueAddress", "city", "province", "venueLatitude", "venueLongitude", "imageUrl"] as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request);
  const report = readScheduleReport(request);
  if (report.clear) bo.headers.append("Set-Cookie", report.clear);
  const found = await guard(() => requireEventBySlug(bo.ctx, params.slug ?? ""));
  const { event, dates } = await guard(() => getEventForOrganizer(bo.ctx, found.id));
  return data(
    {
      schedule: report.schedule,
      event: {
        id: event.id,
        slug: event.slug,
        status: event.status,
        publishedAt: event.publishedAt?.toISOString() ?? null,
        values: {
          name: event.name,
          description: event.description,
          category: event.category,
          minAge: String(event.minAge),
          venueName: event.venueName,
          venueAddress: event.venueAddress,
          city: event.city,
          province: event.province,
          venueLatitude: event.venueLatitude === null ? "" : String(event.venueLatitude).replace(".", ","),
          venueLongitude: event.venueLongitude === null ? "" : String(event.venueLongitude).replace(".", ","),
          imageUrl: event.imageUrl ?? "",
        } as Record<string, string>,
        coordinatesWarning: coordinatesWarning(event.venueLatitude, event.venueLongitude),
        presaleCode: event.presaleCode ?? "",
      },
      dates: dates.map((d) => ({
        id: d.id,
        status: d.status,
        values: { startsAt: toDateTimeInput(d.startsAt), endsAt: toDateTimeInput(d.endsAt), doorsAt: toDateTimeInput(d.doorsAt) } as Record<string, string>,
      })),
      categories: EVENT_CATEGORIES.map((c) => ({ value: c.value, label: c.label })),
    },
    { headers: bo.headers },
  );
}

/**
 * One action, several forms (`intent`): the event's fields (`updateEvent`),
 * a new date, each date (edit, pause, delete) and the presale code. Adding,
 * editing and deleting a date go through `saveEventSchedule` (as GraphQL's
 * saveEventSchedule does) and come back to the page with its change report;
 * pausing and resuming are status changes (`setEventDateStatus`).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const event = await guard(() => requireEventBySlug(bo.ctx, params.slug ?? ""));
  const form = await readForm(request);
  const values = form.values;
  const intent = values.intent ?? "update";
  const url = new URL(request.url);
  const back = () => savedRedirect(`${url.pathname}${url.search}`, bo.headers);
  const dateFields = (key: string) => ["startsAt", "endsAt", "doorsAt"].includes(key);
  const dateRow = () => ({ startsAt: values.startsAt ?? "", endsAt: values.endsAt ?? "", doorsAt: values.doorsAt ?? "" });
  /** One row of the schedule; a domain error goes back to that date's form, next to its fields. */
  const saveDate = async (row: NonNullable<SaveEventScheduleInput["dates"]>[number], target: string) => {
    try {
      return scheduleSavedRedirect(await saveEventSchedule(bo.ctx, { eventId: event.id, dates: [row] }), `${url.pathname}${url.search}`, bo.headers);
    } catch (error) {
      return failedReply(error, values, { headers: bo.headers, target, fields: dateFields, mapKey: rowErrorKey("dates") });
    }
  };

  try {
    switch (intent) {
      case "update": {
        const upload = await acceptImageUpload(bo.ctx, form, "image", "imageUrl");
        const input: Record<string, unknown> = { id: event.id, ...Object.fromEntries(EVENT_FIELDS.map((k) => [k, upload.values[k] ?? ""])) };
        if (upload.values.removeImage === "on" && !form.files.image) input.imageUrl = "";
        if (input.minAge === "") delete input.minAge;
        if (Object.keys(upload.errors).length) {
          return failedReply(null, upload.values, { headers: bo.headers, target: "event", extraErrors: { ...schemaErrors(updateEventSchema, input), ...upload.errors } });
        }
        try {
          await updateEvent(bo.ctx, input);
        } catch (error) {
          return failedReply(error, upload.values, { headers: bo.headers, target: "event", fields: (k) => k !== "id" });
        }
        return back();
      }
      case "addDate":
        return await saveDate(dateRow(), "newDate");
      case "updateDate":
        return await saveDate({ id: values.id ?? "", ...dateRow() }, `date:${values.id}`);
      case "deleteDate":
        return await saveDate({ id: values.id ?? "", remove: true as const }, `date:${values.id}`);
      case "pauseDate":
      case "resumeDate":
        try {
          await setEventDateStatus(bo.ctx, { id: values.id ?? "", status: intent === "pauseDate" ? "paused" : "active" });
        } catch (error) {
          return failedReply(error, values, { headers: bo.headers, target: `date:${values.id}`, fields: () => false });
        }
        return back();
      case "presale":
        try {
          await setPresaleCode(bo.ctx, { eventId: event.id, presaleCode: values.presaleCode ?? "" });
        } catch (error) {
          return failedReply(error, values, { headers: bo.headers, target: "presale", fields: (k) => k === "presaleCode" });
        }
        return back();
      default:
        return failedReply(null, values, { headers: bo.headers, extraErrors: { _form: ["No sabemos qué querías guardar. Probá de nuevo."] } });
    }
  } catch (error) {
    // Forbidden / not found from the domain: the error page.
    return failedReply(error, values, { headers: bo.headers });
  }
}

export default function EditEventPage() {
  const { event, dates, categories, schedule } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const key = useRemountKey(reply, event, dates);

  return (
    <BackofficePage
      narrow
      title={`Editar ${event.values.name}`}
      lead={
        <span className="flex flex-wrap items-center gap-2">
          <EventStatusBadge event={event} />
          {event.publishedAt ? (
            <a href={BO.publicEvent(event.slug)} className="text-[var(--accent)] hover:underline">
              Ver página pública
            </a>
          ) : (
            <Link to={href(BO.conditions(event.id), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
              Publicar el evento
            </Link>
          )}
          <span aria-hidden="true">·</span>
          <Link to={href(BO.editTickets(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
            Entradas
          </Link>
          <span aria-hidden="true">·</span>
          <Link to={href(BO.customFields(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
            Campos personalizados
          </Link>
          <span aria-hidden="true">·</span>
          <Link to={href(BO.queue(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
            Fila virtual
          </Link>
          <span aria-hidden="true">·</span>
          <Link to={href(`/organizacion/eventos/${event.slug}/lista-de-espera`, { eventId: event.id })} className="text-[var(--accent)] hover:underline">
            Lista de espera
          </Link>
          <span aria-hidden="true">·</span>
          <Link to={href(BO.liveQr(event.slug), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
            QR dinámico
          </Link>
          <span aria-hidden="true">·</span>
          <Link to={href(`/organizacion/eventos/${event.slug}/asientos`, { eventId: event.id })} className="text-[var(--accent)] hover:underline">
            Asientos numerados
          </Link>
        </span>
      }
    >
      <div key={key} className="flex flex-col gap-6">
        <Card title="Datos del evento">
          <BackofficeForm reply={reply} target="event" defaults={event.values} idPrefix="evento" schema={eventFormSchema} method="post" encType="multipart/form-data" className="flex flex-col gap-4">
            <FormErrorList reply={reply} target="event" />
            <BasicEventFields categories={categories} />
            <VenueFields coordinates coordinatesWarning={event.coordinatesWarning} />
            <ImageInput name="image" urlName="imageUrl" label="Imagen del evento" alt="Imagen actual del evento" />
            {event.values.imageUrl ? <Checkbox name="removeImage" label="Quitar la imagen" /> : null}
            <div className="flex justify-end">
              <Button type="submit" name="intent" value="update">
                Guardar cambios
              </Button>
            </div>
          </BackofficeForm>
        </Card>

        <Card title="Fechas">
          <p className="mb-4 text-sm text-[var(--muted)]">Horarios de Buenos Aires. Una fecha pausada se ve pero no vende; una eliminada deja de verse.</p>
          <div className="mb-4 empty:hidden">
            <ScheduleReport schedule={schedule} />
          </div>
          <ul className="flex flex-col gap-4">
            {dates.map((date, i) => (
              <li key={date.id} className="rounded-xl border border-[var(--border)] p-3">
                <BackofficeForm reply={reply} target={`date:${date.id}`} defaults={date.values} idPrefix={`fecha-${i}`} schema={eventDateFormSchema} method="post" className="flex flex-col gap-2">
                  <DefaultSubmit value="updateDate" label="Guardar fecha" />
                  <input type="hidden" name="id" value={date.id} />
                  <div className="flex items-center gap-2">
                    <p className="text-sm font-bold">Fecha {i + 1}</p>
                    <StatusBadge status={date.status} />
                    <ChangeBadge schedule={schedule} id={date.id} />
                  </div>
                  <FormErrorList reply={reply} target={`date:${date.id}`} />
                  <DateFields />
                  <div className="flex flex-wrap justify-end gap-2">
                    <ConfirmButton
                      name="intent"
                      value="deleteDate"
                      formNoValidate
                      className="px-3 text-sm text-red-700 hover:underline dark:text-red-400"
                      title={`¿Eliminar la fecha ${i + 1}?`}
                      description="Deja de verse y de venderse. Las entradas ya vendidas siguen valiendo."
                      confirmLabel="Eliminar fecha"
                    >
                      Eliminar
                    </ConfirmButton>
                    <Button type="submit" name="intent" value={date.status === "paused" ? "resumeDate" : "pauseDate"} variant="secondary" formNoValidate>
                      {date.status === "paused" ? "Reanudar venta" : "Pausar venta"}
                    </Button>
                    <Button type="submit" name="intent" value="updateDate">
                      Guardar fecha
                    </Button>
                  </div>
                </BackofficeForm>
              </li>
            ))}
          </ul>
          <BackofficeForm reply={reply} target="newDate" idPrefix="nueva-fecha" schema={eventDateFormSchema} method="post" className="mt-6 flex flex-col gap-2 border-t border-[var(--border)] pt-4">
            <h3 className="font-bold">Agregar una fecha</h3>
            <FormErrorList reply={reply} target="newDate" />
            <DateFields />
            <div className="flex justify-end">
              <Button type="submit" name="intent" value="addDate" variant="secondary">
                Agregar fecha
              </Button>
            </div>
          </BackofficeForm>
        </Card>

        <Card title="Código de preventa">
          <BackofficeForm reply={reply} target="presale" defaults={{ presaleCode: event.presaleCode }} idPrefix="preventa" method="post" className="flex flex-col gap-2">
            <FormErrorList reply={reply} target="presale" />
            <TextInput
              name="presaleCode"
              label="Código"
              maxLength={30}
              help="Quien lo ingresa en la página del evento ve y compra las entradas marcadas como preventa. Dejalo vacío para quitarlo."
              autoCapitalize="none"
              spellCheck={false}
            />
            <div className="flex justify-end">
              <Button type="submit" name="intent" value="presale">
                Guardar código
              </Button>
            </div>
          </BackofficeForm>
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
