import { useEffect } from "react";
import type { CheckoutCustomField, customFieldError } from "#common/checkout";
import { MESSAGES } from "#common/fields";
import { useNativeForm, type NativeFormResult } from "../forms/native-form";

/**
 * The payer form's state in the browser, without Conform or zod (see
 * docs/decisions/124-el-formulario-del-comprador-sin-zod-en-el-navegador.md):
 * the browser checks what the inputs' native constraints say (required, a
 * well-formed email) and the event's custom fields with the same rule as the
 * server (`customFieldError`), in the spec's words; everything else is the
 * server's to say. The action still parses with Conform + zod and answers with
 * `submission.reply()`, which this hook reads: its errors go next to the
 * fields and what was typed is shown again, with or without JavaScript.
 * Validated on blur, then again on input once a field was touched, and all
 * at once on submit. A submit always goes to the server, errors or not: only
 * the server can say whether the coupon exists, and its answer says
 * everything wrong at once (decision 163), not the browser's part first.
 */

/** What the action answers (Conform's `submission.reply()`), read without Conform. */
export type PayerFormResult = NativeFormResult;

/** One input's state: the names, ids and attributes PayerInfoFields puts on it. */
export interface PayerFieldMeta {
  id: string;
  name: string;
  errorId: string;
  key: string;
  initialValue: unknown;
  errors: string[] | undefined;
  required: boolean;
  /** The rows of a list (`attendees`), one per value. */
  getFieldList(): PayerFieldMeta[];
  /** The fields of a group (`attendees[0]`, `customFields`), by name. */
  getFieldset(): Record<string, PayerFieldMeta>;
}

/**
 * Inputs the payer-info schema (`payerInfoSchema`) requires, holders' rows
 * as `attendees[]`; custom fields say it themselves. A test keeps this list
 * equal to what zod requires.
 */
export const PAYER_REQUIRED_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "documentType",
  "documentNumber",
  "phoneNumber",
  "attendees[].firstName",
  "attendees[].lastName",
  "attendees[].documentType",
  "attendees[].documentNumber",
] as const;

const REQUIRED = new Set<string>(PAYER_REQUIRED_FIELDS);

/** The part of an input the check reads (an HTMLInputElement or HTMLSelectElement). */
export interface CheckedControl {
  name: string;
  type: string;
  value: string;
  validity: Pick<ValidityState, "valueMissing" | "typeMismatch">;
}

/** The message for one input, or null: custom fields by their rule, the rest by their native constraints. */
/**
 * The custom fields' rule (common/checkout, with the date parsing) is loaded
 * after the page is up, and only by forms that ask such questions: it would
 * cost every payer page its weight before first paint (budget: 100 kB). Until
 * it arrives, only the native constraints are checked; the server checks all.
 */
let customFieldRule: typeof customFieldError | null = null;
export async function loadCustomFieldRule(): Promise<void> {
  customFieldRule ??= (await import("#common/checkout")).customFieldError;
}

export function payerFieldError(control: CheckedControl, customFields: CheckoutCustomField[]): string | null {
  if (control.name.startsWith("customFields.")) {
    const field = customFields.find((f) => `customFields.${f.id}` === control.name);
    if (field && customFieldRule) return customFieldRule(field, control.value);
    return field && control.validity.valueMissing ? MESSAGES.required : null;
  }
  if (control.validity.valueMissing) return MESSAGES.required;
  if (control.validity.typeMismatch && control.type === "email") return MESSAGES.email;
  return null;
}

/** The value at an input's name in a nested value: "attendees[1].email", "customFields.f-1". */
export function valueAt(value: unknown, name: string): unknown {
  let current = value;
  for (const [, key, index] of name.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[index ?? key];
  }
  return current;
}

export function usePayerForm(options: { id: string; lastResult: PayerFormResult | null | undefined; defaultValue: Record<string, unknown>; customFields?: CheckoutCustomField[] }) {
  const { id, lastResult, defaultValue, customFields = [] } = options;
  const { form: nativeForm, errors } = useNativeForm({
    id,
    lastResult,
    check: (control) => payerFieldError(control, customFields),
    // Errors or not, a submit goes to the server, which says everything wrong at once (decision 163).
    blockInvalidSubmit: false,
    // What is about the whole form (tickets that ran out) stays until the server answers again.
    keepFormErrors: true,
  });
  const asksQuestions = customFields.length > 0;
  useEffect(() => {
    if (asksQuestions) void loadCustomFieldRule();
  }, [asksQuestions]);
  const initial = lastResult?.initialValue ?? defaultValue;

  function field(name: string): PayerFieldMeta {
    const fieldId = `${id}-${name}`;
    const rule = name.replace(/\[\d+\]/g, "[]");
    return {
      id: fieldId,
      name,
      errorId: `${fieldId}-error`,
      key: name,
      initialValue: valueAt(initial, name),
      errors: errors[name],
      required: REQUIRED.has(rule) || customFields.some((f) => f.required && `customFields.${f.id}` === name),
      getFieldList: () => {
        // As many rows as the form started with, even when the answer left some out.
        const count = Math.max(...[initial, defaultValue].map((value) => (Array.isArray(valueAt(value, name)) ? (valueAt(value, name) as unknown[]).length : 0)));
        return Array.from({ length: count }, (_, i) => field(`${name}[${i}]`));
      },
      getFieldset: () => new Proxy({} as Record<string, PayerFieldMeta>, { get: (_, key) => field(`${name}.${String(key)}`) }),
    };
  }

  const fields = new Proxy({} as Record<string, PayerFieldMeta>, { get: (_, key) => field(String(key)) });
  const form = { ...nativeForm, name: "", allErrors: errors, noValidate: true };
  return [form, fields] as const;
}

export { errorsFromResult, getFormProps } from "../forms/native-form";

/** An input's props (the shape Conform's helper of the same name gives, so Field takes either). */
export function getInputProps(meta: Pick<PayerFieldMeta, "id" | "name" | "initialValue" | "required">, options: { type: "text" | "email" | "tel" | "date" | "number" }) {
  return {
    id: meta.id,
    name: meta.name,
    type: options.type,
    required: meta.required || undefined,
    defaultValue: typeof meta.initialValue === "string" ? meta.initialValue : undefined,
  };
}

/** A select's props. */
export function getSelectProps(meta: Pick<PayerFieldMeta, "id" | "name" | "initialValue" | "required">) {
  return {
    id: meta.id,
    name: meta.name,
    required: meta.required || undefined,
    defaultValue: meta.initialValue == null ? undefined : String(meta.initialValue),
  };
}
