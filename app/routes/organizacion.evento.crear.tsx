import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { createEvent, createEventSchema, DEFAULT_SERVICE_FEE_BPS } from "#server/events/events";
import { EVENT_CATEGORIES } from "#common/events";
import {
  acceptImageUpload,
  failedReply,
  formReply,
  formToObject,
  readForm,
  removeRow,
  renumberRows,
  requireOrganization,
  rowIndexes,
  savedRedirect,
  schemaErrors,
} from "#app/lib/backoffice.server";
import { BasicEventFields, DateFields, TicketTypeFields, VenueFields } from "#app/components/backoffice/EventFields";
import { BackofficeForm, DefaultSubmit, FormErrorList, FormSnackbar, ImageInput, rowCount, Step, useIsPosting, useRemountKey } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { createEventFormSchema } from "#app/components/backoffice/schemas";
import { BackofficePage } from "#app/components/backoffice/Page";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Crear evento · Tribuna" }];

const NEW_DATE = { startsAt: "", endsAt: "", doorsAt: "" };
const NEW_TICKET = { name: "", price: "", stock: "", minPerOrder: "1", maxPerOrder: "10", paymentMethod: "MercadoPagoAccount", accessCode: "", description: "" };

function row(group: string, index: number, fields: Record<string, string>) {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${group}[${index}].${k}`, v]));
}

const DEFAULTS: Record<string, string> = { category: "", minAge: "0", ...row("dates", 0, NEW_DATE), ...row("ticketTypes", 0, NEW_TICKET) };

export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  return data(
    {
      organization: bo.organization,
      categories: EVENT_CATEGORIES.map((c) => ({ value: c.value, label: c.label })),
      feePercent: DEFAULT_SERVICE_FEE_BPS / 100,
    },
    { headers: bo.headers },
  );
}

/** Error keys with an input of their own; the rest ("dates": none at all, the slug…) go above the form. */
const EVENT_KEYS = new Set(["name", "description", "category", "minAge", "venueName", "venueAddress", "city", "province", "image"]);
const DATE_KEY = /^dates\.\d+\.(startsAt|endsAt|doorsAt)$/;
const TICKET_KEY = /^ticketTypes\.\d+\.(name|description|price|stock|minPerOrder|maxPerOrder|hidden|presale|accessCode|paymentMethod)$/;
function isFieldKey(key: string) {
  return EVENT_KEYS.has(key) || DATE_KEY.test(key) || TICKET_KEY.test(key);
}

/** Empty optional numbers mean "use the default", not "0" or an error. */
function dropEmpty(target: Record<string, unknown>, keys: string[]) {
  for (const key of keys) if (target[key] === "") delete target[key];
}

/** Said after creating: what happened and the next step (the page it lands on: the service conditions, to publish). */
export const EVENT_CREATED = "Creamos tu evento. Ahora aceptá las condiciones de servicio para publicarlo.";

/**
 * One long form, posted as a whole: "Agregar otra fecha" / "Agregar otro tipo
 * de entrada" and the remove buttons re-render it with one row more or less
 * (so it works without JavaScript); "Crear evento" hands everything to
 * `createEvent` (a draft with its dates and tickets, in one transaction).
 */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const form = await readForm(request);
  const upload = await acceptImageUpload(bo.ctx, form, "image", "imageUrl");
  let values = renumberRows(renumberRows(upload.values, "dates"), "ticketTypes");
  const intent = values.intent ?? "create";

  if (intent !== "create") {
    const [verb, group, index] = intent.split(":");
    if (verb === "add" && (group === "dates" || group === "ticketTypes")) {
      const next = rowIndexes(values, group).length;
      values = { ...values, ...row(group, next, group === "dates" ? NEW_DATE : NEW_TICKET) };
    } else if (verb === "remove" && (group === "dates" || group === "ticketTypes") && rowIndexes(values, group).length > 1) {
      values = removeRow(values, group, Number(index));
    }
    return data(formReply(values, { errors: upload.errors }), { status: Object.keys(upload.errors).length ? 400 : 200, headers: bo.headers });
  }

  const input = formToObject(values) as Record<string, unknown> & { dates?: Record<string, unknown>[]; ticketTypes?: Record<string, unknown>[] };
  delete input.intent;
  dropEmpty(input, ["minAge", "description"]);
  for (const ticket of input.ticketTypes ?? []) dropEmpty(ticket, ["minPerOrder", "maxPerOrder", "description"]);
  input.dates ??= [];
  input.ticketTypes ??= [];

  if (Object.keys(upload.errors).length) {
    // The image was refused: say so (and everything else that is wrong) without creating a half event.
    const errors = { ...schemaErrors(createEventSchema, input), ...upload.errors };
    return failedReply(null, values, { headers: bo.headers, extraErrors: errors });
  }
  try {
    const { event } = await createEvent(bo.ctx, input);
    return savedRedirect(`${BO.conditions(event.id)}${bo.query({ eventId: event.id, eventDateId: "" })}`, bo.headers, EVENT_CREATED);
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: isFieldKey });
  }
}

export default function CreateEventPage() {
  const { organization, categories, feePercent } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const values = reply?.values ?? DEFAULTS;
  const dates = Math.max(1, rowCount(values, "dates"));
  const tickets = Math.max(1, rowCount(values, "ticketTypes"));
  const posting = useIsPosting();
  const key = useRemountKey(reply);

  return (
    <BackofficePage
      narrow
      title="Crear evento"
      lead={`El evento de ${organization.name} se guarda como borrador: nadie lo ve hasta que aceptes las condiciones de servicio y lo publiques.`}
    >
      <BackofficeForm
        key={key}
        reply={reply}
        defaults={DEFAULTS}
        schema={createEventFormSchema}
        method="post"
        encType="multipart/form-data"
        className="flex flex-col gap-6"
      >
        <DefaultSubmit value="create" label="Crear evento" />
        <input type="hidden" name="organizationId" value={organization.id} />
        <FormErrorList reply={reply} />
        <Step title="1. Datos básicos">
          <BasicEventFields categories={categories} />
        </Step>

        <Step title="2. Fechas" description="Horarios de Buenos Aires. Si el evento se repite, agregá una fecha por función.">
          <ol className="flex flex-col gap-4">
            {Array.from({ length: dates }, (_, i) => (
              <li key={i} className="rounded-xl border border-[var(--border)] p-3" aria-label={`Fecha ${i + 1}`}>
                <div className="mb-2 flex items-center justify-between">
                  <p className="text-sm font-bold">Fecha {i + 1}</p>
                  {dates > 1 ? (
                    <button type="submit" name="intent" value={`remove:dates:${i}`} formNoValidate className="text-sm text-red-700 hover:underline dark:text-red-400">
                      Quitar fecha {i + 1}
                    </button>
                  ) : null}
                </div>
                <DateFields prefix={`dates[${i}].`} />
              </li>
            ))}
          </ol>
          <Button type="submit" name="intent" value="add:dates" variant="secondary" formNoValidate className="mt-4">
            Agregar otra fecha
          </Button>
        </Step>

        <Step title="3. Lugar">
          <VenueFields />
        </Step>

        <Step title="4. Imagen" description="Se ve en la página del evento y al compartirlo. Mejor horizontal (por ejemplo 1200 × 630).">
          <ImageInput name="image" urlName="imageUrl" label="Imagen del evento (opcional)" alt="Imagen cargada del evento" />
        </Step>

        <Step title="5. Entradas" description="Cada tipo de entrada tiene su precio y su stock, y vale para todas las fechas (después podés limitarla a una).">
          <ol className="flex flex-col gap-4">
            {Array.from({ length: tickets }, (_, i) => (
              <li key={i} className="rounded-xl border border-[var(--border)] p-3" aria-label={`Entrada ${i + 1}`}>
                <div className="mb-2 flex items-center justify-between">
                  <p className="text-sm font-bold">Tipo de entrada {i + 1}</p>
                  {tickets > 1 ? (
                    <button type="submit" name="intent" value={`remove:ticketTypes:${i}`} formNoValidate className="text-sm text-red-700 hover:underline dark:text-red-400">
                      Quitar entrada {i + 1}
                    </button>
                  ) : null}
                </div>
                <TicketTypeFields prefix={`ticketTypes[${i}].`} />
              </li>
            ))}
          </ol>
          <Button type="submit" name="intent" value="add:ticketTypes" variant="secondary" formNoValidate className="mt-4">
            Agregar otro tipo de entrada
          </Button>
        </Step>

        <Step title="6. Condiciones">
          <div className="flex flex-col gap-2 text-sm text-[var(--muted)]">
            <p>
              Al crear el evento queda como <strong className="text-[var(--text)]">borrador</strong>. En el paso siguiente vas a
              leer y aceptar las condiciones de servicio antes de publicarlo:
            </p>
            <ul className="list-disc pl-5">
              <li>Tribuna cobra un cargo de servicio del {feePercent} % sobre el precio de cada entrada, que paga quien compra, aparte del precio.</li>
              <li>Tu organización es responsable de que el evento se haga como lo publicás.</li>
              <li>Las devoluciones siguen la ley argentina (botón de arrepentimiento: 10 días corridos desde la compra y hasta 24 horas antes del evento).</li>
            </ul>
          </div>
        </Step>
        <div className="flex justify-end">
          <Button type="submit" name="intent" value="create" pending={posting} pendingLabel="Creando…">
            Crear evento
          </Button>
        </div>
      </BackofficeForm>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
