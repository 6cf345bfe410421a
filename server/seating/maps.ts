import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import { planProblems, SEATING_MESSAGES, seatIndex } from "#common/seating";
import {
  addCategory,
  addSeatBlock,
  addStandingSection,
  markSeats,
  moveSection,
  removeSeats,
  renameCategory,
  renumberRow,
  renumberSection,
  SeatPlanEditError,
  setSeatCategory,
  validatePlan,
} from "#common/seating-editor";
import { SEAT_PLAN_LIMITS, seatPlanSchema, type SeatPlan } from "#common/seating-plan";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { eventDates, eventSeating, events, seatClaims, seatMaps, type SeatMapRow } from "#server/db/schema";
import { Conflict, Forbidden, Invalid, NotFound, Unauthenticated } from "#server/errors";
import { membershipRole, requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { seatingChanged } from "./cache";
import { exportPretixPlan, importPretixPlan } from "./pretix";
import { syncSeatedStock } from "./stock";

/*
 * Seat maps (docs/seating.md): an organization's venues as one JSON plan each
 * (common/seating-plan.ts). Only members who manage events read or write them.
 */

const uuid = z.string().uuid("Identificador inválido");

export const saveSeatMapSchema = z.object({
  /** Absent: a new map. */
  id: uuid.nullish(),
  organizationId: uuid,
  plan: z.unknown(),
  /** The version the editor loaded: a save over a newer one is refused instead of undoing someone's work. */
  version: z.number().int().positive().nullish(),
});

/** The plan checked by its schema and by what a schema cannot see (guids twice, unknown categories); Spanish messages under `plan`. */
function parsePlan(raw: unknown) {
  const parsed = seatPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues.slice(0, 20)) (fieldErrors[["plan", ...issue.path].join(".")] ??= []).push(issue.message);
    throw new Invalid(fieldErrors, "El mapa de asientos tiene datos inválidos.");
  }
  const problems = planProblems(parsed.data);
  if (problems.length) throw new Invalid({ plan: problems.slice(0, 20) }, problems[0]);
  return parsed.data;
}

/**
 * `saveSeatMap`: creates a map or replaces its plan. On a map events already use, every seat that is held,
 * sold or blocked on one of their dates must still be in the plan, each event's categories must still map
 * to a ticket type, and the seated ticket types' stock follows the new seat counts — all in one transaction.
 */
export async function saveSeatMap(ctx: Ctx, rawInput: DomainInput<typeof saveSeatMapSchema>): Promise<SeatMapRow> {
  const input = parseInput(saveSeatMapSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "events:manage");
  const plan = parsePlan(input.plan);
  const saved = await ctx.db.transaction(async (tx) => {
    if (!input.id) {
      const [created] = await tx.insert(seatMaps).values({ organizationId: input.organizationId, name: plan.name, plan, createdAt: ctx.now, updatedAt: ctx.now }).returning();
      return created;
    }
    // Locked: two saves of one map are judged one after the other.
    const [current] = await tx.select().from(seatMaps).where(eq(seatMaps.id, input.id)).for("update");
    if (!current || current.organizationId !== input.organizationId) throw new NotFound(SEATING_MESSAGES.mapNotFound);
    if (input.version && input.version !== current.version) throw new Conflict(SEAT_MAP_EDITOR_MESSAGES.conflict);
    const seats = seatIndex(plan);
    const users = await tx.select({ eventId: eventSeating.eventId, categories: eventSeating.categories }).from(eventSeating).where(eq(eventSeating.seatMapId, current.id));
    if (users.length) {
      const claimed = await tx
        .selectDistinct({ seatGuid: seatClaims.seatGuid })
        .from(seatClaims)
        .innerJoin(eventDates, eq(eventDates.id, seatClaims.eventDateId))
        .where(and(inArray(eventDates.eventId, users.map((u) => u.eventId)), ne(seatClaims.state, "released")));
      const missing = claimed.find((c) => !seats.has(c.seatGuid));
      if (missing) throw new Invalid({ plan: [SEATING_MESSAGES.claimedSeatRemoved(missing.seatGuid)] }, SEATING_MESSAGES.claimedSeatRemoved(missing.seatGuid));
      for (const user of users) await syncSeatedStock(tx, { eventId: user.eventId, plan, categories: user.categories, now: ctx.now });
    }
    const [updated] = await tx
      .update(seatMaps)
      .set({ name: plan.name, plan, version: current.version + 1, updatedAt: ctx.now })
      .where(eq(seatMaps.id, current.id))
      .returning();
    return updated;
  });
  // Every process drops its copy of the map and of the seating of the events that use it (decision 240).
  if (input.id) seatingChanged({ seatMapId: saved.id });
  return saved;
}

