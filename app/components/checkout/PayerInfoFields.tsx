import type { CheckoutCustomField } from "#common/checkout";
import { FACTURA_A_CONDITIONS } from "#common/invoicing";
import { DOCUMENT_TYPES } from "#common/fields";
import { DATE_HINTS, dateInputAttributes } from "#app/components/ui/dateInputAttributes";
import { Field } from "#app/components/ui/Field";
import { SelectField } from "#app/components/ui/Select";
import { getInputProps, getSelectProps, type PayerFieldMeta } from "./usePayerForm";

// usePayerForm's fields for the payer-info form, whatever the event asks.
type Meta = PayerFieldMeta;
type Fields = Record<string, Meta>;

/** The payer's inputs' labels: the form and its error summary say the same. */
const PAYER_LABELS: Record<string, string> = {
  firstName: "Nombre",
  lastName: "Apellido",
  email: "Email",
  documentType: "Tipo de documento",
  documentNumber: "Número de documento",
  phoneNumber: "Teléfono",
  couponCode: "Código de cupón",
  "invoice.cuit": "CUIT",
  "invoice.businessName": "Razón social",
  "invoice.ivaConditionId": "Condición frente al IVA",
};

const IVA_OPTIONS = FACTURA_A_CONDITIONS.map((c) => ({ value: String(c.value), label: c.label }));

/** The label of an input of this form by its name ("attendees[1].email" → "Email (entrada 2)"), for the error summary. */
export function payerFieldLabel(name: string, customFields: CheckoutCustomField[]): string {
  const holder = /^attendees\[(\d+)\]\.(\w+)$/.exec(name);
  if (holder) return `${PAYER_LABELS[holder[2]] ?? holder[2]} (entrada ${Number(holder[1]) + 1})`;
  if (name.startsWith("customFields.")) return customFields.find((f) => `customFields.${f.id}` === name)?.label ?? "Dato del organizador";
  return PAYER_LABELS[name] ?? name;
}

