import type { InputHTMLAttributes, ReactNode } from "react";
import { toDateInput, toDateTimeInput } from "#common/days";
import { Field } from "./Field";
import { DATE_HINTS, dateInputAttributes, type DateKind } from "./dateInputAttributes";

export { DATE_HINTS, dateInputAttributes, type DateKind };

/**
 * Our date and date-time controls (docs/decisions/123): text inputs where a
 * person types "dd/mm/aaaa" or "dd/mm/aaaa hh:mm" (hora de Buenos Aires), so no
 * browser draws "mm/dd/yyyy". One input each: a phone's numeric keypad is up
 * the whole time, and only the digits are enough ("201220262130"). Without
 * JavaScript they are plain inputs; the server reads them (and ISO, for
 * integrators) with `common/days.ts` and `parseDateTime`.
 */
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