/** `seatMap(id)`: one map, for the members of its organization who manage events. */
export async function getSeatMap(ctx: Ctx, id: string): Promise<SeatMapRow> {
  const map = await loadMap(ctx.db, id);
  await requireCapability(ctx, map.organizationId, "events:manage");
  return map;
}

/** The organization's maps, by name. */
export async function listSeatMaps(ctx: Ctx, organizationId: string): Promise<SeatMapRow[]> {
  await requireCapability(ctx, organizationId, "events:manage");
  return ctx.db.select().from(seatMaps).where(eq(seatMaps.organizationId, organizationId)).orderBy(asc(seatMaps.name));
}

/** A map by id, or NOT_FOUND (an id that is not a UUID names no map). */
export async function loadMap(db: DbOrTx, id: string): Promise<SeatMapRow> {
  if (!uuid.safeParse(id).success) throw new NotFound(SEATING_MESSAGES.mapNotFound);
  const [map] = await db.select().from(seatMaps).where(eq(seatMaps.id, id));
  if (!map) throw new NotFound(SEATING_MESSAGES.mapNotFound);
  return map;
}

// ───────────────────────── The back-office editor (docs/seating.md, «Para el organizador») ─────────────────────────

export interface SeatMapSummary {
  id: string;
  name: string;
  seats: number;
  sections: number;
  version: number;
  updatedAt: Date;
  /** The events whose dates use the map (deleted events left out). */
  events: Array<{ id: string; name: string; slug: string }>;
}

/** The organization's maps with their seat counts and the events that use each one, by name. */
export async function listSeatMapsWithUsage(ctx: Ctx, organizationId: string): Promise<SeatMapSummary[]> {
  return summarize(ctx.db, await listSeatMaps(ctx, organizationId));
}

/** One map of the organization (getOrganizationSeatMap) with its summary: for the editor's header. */
export async function getSeatMapWithUsage(ctx: Ctx, organizationId: string, id: string): Promise<{ map: SeatMapRow; summary: SeatMapSummary }> {
  const map = await getOrganizationSeatMap(ctx, organizationId, id);
  const [summary] = await summarize(ctx.db, [map]);
  return { map, summary: summary! };
}

async function summarize(db: DbOrTx, maps: SeatMapRow[]): Promise<SeatMapSummary[]> {
  if (!maps.length) return [];
  const users = await db
    .select({ seatMapId: eventSeating.seatMapId, id: events.id, name: events.name, slug: events.slug })
    .from(eventSeating)
    .innerJoin(events, eq(events.id, eventSeating.eventId))
    .where(and(inArray(eventSeating.seatMapId, maps.map((m) => m.id)), ne(events.status, "deleted")))
    .orderBy(asc(events.name));
  return maps.map((map) => ({
    id: map.id,
    name: map.name,
    seats: seatIndex(map.plan).size,
    sections: map.plan.sections.length,
    version: map.version,
    updatedAt: map.updatedAt,
    events: users.filter((u) => u.seatMapId === map.id).map(({ id, name, slug }) => ({ id, name, slug })),
  }));
}

/**
 * One map of the organization the back office is in: another organization's map
 * (or none) is NOT_FOUND, as if it did not exist, even for whoever also belongs to it.
 */
export async function getOrganizationSeatMap(ctx: Ctx, organizationId: string, id: string): Promise<SeatMapRow> {
  await requireCapability(ctx, organizationId, "events:manage");
  const map = await loadMap(ctx.db, id);
  if (map.organizationId !== organizationId) throw new NotFound(SEATING_MESSAGES.mapNotFound);
  return map;
}

