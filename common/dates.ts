import { DateTime } from "luxon";
import { DATE_PICKER_MAX, DATE_PICKER_MIN, parseSpanishWallTime } from "./days";

// The controls' formats, the spec's range and day parsing live in days.ts (no Luxon: the browser has them cheaply).
export * from "./days";

/** Every time a person reads is Buenos Aires time. */
export const TIME_ZONE = "America/Argentina/Buenos_Aires";

// One formatter for the two formats read most (lists, exports of 100,000 rows): Intl, built once, is
// many times faster than a Luxon DateTime per value.
const NUMERIC = new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

function numericParts(value: Date | string): Record<"year" | "month" | "day" | "hour" | "minute", string> | null {
  const date = typeof value === "string" ? DateTime.fromISO(value).toJSDate() : value;
  if (Number.isNaN(date.getTime())) return null;
  const out = { year: "", month: "", day: "", hour: "", minute: "" };
  for (const part of NUMERIC.formatToParts(date)) if (part.type in out) out[part.type as keyof typeof out] = part.value;
  return out;
}

/** "21:30 - 20/12/2026" */
export function formatDateTime(value: Date | string): string {
  const p = numericParts(value);
  return p ? `${p.hour}:${p.minute} - ${p.day}/${p.month}/${p.year}` : toZoned(value).toFormat("HH:mm - dd/MM/yyyy");
}

/** "20/12/2026" */
export function formatDate(value: Date | string): string {
  const p = numericParts(value);
  return p ? `${p.day}/${p.month}/${p.year}` : toZoned(value).toFormat("dd/MM/yyyy");
}

/** "sábado 20 de diciembre" */
export function formatLongDay(value: Date | string): string {
  return toZoned(value).setLocale("es-AR").toFormat("cccc d 'de' LLLL");
}

/**
 * "Sábado 28 de noviembre de 2026 · 22:00 h": an event's date line, the same on every page, email, PDF and
 * ticket (docs/wording.md: the year always, the 24-hour time once, "h" and not "hs").
 */
export function formatEventStart(value: Date | string): string {
  return `${formatEventDay(value)} · ${formatTime(value)} h`;
}

/** "Sábado 28 de noviembre de 2026": the day of `formatEventStart`. */
export function formatEventDay(value: Date | string): string {
  const day = toZoned(value).setLocale("es-AR").toFormat("cccc d 'de' LLLL 'de' yyyy");
  return day.charAt(0).toUpperCase() + day.slice(1);
}

function toZoned(value: Date | string) {
  const dt = typeof value === "string" ? DateTime.fromISO(value) : DateTime.fromJSDate(value);
  return dt.setZone(TIME_ZONE);
}

/**
 * Parses what a form or an integrator sends, read as Buenos Aires time when it
 * carries no offset: what a person types in our date-time control
 * ("20/12/2026 21:30", see `parseSpanishWallTime`), ISO 8601 with an offset, or
 * a `datetime-local` value ("2026-12-20T21:30").
 */
export function parseDateTime(value: string): Date | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  const spanish = parseSpanishWallTime(trimmed);
  if (spanish === null) return null;
  if (spanish) {
    const dt = DateTime.fromISO(spanish.day, { zone: TIME_ZONE }).set({ hour: spanish.hour, minute: spanish.minute });
    return dt.isValid ? dt.toJSDate() : null;
  }
  const dt = DateTime.fromISO(trimmed, { zone: TIME_ZONE, setZone: false });
  return dt.isValid ? dt.toJSDate() : null;
}

const RANGE_START = DateTime.fromISO(DATE_PICKER_MIN, { zone: TIME_ZONE }).startOf("day").toMillis();
const RANGE_END = DateTime.fromISO(DATE_PICKER_MAX, { zone: TIME_ZONE }).endOf("day").toMillis();

/** True when the instant falls on a Buenos Aires day inside the spec's picker range. */
export function isWithinDateRange(value: Date): boolean {
  const ms = value.getTime();
  return ms >= RANGE_START && ms <= RANGE_END;
}

/** "22:14" */
export function formatTime(value: Date | string): string {
  return toZoned(value).toFormat("HH:mm");
}
