import { DATE_RANGE_MESSAGE, isDayWithinRange, parseDay } from "./days";
import { MESSAGES } from "./fields";

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
  required: MESSAGES.required,
  number: "Ingresá un número",
  date: "Ingresá una fecha válida",
  select: "Elegí una de las opciones",
  tooLong: "Escribí hasta 500 caracteres",
  attendeesCount: (n: number) => (n === 1 ? "Completá los datos de quien usa la entrada." : `Completá los datos de quien usa cada una de las ${n} entradas.`),
} as const;

const NUMBER = /^-?\d+(?:[.,]\d+)?$/;

/** The message for one answer, or null when it is fine ("" is no answer). A date is dd/mm/aaaa (or ISO) inside the spec's range. */
export function customFieldError(field: Pick<CheckoutCustomField, "kind" | "options" | "required">, raw: string | null | undefined): string | null {
  const value = (raw ?? "").trim();
  if (!value) return field.required ? CHECKOUT_MESSAGES.required : null;
  if (value.length > 500) return CHECKOUT_MESSAGES.tooLong;
  if (field.kind === "number" && !NUMBER.test(value)) return CHECKOUT_MESSAGES.number;
  if (field.kind === "date") {
    const day = parseDay(value);
    if (!day) return CHECKOUT_MESSAGES.date;
    if (!isDayWithinRange(day)) return DATE_RANGE_MESSAGE;
  }
  if (field.kind === "select" && !field.options.includes(value)) return CHECKOUT_MESSAGES.select;
  return null;
}

/** The answer as it is kept: trimmed, and a date as `yyyy-MM-dd` whichever way it was typed. Call it on answers `customFieldError` accepted. */
export function customFieldAnswer(field: Pick<CheckoutCustomField, "kind">, raw: string): string {
  const value = raw.trim();
  return field.kind === "date" ? (parseDay(value) ?? value) : value;
}
