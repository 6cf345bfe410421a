// pretix seating plans in and out. pretix publishes its plan format as a JSON
// schema (src/pretix/static/seating/seating-plan.schema.json); the Zod schema
// below mirrors its current version field by field, with the same
// "additionalProperties: false", so a file pretix would refuse is refused here
// and what we export pretix accepts. How zones, areas and positions map onto our
// plan, and what does not survive the trip: docs/seating-plans.md, decision 226.
import { z } from "zod";
import { findControlCharacterPath, validatePlan, withoutControlCharacters } from "#common/seating-editor";
import { SEAT_PLAN_LIMITS, type SeatPlan, type SeatPlanSection, type SeatPlanShape } from "#common/seating-plan";

const position = z.object({ x: z.number(), y: z.number() }).strict();

const pretixSeatSchema = z
  .object({
    seat_guid: z.string(),
    seat_number: z.string(),
    uuid: z.string().optional(),
    start_direction: z.string().nullable().optional(),
    radius: z.number().int().optional(),
    position,
    category: z.string(),
  })
  .strict();

const pretixRowSchema = z
  .object({
    row_number: z.string(),
    row_label: z.string().nullable().optional(),
    seat_label: z.string().nullable().optional(),
    uuid: z.string().optional(),
    seats: z.array(pretixSeatSchema),
    row_number_position: z.enum(["start", "end", "both"]).nullable().optional(),
    position: position.optional(),
  })
  .strict();

const pretixAreaSchema = z
  .object({
    color: z.string().optional(),
    border_color: z.string().optional(),
    rotation: z.number().optional(),
    position: position.optional(),
    uuid: z.string().optional(),
    shape: z.enum(["polygon", "rectangle", "ellipse", "circle", "text"]).optional(),
    polygon: z.object({ points: z.array(position) }).strict().optional(),
    rectangle: z.object({ width: z.number().int(), height: z.number().int() }).strict().optional(),
    ellipse: z.object({ radius: position }).strict().optional(),
    circle: z.object({ radius: z.number().int() }).strict().optional(),
    text: z
      .object({ text: z.string(), color: z.string().optional(), size: z.number().int().optional(), position })
      .strict()
      .optional(),
  })
  .strict();

const pretixZoneSchema = z
  .object({
    name: z.string().optional(),
    zone_id: z.string().optional(),
    uuid: z.string().optional(),
    position,
    rows: z.array(pretixRowSchema),
    areas: z.array(pretixAreaSchema).optional(),
  })
  .strict();

const pretixCategorySchema = z.object({ name: z.string(), color: z.string().optional() }).strict();

export const pretixPlanSchema = z
  .object({
    name: z.string(),
    zones: z.array(pretixZoneSchema),
    categories: z.array(pretixCategorySchema),
    size: z.object({ width: z.number().int(), height: z.number().int() }).strict(),
  })
  .strict();

export type PretixPlan = z.infer<typeof pretixPlanSchema>;
export type PretixZone = z.infer<typeof pretixZoneSchema>;
export type PretixArea = z.infer<typeof pretixAreaSchema>;

export type PretixImportResult =
  | { ok: true; plan: SeatPlan; warnings: string[] }
  | { ok: false; errors: string[] };

/** More than this many errors end in one "y N más": a file that is all wrong needs one look, not a thousand lines. */
const MAX_ERRORS = 50;

/** pretix draws text 16 units high unless told; used to give a text area a box. */
const PRETIX_TEXT_SIZE = 16;

/**
 * A pretix seat takes about 170 characters compact and up to ~400 indented (guid, uuid, number,
 * position, category): 60,000 seats fit under this, and parsing stays in the tens of megabytes.
 */
export const MAX_PRETIX_FILE_CHARS = 40_000_000;

const FALLBACK_PLAN_NAME = "Plano importado de pretix";

/**
 * Reads a pretix seating plan (the file's text) into our plan. Refuses it with
 * Spanish messages that say what is wrong and where; warnings say what was
 * dropped or approximated on the way (areas that could not be drawn, etc.).
 */
