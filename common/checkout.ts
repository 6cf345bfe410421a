/** As server/db/schema/events.ts CUSTOM_FIELD_KINDS. */
type CustomFieldKind = "text" | "number" | "select" | "date";

/**
 * The event's custom fields as the checkout asks them: one rule set for the
 * payer-info form (browser and action) and createOrder, so a page and GraphQL
 * refuse the same answers with the same words. Browser-safe.
 */
export interface CheckoutCustomField {
  id: string;
  label: string;
  kind: CustomFieldKind;
  options: string[];
  required: boolean;
}

export const CHECKOUT_MESSAGES = {
  required: "Este campo es requerido",
  number: "Ingresá un número",
  date: "Ingresá una fecha válida",
  select: "Elegí una de las opciones",
  tooLong: "Escribí hasta 500 caracteres",
  attendeesCount: (n: number) => (n === 1 ? "Completá los datos de quien usa la entrada." : `Completá los datos de quien usa cada una de las ${n} entradas.`),
} as const;

const NUMBER = /^-?\d+(?:[.,]\d+)?$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDay(value: string) {
  const m = ISO_DAY.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** The message for one answer, or null when it is fine ("" is no answer). */
export function customFieldError(field: Pick<CheckoutCustomField, "kind" | "options" | "required">, raw: string | null | undefined): string | null {
  const value = (raw ?? "").trim();
  if (!value) return field.required ? CHECKOUT_MESSAGES.required : null;
  if (value.length > 500) return CHECKOUT_MESSAGES.tooLong;
  if (field.kind === "number" && !NUMBER.test(value)) return CHECKOUT_MESSAGES.number;
  if (field.kind === "date" && !isDay(value)) return CHECKOUT_MESSAGES.date;
  if (field.kind === "select" && !field.options.includes(value)) return CHECKOUT_MESSAGES.select;
  return null;
}
