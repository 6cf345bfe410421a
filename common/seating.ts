// Pure seating rules shared by the server and the buyer's map: the words, the
// states a seat shows, and best available (docs/seating.md). No I/O here.
import type { SeatPlan, SeatPlanSeat } from "./seating-plan";

export const SEATING_MESSAGES = {
  seatTaken: "Alguien eligió ese asiento recién. Elegí otro.",
  seatUnknown: "Ese asiento no existe en el mapa de este evento. Elegí otro.",
  seatBlocked: "Ese asiento no está a la venta. Elegí otro.",
  seatTwice: "Elegiste el mismo asiento dos veces.",
  seatsOrBest: "Elegí los asientos en el mapa o pedí los mejores disponibles, no las dos cosas.",
  chooseSeats: "Este evento tiene asientos numerados: elegilos en el mapa o pedí los mejores disponibles.",
  noAdjacent: (n: number) =>
    n === 1 ? "No quedan asientos libres de esa ubicación. Probá con otra." : `No quedan ${n} asientos juntos en una misma fila de esa ubicación. Probá con menos o elegilos en el mapa.`,
  tooMany: (max: number) => `Podés elegir hasta ${max} asientos por compra.`,
  notSeated: "Este evento no tiene asientos numerados.",
  duplicateGuid: (guid: string) => `El asiento «${guid}» aparece más de una vez en el mapa.`,
  categoryUnknown: (name: string) => `La categoría «${name}» no está en el mapa.`,
  categoryUnmapped: (name: string) => `Asigná la categoría «${name}» a un tipo de entrada del evento.`,
  ticketTypeNotOfEvent: "Ese tipo de entrada no es de este evento.",
  ticketTypeNotSeated: "Ese tipo de entrada no tiene asientos en el mapa.",
  stockBelowSold: (name: string) => `«${name}» ya vendió o reservó más entradas que los asientos que le tocan en el mapa. Asignale más asientos.`,
  claimedSeatRemoved: (guid: string) => `El asiento «${guid}» está vendido, reservado o bloqueado en una fecha: no lo podés sacar del mapa.`,
  mapNotFound: "No encontramos el mapa de asientos.",
  releaseSold: "Ese asiento está vendido o reservado por una compra: no se puede liberar desde acá.",
  blockTaken: "Ese asiento ya está vendido, reservado o bloqueado.",
} as const;

/** At most this many seats in one order (the same bound as a selection's lines). */
export const MAX_SEATS_PER_ORDER = 50;

export type SeatState = "free" | "held" | "sold" | "blocked";

/** A seat as the buyer's map draws it: where it is, what it prints, its category and its state on a date. */
export interface MapSeat {
  guid: string;
  x: number;
  y: number;
  number: string;
  row: string;
  section: string;
  category: string;
  accessible?: boolean;
  restrictedView?: boolean;
  state: SeatState;
}

export type PlanSide = NonNullable<SeatPlan["front"]>;

interface RowView {
  sectionName: string;
  rowLabel: string;
  seats: SeatPlanSeat[];
  /** How far the row is from the stage: smaller is better. */
  depth: number;
  /** Each seat's coordinate along the row (x when the stage is above or below, y when it is to a side). */
  along: number[];
  /** Whether seat i and seat i+1 sit next to each other (no aisle, no missing number between them). */
  joined: boolean[];
}

const median = (values: number[]) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * Two seats next in the row's order are adjacent unless something sits between them: a physical gap (more
 * than 1.5 times the row's usual spacing: an aisle) or a jump in numbering beyond the row's usual step (a
 * missing seat; rows numbered odd/even keep a step of 2 and stay adjacent).
 */
function joinedSeats(seats: SeatPlanSeat[]): boolean[] {
  const distances = seats.slice(1).map((s, i) => Math.hypot(s.x - seats[i].x, s.y - seats[i].y));
  const numbers = seats.map((s) => (/^\d+$/.test(s.number) ? Number(s.number) : null));
  const steps = numbers.slice(1).flatMap((n, i) => (n !== null && numbers[i] !== null ? [Math.abs(n - numbers[i]!)] : []));
  const usualDistance = median(distances);
  const usualStep = median(steps);
  return distances.map((d, i) => {
    if (usualDistance > 0 && d > usualDistance * 1.5) return false;
    const a = numbers[i];
    const b = numbers[i + 1];
    if (a !== null && b !== null && usualStep > 0 && Math.abs(b - a) > usualStep) return false;
    return true;
  });
}