export function importPretixPlan(text: string): PretixImportResult {
  if (text.length > MAX_PRETIX_FILE_CHARS) {
    return { ok: false, errors: [`El archivo es demasiado grande: Tribuna admite planos de hasta ${MAX_PRETIX_FILE_CHARS / 1_000_000} millones de caracteres.`] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, errors: ["El archivo no es un JSON válido."] };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { ok: false, errors: ["El archivo no es un plano de pretix: tiene que ser un objeto con name, zones, categories y size."] };
  }
  // Control characters would end up printed on tickets, and PostgreSQL refuses NUL in JSON.
  const control = findControlCharacterPath(data);
  if (control) {
    const { where, field } = describeWhere(data, control);
    return { ok: false, errors: [`${where}: ${field || "un dato"} tiene caracteres de control; sacalos y volvé a subir el archivo.`] };
  }
  const parsed = pretixPlanSchema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, errors: capErrors(parsed.error.issues.map((issue) => describeIssue(data, issue))) };
  }
  const pretix = parsed.data;
  const errors = checkPretixPlan(pretix);
  if (errors.length > 0) return { ok: false, errors: capErrors(errors) };

  const warnings: string[] = [];
  const name = pretix.name.trim() || FALLBACK_PLAN_NAME;
  if (!pretix.name.trim()) warnings.push(`El plano no tenía nombre: lo llamamos «${FALLBACK_PLAN_NAME}».`);
  const sections: SeatPlanSection[] = [];
  const shapes: SeatPlanShape[] = [];
  const sectionIds = new Set<string>();
  pretix.zones.forEach((zone, zi) => {
    for (const [ai, area] of (zone.areas ?? []).entries()) {
      const shape = areaToShape(zone, area);
      if (shape) shapes.push(shape);
      else warnings.push(`${zoneName(zone, zi)}, área n.º ${ai + 1}: no tiene una forma con tamaño y no se dibuja.`);
    }
    const seatCount = zone.rows.reduce((n, row) => n + row.seats.length, 0);
    // A zone without seats is only a frame for drawings (a stage, a bar): as a
    // section it would be a numbered section with no seats, which a plan cannot have.
    if (seatCount === 0) return;
    const id = sectionId(zone, zi, sectionIds);
    sectionIds.add(id);
    const zx = zone.position.x;
    const zy = zone.position.y;
    sections.push({
      id,
      name: zone.name?.trim() || `Zona ${zi + 1}`,
      kind: "numbered",
      rows: zone.rows
        .filter((row) => row.seats.length > 0)
        .map((row) => {
          // pretix places a seat at zone + row + seat position (SeatingPlan.iter_all_seats).
          const rx = zx + (row.position?.x ?? 0);
          const ry = zy + (row.position?.y ?? 0);
          return {
            label: row.row_number.trim(),
            seats: row.seats.map((seat) => ({
              guid: seat.seat_guid,
              number: seat.seat_number.trim(),
              x: rx + seat.position.x,
              y: ry + seat.position.y,
              category: seat.category,
            })),
          };
        }),
    });
  });

  const plan: SeatPlan = {
    name,
    size: { width: pretix.size.width, height: pretix.size.height },
    categories: pretix.categories.map((c) => (c.color === undefined ? { name: c.name } : { name: c.name, color: c.color })),
    sections,
    shapes,
  };
  // Our own rules last (seats on top of each other, limits): the same check the server runs before storing.
  const problems = validatePlan(plan);
  if (problems.length > 0) return { ok: false, errors: problems.map((p) => p.message.replace(/Sector «/g, "Zona «").replace(/sector «/g, "zona «")) };
  return { ok: true, plan, warnings };
}

/**
 * Our plan as a pretix plan that pretix's schema accepts. Every seat is written
 * with its absolute position (zone and row at 0, 0), so positions come back
 * exactly. Warnings list what pretix has no place for.
 */