/**
 * The organization of a map named only by its id (the API's `seatMapPretix`, `editSeatMap`): someone who is not
 * a member of it gets NOT_FOUND, as if it did not exist; a member without `events:manage`, FORBIDDEN.
 */
export async function seatMapOrganization(ctx: Ctx, id: string): Promise<string> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const map = await loadMap(ctx.db, id);
  try {
    await requireCapability(ctx, map.organizationId, "events:manage");
  } catch (error) {
    if (error instanceof Forbidden && !(await membershipRole(ctx, map.organizationId))) throw new NotFound(SEATING_MESSAGES.mapNotFound);
    throw error;
  }
  return map.organizationId;
}

/** Decision 228: a pretix file uploaded from the back office, at most this many bytes. */
export const MAX_PRETIX_UPLOAD_BYTES = 2 * 1024 * 1024;

export const SEAT_MAP_EDITOR_MESSAGES = {
  noFile: "Elegí el archivo JSON del plano que exportaste de pretix.",
  tooLarge: `El archivo pesa más de ${MAX_PRETIX_UPLOAD_BYTES / 1024 / 1024} MB, el máximo para subir un plano.`,
  conflict: "Alguien más guardó este mapa mientras lo editabas. Volvé a abrirlo y hacé tus cambios de nuevo.",
} as const;

/**
 * `importSeatMap`: a pretix seating-plan file (its bytes) as a new map of the organization.
 * Refused with pretix.ts's messages, which say what is wrong and where; the warnings say what was left out.
 */
export async function importSeatMap(ctx: Ctx, input: { organizationId: string; file: Uint8Array | null | undefined; name?: string | null }): Promise<{ map: SeatMapRow; warnings: string[] }> {
  await requireCapability(ctx, input.organizationId, "events:manage");
  const name = input.name?.trim() ? parseInput(z.object({ name: text("el nombre del mapa", 120) }), { name: input.name }).name : null;
  if (!input.file?.length) throw new Invalid({ file: [SEAT_MAP_EDITOR_MESSAGES.noFile] }, SEAT_MAP_EDITOR_MESSAGES.noFile);
  if (input.file.length > MAX_PRETIX_UPLOAD_BYTES) throw new Invalid({ file: [SEAT_MAP_EDITOR_MESSAGES.tooLarge] }, SEAT_MAP_EDITOR_MESSAGES.tooLarge);
  let body: string;
  try {
    body = new TextDecoder("utf-8", { fatal: true }).decode(input.file);
  } catch {
    throw new Invalid({ file: ["El archivo no es un JSON válido."] }, "El archivo no es un JSON válido.");
  }
  const result = importPretixPlan(body.replace(/^\uFEFF/, ""));
  if (!result.ok) throw new Invalid({ file: result.errors }, result.errors[0]);
  const map = await saveSeatMap(ctx, { organizationId: input.organizationId, plan: fitPlanSize(name ? { ...result.plan, name } : result.plan) });
  return { map, warnings: result.warnings };
}

/** `exportSeatMap`: the map as a pretix seating-plan file. */
export async function exportSeatMap(ctx: Ctx, organizationId: string, id: string): Promise<{ fileName: string; json: string; warnings: string[] }> {
  const map = await getOrganizationSeatMap(ctx, organizationId, id);
  const { plan, warnings } = exportPretixPlan(map.plan);
  const slug =
    map.name
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "mapa";
  return { fileName: `${slug}-pretix.json`, json: JSON.stringify(plan, null, 2), warnings };
}

const text = (label: string, max: number) =>
  z
    .string({ message: `Completá ${label}.` })
    .trim()
    .min(1, `Completá ${label}.`)
    .max(max, `${label.charAt(0).toUpperCase()}${label.slice(1)} puede tener hasta ${max} caracteres.`);

