// Editor operations on a seat plan: pure functions that take a plan and return a
// new one (the input is never changed). The back-office editor runs them in the
// browser and the server runs `validatePlan` before storing a plan, so both agree.
// Geometry and numbering rules: docs/seating-plans.md and decision 227.
import type { z } from "zod";
import { hasControlCharacters } from "./control-characters";
import {
  SEAT_PLAN_LIMITS,
  seatPlanSchema,
  type SeatPlan,
  type SeatPlanCategory,
  type SeatPlanRow,
  type SeatPlanSeat,
  type SeatPlanSection,
} from "./seating-plan";

/** A change the editor cannot make; the message is for the organizer, in Spanish. */
export class SeatPlanEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeatPlanEditError";
  }
}

/**
 * How a row's seats get their numbers, always seen from the audience facing the
 * stage (the stage is at the top of the drawing, so the audience's right is +x):
 * - "ltr": start, start+1, … from the left end to the right end.
 * - "rtl": start, start+1, … from the right end to the left end.
 * - "odd-even": the Argentine theatre way. Counting outward from the centre, the
 *   right half gets start, start+2, start+4… (odd with start 1) and the left half
 *   start+1, start+3… (even). A 10-seat row reads 10 8 6 4 2 1 3 5 7 9 from the
 *   left; with an odd count the middle seat takes `start` and belongs to the right half.
 */
export type SeatNumbering = "ltr" | "rtl" | "odd-even";

/**
 * The numbers for `count` seats listed from left to right.
 */
export function seatNumbersLeftToRight(count: number, numbering: SeatNumbering, start = 1): number[] {
  if (numbering === "ltr") return Array.from({ length: count }, (_, i) => start + i);
  if (numbering === "rtl") return Array.from({ length: count }, (_, i) => start + count - 1 - i);
  // The right half (audience's right) has ceil(count/2) seats, the middle one included when count is odd.
  const right = Math.ceil(count / 2);
  const left = count - right;
  const numbers: number[] = [];
  for (let i = 0; i < left; i++) {
    // Leftmost seat is the farthest from the centre: the highest even step.
    const stepsFromCentre = left - 1 - i;
    numbers.push(start + 1 + 2 * stepsFromCentre);
  }
  for (let i = 0; i < right; i++) numbers.push(start + 2 * i);
  return numbers;
}

/**
 * Row labels after `first`: letters go A…Z, AA, AB… (like a spreadsheet's
 * columns, no Ñ); digits count up. Anything else is refused.
 */
export function rowLabels(first: string, count: number): string[] {
  const trimmed = first.trim();
  if (/^\d{1,6}$/.test(trimmed)) {
    const n = Number(trimmed);
    return Array.from({ length: count }, (_, i) => String(n + i));
  }
  if (/^[A-Za-z]{1,3}$/.test(trimmed)) {
    const upper = trimmed === trimmed.toLowerCase();
    const base = letterIndex(trimmed.toUpperCase());
    return Array.from({ length: count }, (_, i) => {
      const label = indexToLetters(base + i);
      return upper ? label.toLowerCase() : label;
    });
  }
  throw new SeatPlanEditError(`La primera fila tiene que ser una letra (A, B…) o un número (1, 2…), no «${first}».`);
}

function letterIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function indexToLetters(index: number): string {
  let n = index + 1;
  let out = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export interface SeatBlockOptions {
  /** An existing numbered section, or a new one to create with this name. */
  section: { id: string } | { name: string; kind?: "numbered" };
  rows: number;
  seatsPerRow: number;
  /** "A" (then B, C…) or "1" (then 2, 3…). */
  firstRowLabel: string;
  numbering: SeatNumbering;
  startNumber?: number;
  /** Centre-to-centre distance between neighbouring seats. Default 30. */
  seatSpacing?: number;
  /** Distance between rows, front to back (growing y). Default 30. */
  rowSpacing?: number;
  /** Where the first row's leftmost seat sits when the row is straight. */
  origin: { x: number; y: number };
  /**
   * How far forward (toward the stage, smaller y) the ends of the first row come
   * compared with its middle; 0 keeps rows straight, negative bends them away.
   * Rows share one centre, so rows behind are concentric arcs.
   */
  curve?: number;
  /** Stagger: every second row (the 2nd, 4th…) moves this far to the right. */
  rowOffset?: number;
  /** Aisles: after which seats, counted 1… from the left, to leave a gap. */
  gaps?: number[];
  /** Width of each gap. Default: one seat (seatSpacing). */
  gapWidth?: number;
  category: string;
}

export const SEAT_BLOCK_DEFAULTS = { seatSpacing: 30, rowSpacing: 30, startNumber: 1 } as const;

/** Adds a block of rows, new guids for every seat, to a section. */
export function addSeatBlock(plan: SeatPlan, options: SeatBlockOptions): SeatPlan {
  const rows = options.rows;
  const perRow = options.seatsPerRow;
  if (!Number.isInteger(rows) || rows < 1) throw new SeatPlanEditError("La cantidad de filas tiene que ser un número entero mayor que cero.");
  if (!Number.isInteger(perRow) || perRow < 1) throw new SeatPlanEditError("La cantidad de asientos por fila tiene que ser un número entero mayor que cero.");
  const total = countSeats(plan) + rows * perRow;
  if (total > SEAT_PLAN_LIMITS.maxSeats) {
    throw new SeatPlanEditError(`El plano quedaría con ${total} asientos y el máximo es ${SEAT_PLAN_LIMITS.maxSeats}.`);
  }
  requireCategory(plan, options.category);
  const seatSpacing = options.seatSpacing ?? SEAT_BLOCK_DEFAULTS.seatSpacing;
  const rowSpacing = options.rowSpacing ?? SEAT_BLOCK_DEFAULTS.rowSpacing;
  const gapWidth = options.gapWidth ?? seatSpacing;
  const start = options.startNumber ?? SEAT_BLOCK_DEFAULTS.startNumber;
  const curve = options.curve ?? 0;
  const rowOffset = options.rowOffset ?? 0;
  if (!(seatSpacing > 0) || !(rowSpacing > 0) || !(gapWidth >= 0)) {
    throw new SeatPlanEditError("La separación entre asientos y entre filas tiene que ser mayor que cero.");
  }
  if (!Number.isInteger(start) || start < 0) throw new SeatPlanEditError("El primer número de asiento tiene que ser un entero desde 0.");
  for (const gap of options.gaps ?? []) {
    if (!Number.isInteger(gap) || gap < 1 || gap >= perRow) {
      throw new SeatPlanEditError(`El pasillo después del asiento ${gap} no entra en una fila de ${perRow} asientos.`);
    }
  }

  // Offsets along the row from its leftmost seat, aisles included.
  const gapsAfter = new Set(options.gaps ?? []);
  const offsets: number[] = [];
  let along = 0;
  for (let i = 0; i < perRow; i++) {
    offsets.push(along);
    along += seatSpacing + (gapsAfter.has(i + 1) ? gapWidth : 0);
  }
  const width = offsets[offsets.length - 1]!;
  const half = width / 2;
  const centreX = options.origin.x + half;
  const labels = rowLabels(options.firstRowLabel, rows);
  const numbers = seatNumbersLeftToRight(perRow, options.numbering, start);

  // A row arc: the first row's radius comes from its half-width and the curve
  // (a circle through the middle and both ends); later rows are concentric.
  const firstRadius = curve === 0 ? 0 : (half * half + curve * curve) / (2 * Math.abs(curve));
  const direction = Math.sign(curve);

  const guids = new Set(listGuids(plan));
  const newRows: SeatPlanRow[] = labels.map((label, r) => {
    const stagger = r % 2 === 1 ? rowOffset : 0;
    const rowY = options.origin.y + r * rowSpacing;
    const seats: SeatPlanSeat[] = offsets.map((offset, i) => {
      const d = offset - half + stagger;
      let x: number;
      let y: number;
      if (curve === 0) {
        x = centreX + d;
        y = rowY;
      } else {
        // Seats keep their spacing along the arc: the angle is arc length over radius.
        const radius = firstRadius + r * rowSpacing;
        const angle = d / radius;
        x = centreX + radius * Math.sin(angle);
        y = rowY - direction * radius * (1 - Math.cos(angle));
      }
      return { guid: newGuid(guids), number: String(numbers[i]), x: tidy(x), y: tidy(y), category: options.category };
    });
    return { label, seats };
  });

  const outside = newRows.some((row) => row.seats.some((seat) => Math.abs(seat.x) > SEAT_PLAN_LIMITS.maxSize || Math.abs(seat.y) > SEAT_PLAN_LIMITS.maxSize));
  if (outside) {
    throw new SeatPlanEditError(`El bloque se sale del área de dibujo: las posiciones van de -${SEAT_PLAN_LIMITS.maxSize} a ${SEAT_PLAN_LIMITS.maxSize}.`);
  }
  if (String(start + perRow).length > 12) throw new SeatPlanEditError("Los números de asiento pueden tener hasta 12 cifras.");

  if ("id" in options.section) {
    const sectionId = options.section.id;
    const section = requireSection(plan, sectionId);
    if (section.kind !== "numbered") throw new SeatPlanEditError(`«${section.name}» es un sector sin numerar: no lleva filas de asientos.`);
    const taken = new Set(section.rows.map((row) => row.label));
    const clash = newRows.find((row) => taken.has(row.label));
    if (clash) throw new SeatPlanEditError(`«${section.name}» ya tiene una fila ${clash.label}. Elegí otra primera fila.`);
    return mapSection(plan, sectionId, (s) => ({ ...s, rows: [...s.rows, ...newRows] }));
  }
  const name = options.section.name.trim();
  if (!name) throw new SeatPlanEditError("Poné un nombre al sector nuevo.");
  if (plan.sections.length >= SEAT_PLAN_LIMITS.maxSections) {
    throw new SeatPlanEditError(`El plano ya tiene ${SEAT_PLAN_LIMITS.maxSections} sectores, el máximo.`);
  }
  const section: SeatPlanSection = { id: newSectionId(plan), name, kind: "numbered", rows: newRows };
  return { ...plan, sections: [...plan.sections, section] };
}

export interface StandingSectionOptions {
  name: string;
  category: string;
  capacity: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A standing area (campo): sold by count, drawn as a rectangle. */
export function addStandingSection(plan: SeatPlan, options: StandingSectionOptions): SeatPlan {
  const name = options.name.trim();
  if (!name) throw new SeatPlanEditError("Poné un nombre al sector nuevo.");
  requireCategory(plan, options.category);
  if (!Number.isInteger(options.capacity) || options.capacity < 1) {
    throw new SeatPlanEditError(`La capacidad de «${name}» tiene que ser un número entero mayor que cero.`);
  }
  if (!(options.width > 0) || !(options.height > 0)) throw new SeatPlanEditError(`El dibujo de «${name}» tiene que tener ancho y alto.`);
  if (plan.sections.length >= SEAT_PLAN_LIMITS.maxSections) {
    throw new SeatPlanEditError(`El plano ya tiene ${SEAT_PLAN_LIMITS.maxSections} sectores, el máximo.`);
  }
  const standing = { category: options.category, capacity: options.capacity, x: options.x, y: options.y, width: options.width, height: options.height };
  const section: SeatPlanSection = { id: newSectionId(plan), name, kind: "standing", rows: [], standing };
  return { ...plan, sections: [...plan.sections, section] };
}

/** Renumbers one row (by index in its section) from left to right by x. */
export function renumberRow(
  plan: SeatPlan,
  target: { sectionId: string; rowIndex: number },
  numbering: SeatNumbering,
  startNumber = 1,
): SeatPlan {
  const section = requireSection(plan, target.sectionId);
  if (!section.rows[target.rowIndex]) throw new SeatPlanEditError(`«${section.name}» no tiene esa fila.`);
  return mapSection(plan, target.sectionId, (s) => ({
    ...s,
    rows: s.rows.map((row, i) => (i === target.rowIndex ? renumberSeats(row, numbering, startNumber) : row)),
  }));
}

/**
 * Renumbers every row of a section with the same scheme; with `firstRowLabel`
 * the rows are relabelled too, in the order they are listed.
 */
export function renumberSection(
  plan: SeatPlan,
  sectionId: string,
  options: { numbering: SeatNumbering; startNumber?: number; firstRowLabel?: string },
): SeatPlan {
  const section = requireSection(plan, sectionId);
  const labels = options.firstRowLabel === undefined ? undefined : rowLabels(options.firstRowLabel, section.rows.length);
  return mapSection(plan, sectionId, (s) => ({
    ...s,
    rows: s.rows.map((row, i) => ({
      ...renumberSeats(row, options.numbering, options.startNumber ?? 1),
      label: labels ? labels[i]! : row.label,
    })),
  }));
}

function renumberSeats(row: SeatPlanRow, numbering: SeatNumbering, start: number): SeatPlanRow {
  // Left to right as drawn; ties (one seat above another) keep list order.
  const order = row.seats.map((seat, i) => ({ seat, i })).sort((a, b) => a.seat.x - b.seat.x || a.i - b.i);
  const numbers = seatNumbersLeftToRight(order.length, numbering, start);
  const byIndex = new Map<number, string>();
  order.forEach(({ i }, k) => byIndex.set(i, String(numbers[k])));
  return { ...row, seats: row.seats.map((seat, i) => ({ ...seat, number: byIndex.get(i)! })) };
}

/** Sets or clears the accessible / restricted-view marks; absent keys are left alone. */
export function markSeats(plan: SeatPlan, guids: readonly string[], marks: { accessible?: boolean; restrictedView?: boolean }): SeatPlan {
  const wanted = requireGuids(plan, guids);
  return mapSeats(plan, (seat) => {
    if (!wanted.has(seat.guid)) return seat;
    const next: SeatPlanSeat = { ...seat };
    // false drops the key so a plan without marks stays as small as before.
    if (marks.accessible !== undefined) {
      if (marks.accessible) next.accessible = true;
      else delete next.accessible;
    }
    if (marks.restrictedView !== undefined) {
      if (marks.restrictedView) next.restrictedView = true;
      else delete next.restrictedView;
    }
    return next;
  });
}

export function setSeatCategory(plan: SeatPlan, guids: readonly string[], category: string): SeatPlan {
  requireCategory(plan, category);
  const wanted = requireGuids(plan, guids);
  return mapSeats(plan, (seat) => (wanted.has(seat.guid) ? { ...seat, category } : seat));
}

/** Removes seats; rows left empty go too, the section stays (validatePlan flags it if it ends up empty). */
export function removeSeats(plan: SeatPlan, guids: readonly string[]): SeatPlan {
  const wanted = requireGuids(plan, guids);
  return {
    ...plan,
    sections: plan.sections.map((section) => ({
      ...section,
      rows: section.rows
        .map((row) => ({ ...row, seats: row.seats.filter((seat) => !wanted.has(seat.guid)) }))
        .filter((row, i) => row.seats.length > 0 || section.rows[i]!.seats.length === 0),
    })),
  };
}

/** Moves a whole section (its seats or its standing area) by dx, dy. */
export function moveSection(plan: SeatPlan, sectionId: string, by: { dx: number; dy: number }): SeatPlan {
  requireSection(plan, sectionId);
  if (!Number.isFinite(by.dx) || !Number.isFinite(by.dy)) throw new SeatPlanEditError("El desplazamiento tiene que ser un número.");
  return mapSection(plan, sectionId, (section) => ({
    ...section,
    rows: section.rows.map((row) => ({
      ...row,
      seats: row.seats.map((seat) => ({ ...seat, x: tidy(seat.x + by.dx), y: tidy(seat.y + by.dy) })),
    })),
    ...(section.standing
      ? { standing: { ...section.standing, x: tidy(section.standing.x + by.dx), y: tidy(section.standing.y + by.dy) } }
      : {}),
  }));
}

export function addCategory(plan: SeatPlan, category: SeatPlanCategory): SeatPlan {
  const name = category.name.trim();
  if (!name) throw new SeatPlanEditError("Poné un nombre a la categoría.");
  if (name.length > 60) throw new SeatPlanEditError("El nombre de la categoría puede tener hasta 60 caracteres.");
  if (findCategory(plan, name)) throw new SeatPlanEditError(`Ya hay una categoría «${name}».`);
  if (plan.categories.length >= SEAT_PLAN_LIMITS.maxCategories) {
    throw new SeatPlanEditError(`El plano ya tiene ${SEAT_PLAN_LIMITS.maxCategories} categorías, el máximo.`);
  }
  return { ...plan, categories: [...plan.categories, { ...category, name }] };
}

/** Renames a category and every seat and standing area that uses it. */
export function renameCategory(plan: SeatPlan, from: string, to: string): SeatPlan {
  const name = to.trim();
  if (!plan.categories.some((c) => c.name === from)) throw new SeatPlanEditError(`No hay una categoría «${from}».`);
  if (!name) throw new SeatPlanEditError("Poné un nombre a la categoría.");
  if (name.length > 60) throw new SeatPlanEditError("El nombre de la categoría puede tener hasta 60 caracteres.");
  const existing = findCategory(plan, name);
  if (existing && existing.name !== from) throw new SeatPlanEditError(`Ya hay una categoría «${name}».`);
  const renamed = mapSeats(plan, (seat) => (seat.category === from ? { ...seat, category: name } : seat));
  return {
    ...renamed,
    categories: renamed.categories.map((c) => (c.name === from ? { ...c, name } : c)),
    sections: renamed.sections.map((section) =>
      section.standing?.category === from ? { ...section, standing: { ...section.standing, category: name } } : section,
    ),
  };
}

export type SeatPlanProblemCode =
  | "schema"
  | "duplicate-guid"
  | "duplicate-section-id"
  | "duplicate-category"
  | "unknown-category"
  | "overlapping-seats"
  | "duplicate-seat-number"
  | "empty-numbered-section"
  | "standing-without-capacity"
  | "too-large";

export interface SeatPlanProblem {
  code: SeatPlanProblemCode;
  message: string;
  sectionId?: string;
  guids?: string[];
}

/** More than this many problems are summed up in one last line: the list is for a person. */
export const MAX_REPORTED_PROBLEMS = 100;

/**
 * Everything wrong with a plan, in Spanish, naming the section, row and seat.
 * An empty list means the plan can be stored. Takes `unknown` because the server
 * validates what a browser sent.
 */
export function validatePlan(input: unknown): SeatPlanProblem[] {
  const problems: SeatPlanProblem[] = [];
  // PostgreSQL refuses NUL in JSON and the rest only arrive by mistake or to break a ticket's print.
  const control = findControlCharacterPath(input);
  if (control) {
    const last = [...control].reverse().find((k) => typeof k === "string") as string | undefined;
    const field = (last && FIELD_NAMES[last]) ?? "un dato";
    return [{ code: "schema", message: `${describePath(input, control)}: ${field} tiene caracteres de control; sacalos y volvé a guardar.` }];
  }
  const parsed = seatPlanSchema.safeParse(input);
  if (!parsed.success) {
    // Sizes first: a plan over the limits gets one clear line instead of one per seat.
    const tooLarge = limitProblems(input);
    if (tooLarge.length > 0) return tooLarge;
    for (const issue of parsed.error.issues) {
      problems.push({ code: "schema", message: `${describePath(input, issue.path)}: ${describeIssue(issue)}` });
    }
    return cap(problems);
  }
  const plan = parsed.data;
  problems.push(...limitProblems(plan));

  const categories = new Set<string>();
  for (const category of plan.categories) {
    if (categories.has(category.name)) {
      problems.push({ code: "duplicate-category", message: `La categoría «${category.name}» está dos veces.` });
    }
    categories.add(category.name);
  }

  const sectionIds = new Set<string>();
  const guidPlaces = new Map<string, string>();
  const places = new Map<string, { guid: string; where: string }>();
  for (const section of plan.sections) {
    const sectionName = `Sector «${section.name}»`;
    if (sectionIds.has(section.id)) {
      problems.push({ code: "duplicate-section-id", sectionId: section.id, message: `${sectionName}: su identificador «${section.id}» lo usa otro sector.` });
    }
    sectionIds.add(section.id);
    const seatCount = section.rows.reduce((n, row) => n + row.seats.length, 0);
    if (section.kind === "numbered" && seatCount === 0) {
      problems.push({ code: "empty-numbered-section", sectionId: section.id, message: `${sectionName}: es numerado y no tiene asientos.` });
    }
    if (section.kind === "standing") {
      if (!section.standing) {
        problems.push({ code: "standing-without-capacity", sectionId: section.id, message: `${sectionName}: es sin numerar y no tiene capacidad.` });
      } else if (!categories.has(section.standing.category)) {
        problems.push({
          code: "unknown-category",
          sectionId: section.id,
          message: `${sectionName}: la categoría «${section.standing.category}» no está en la lista de categorías.`,
        });
      }
      if (seatCount > 0) {
        problems.push({ code: "schema", sectionId: section.id, message: `${sectionName}: es sin numerar y tiene asientos; pasalo a numerado o sacale los asientos.` });
      }
    }
    for (const row of section.rows) {
      const numbers = new Set<string>();
      for (const seat of row.seats) {
        const where = `${sectionName}, fila ${row.label}, asiento ${seat.number}`;
        const before = guidPlaces.get(seat.guid);
        if (before !== undefined) {
          problems.push({
            code: "duplicate-guid",
            sectionId: section.id,
            guids: [seat.guid],
            message: `${where}: tiene el mismo identificador «${seat.guid}» que ${lowerFirst(before)}.`,
          });
        } else {
          guidPlaces.set(seat.guid, where);
        }
        if (!categories.has(seat.category)) {
          problems.push({
            code: "unknown-category",
            sectionId: section.id,
            guids: [seat.guid],
            message: `${where}: la categoría «${seat.category}» no está en la lista de categorías.`,
          });
        }
        if (numbers.has(seat.number)) {
          problems.push({
            code: "duplicate-seat-number",
            sectionId: section.id,
            guids: [seat.guid],
            message: `${sectionName}, fila ${row.label}: el asiento ${seat.number} está dos veces.`,
          });
        }
        numbers.add(seat.number);
        // "The same place": the same drawing unit once rounded, where two circles would be drawn on top of each other.
        const key = `${Math.round(seat.x)}:${Math.round(seat.y)}`;
        const other = places.get(key);
        if (other) {
          problems.push({
            code: "overlapping-seats",
            sectionId: section.id,
            guids: [other.guid, seat.guid],
            message: `${where}: está en el mismo lugar que ${lowerFirst(other.where)}.`,
          });
        } else {
          places.set(key, { guid: seat.guid, where });
        }
      }
    }
  }
  return cap(problems);
}

function limitProblems(input: unknown): SeatPlanProblem[] {
  const problems: SeatPlanProblem[] = [];
  if (typeof input !== "object" || input === null) return problems;
  const plan = input as Partial<Record<keyof SeatPlan, unknown>>;
  const sections = Array.isArray(plan.sections) ? plan.sections : [];
  let seats = 0;
  for (const section of sections) {
    const rows = (section as { rows?: unknown })?.rows;
    if (!Array.isArray(rows)) continue;
    for (const row of rows) {
      const rowSeats = (row as { seats?: unknown })?.seats;
      if (Array.isArray(rowSeats)) seats += rowSeats.length;
    }
  }
  if (seats > SEAT_PLAN_LIMITS.maxSeats) {
    problems.push({ code: "too-large", message: `El plano tiene ${seats} asientos y el máximo es ${SEAT_PLAN_LIMITS.maxSeats}.` });
  }
  if (sections.length > SEAT_PLAN_LIMITS.maxSections) {
    problems.push({ code: "too-large", message: `El plano tiene ${sections.length} sectores y el máximo es ${SEAT_PLAN_LIMITS.maxSections}.` });
  }
  const categories = Array.isArray(plan.categories) ? plan.categories.length : 0;
  if (categories > SEAT_PLAN_LIMITS.maxCategories) {
    problems.push({ code: "too-large", message: `El plano tiene ${categories} categorías y el máximo es ${SEAT_PLAN_LIMITS.maxCategories}.` });
  }
  const size = plan.size as { width?: unknown; height?: unknown } | undefined;
  for (const [key, label] of [["width", "ancho"], ["height", "alto"]] as const) {
    const value = size?.[key];
    if (typeof value === "number" && value > SEAT_PLAN_LIMITS.maxSize) {
      problems.push({ code: "too-large", message: `El ${label} del plano es ${value} y el máximo es ${SEAT_PLAN_LIMITS.maxSize}.` });
    }
  }
  return problems;
}

function cap(problems: SeatPlanProblem[]): SeatPlanProblem[] {
  if (problems.length <= MAX_REPORTED_PROBLEMS) return problems;
  const rest = problems.length - MAX_REPORTED_PROBLEMS;
  return [
    ...problems.slice(0, MAX_REPORTED_PROBLEMS),
    { code: problems[MAX_REPORTED_PROBLEMS]!.code, message: `Y ${rest} ${rest === 1 ? "problema" : "problemas"} más.` },
  ];
}

const FIELD_NAMES: Record<string, string> = {
  name: "el nombre",
  size: "el tamaño",
  width: "el ancho",
  height: "el alto",
  categories: "las categorías",
  sections: "los sectores",
  shapes: "los dibujos",
  id: "el identificador",
  kind: "el tipo (numerado o sin numerar)",
  rows: "las filas",
  label: "el nombre de la fila",
  seats: "los asientos",
  guid: "el identificador",
  number: "el número",
  x: "la posición horizontal",
  y: "la posición vertical",
  category: "la categoría",
  accessible: "la marca de accesible",
  restrictedView: "la marca de visión reducida",
  standing: "la capacidad y el dibujo del sector sin numerar",
  capacity: "la capacidad",
  color: "el color",
  text: "el texto",
  rotation: "la rotación",
};

/** "Sector «Platea», fila B, asiento 3" from a path into a (maybe broken) plan. */
function describePath(input: unknown, path: PropertyKey[]): string {
  const parts: string[] = [];
  let node: unknown = input;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    const next = typeof node === "object" && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    const parent = path[i - 1];
    if (typeof key === "number" && typeof next === "object" && next !== null) {
      const item = next as Record<string, unknown>;
      if (parent === "sections") parts.push(`Sector ${quoted(item.name) ?? `n.º ${key + 1}`}`);
      else if (parent === "rows") parts.push(`fila ${plain(item.label) ?? `n.º ${key + 1}`}`);
      else if (parent === "seats") parts.push(`asiento ${plain(item.number) ?? `n.º ${key + 1} de la fila`}`);
      else if (parent === "categories") parts.push(`Categoría ${quoted(item.name) ?? `n.º ${key + 1}`}`);
      else if (parent === "shapes") parts.push(`Dibujo n.º ${key + 1}`);
    }
    node = next;
  }
  const where = parts.join(", ");
  return where ? where.charAt(0).toUpperCase() + where.slice(1) : "El plano";
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const last = [...issue.path].reverse().find((k) => typeof k === "string") as string | undefined;
  const field = (last && FIELD_NAMES[last]) ?? "un dato";
  switch (issue.code) {
    case "invalid_type":
      return `${field} falta o no es del tipo correcto.`;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? `${field} está vacío.` : `${field} es demasiado corto.`;
      if (issue.origin === "number") return `${field} tiene que ser ${issue.inclusive ? "por lo menos" : "mayor que"} ${String(issue.minimum)}.`;
      return `${field} tiene menos elementos de los necesarios.`;
    case "too_big":
      if (issue.origin === "string") return `${field} puede tener hasta ${String(issue.maximum)} caracteres.`;
      if (issue.origin === "number") return `${field} puede ser hasta ${String(issue.maximum)}.`;
      return `${field} tiene más de ${String(issue.maximum)} elementos.`;
    case "invalid_value":
      return `${field} no es un valor admitido.`;
    case "unrecognized_keys":
      return `tiene datos que el plano no admite (${issue.keys.join(", ")}).`;
    default:
      return `${field} no es válido.`;
  }
}

/** The path to the first string with a control character (line breaks included: no plan text is multi-line). */
export function findControlCharacterPath(value: unknown, path: PropertyKey[] = [], depth = 0): PropertyKey[] | null {
  if (typeof value === "string") return hasControlCharacters(value) ? path : null;
  if (depth > 16 || value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findControlCharacterPath(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (hasControlCharacters(key)) return [...path, key];
    const found = findControlCharacterPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

function quoted(value: unknown): string | undefined {
  const text = plain(value);
  return text === undefined ? undefined : `«${text}»`;
}

function plain(value: unknown): string | undefined {
  // A name is shown without its control characters: the message says they are there.
  const text = typeof value === "string" ? withoutControlCharacters(value) : "";
  return text.trim() ? text : undefined;
}

export function withoutControlCharacters(text: string): string {
  return text.replace(/[\u0000-\u001F\u007F]/g, "");
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

// --- helpers ---

function countSeats(plan: SeatPlan): number {
  return plan.sections.reduce((n, s) => n + s.rows.reduce((m, r) => m + r.seats.length, 0), 0);
}

function listGuids(plan: SeatPlan): string[] {
  return plan.sections.flatMap((s) => s.rows.flatMap((r) => r.seats.map((seat) => seat.guid)));
}

function findCategory(plan: SeatPlan, name: string): SeatPlanCategory | undefined {
  // Case and accents aside, two categories that read the same would confuse the organizer mapping prices.
  const key = normalizeName(name);
  return plan.categories.find((c) => normalizeName(c.name) === key);
}

function normalizeName(name: string): string {
  return name.trim().normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

function requireCategory(plan: SeatPlan, category: string): void {
  if (!plan.categories.some((c) => c.name === category)) {
    throw new SeatPlanEditError(`La categoría «${category}» no está en la lista de categorías del plano.`);
  }
}

function requireSection(plan: SeatPlan, sectionId: string): SeatPlanSection {
  const section = plan.sections.find((s) => s.id === sectionId);
  if (!section) throw new SeatPlanEditError("Ese sector ya no está en el plano.");
  return section;
}

function requireGuids(plan: SeatPlan, guids: readonly string[]): Set<string> {
  const known = new Set(listGuids(plan));
  const missing = guids.filter((g) => !known.has(g));
  if (missing.length > 0) {
    throw new SeatPlanEditError(
      missing.length === 1 ? `El asiento «${missing[0]}» ya no está en el plano.` : `${missing.length} de los asientos elegidos ya no están en el plano.`,
    );
  }
  return new Set(guids);
}

function mapSection(plan: SeatPlan, sectionId: string, fn: (section: SeatPlanSection) => SeatPlanSection): SeatPlan {
  return { ...plan, sections: plan.sections.map((s) => (s.id === sectionId ? fn(s) : s)) };
}

function mapSeats(plan: SeatPlan, fn: (seat: SeatPlanSeat) => SeatPlanSeat): SeatPlan {
  return {
    ...plan,
    sections: plan.sections.map((section) => ({
      ...section,
      rows: section.rows.map((row) => ({ ...row, seats: row.seats.map(fn) })),
    })),
  };
}

function newGuid(taken: Set<string>): string {
  // randomUUID exists in browsers (secure contexts) and in Node; a clash is only a guard.
  let guid = globalThis.crypto.randomUUID();
  while (taken.has(guid)) guid = globalThis.crypto.randomUUID();
  taken.add(guid);
  return guid;
}

function newSectionId(plan: SeatPlan): string {
  return newGuid(new Set(plan.sections.map((s) => s.id)));
}

/** Positions kept to 1/100 of a unit: enough for drawing, and JSON stays short. */
function tidy(n: number): number {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? 0 : r;
}
