import type { InputHTMLAttributes, ReactNode } from "react";
import {
  DATE_INPUT_PATTERN,
  DATE_INPUT_PLACEHOLDER,
  DATE_INPUT_TITLE,
  DATE_TIME_INPUT_PATTERN,
  DATE_TIME_INPUT_PLACEHOLDER,
  DATE_TIME_INPUT_TITLE,
  toDateInput,
  toDateTimeInput,
} from "#common/days";
import { Field } from "./Field";

/**
 * Our date and date-time controls (docs/decisions/122): text inputs where a
 * person types "dd/mm/aaaa" or "dd/mm/aaaa hh:mm" (hora de Buenos Aires), so no
 * browser draws "mm/dd/yyyy". One input each: a phone's numeric keypad is up
 * the whole time, and only the digits are enough ("201220262130"). Without
 * JavaScript they are plain inputs; the server reads them (and ISO, for
 * integrators) with `common/days.ts` and `parseDateTime`.
 */
export type DateKind = "date" | "datetime";

/** The format help that goes before a field's own help. */
export const DATE_HINTS: Record<DateKind, string> = {
  date: "Día, mes y año: por ejemplo 20/12/2026 (o solo los números, 20122026).",
  datetime: "Día, mes, año y hora de Buenos Aires: por ejemplo 20/12/2026 21:30 (o solo los números, 201220262130).",
};

/** Attributes of the control's input: a numeric keypad, the placeholder, and the pattern with a Spanish title. */
export function dateInputAttributes(kind: DateKind) {
  return {
    type: "text",
    inputMode: "numeric",
    autoComplete: "off",
    spellCheck: false,
    placeholder: kind === "date" ? DATE_INPUT_PLACEHOLDER : DATE_TIME_INPUT_PLACEHOLDER,
    pattern: kind === "date" ? DATE_INPUT_PATTERN : DATE_TIME_INPUT_PATTERN,
    title: kind === "date" ? DATE_INPUT_TITLE : DATE_TIME_INPUT_TITLE,
    maxLength: kind === "date" ? 20 : 32,
  } satisfies InputHTMLAttributes<HTMLInputElement>;
}

/** A saved value (ISO, or a Date) as the control shows it; what the person typed stays as typed. */
export function dateInputValue(kind: DateKind, value: Date | string | null | undefined): string {
  return kind === "date" ? toDateInput(value) : toDateTimeInput(value);
}

/** Joins the format hint and the field's own help. */
export function dateHelp(kind: DateKind, help?: ReactNode): ReactNode {
  return help ? (
    <>
      {DATE_HINTS[kind]} {help}
    </>
  ) : (
    DATE_HINTS[kind]
  );
}

type InputProps = InputHTMLAttributes<HTMLInputElement> & { id: string; name: string; key?: string };

/**
 * Label, format help, the control and its message: like `Field`, for a date
 * (`kind="date"`) or a date and time (`kind="datetime"`). `inputProps` may be
 * Conform's `getInputProps(…)`; a `defaultValue` in ISO is shown as dd/mm/aaaa.
 */
export function DateField({
  kind,
  label,
  inputProps,
  errors,
  help,
  formatHint = true,
  className,
}: {
  kind: DateKind;
  label: ReactNode;
  inputProps: InputProps;
  errors?: string[] | null;
  help?: ReactNode;
  /** False where one line near the fields already says the format. */
  formatHint?: boolean;
  className?: string;
}) {
  const { defaultValue, type: _type, min: _min, max: _max, ...rest } = inputProps;
  const shown = typeof defaultValue === "string" ? dateInputValue(kind, defaultValue) : defaultValue;
  return (
    <Field
      label={label}
      help={formatHint ? dateHelp(kind, help) : help}
      errors={errors}
      className={className}
      inputProps={{ ...rest, ...dateInputAttributes(kind), defaultValue: shown }}
    />
  );
}
