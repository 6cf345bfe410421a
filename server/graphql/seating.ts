/**
 * Reserved seating over GraphQL (docs/seating.md, docs/api.md): seat maps for organizers, an event's map with
 * each seat's state on a date, blocking and releasing seats. Buying seats is createOrder's `seats` or
 * `bestAvailable` (./orders.ts). Translation only: the rules are in server/seating.
 */
import { Kind, type ValueNode } from "graphql";
import type { SeatMapRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import { Invalid, isDomainError } from "#server/errors";
import { editSeatMap, exportSeatMap, getSeatMap, importSeatMap, listSeatMaps, saveSeatMap, seatMapOrganization } from "#server/seating/maps";
import { blockSeats, firstEventDate, getEventSeating, releaseSeats, setEventSeating, type EventSeatingView, type SeatStatus } from "#server/seating/event-seating";

/** A literal JSON value written inline in a document. */
function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    default:
      return undefined;
  }
}

builder.scalarType("JSON", {
  description: "Any JSON value. A seat plan is the shape of common/seating-plan.ts (docs/seating.md).",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node) => literal(node),
});

const SeatMap = builder.objectRef<SeatMapRow>("SeatMap").implement({
  description: "A venue's seat plan, owned by an organization and reused by its events.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    version: t.exposeInt("version", { nullable: false, description: "Grows on every save; send it back with saveSeatMap to refuse overwriting someone else's save." }),
    plan: t.field({ type: "JSON", nullable: false, description: "Sections, rows and seats (stable guids), categories and shapes.", resolve: (m) => m.plan }),
    updatedAt: t.string({ nullable: false, resolve: (m) => isoDate(m.updatedAt)! }),
  }),
});

const SeatStatusRef = builder.objectRef<SeatStatus>("SeatStatus").implement({
  fields: (t) => ({
    guid: t.exposeString("guid", { nullable: false }),
    state: t.exposeString("state", { nullable: false, description: "free, held (an unpaid order), sold or blocked (by the organizer)." }),
    reason: t.exposeString("reason", { description: "Why a blocked seat is off sale; only for the organizer." }),
  }),
});

const SeatCategory = builder.objectRef<{ category: string; ticketTypeId: string }>("SeatCategory").implement({
  fields: (t) => ({
    category: t.exposeString("category", { nullable: false }),
    ticketTypeId: t.exposeID("ticketTypeId", { nullable: false }),
  }),
});

const EventSeatingRef = builder.objectRef<EventSeatingView>("EventSeating").implement({
  description: "An event's seat map and the state of every seat on one date.",
  fields: (t) => ({
    eventId: t.exposeID("eventId", { nullable: false }),
    eventDateId: t.exposeID("eventDateId", { nullable: false }),
    map: t.field({ type: SeatMap, nullable: false, resolve: (v) => v.map }),
    categories: t.field({
      type: [SeatCategory],
      nullable: false,
      description: "Which ticket type sells each category of the map.",
      resolve: (v) => Object.entries(v.categories).map(([category, ticketTypeId]) => ({ category, ticketTypeId })),
    }),
    seats: t.field({ type: [SeatStatusRef], nullable: false, description: "Every numbered seat, in plan order.", resolve: (v) => v.seats }),
  }),
});

builder.queryFields((t) => ({
  seatMap: t.field({
    type: SeatMap,
    description: "One seat map, for members of its organization who manage events. NOT_FOUND, FORBIDDEN.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { ctx }) => getSeatMap(ctx, String(id)),
  }),
  seatMaps: t.field({
    type: [SeatMap],
    nullable: false,
    description: "The organization's seat maps, by name.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, { organizationId }, { ctx }) => listSeatMaps(ctx, String(organizationId)),
  }),
  eventSeating: t.field({
    type: EventSeatingRef,
    description: "An event's seat map with each seat's state on the date: public for a published event, organizers only for a draft. NOT_FOUND when the event has no seating.",
    args: { eventId: t.arg.id({ required: true }), dateId: t.arg.id({ required: true }) },
    resolve: (_root, { eventId, dateId }, { ctx }) => getEventSeating(ctx, String(eventId), String(dateId)),
  }),
}));