function Section({ title, lead, children }: { title: string; lead?: string; children: React.ReactNode }) {
  const id = `seccion-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      {lead ? <p className="mt-1 text-sm text-[var(--muted)]">{lead}</p> : null}
      <div className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-2">{children}</div>
    </section>
  );
}

function DocumentTypeSelect({ meta, label = "Tipo de documento" }: { meta: Meta; label?: string }) {
  return <SelectField label={label} selectProps={getSelectProps(meta)} options={DOCUMENT_TYPES} placeholder="Elegí un tipo" errors={meta.errors} />;
}

/**
 * The payer-info form's inputs: payer, holders (one per ticket when the event
 * asks), the event's custom fields and the coupon. Plain inputs named as
 * the action's Conform parser expects, so the form posts the same with or without JavaScript.
 */
export function PayerInfoFields({
  fields: conformFields,
  customFields,
  holderLabels,
  sends = "las entradas",
  coupon = true,
  facturaA = false,
}: {
  fields: object;
  customFields: CheckoutCustomField[];
  holderLabels: string[];
  /** What the email brings: "las entradas", or "las consumiciones" on the menu (common/order-words.ts). */
  sends?: string;
  /** The coupon input (off where no coupon applies: a resale ticket, a waiting-list offer). */
  coupon?: boolean;
  /** "Necesito factura A" (only when Tribuna issues A: PLATFORM_IVA_CONDITION, docs/invoicing.md). */
  facturaA?: boolean;
}) {
  const fields = conformFields as Fields;
  const holders = holderLabels.length ? fields.attendees.getFieldList() : [];
  const answers: Fields = customFields.length ? fields.customFields.getFieldset() : {};
  return (
    <>
      <Section title="Tus datos" lead={`A este email te mandamos ${sends}.`}>
        <Field label={PAYER_LABELS.firstName} inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }} errors={fields.firstName.errors} />
        <Field label={PAYER_LABELS.lastName} inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }} errors={fields.lastName.errors} />
        <Field label={PAYER_LABELS.email} inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }} errors={fields.email.errors} className="sm:col-span-2" />
        <DocumentTypeSelect meta={fields.documentType} />
        <Field
          label={PAYER_LABELS.documentNumber}
          help="Sin puntos ni espacios."
          inputProps={{ ...getInputProps(fields.documentNumber, { type: "text" }), autoComplete: "off", inputMode: "text" }}
          errors={fields.documentNumber.errors}
        />
        <Field
          label={PAYER_LABELS.phoneNumber}
          help="Con código de área, por ejemplo +54 9 11 5555-1234."
          inputProps={{ ...getInputProps(fields.phoneNumber, { type: "tel" }), autoComplete: "tel" }}
          errors={fields.phoneNumber.errors}
          className="sm:col-span-2"
        />
      </Section>

      {holders.length ? (
        <section aria-labelledby="asistentes" className="flex flex-col gap-3">
          <div>
            <h2 id="asistentes" className="text-lg font-bold">
              Quién usa cada entrada
            </h2>
            <p className="text-sm text-[var(--muted)]">Este evento pide los datos de cada asistente: cada entrada sale a su nombre y se controla en la puerta.</p>
          </div>
          {holders.map((holder, i) => {
            const row = holder.getFieldset() as Fields;
            return (
              <fieldset key={holder.key} className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4" data-holder={i + 1}>
                <legend className="px-1 font-bold">
                  {`Entrada ${i + 1}: ${holderLabels[i]}`}
                </legend>
                <div className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
                  <Field label={`Nombre (entrada ${i + 1})`} inputProps={getInputProps(row.firstName, { type: "text" })} errors={row.firstName.errors} />
                  <Field label={`Apellido (entrada ${i + 1})`} inputProps={getInputProps(row.lastName, { type: "text" })} errors={row.lastName.errors} />
                  <DocumentTypeSelect meta={row.documentType} label={`Tipo de documento (entrada ${i + 1})`} />
                  <Field label={`Número de documento (entrada ${i + 1})`} inputProps={getInputProps(row.documentNumber, { type: "text" })} errors={row.documentNumber.errors} />
                  <Field
                    label={`Email (entrada ${i + 1}, opcional)`}
                    inputProps={getInputProps(row.email, { type: "email" })}
                    errors={row.email.errors}
                    className="sm:col-span-2"
                  />
                </div>
              </fieldset>
            );
          })}
        </section>
      ) : null}

      {customFields.length ? (
        <Section title="Datos que pide el organizador">
          {customFields.map((field) => {
            const meta = answers[field.id];
            const label = field.required ? field.label : `${field.label} (opcional)`;
            if (field.kind === "select") {
              return (
                <SelectField
                  key={field.id}
                  label={label}
                  selectProps={getSelectProps(meta)}
                  options={field.options.map((o) => ({ value: o, label: o }))}
                  placeholder="Elegí una opción"
                  errors={meta.errors}
                />
              );
            }
            if (field.kind === "date") {
              // Drawn like DateField, without its parsers: what the payer typed is shown as typed (budget: decision 124).
              return <Field key={field.id} label={label} help={DATE_HINTS.date} inputProps={{ ...getInputProps(meta, { type: "text" }), ...dateInputAttributes("date") }} errors={meta.errors} />;
            }
            return (
              <Field
                key={field.id}
                label={label}
                inputProps={{ ...getInputProps(meta, { type: "text" }), ...(field.kind === "number" ? { inputMode: "decimal" as const } : {}) }}
                errors={meta.errors}
              />
            );
          })}
        </Section>
      ) : null}

      {facturaA ? <FacturaAFields fields={fields.invoice.getFieldset()} /> : null}

      {coupon ? (
        <Section title="¿Tenés un cupón?">
          <Field label="Código de cupón (opcional)" inputProps={{ ...getInputProps(fields.couponCode, { type: "text" }), autoComplete: "off" }} errors={fields.couponCode.errors} />
        </Section>
      ) : null}
    </>
  );
}

/**
 * "Necesito factura A": a <details> that opens without JavaScript, with the box and the fields inside; open
 * again when the box was ticked or a field has an error. The fields count only with the box ticked.
 */
function FacturaAFields({ fields }: { fields: Fields }) {
  const wanted = fields.wanted.initialValue === "on" || fields.wanted.initialValue === true;
  const hasErrors = ["cuit", "businessName", "ivaConditionId"].some((name) => fields[name].errors?.length);
  return (
    <details open={wanted || hasErrors} className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
      <summary className="min-h-11 cursor-pointer py-2 text-lg font-bold">¿Necesitás factura A?</summary>
      <p className="mt-1 text-sm text-[var(--muted)]">
        Te hacemos la factura A del cargo por servicio de Tribuna. Las entradas las factura el organizador.
      </p>
      <label htmlFor={fields.wanted.id} className="mt-3 flex min-h-11 items-center gap-3 font-medium">
        <input id={fields.wanted.id} name={fields.wanted.name} type="checkbox" value="on" defaultChecked={wanted} className="h-5 w-5 accent-[var(--accent)]" />
        Necesito factura A
      </label>
      <div className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-2">
        <Field
          label={PAYER_LABELS["invoice.cuit"]}
          help="11 números, con o sin guiones."
          inputProps={{ ...getInputProps(fields.cuit, { type: "text" }), autoComplete: "off", inputMode: "numeric" }}
          errors={fields.cuit.errors}
        />
        <Field
          label={PAYER_LABELS["invoice.businessName"]}
          inputProps={{ ...getInputProps(fields.businessName, { type: "text" }), autoComplete: "organization" }}
          errors={fields.businessName.errors}
        />
        <SelectField
          label={PAYER_LABELS["invoice.ivaConditionId"]}
          selectProps={getSelectProps(fields.ivaConditionId)}
          options={IVA_OPTIONS}
          placeholder="Elegí tu condición"
          errors={fields.ivaConditionId.errors}
          className="sm:col-span-2"
        />
      </div>
    </details>
  );
}