function rowsOf(plan: SeatPlan): RowView[] {
  const front: PlanSide = plan.front ?? "top";
  const rows: RowView[] = [];
  for (const section of plan.sections) {
    if (section.kind !== "numbered") continue;
    for (const row of section.rows) {
      if (!row.seats.length) continue;
      const meanX = row.seats.reduce((s, seat) => s + seat.x, 0) / row.seats.length;
      const meanY = row.seats.reduce((s, seat) => s + seat.y, 0) / row.seats.length;
      const depth = front === "top" ? meanY : front === "bottom" ? -meanY : front === "left" ? meanX : -meanX;
      const sideways = front === "left" || front === "right";
      rows.push({
        sectionName: section.name,
        rowLabel: row.label,
        seats: row.seats,
        depth,
        along: row.seats.map((s) => (sideways ? s.y : s.x)),
        joined: joinedSeats(row.seats),
      });
    }
  }
  return rows;
}

export interface BestAvailableRequest {
  /** Seats held, sold or blocked on that date. */
  unavailable: ReadonlySet<string>;
  /** The categories that may be chosen (a ticket type may sell more than one). */
  categories: readonly string[];
  quantity: number;
}

export interface ChosenSeat {
  guid: string;
  section: string;
  row: string;
  number: string;
  category: string;
}

export type BestAvailableAnswer = { seats: ChosenSeat[] } | { error: string };

/**
 * Best available (docs/seating.md): N adjacent seats of the categories in ONE row, never an unavailable one.
 * Order of preference:
 *   1. choices that leave no single empty seat alone (between taken seats, or against a row's end or an aisle),
 *      when any choice does;
 *   2. the row nearest the stage (`plan.front`, default the top: lowest y);
 *   3. the block whose middle is closest to the row's middle;
 *   4. then plan order, so the answer is always the same for the same input.
 * No N adjacent seats: an error in Spanish, never seats split across rows.
 */
export function bestAvailable(plan: SeatPlan, request: BestAvailableRequest): BestAvailableAnswer {
  const n = request.quantity;
  if (!Number.isInteger(n) || n < 1) return { error: SEATING_MESSAGES.noAdjacent(1) };
  const wanted = new Set(request.categories);
  let best: { orphan: boolean; depth: number; offCentre: number; order: number; row: RowView; start: number } | null = null;
  let order = 0;
  for (const row of rowsOf(plan)) {
    const free = row.seats.map((s) => !request.unavailable.has(s.guid));
    const centre = (Math.min(...row.along) + Math.max(...row.along)) / 2;
    for (let start = 0; start + n <= row.seats.length; start++) {
      order++;
      let fits = true;
      for (let i = start; i < start + n; i++) {
        if (!free[i] || !wanted.has(row.seats[i].category) || (i > start && !row.joined[i - 1])) {
          fits = false;
          break;
        }
      }
      if (!fits) continue;
      const orphan = leavesSingle(free, row.joined, start - 1, -1) || leavesSingle(free, row.joined, start + n, 1);
      const offCentre = Math.abs((row.along[start] + row.along[start + n - 1]) / 2 - centre);
      const candidate = { orphan, depth: row.depth, offCentre, order, row, start };
      if (!best || better(candidate, best)) best = candidate;
    }
  }
  if (!best) return { error: SEATING_MESSAGES.noAdjacent(n) };
  const { row, start } = best;
  return {
    seats: row.seats.slice(start, start + n).map((s) => ({ guid: s.guid, section: row.sectionName, row: row.rowLabel, number: s.number, category: s.category })),
  };
}

const EPSILON = 1e-6;