/** A form's number ("12", "-3,5"; "" is absent, refused unless `optional`): anything else refused with the field's message. */
function num(message: string, min: number, max: number, options: { int?: boolean; optional: true }): z.ZodType<number | undefined, unknown>;
function num(message: string, min: number, max: number, options?: { int?: boolean; optional?: false }): z.ZodType<number, unknown>;
function num(message: string, min: number, max: number, options: { int?: boolean; optional?: boolean } = {}): z.ZodType<number | undefined, unknown> {
  const number = z.number({ message }).refine((n) => Number.isFinite(n) && n >= min && n <= max && (!options.int || Number.isInteger(n)), message);
  return z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v.trim().replace(",", "."))) : v === null ? undefined : v),
    options.optional ? number.optional() : number,
  ) as z.ZodType<number | undefined, unknown>;
}

const FRONTS = ["top", "bottom", "left", "right"] as const;
const NUMBERINGS = ["ltr", "rtl", "odd-even"] as const;
const numbering = z.enum(NUMBERINGS, { message: "Elegí cómo se numeran los asientos." });
const colorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "El color tiene que ser como #3b82f6.")
  .optional()
  .or(z.literal("").transform(() => undefined));

const blockFields = {
  /** An existing numbered section's id, or "" for a new one named `sectionName`. */
  sectionId: z.string().trim().optional(),
  sectionName: z.string().trim().max(60, "El nombre del sector puede tener hasta 60 caracteres.").optional(),
  rows: num("Poné cuántas filas: un número entero de 1 a 200.", 1, 200, { int: true }),
  seatsPerRow: num("Poné cuántos asientos por fila: un número entero de 1 a 500.", 1, 500, { int: true }),
  firstRowLabel: text("la primera fila", 6),
  numbering,
  startNumber: num("El primer número tiene que ser un entero desde 0.", 0, 100_000, { int: true, optional: true }),
  /** How far forward the ends of the first row come (drawing units); 0 straight. */
  curve: num("La curva tiene que ser un número entre -1000 y 1000.", -1000, 1000, { optional: true }),
  rowOffset: num("El corrimiento tiene que ser un número entre -100 y 100.", -100, 100, { optional: true }),
  /** "10, 20": aisles after those seats, counted from the left. */
  gaps: z.string().trim().max(200).optional(),
  x: num("La posición horizontal tiene que ser un número entre 0 y 19000.", 0, 19_000, { optional: true }),
  y: num("La posición vertical tiene que ser un número entre 0 y 19000.", 0, 19_000, { optional: true }),
  category: text("la categoría", 60),
};

/** Which seats an operation is about: a section, one of its rows (by index), some seat numbers of it. */
const targetFields = {
  sectionId: z.string({ message: "Elegí un sector." }).trim().min(1, "Elegí un sector."),
  /** "" for every row, else the row's index in the section. */
  row: z.string().trim().optional(),
  /** "1-4, 9": seat numbers of the chosen row(s); empty for all. */
  seats: z.string().trim().max(500, "La lista de asientos puede tener hasta 500 caracteres.").optional(),
};

const mark = z.enum(["", "si", "no"]).optional();

export const seatMapEditSchema = z.discriminatedUnion(
  "op",
  [
    z.object({ op: z.literal("details"), name: text("el nombre del mapa", 120), front: z.enum(FRONTS, { message: "Elegí de qué lado está el escenario." }) }),
    z.object({ op: z.literal("add-category"), name: text("el nombre de la categoría", 60), color: colorSchema }),
    z.object({ op: z.literal("update-category"), from: z.string().min(1), name: text("el nombre de la categoría", 60), color: colorSchema }),
    z.object({ op: z.literal("add-block"), ...blockFields }),
    z.object({
      op: z.literal("add-standing"),
      name: text("el nombre del sector", 60),
      category: text("la categoría", 60),
      capacity: num("Poné la capacidad: un número entero de 1 a 60000.", 1, 60_000, { int: true }),
      x: num("La posición horizontal tiene que ser un número entre 0 y 19000.", 0, 19_000, { optional: true }),
      y: num("La posición vertical tiene que ser un número entre 0 y 19000.", 0, 19_000, { optional: true }),
      width: num("El ancho tiene que ser un número entre 1 y 19000.", 1, 19_000),
      height: num("El alto tiene que ser un número entre 1 y 19000.", 1, 19_000),
    }),
    z.object({ op: z.literal("renumber"), ...targetFields, numbering, startNumber: blockFields.startNumber, firstRowLabel: z.string().trim().max(6).optional() }),
    z.object({ op: z.literal("mark"), ...targetFields, accessible: mark, restrictedView: mark }),
    z.object({ op: z.literal("category"), ...targetFields, category: text("la categoría", 60) }),
    z.object({ op: z.literal("remove"), ...targetFields }),
    z.object({ op: z.literal("move"), sectionId: targetFields.sectionId, dx: num("Mover: un número entre -5000 y 5000.", -5000, 5000), dy: num("Mover: un número entre -5000 y 5000.", -5000, 5000) }),
  ],
  { message: "Elegí qué cambiar en el mapa." },
);

