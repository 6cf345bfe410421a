import type { InputHTMLAttributes } from "react";
import {
  DATE_INPUT_PATTERN,
  DATE_INPUT_PLACEHOLDER,
  DATE_INPUT_TITLE,
  DATE_TIME_INPUT_PATTERN,
  DATE_TIME_INPUT_PLACEHOLDER,
  DATE_TIME_INPUT_TITLE,
} from "#common/day-input";

/** How our date controls' inputs are drawn (DateInput.tsx), without the parsers: the payer form draws its date questions with this alone. */
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