function better(a: { orphan: boolean; depth: number; offCentre: number; order: number }, b: typeof a): boolean {
  if (a.orphan !== b.orphan) return !a.orphan;
  if (Math.abs(a.depth - b.depth) > EPSILON) return a.depth < b.depth;
  if (Math.abs(a.offCentre - b.offCentre) > EPSILON) return a.offCentre < b.offCentre;
  return a.order < b.order;
}

/**
 * Whether the free seats running from `from` away from the chosen block (step -1: towards the row's start)
 * are exactly one: a lone empty seat nobody will buy with a friend.
 */
function leavesSingle(free: boolean[], joined: boolean[], from: number, step: -1 | 1): boolean {
  if (from < 0 || from >= free.length || !free[from]) return false;
  // The seat next to the block must actually touch it: across an aisle it is not left alone by this choice.
  const touching = step === -1 ? joined[from] : joined[from - 1];
  if (!touching) return false;
  const next = from + step;
  const nextJoined = step === -1 ? joined[next] : joined[from];
  return next < 0 || next >= free.length || !free[next] || !nextJoined;
}

/** The label of every seat by guid: what a claim and a ticket print. */
export function seatIndex(plan: SeatPlan): Map<string, ChosenSeat> {
  const index = new Map<string, ChosenSeat>();
  for (const section of plan.sections) {
    if (section.kind !== "numbered") continue;
    for (const row of section.rows) {
      for (const seat of row.seats) index.set(seat.guid, { guid: seat.guid, section: section.name, row: row.label, number: seat.number, category: seat.category });
    }
  }
  return index;
}

/** Problems the seat plan schema cannot see: a guid used twice, a seat of a category the plan does not list. */
export function planProblems(plan: SeatPlan): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const categories = new Set(plan.categories.map((c) => c.name));
  const reported = new Set<string>();
  for (const section of plan.sections) {
    for (const row of section.rows) {
      for (const seat of row.seats) {
        if (seen.has(seat.guid)) problems.push(SEATING_MESSAGES.duplicateGuid(seat.guid));
        seen.add(seat.guid);
        if (!categories.has(seat.category) && !reported.has(seat.category)) {
          reported.add(seat.category);
          problems.push(SEATING_MESSAGES.categoryUnknown(seat.category));
        }
      }
    }
  }
  return problems;
}

/** How many seats of each category the plan has (numbered sections only: standing areas sell by count). */
export function seatsPerCategory(plan: SeatPlan): Map<string, number> {
  const counts = new Map<string, number>();
  for (const seat of seatIndex(plan).values()) counts.set(seat.category, (counts.get(seat.category) ?? 0) + 1);
  return counts;
}

/** A ticket's seat as every output shows it (docs/seating.md): the three parts and how they read together. */
export interface TicketSeat {
  section: string;
  row: string;
  number: string;
  /** "Platea · Fila F · Asiento 12" (`seatLabel`). */
  label: string;
}

/** "Fila 3" stays "Fila 3" and "3" becomes "Fila 3": a plan may print its own word before the label. */
const withWord = (word: string, value: string) => (value.toLowerCase().startsWith(word.toLowerCase()) ? value : `${word} ${value}`);

/**
 * "Platea · Fila F · Asiento 12": the one way a seat reads on the ticket, the PDF, the email, the wallet
 * passes, the door and the exports. Null for a general-admission ticket (no section, row or number).
 */
export function seatLabel(seat: { section?: string | null; row?: string | null; number?: string | null } | null | undefined): string | null {
  const section = seat?.section?.trim();
  const row = seat?.row?.trim();
  const number = seat?.number?.trim();
  if (!section && !row && !number) return null;
  return [section, row ? withWord("Fila", row) : null, number ? withWord("Asiento", number) : null].filter(Boolean).join(" · ");
}

/** The seat of an issued ticket (`issued_products.seat_*`), or null for general admission. */
export function ticketSeat(seat: { section?: string | null; row?: string | null; number?: string | null }): TicketSeat | null {
  const label = seatLabel(seat);
  if (!label) return null;
  return { section: seat.section ?? "", row: seat.row ?? "", number: seat.number ?? "", label };
}
