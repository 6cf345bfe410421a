/**
 * Our own date and date-time controls (docs/decisions/123): a person types
 * "dd/mm/aaaa" (and "hh:mm") in a text input, whatever the browser's language.
 * Formats, the spec's range and day parsing, without Luxon, so the browser
 * can have them cheaply (the payer form checks its date answers with them).
 * Instants (a date and a time in Buenos Aires) are parsed in dates.ts.
 */
import { isoDayToInput } from "./day-input";

/** Picker range of the spec: every date field, in every door, takes only dates inside it. */
export const DATE_PICKER_MIN = "1900-01-01";
export const DATE_PICKER_MAX = "2099-12-31";
export const DATE_RANGE_MESSAGE = "Elegí una fecha entre el 01/01/1900 y el 31/12/2099";

const ISO_DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const SPANISH_DAY = /^(\d{1,2})\s*[/.\- ]\s*(\d{1,2})\s*[/.\- ]\s*(\d{4})$/;
const DIGITS_DAY = /^(\d{2})(\d{2})(\d{4})$/;

function isoDayOf(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * A day typed by a person or sent by an integrator, as `yyyy-MM-dd`, or null
 * when it is not a real calendar day. Takes "20/12/2026", "20-12-2026",
 * "20.12.2026", "20 12 2026", "5/3/2026", just the digits "20122026" (a
 * phone's numeric keypad has no "/") and ISO "2026-12-20". The range is
 * checked apart (`isDayWithinRange`), so the message can say which is wrong.
 */
export function parseDay(value: string | null | undefined): string | null {
  const text = (value ?? "").trim();
  let m = ISO_DAY.exec(text);
  if (m) return isoDayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  m = SPANISH_DAY.exec(text) ?? DIGITS_DAY.exec(text);
  if (m) return isoDayOf(Number(m[3]), Number(m[2]), Number(m[1]));
  return null;
}

/** True for a `yyyy-MM-dd` inside the spec's picker range (1900-01-01 to 2099-12-31). */
export function isDayWithinRange(isoDay: string): boolean {
  return isoDay >= DATE_PICKER_MIN && isoDay <= DATE_PICKER_MAX;
}

/** "21:30", "21.30", "21h30", "2130", "930", "21" and "21 hs" → [21, 30]; null when it is not a time of day. */
export function parseTime(value: string): [number, number] | null {
  const text = value.trim().replace(/\s*hs?\.?$/i, "");
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?$/i.exec(text) ?? /^(\d{1,2})(\d{2})$/.exec(text);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2] ?? "0");
  return hour <= 23 && minute <= 59 ? [hour, minute] : null;
}

const SPANISH_DATE_TIME = /^(\d{1,2}\s*[/.-]\s*\d{1,2}\s*[/.-]\s*\d{4}|\d{8})(?:\s*,\s*|\s+)?(\d{1,4}(?:[:.h]\d{2})?(?:\s*hs?\.?)?)$/i;

/**
 * A date and time typed in our control, as Buenos Aires wall time: "20/12/2026
 * 21:30" (also "20/12/2026, 21:30", "20-12-2026 21.30", "20/12/2026 21 hs",
 * or only digits "20122026 2130" and "201220262130"). Undefined when the text
 * is not in this day-first shape at all (so the caller may try ISO), null
 * when it is but names no real day or time.
 */
export function parseSpanishWallTime(value: string): { day: string; hour: number; minute: number } | null | undefined {
  const m = SPANISH_DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const day = parseDay(m[1]);
  const time = parseTime(m[2]);
  if (!day || !time) return null;
  return { day, hour: time[0], minute: time[1] };
}

const BA_PARTS = new Intl.DateTimeFormat("en-GB", {
  timeZone: "America/Argentina/Buenos_Aires",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

function buenosAiresParts(date: Date) {
  const out: Record<string, string> = {};
  for (const part of BA_PARTS.formatToParts(date)) out[part.type] = part.value;
  return { day: `${out.day}/${out.month}/${out.year}`, time: `${out.hour}:${out.minute}` };
}

/**
 * What a date control shows: a saved value (`yyyy-MM-dd`, or an instant, read
 * as its Buenos Aires day) as "dd/mm/aaaa"; anything else (what the person
 * typed, sent back with an error) as it came.
 */
export function toDateInput(value: Date | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : buenosAiresParts(value).day;
  const m = ISO_DAY.exec(value.trim());
  const day = m ? isoDayOf(Number(m[1]), Number(m[2]), Number(m[3])) : null;
  return day ? isoDayToInput(day) : value;
}

const LOCAL_ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;
const OFFSET_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * What a date-time control shows: a saved instant (a Date, or ISO text such as
 * "2026-12-21T00:30:00.000Z") as "dd/mm/aaaa hh:mm" in Buenos Aires time, an
 * ISO wall time without offset ("2026-12-20T21:30", already Buenos Aires) as
 * "20/12/2026 21:30"; anything else (what the person typed) as it came.
 */
export function toDateTimeInput(value: Date | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return "";
    const p = buenosAiresParts(value);
    return `${p.day} ${p.time}`;
  }
  const text = value.trim();
  const local = LOCAL_ISO.exec(text);
  if (local) return `${local[3]}/${local[2]}/${local[1]} ${local[4]}:${local[5]}`;
  if (OFFSET_ISO.test(text)) {
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return toDateTimeInput(date);
  }
  return value;
}