export type SeatMapEdit = z.output<typeof seatMapEditSchema>;

export const editSeatMapSchema = z.object({
  id: uuid,
  organizationId: uuid,
  version: num("Volvé a abrir el mapa.", 1, Number.MAX_SAFE_INTEGER, { int: true }),
  edit: seatMapEditSchema,
});

/**
 * `editSeatMap`: one editor operation (common/seating-editor.ts) applied on the server to the map
 * of the version the editor opened, checked with validatePlan, and saved with saveSeatMap (whose
 * version check answers CONFLICT when someone saved in between). Messages go under `edit.<field>`.
 */
export async function editSeatMap(ctx: Ctx, rawInput: { id?: unknown; organizationId?: unknown; version?: unknown; edit?: unknown }): Promise<SeatMapRow> {
  const input = parseInput(editSeatMapSchema, rawInput);
  const map = await getOrganizationSeatMap(ctx, input.organizationId, input.id);
  if (map.version !== input.version) throw new Conflict(SEAT_MAP_EDITOR_MESSAGES.conflict);
  const plan = checkedPlan(() => applyEdit(map.plan, input.edit));
  return saveSeatMap(ctx, { id: map.id, organizationId: map.organizationId, plan, version: input.version });
}

export const createSeatMapSchema = z.object({
  organizationId: uuid,
  name: text("el nombre del mapa", 120),
  front: z.enum(FRONTS, { message: "Elegí de qué lado está el escenario." }),
  ...blockFields,
  color: colorSchema,
});

/** `createSeatMap`: a new map in one step: its name, where the stage is, a first category and a first block of seats. */
export async function createSeatMap(ctx: Ctx, rawInput: Record<string, unknown>): Promise<SeatMapRow> {
  const input = parseInput(createSeatMapSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "events:manage");
  const plan = checkedPlan(() => {
    const empty: SeatPlan = { name: input.name, size: { width: 600, height: 400 }, categories: [], sections: [], shapes: [], front: input.front };
    const withCategory = addCategory(empty, { name: input.category, color: input.color ?? DEFAULT_COLORS[0] });
    return blockOf(withCategory, { ...input, category: withCategory.categories[0]!.name, sectionName: input.sectionName || input.category });
  });
  return saveSeatMap(ctx, { organizationId: input.organizationId, plan });
}

const DEFAULT_COLORS = ["#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2", "#dc2626", "#4d7c0f"];

/** Runs an edit; its SeatPlanEditError and validatePlan's problems become Spanish messages; the size grows to fit. */
function checkedPlan(edit: () => SeatPlan): SeatPlan {
  let plan: SeatPlan;
  try {
    plan = fitPlanSize(edit());
  } catch (error) {
    if (error instanceof SeatPlanEditError) throw new Invalid({ _form: [error.message] }, error.message);
    throw error;
  }
  const problems = validatePlan(plan);
  if (problems.length) throw new Invalid({ _form: problems.slice(0, 10).map((p) => p.message) }, problems[0]!.message);
  return plan;
}

