import crypto from "node:crypto";
import { TIME_ZONE } from "#common/dates";
import { csvCell } from "./csv";

/*
 * What a spreadsheet cell holds (decision 153): amounts are numbers (integer
 * centavos here, pesos with an ARS format in the Excel file), dates are dates
 * (Buenos Aires time, dd/mm/aaaa hh:mm; a `day` without a time, dd/mm/aaaa, such as an invoice's date),
 * counts are numbers and the rest is
 * Spanish text. The CSV is all text, with the same values written the way an
 * es-AR spreadsheet reads them ("16000,00", "20/12/2026 21:30").
 */

export type CellKind = "text" | "money" | "int" | "date" | "day";
export type CellValue = string | number | Date | null;

export interface Column {
  name: string;
  kind: CellKind;
}

/** Pesos with the thousands dot and the decimal comma, as an es-AR Excel shows them. */
export const MONEY_FORMAT = '"$ "#,##0.00';
export const DATE_FORMAT = "dd/mm/yyyy hh:mm";
/** A day with no time (an invoice's emission date, as ARCA has it). */
export const DAY_FORMAT = "dd/mm/yyyy";

// Built once: an export formats hundreds of thousands of dates.
const PARTS = new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });

function partsOf(date: Date) {
  const out: Record<string, string> = {};
  for (const part of PARTS.formatToParts(date)) out[part.type] = part.value;
  return out as Record<"year" | "month" | "day" | "hour" | "minute" | "second", string>;
}

/**
 * The Buenos Aires wall-clock time of `date` as a Date whose UTC fields are that time: an Excel date has
 * no zone, and exceljs writes a Date's UTC fields.
 */
export function wallClock(date: Date): Date {
  const p = partsOf(date);
  return new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)));
}

/** "20/12/2026 21:30", Buenos Aires time. */
export function csvDate(date: Date): string {
  const p = partsOf(date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** Centavos as the CSV writes them: "16000,00", "-1500,50". */
export function csvMoney(centavos: number): string {
  return (centavos / 100).toFixed(2).replace(".", ",");
}

/** A day as ARCA writes it ("20261220" or "2026-12-20") → [year, month, day], or null. */
function dayParts(value: CellValue): [number, number, number] | null {
  const digits = String(value).replace(/-/g, "");
  return /^\d{8}$/.test(digits) ? [Number(digits.slice(0, 4)), Number(digits.slice(4, 6)), Number(digits.slice(6, 8))] : null;
}

/** One value as CSV text. */
export function csvText(kind: CellKind, value: CellValue): string {
  if (value === null || value === "") return "";
  if (kind === "money") return csvMoney(Number(value));
  if (kind === "date") return value instanceof Date ? csvDate(value) : String(value);
  if (kind === "day") {
    const parts = dayParts(value);
    return parts ? `${String(parts[2]).padStart(2, "0")}/${String(parts[1]).padStart(2, "0")}/${parts[0]}` : String(value);
  }
  return String(value);
}

/** One row as a CSV line (formulas neutralised by csvCell). */
export function csvRow(columns: Column[], values: CellValue[]): string {
  return `${values.map((v, i) => csvCell(csvText(columns[i].kind, v))).join(",")}\r\n`;
}

/** One value as an Excel cell: pesos for money, a zone-less date, the text or number as is. */
export function xlsxValue(kind: CellKind, value: CellValue): string | number | Date | null {
  if (value === null || value === "") return null;
  if (kind === "money") return Number(value) / 100;
  if (kind === "int") return Number(value);
  if (kind === "date") return value instanceof Date ? wallClock(value) : value;
  if (kind === "day") {
    const parts = dayParts(value);
    // Midnight of that day, zone-less (exceljs writes the UTC fields).
    return parts ? new Date(Date.UTC(parts[0], parts[1] - 1, parts[2])) : value;
  }
  return value;
}

/**
 * A door device as a person reads it: devices name themselves with a random id
 * ("celu-…", a UUID), so the sheet shows a short label derived from it,
 * the same for every scan of that device ("Dispositivo 3F9A").
 */
export function deviceLabel(deviceId: string | null): string {
  if (!deviceId) return "";
  return `Dispositivo ${crypto.createHash("sha256").update(deviceId).digest("hex").slice(0, 4).toUpperCase()}`;
}

/** Buenos Aires' date, for file names: "2026-11-28". */
export function fileDate(now: Date): string {
  const p = partsOf(now);
  return `${p.year}-${p.month}-${p.day}`;
}