export function exportPretixPlan(plan: SeatPlan): { plan: PretixPlan; warnings: string[] } {
  const warnings: string[] = [];
  const zones: PretixZone[] = [];
  let marked = 0;
  for (const section of plan.sections) {
    if (section.kind === "standing") {
      // pretix sells only seats from a plan: a standing area can only be drawn.
      const s = section.standing;
      zones.push({
        name: section.name,
        zone_id: section.id,
        position: { x: 0, y: 0 },
        rows: [],
        areas: s ? [shapeToArea({ x: s.x, y: s.y, width: s.width, height: s.height, text: section.name })] : [],
      });
      warnings.push(`El sector sin numerar «${section.name}» va como dibujo: pretix no vende lugares sin numerar desde el plano.`);
      continue;
    }
    zones.push({
      name: section.name,
      zone_id: section.id,
      position: { x: 0, y: 0 },
      rows: section.rows.map((row) => ({
        row_number: row.label,
        position: { x: 0, y: 0 },
        seats: row.seats.map((seat) => {
          if (seat.accessible || seat.restrictedView) marked += 1;
          return { seat_guid: seat.guid, seat_number: seat.number, position: { x: seat.x, y: seat.y }, category: seat.category };
        }),
      })),
    });
  }
  if (plan.shapes.length > 0) {
    zones.push({ name: "Dibujos", position: { x: 0, y: 0 }, rows: [], areas: plan.shapes.map(shapeToArea) });
  }
  if (marked > 0) {
    warnings.push(
      marked === 1
        ? "pretix no tiene marcas de accesible ni de visión reducida: 1 asiento pierde la suya."
        : `pretix no tiene marcas de accesible ni de visión reducida: ${marked} asientos pierden las suyas.`,
    );
  }
  const result: PretixPlan = {
    name: plan.name,
    zones,
    categories: plan.categories.map((c) => (c.color === undefined ? { name: c.name } : { name: c.name, color: c.color })),
    // pretix wants whole units for the plan's size: round up so nothing falls outside.
    size: { width: Math.ceil(plan.size.width), height: Math.ceil(plan.size.height) },
  };
  return { plan: result, warnings };
}

function shapeToArea(shape: SeatPlanShape): PretixArea {
  const width = Math.max(1, Math.round(shape.width));
  const height = Math.max(1, Math.round(shape.height));
  return {
    shape: "rectangle",
    position: { x: shape.x, y: shape.y },
    rectangle: { width, height },
    ...(shape.rotation !== undefined ? { rotation: shape.rotation } : {}),
    ...(shape.color !== undefined ? { color: shape.color } : {}),
    ...(shape.text ? { text: { text: shape.text, position: { x: width / 2, y: height / 2 } } } : {}),
  };
}

/**
 * A pretix area as our box (x, y = top-left corner). Circles and ellipses are
 * centred on their position; polygon points and a text's position are relative
 * to the area's. Our shapes are boxes, so round shapes become their bounding box.
 */
