import { DateTime } from "luxon";
import { formatMoney } from "#common/money";
import { TIME_ZONE } from "#common/dates";

/** Dates for integrators: ISO 8601 with the Buenos Aires offset ("2026-12-20T21:30:00.000-03:00"). */
export function isoDate(value: Date | string | null | undefined): string | null {
  if (!value) return null;
  const dt = typeof value === "string" ? DateTime.fromISO(value) : DateTime.fromJSDate(value);
  return dt.setZone(TIME_ZONE).toISO();
}

export function money(centavos: number | null | undefined) {
  return centavos === null || centavos === undefined ? null : formatMoney(centavos);
}

/** GraphQL hands absent optional fields as null; the domain treats missing as "not given". */
export function given<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as T;
}