const SaveSeatMapInput = builder.inputType("SaveSeatMapInput", {
  fields: (t) => ({
    id: t.id({ description: "Absent: a new map." }),
    organizationId: t.id({ required: true }),
    plan: t.field({ type: "JSON", required: true, description: "The whole plan (common/seating-plan.ts). BAD_USER_INPUT with fieldErrors under plan.… when it does not fit." }),
    version: t.int({ description: "The version you loaded: CONFLICT when someone saved a newer one." }),
  }),
});

const SeatCategoryInput = builder.inputType("SeatCategoryInput", {
  fields: (t) => ({ category: t.string({ required: true }), ticketTypeId: t.id({ required: true }) }),
});

const SetEventSeatingInput = builder.inputType("SetEventSeatingInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    seatMapId: t.id({ required: true }),
    categories: t.field({ type: [SeatCategoryInput], required: true, description: "Every category a seat uses must map to a ticket type of the event." }),
  }),
});

const SeatsOfDateInput = builder.inputType("SeatsOfDateInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    eventDateId: t.id({ required: true }),
    seats: t.stringList({ required: true, description: "Seat guids." }),
    reason: t.string({ description: "blockSeats only: why (the organizer sees it on the map)." }),
  }),
});

builder.mutationFields((t) => ({
  saveSeatMap: t.field({
    type: SeatMap,
    nullable: false,
    description:
      "Creates a seat map or replaces its plan (events:manage in the organization). On a map events use, seats held, sold or blocked must stay, and the seated ticket types' stock follows the seat counts.",
    args: { input: t.arg({ type: SaveSeatMapInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => saveSeatMap(ctx, given(input)),
  }),
  setEventSeating: t.field({
    type: EventSeatingRef,
    nullable: false,
    description: "Which map an event's dates use and which ticket type sells each category; each seated ticket type's stock becomes its number of seats. Answers the seating of the event's first date.",
    args: { input: t.arg({ type: SetEventSeatingInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      await setEventSeating(ctx, { eventId: String(input.eventId), seatMapId: String(input.seatMapId), categories: input.categories.map((c) => ({ category: c.category, ticketTypeId: String(c.ticketTypeId) })) });
      return getEventSeating(ctx, String(input.eventId), await firstEventDate(ctx.db, String(input.eventId)));
    },
  }),
  blockSeats: t.field({
    type: ["String"],
    nullable: false,
    description: "Takes seats of one date off sale, all or nothing: CONFLICT when one is already held, sold or blocked. Returns the seats blocked.",
    args: { input: t.arg({ type: SeatsOfDateInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => blockSeats(ctx, given(input)),
  }),
  releaseSeats: t.field({
    type: ["String"],
    nullable: false,
    description: "Puts blocked seats of one date back on sale; CONFLICT for a seat an order holds or bought. Returns the seats released.",
    args: { input: t.arg({ type: SeatsOfDateInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => releaseSeats(ctx, { eventId: input.eventId, eventDateId: input.eventDateId, seats: input.seats }),
  }),
}));

// ───────────────────────── The back office's map operations (decision 237) ─────────────────────────

/** The domain's field names said as this API's input names them (`file` is `pretixPlan`, `edit.rows` is `operation.rows`). */
async function withInputNames<T>(run: () => Promise<T>, rename: (key: string) => string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isDomainError(error) || error.code !== "BAD_USER_INPUT") throw error;
    const fieldErrors: Record<string, string[]> = {};
    for (const [key, messages] of Object.entries(error.fieldErrors)) (fieldErrors[rename(key)] ??= []).push(...messages);
    throw new Invalid(fieldErrors, error.message);
  }
}

/**
 * An editor operation as JSON, in the shape the back office's forms send it (server/seating/maps.ts
 * `seatMapEditSchema`): a row index or a list of seat numbers may come as numbers, marks as booleans.
 */
function operationFromJson(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const op = { ...(value as Record<string, unknown>) };
  if (typeof op.row === "number") op.row = String(op.row);
  for (const key of ["seats", "gaps"]) if (Array.isArray(op[key])) op[key] = (op[key] as unknown[]).join(", ");
  for (const key of ["accessible", "restrictedView"]) if (typeof op[key] === "boolean") op[key] = op[key] ? "si" : "no";
  return op;
}

const SeatMapImport = builder.objectRef<{ map: SeatMapRow; warnings: string[] }>("SeatMapImport").implement({
  description: "A map imported from pretix, and what was left out.",
  fields: (t) => ({
    seatMap: t.field({ type: SeatMap, nullable: false, resolve: (r) => r.map }),
    warnings: t.exposeStringList("warnings", { nullable: false, description: "What the import left out or changed, in Spanish (as the back office shows it after importing)." }),
  }),
});

const ImportSeatMapInput = builder.inputType("ImportSeatMapInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    name: t.string({ description: "The map's name; absent: the plan's own name." }),
    pretixPlan: t.field({
      type: "JSON",
      required: true,
      description: "The file of pretix's seating plan editor, as JSON (or its text as a string), at most 2 MB. BAD_USER_INPUT with fieldErrors.pretixPlan saying what is missing and where.",
    }),
  }),
});

const EditSeatMapInput = builder.inputType("EditSeatMapInput", {
  fields: (t) => ({
    id: t.id({ required: true }),
    version: t.int({ required: true, description: "The version you loaded: CONFLICT when someone saved a newer one." }),
    operation: t.field({
      type: "JSON",
      required: true,
      description:
        "One editor operation, by `op`: details, add-category, update-category, add-block, add-standing, renumber, mark, category, remove, move (fields in docs/api.md). BAD_USER_INPUT with fieldErrors under operation.<field>, or operation when the plan cannot take it.",
    }),
  }),
});

builder.queryFields((t) => ({
  seatMapPretix: t.field({
    type: "JSON",
    nullable: false,
    description: "The map as a pretix seating-plan file (what the back office's «Exportar a pretix» downloads). NOT_FOUND for a map of an organization you are not in; FORBIDDEN without events:manage.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx }) => {
      const organizationId = await seatMapOrganization(ctx, String(id));
      return JSON.parse((await exportSeatMap(ctx, organizationId, String(id))).json) as unknown;
    },
  }),
}));

builder.mutationFields((t) => ({
  importSeatMap: t.field({
    type: SeatMapImport,
    nullable: false,
    description: "A pretix seating plan as a new map of the organization (events:manage), as the back office's «Importar de pretix».",
    args: { input: t.arg({ type: ImportSeatMapInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => {
      const plan: unknown = input.pretixPlan;
      const file = plan === null || plan === undefined ? null : new TextEncoder().encode(typeof plan === "string" ? plan : JSON.stringify(plan));
      return withInputNames(
        () => importSeatMap(ctx, { organizationId: String(input.organizationId), name: input.name, file }),
        (key) => (key === "file" ? "pretixPlan" : key),
      );
    },
  }),
  editSeatMap: t.field({
    type: SeatMap,
    nullable: false,
    description:
      "Applies one editor operation to a map on the server, as the back office's editor does, and saves it (its version grows). CONFLICT on a stale version; NOT_FOUND for a map of an organization you are not in; FORBIDDEN without events:manage.",
    args: { input: t.arg({ type: EditSeatMapInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const organizationId = await seatMapOrganization(ctx, String(input.id));
      return withInputNames(
        () => editSeatMap(ctx, { id: String(input.id), organizationId, version: input.version, edit: operationFromJson(input.operation) }),
        (key) => (key === "_form" || key === "edit" ? "operation" : key.startsWith("edit.") ? `operation.${key.slice(5)}` : key),
      );
    },
  }),
}));