function areaToShape(zone: PretixZone, area: PretixArea): SeatPlanShape | undefined {
  const ox = zone.position.x + (area.position?.x ?? 0);
  const oy = zone.position.y + (area.position?.y ?? 0);
  const kind = area.shape ?? (area.rectangle ? "rectangle" : area.circle ? "circle" : area.ellipse ? "ellipse" : area.polygon ? "polygon" : area.text ? "text" : undefined);
  let box: { x: number; y: number; width: number; height: number } | undefined;
  if (kind === "rectangle" && area.rectangle) {
    box = { x: ox, y: oy, width: area.rectangle.width, height: area.rectangle.height };
  } else if (kind === "circle" && area.circle) {
    const r = area.circle.radius;
    box = { x: ox - r, y: oy - r, width: 2 * r, height: 2 * r };
  } else if (kind === "ellipse" && area.ellipse) {
    const { x: rx, y: ry } = area.ellipse.radius;
    box = { x: ox - rx, y: oy - ry, width: 2 * rx, height: 2 * ry };
  } else if (kind === "polygon" && area.polygon && area.polygon.points.length > 0) {
    const xs = area.polygon.points.map((p) => p.x);
    const ys = area.polygon.points.map((p) => p.y);
    box = { x: ox + Math.min(...xs), y: oy + Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
  } else if (kind === "text" && area.text) {
    // No size for text in the file: about 0.6 of the font size per character.
    const size = area.text.size ?? PRETIX_TEXT_SIZE;
    box = { x: ox + area.text.position.x, y: oy + area.text.position.y, width: Math.max(1, Math.round(area.text.text.length * size * 0.6)), height: size };
  }
  if (!box) return undefined;
  // Whole units, as pretix writes sizes: the shape then survives an export and a new import unchanged.
  const width = Math.round(box.width);
  const height = Math.round(box.height);
  if (!(width > 0) || !(height > 0)) return undefined;
  const text = area.text?.text.trim().slice(0, 60);
  return {
    x: box.x,
    y: box.y,
    width,
    height,
    ...(text ? { text } : {}),
    ...(area.rotation !== undefined && area.rotation !== 0 ? { rotation: area.rotation } : {}),
    ...(area.color !== undefined ? { color: area.color.slice(0, 30) } : {}),
  };
}

/** zone_id, then uuid, then the zone's place: stable across re-imports of the same file, and unique. */
function sectionId(zone: PretixZone, index: number, taken: Set<string>): string {
  for (const candidate of [zone.zone_id, zone.uuid]) {
    const id = candidate?.trim();
    if (id && id.length <= 64 && !taken.has(id)) return id;
  }
  let id = `zona-${index + 1}`;
  for (let n = 2; taken.has(id); n++) id = `zona-${index + 1}-${n}`;
  return id;
}

/** The checks pretix's JSON schema cannot express, and our limits, in pretix's own terms. */
function checkPretixPlan(pretix: PretixPlan): string[] {
  const errors: string[] = [];
  if (pretix.name.length > 120) errors.push(`El nombre del plano tiene ${pretix.name.length} caracteres y Tribuna admite hasta 120.`);
  for (const [key, label] of [["width", "ancho"], ["height", "alto"]] as const) {
    const value = pretix.size[key];
    if (value <= 0) errors.push(`El ${label} del plano (size.${key}) tiene que ser mayor que cero.`);
    if (value > SEAT_PLAN_LIMITS.maxSize) errors.push(`El ${label} del plano (size.${key}) es ${value} y Tribuna admite hasta ${SEAT_PLAN_LIMITS.maxSize}.`);
  }
  if (pretix.categories.length > SEAT_PLAN_LIMITS.maxCategories) {
    errors.push(`El plano tiene ${pretix.categories.length} categorías y Tribuna admite hasta ${SEAT_PLAN_LIMITS.maxCategories}.`);
  }
  const categories = new Set<string>();
  pretix.categories.forEach((category, ci) => {
    if (!category.name.trim()) errors.push(`Categoría n.º ${ci + 1}: falta el nombre (name).`);
    else if (category.name.length > 60) errors.push(`Categoría «${category.name}»: el nombre tiene ${category.name.length} caracteres y Tribuna admite hasta 60.`);
    else if (categories.has(category.name)) errors.push(`La categoría «${category.name}» está dos veces en la lista de categorías.`);
    if (category.color !== undefined && category.color.length > 30) errors.push(`Categoría «${category.name}»: el color (color) es demasiado largo.`);
    categories.add(category.name);
  });
  const seatedZones = pretix.zones.filter((zone) => zone.rows.some((row) => row.seats.length > 0)).length;
  if (seatedZones > SEAT_PLAN_LIMITS.maxSections) {
    errors.push(`El plano tiene ${seatedZones} zonas con asientos y Tribuna admite hasta ${SEAT_PLAN_LIMITS.maxSections}.`);
  }
  const total = pretix.zones.reduce((n, zone) => n + zone.rows.reduce((m, row) => m + row.seats.length, 0), 0);
  if (total > SEAT_PLAN_LIMITS.maxSeats) {
    // One line is enough: the rest of the checks would repeat for every seat.
    errors.push(`El plano tiene ${total} asientos y Tribuna admite hasta ${SEAT_PLAN_LIMITS.maxSeats}.`);
    return errors;
  }

  const guids = new Map<string, string>();
  const reportedGuids = new Set<string>();
  pretix.zones.forEach((zone, zi) => {
    const zname = zoneName(zone, zi);
    if (zone.name !== undefined && zone.name.length > 60) errors.push(`${zname}: el nombre tiene ${zone.name.length} caracteres y Tribuna admite hasta 60.`);
    zone.rows.forEach((row, ri) => {
      const rname = `${zname}, ${rowName(row.row_number, ri)}`;
      if (row.seats.length > 0) {
        if (!row.row_number.trim()) errors.push(`${rname}: falta el número de fila (row_number).`);
        else if (row.row_number.trim().length > 20) errors.push(`${rname}: el número de fila (row_number) tiene más de 20 caracteres.`);
      }
      row.seats.forEach((seat, si) => {
        const where = `${rname}, ${seatName(seat.seat_number, si)}`;
        const ax = zone.position.x + (row.position?.x ?? 0) + seat.position.x;
        const ay = zone.position.y + (row.position?.y ?? 0) + seat.position.y;
        if (!seat.seat_guid.trim()) errors.push(`${where}: falta el identificador (seat_guid).`);
        else if (seat.seat_guid.length > 64) errors.push(`${where}: el identificador (seat_guid) tiene ${seat.seat_guid.length} caracteres y Tribuna admite hasta 64.`);
        else {
          const before = guids.get(seat.seat_guid);
          if (before === undefined) guids.set(seat.seat_guid, where);
          else if (!reportedGuids.has(seat.seat_guid)) {
            reportedGuids.add(seat.seat_guid);
            errors.push(`Hay dos asientos con el identificador «${seat.seat_guid}»: ${lowerFirst(before)} y ${lowerFirst(where)}.`);
          }
        }
        if (!seat.seat_number.trim()) errors.push(`${where}: falta el número de asiento (seat_number).`);
        else if (seat.seat_number.trim().length > 12) errors.push(`${where}: el número de asiento (seat_number) tiene más de 12 caracteres.`);
        if (!seat.category) errors.push(`${where}: falta la categoría (category).`);
        else if (!categories.has(seat.category)) {
          errors.push(`La categoría «${seat.category}» del ${lowerFirst(seatName(seat.seat_number, si))} (${lowerFirst(rname)}) no está en la lista de categorías.`);
        }
        if (Math.abs(ax) > SEAT_PLAN_LIMITS.maxSize || Math.abs(ay) > SEAT_PLAN_LIMITS.maxSize) {
          errors.push(`${where}: la posición (${ax}, ${ay}) queda fuera del plano; Tribuna admite hasta ${SEAT_PLAN_LIMITS.maxSize} en cada eje.`);
        }
      });
    });
  });
  return errors;
}

/** A name from the file as a message shows it: without control characters (the message says when there are some). */
function shown(value: unknown): string | undefined {
  const text = typeof value === "string" ? withoutControlCharacters(value) : "";
  return text.trim() ? text : undefined;
}

function zoneName(zone: { name?: unknown }, index: number): string {
  const name = shown(zone.name);
  return name ? `Zona «${name}»` : `Zona n.º ${index + 1}`;
}

function rowName(rowNumber: unknown, index: number): string {
  const label = shown(rowNumber);
  return label ? `fila «${label}»` : `fila n.º ${index + 1}`;
}

function seatName(seatNumber: unknown, index: number): string {
  const number = shown(seatNumber);
  return number ? `asiento ${number}` : `asiento n.º ${index + 1} de la fila`;
}

const FIELDS: Record<string, string> = {
  name: "el nombre",
  zones: "la lista de zonas",
  categories: "la lista de categorías",
  size: "el tamaño",
  width: "el ancho",
  height: "el alto",
  zone_id: "el identificador de la zona",
  uuid: "el uuid",
  position: "la posición",
  x: "la coordenada x",
  y: "la coordenada y",
  rows: "la lista de filas",
  areas: "la lista de áreas",
  row_number: "el número de fila",
  row_label: "el nombre de la fila",
  seat_label: "el nombre de los asientos",
  row_number_position: "dónde se muestra el número de fila",
  seats: "la lista de asientos",
  seat_guid: "el identificador",
  seat_number: "el número de asiento",
  start_direction: "el sentido de reserva",
  radius: "el radio",
  category: "la categoría",
  color: "el color",
  border_color: "el color del borde",
  rotation: "la rotación",
  shape: "la forma",
  polygon: "el polígono",
  points: "los puntos",
  rectangle: "el rectángulo",
  ellipse: "la elipse",
  circle: "el círculo",
  text: "el texto",
};

const TYPES: Record<string, string> = {
  string: "texto",
  number: "un número",
  int: "un número entero",
  array: "una lista",
  object: "un objeto",
  boolean: "verdadero o falso",
};

/** Where a path points in a pretix file: «Zona «Platea», fila «B», asiento 3» and «el identificador (seat_guid)». */
function describeWhere(data: unknown, path: readonly PropertyKey[]): { where: string; field: string; node: unknown } {
  const parts: string[] = [];
  let node: unknown = data;
  let lastIndex = -1;
  path.forEach((key, i) => {
    const next = typeof node === "object" && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    if (typeof key === "number") {
      lastIndex = i;
      const item = (typeof next === "object" && next !== null ? next : {}) as Record<string, unknown>;
      const parent = path[i - 1];
      if (parent === "zones") parts.push(zoneName(item, key));
      else if (parent === "rows") parts.push(rowName(item.row_number, key));
      else if (parent === "seats") parts.push(seatName(item.seat_number, key));
      else if (parent === "areas") parts.push(`área n.º ${key + 1}`);
      else if (parent === "categories") parts.push(shown(item.name) ? `Categoría «${shown(item.name)}»` : `Categoría n.º ${key + 1}`);
      else if (parent === "points") parts.push(`punto n.º ${key + 1}`);
    }
    node = next;
  });
  const where = parts.length > 0 ? parts.join(", ") : "El plano";
  const fieldKeys = path.slice(lastIndex + 1).map(String);
  const last = fieldKeys[fieldKeys.length - 1];
  const field = last ? `${FIELDS[last] ?? "un dato"} (${fieldKeys.join(".")})` : "";
  return { where, field, node };
}

/** A schema problem as «Zona «Platea», fila «B», asiento 3: falta el identificador (seat_guid).» */
function describeIssue(data: unknown, issue: z.core.$ZodIssue): string {
  const { where, field, node } = describeWhere(data, issue.path);
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPES[issue.expected] ?? issue.expected;
      if (!field) return `${where}: tiene que ser ${expected}.`;
      return node === undefined ? `${where}: falta ${field}.` : `${where}: ${field} tiene que ser ${expected}.`;
    }
    case "unrecognized_keys": {
      const keys = issue.keys.map((k) => `«${k}»`).join(", ");
      const target = field ? ` en ${field}` : "";
      return issue.keys.length === 1
        ? `${where}: tiene un dato que pretix no admite${target}: ${keys}.`
        : `${where}: tiene datos que pretix no admite${target}: ${keys}.`;
    }
    case "invalid_value":
      return `${where}: ${field || "un dato"} tiene que ser uno de ${issue.values.map((v) => `«${String(v)}»`).join(", ")}.`;
    default:
      return `${where}: ${field || "un dato"} no es válido.`;
  }
}

function capErrors(errors: string[]): string[] {
  if (errors.length <= MAX_ERRORS) return errors;
  const rest = errors.length - MAX_ERRORS;
  return [...errors.slice(0, MAX_ERRORS), `Y ${rest} ${rest === 1 ? "problema" : "problemas"} más.`];
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