function applyEdit(plan: SeatPlan, edit: SeatMapEdit): SeatPlan {
  switch (edit.op) {
    case "details":
      return { ...plan, name: edit.name, front: edit.front };
    case "add-category":
      return addCategory(plan, { name: edit.name, color: edit.color ?? DEFAULT_COLORS[plan.categories.length % DEFAULT_COLORS.length] });
    case "update-category": {
      const renamed = edit.name === edit.from ? plan : renameCategory(plan, edit.from, edit.name);
      if (!renamed.categories.some((c) => c.name === edit.name)) throw new SeatPlanEditError(`No hay una categoría «${edit.from}».`);
      return { ...renamed, categories: renamed.categories.map((c) => (c.name === edit.name ? { ...c, color: edit.color ?? c.color } : c)) };
    }
    case "add-block":
      return blockOf(plan, edit);
    case "add-standing": {
      const bounds = planBounds(plan);
      return addStandingSection(plan, {
        name: edit.name,
        category: edit.category,
        capacity: edit.capacity,
        x: edit.x ?? (bounds ? Math.max(0, Math.round(bounds.minX)) : 40),
        y: edit.y ?? (bounds ? Math.round(bounds.maxY + 60) : 80),
        width: edit.width,
        height: edit.height,
      });
    }
    case "renumber": {
      const { section, rows } = target(plan, edit);
      if (rows.length === section.rows.length && !edit.seats) {
        return renumberSection(plan, section.id, { numbering: edit.numbering, startNumber: edit.startNumber ?? 1, firstRowLabel: edit.firstRowLabel || undefined });
      }
      if (edit.seats) throw new SeatPlanEditError("Para numerar, elegí un sector o una fila entera, sin asientos sueltos.");
      return rows.reduce((p, r) => renumberRow(p, { sectionId: section.id, rowIndex: r }, edit.numbering, edit.startNumber ?? 1), plan);
    }
    case "mark": {
      const marks = { accessible: yesNo(edit.accessible), restrictedView: yesNo(edit.restrictedView) };
      if (marks.accessible === undefined && marks.restrictedView === undefined) throw new SeatPlanEditError("Elegí qué marca poner o sacar.");
      return markSeats(plan, target(plan, edit).guids, marks);
    }
    case "category":
      return setSeatCategory(plan, target(plan, edit).guids, edit.category);
    case "remove": {
      // The whole section: it goes too (a numbered section without seats is not a plan's).
      if (!edit.row && !edit.seats) {
        if (!plan.sections.some((s) => s.id === edit.sectionId)) throw new SeatPlanEditError("Ese sector ya no está en el plano.");
        return { ...plan, sections: plan.sections.filter((s) => s.id !== edit.sectionId) };
      }
      const { section, guids } = target(plan, edit);
      const removed = removeSeats(plan, guids);
      const left = removed.sections.find((s) => s.id === section.id)!;
      return left.rows.some((r) => r.seats.length) ? removed : { ...removed, sections: removed.sections.filter((s) => s.id !== section.id) };
    }
    case "move":
      return moveSection(plan, edit.sectionId, { dx: edit.dx, dy: edit.dy });
  }
}

function yesNo(value: "" | "si" | "no" | undefined): boolean | undefined {
  return value === "si" ? true : value === "no" ? false : undefined;
}

const blockSchema = z.object(blockFields);
type BlockInput = z.output<typeof blockSchema>;

function blockOf(plan: SeatPlan, input: BlockInput): SeatPlan {
  const gaps = (input.gaps ?? "")
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((g) => {
      if (!/^\d{1,4}$/.test(g)) throw new SeatPlanEditError(`Los pasillos van como números de asiento separados por comas (por ejemplo 10, 20), no «${g}».`);
      return Number(g);
    });
  const bounds = planBounds(plan);
  const origin = {
    x: input.x ?? (bounds ? Math.max(0, Math.round(bounds.minX)) : 40),
    // Below what is already drawn, or leaving room for the stage at the top.
    y: input.y ?? (bounds ? Math.round(bounds.maxY + 60) : 80),
  };
  const section = input.sectionId ? { id: input.sectionId } : { name: input.sectionName ?? "" };
  return addSeatBlock(plan, {
    section,
    rows: input.rows,
    seatsPerRow: input.seatsPerRow,
    firstRowLabel: input.firstRowLabel,
    numbering: input.numbering,
    startNumber: input.startNumber,
    curve: input.curve,
    rowOffset: input.rowOffset,
    gaps,
    origin,
    category: input.category,
  });
}

