import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getEventForOrganizer, requireEventBySlug, setCustomFields } from "#server/events/events";
import { failedReply, formReply, guard, readForm, removeRow, renumberRows, requireOrganization, rowIndexes, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, DefaultSubmit, FormErrorList, FormSnackbar, rowCount, SelectInput, TextArea, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Campos personalizados · Tribuna" }];

const KIND_OPTIONS = [
  { value: "text", label: "Texto" },
  { value: "number", label: "Número" },
  { value: "select", label: "Lista de opciones" },
  { value: "date", label: "Fecha" },
];

function fieldRow(index: number, field: { label: string; kind: string; options: string; required: boolean }) {
  const prefix = `fields[${index}]`;
  return {
    [`${prefix}.label`]: field.label,
    [`${prefix}.kind`]: field.kind,
    [`${prefix}.options`]: field.options,
    ...(field.required ? { [`${prefix}.required`]: "on" } : {}),
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request);
  const found = await guard(() => requireEventBySlug(bo.ctx, params.slug ?? ""));
  const { event, customFields } = await guard(() => getEventForOrganizer(bo.ctx, found.id));
  const defaults: Record<string, string> = {};
  customFields.forEach((f, i) => Object.assign(defaults, fieldRow(i, { label: f.label, kind: f.kind, options: f.options.join("\n"), required: f.required })));
  if (event.oneHolderPerTicket) defaults.oneHolderPerTicket = "on";
  if (event.maxTicketsPerAccount != null) defaults.maxTicketsPerAccount = String(event.maxTicketsPerAccount);
  return data({ event: { id: event.id, name: event.name, slug: event.slug }, defaults }, { headers: bo.headers });
}

/** Adds or removes a row (re-rendering the form, also without JavaScript), or saves them all with `setCustomFields`. */
export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const event = await guard(() => requireEventBySlug(bo.ctx, params.slug ?? ""));
  const form = await readForm(request);
  let values = renumberRows(form.values, "fields");
  const intent = values.intent ?? "save";
  if (intent === "add") {
    values = { ...values, ...fieldRow(rowIndexes(values, "fields").length, { label: "", kind: "text", options: "", required: false }) };
    return data(formReply(values), { headers: bo.headers });
  }
  if (intent.startsWith("remove:")) {
    return data(formReply(removeRow(values, "fields", Number(intent.split(":")[1]))), { headers: bo.headers });
  }
  const fields = rowIndexes(values, "fields").map((i) => ({
    label: values[`fields[${i}].label`] ?? "",
    kind: values[`fields[${i}].kind`] ?? "",
    options: (values[`fields[${i}].options`] ?? "")
      .split(/\r?\n/)
      .map((o) => o.trim())
      .filter(Boolean),
    required: values[`fields[${i}].required`] === "on",
  }));
  try {
    // Empty: no limit; anything else goes to the domain, which says in Spanish what is wrong with it.
    const max = (values.maxTicketsPerAccount ?? "").trim();
    await setCustomFields(bo.ctx, { eventId: event.id, fields, oneHolderPerTicket: values.oneHolderPerTicket === "on", maxTicketsPerAccount: max ? Number(max) : null });
  } catch (error) {
    return failedReply(error, values, {
      headers: bo.headers,
      mapKey: (key) => key.replace(/^(fields\.\d+\.options)\.\d+$/, "$1"),
      fields: (key) => key === "maxTicketsPerAccount" || /^fields\.\d+\.(label|kind|options|required)$/.test(key),
    });
  }
  const url = new URL(request.url);
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers);
}

export default function CustomFieldsPage() {
  const { event, defaults } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const values = reply?.values ?? defaults;
  const rows = rowCount(values, "fields");
  const key = useRemountKey(reply, defaults);

  return (
    <BackofficePage
      narrow
      title={`Campos personalizados de ${event.name}`}
      lead={
        <>
          Entradas nominativas, el máximo de entradas por cuenta y los datos que le pedimos a cada asistente al comprar: talle de
          remera, club de hinchas, restricciones alimentarias… <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] underline underline-offset-2">Volver al evento</Link>
        </>
      }
    >
      <BackofficeForm reply={reply} defaults={defaults} key={key} method="post" className="flex flex-col gap-4">
        <DefaultSubmit value="save" label="Guardar campos" />
        <FormErrorList reply={reply} />
        <Card>
          <h2 className="mb-2 font-bold">Entradas nominativas</h2>
          <Checkbox
            name="oneHolderPerTicket"
            label="Entradas nominativas: cada entrada a nombre de quien la usa"
            help="Al comprar se pide nombre, apellido y DNI de cada asistente, y cada entrada sale a su nombre: el PDF y el correo los muestran y en la puerta el personal ve el nombre y el DNI para pedir el documento. Si alguien envía o revende su entrada, se le piden los datos de la nueva persona, la entrada pasa a su nombre y sale con un QR nuevo: el anterior deja de servir."
          />
          <TextInput
            name="maxTicketsPerAccount"
            label="Máximo de entradas por cuenta"
            type="number"
            inputMode="numeric"
            min={1}
            max={1000}
            step={1}
            className="mt-3"
            help="Cuántas entradas de este evento puede tener una misma cuenta, sumando las que compra, las que le envían y las que compra en la reventa. Con un máximo, para comprar hay que iniciar sesión. Vacío: sin límite."
          />
        </Card>
        {rows === 0 ? <EmptyState>Este evento no pide datos extra. Agregá un campo si necesitás alguno.</EmptyState> : null}
        {Array.from({ length: rows }, (_, i) => (
          <Card key={i}>
            <div className="mb-2 flex items-center justify-between">
              <h2 className="font-bold">Campo {i + 1}</h2>
              <button type="submit" name="intent" value={`remove:${i}`} formNoValidate className="text-sm text-red-700 hover:underline dark:text-red-400">
                Quitar campo {i + 1}
              </button>
            </div>
            <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2">
              <TextInput name={`fields[${i}].label`} label="Pregunta" required maxLength={80} help="Por ejemplo: Talle de remera" />
              <SelectInput name={`fields[${i}].kind`} label="Tipo de respuesta" options={KIND_OPTIONS} />
              <TextArea name={`fields[${i}].options`} label="Opciones (solo para listas)" rows={3} help="Una por línea; al menos dos." className="sm:col-span-2" />
              <Checkbox name={`fields[${i}].required`} label="Obligatorio" className="sm:col-span-2" />
            </div>
          </Card>
        ))}
        <div className="flex flex-wrap justify-between gap-2">
          <Button type="submit" name="intent" value="add" variant="secondary" formNoValidate>
            Agregar campo
          </Button>
          <Button type="submit" name="intent" value="save">
            Guardar campos
          </Button>
        </div>
      </BackofficeForm>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