/** The seats an operation names: a section, maybe one row ("row" is its index), maybe some seat numbers ("1-4, 9"). */
function target(plan: SeatPlan, input: { sectionId: string; row?: string; seats?: string }) {
  const section = plan.sections.find((s) => s.id === input.sectionId);
  if (!section) throw new SeatPlanEditError("Ese sector ya no está en el plano.");
  let rows = section.rows.map((_, i) => i);
  if (input.row) {
    const index = Number(input.row);
    if (!Number.isInteger(index) || !section.rows[index]) throw new SeatPlanEditError(`«${section.name}» no tiene esa fila.`);
    rows = [index];
  }
  const seats = rows.flatMap((r) => section.rows[r]!.seats.map((seat) => ({ seat, row: section.rows[r]!.label })));
  if (!input.seats) {
    if (!seats.length) throw new SeatPlanEditError(`«${section.name}» no tiene asientos.`);
    return { section, rows, guids: seats.map((s) => s.seat.guid) };
  }
  const wanted = new Set<string>();
  for (const token of input.seats.split(/[\s,;]+/).filter(Boolean)) {
    const range = /^(\d{1,6})-(\d{1,6})$/.exec(token);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])].sort((a, b) => a - b);
      if (to - from > 2000) throw new SeatPlanEditError(`El rango ${token} es demasiado largo.`);
      for (let n = from!; n <= to!; n++) wanted.add(String(n));
    } else {
      wanted.add(token);
    }
  }
  const chosen = seats.filter((s) => wanted.has(s.seat.number));
  const found = new Set(chosen.map((s) => s.seat.number));
  const missing = [...wanted].filter((n) => !found.has(n) && !/-/.test(n));
  const where = rows.length === 1 ? `La fila ${section.rows[rows[0]!]!.label} de «${section.name}»` : `«${section.name}»`;
  if (!chosen.length) throw new SeatPlanEditError(`${where} no tiene los asientos ${input.seats}.`);
  if (missing.length && missing.length === wanted.size) throw new SeatPlanEditError(`${where} no tiene los asientos ${input.seats}.`);
  return { section, rows, guids: chosen.map((s) => s.seat.guid) };
}

/** What the plan draws (seats, standing areas, shapes), or null for an empty plan. */
export function planBounds(plan: SeatPlan): { minX: number; minY: number; maxX: number; maxY: number } | null {
  let box: { minX: number; minY: number; maxX: number; maxY: number } | null = null;
  const add = (x1: number, y1: number, x2: number, y2: number) => {
    box = box
      ? { minX: Math.min(box.minX, x1), minY: Math.min(box.minY, y1), maxX: Math.max(box.maxX, x2), maxY: Math.max(box.maxY, y2) }
      : { minX: x1, minY: y1, maxX: x2, maxY: y2 };
  };
  for (const section of plan.sections) {
    for (const row of section.rows) for (const seat of row.seats) add(seat.x, seat.y, seat.x, seat.y);
    if (section.standing) add(section.standing.x, section.standing.y, section.standing.x + section.standing.width, section.standing.y + section.standing.height);
  }
  for (const shape of plan.shapes) add(shape.x, shape.y, shape.x + shape.width, shape.y + shape.height);
  return box;
}

/** The drawing's size grows to hold everything drawn (the buyer's map shows `size`), with a margin; it never shrinks. */
export function fitPlanSize(plan: SeatPlan): SeatPlan {
  const bounds = planBounds(plan);
  if (!bounds) return plan;
  const margin = 40;
  const width = Math.min(SEAT_PLAN_LIMITS.maxSize, Math.max(plan.size.width, Math.ceil(bounds.maxX + margin)));
  const height = Math.min(SEAT_PLAN_LIMITS.maxSize, Math.max(plan.size.height, Math.ceil(bounds.maxY + margin)));
  return width === plan.size.width && height === plan.size.height ? plan : { ...plan, size: { width, height } };
}
