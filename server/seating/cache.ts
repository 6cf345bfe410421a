import { eq } from "drizzle-orm";
import { seatIndex, type ChosenSeat } from "#common/seating";
import { listPlanSeats, type SeatPlan } from "#common/seating-plan";
import type { DbOrTx } from "#server/db/client";
import { defineChannel, onMissedNotifications } from "#server/db/notify";
import { eventSeating, seatMaps, type EventSeatingRow, type SeatMapRow } from "#server/db/schema";
import { followEventChanges } from "#server/events/changes";

/*
 * What a seat map read needs that does not change from one buyer to the next (decision 240,
 * docs/seating.md): which map an event uses and its categories (`event_seating`), and the map's plan with
 * what is derived from it (the seat list in plan order, guid → seat, each category's seats, the backdrop the
 * buyer's page draws). Kept per process so that in an on-sale each map read is one indexed query: the live
 * claims of the date, which are never kept (they are who holds what, and the map shows them fresh).
 *
 * - A map is kept by id and version: a saved map has a new version, so a kept plan never goes stale; the
 *   old version is dropped when the save is heard, or pushed out by the bounds.
 * - An event's seating is kept by event id and dropped when `setEventSeating` or a save of its map is heard
 *   (the "seating" channel, published after commit: this process at once, the others a few milliseconds
 *   later through PostgreSQL notifications, server/db/notify.ts), when the event changes (`eventChanged`),
 *   and, everything, when notifications may have been missed. A copy whose notification was lost (the
 *   NOTIFY failed) lives at most `SEATING_CACHE_TTL_MS`.
 * - Bounded by count and by bytes, like the sale snapshot (decision 195): oldest first; a map bigger than a
 *   quarter of the bytes is used but not kept. Concurrent misses share one read.
 * - Only for the buyer's reads (`getEventSeating`, `buyerSeating`) and an order's seats (`seatedOrder`: createOrder
 *   and previewOrder read no seating row, so a general admission on-sale pays no query for it): the organizer's
 *   pages and every write read the rows themselves (`seatingOfEvent`, `loadMap`).
 */

/** A copy of an event's seating whose change notification was lost lives at most this long. */
export const SEATING_CACHE_TTL_MS = 60_000;
/** Events' seatings kept (each a few hundred bytes: the map id, its version and the categories), and their bytes. */
export const SEATING_CACHE_MAX_EVENTS = 2_000;
export const SEATING_CACHE_MAX_EVENT_BYTES = 2 * 1024 * 1024;
/** Maps kept: an on-sale needs one, a busy night a few dozen. */
export const SEATING_CACHE_MAX_MAPS = 100;
/**
 * Bytes of the maps kept, estimated (`estimateBytes`): a 500-seat plan prepared weighs ~330 kB, so an on-sale's map
 * is a small part of it. A map over a quarter of it (~25,000 seats) is used but not kept: read on every request, as
 * before this cache.
 */
export const SEATING_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** What the buyer's map draws under the seats: the plan without its numbered rows (the seats travel apart, with their state). */
export type BuyerPlan = Pick<SeatPlan, "size" | "shapes" | "categories" | "sections" | "front">;

export type PlanSeat = ReturnType<typeof listPlanSeats>[number];

export interface PreparedMap {
  row: SeatMapRow;
  plan: SeatPlan;
  /** Every seat in plan order (`listPlanSeats`). */
  seats: PlanSeat[];
  /** Numbered seats by guid, in plan order (`seatIndex`). */
  index: Map<string, ChosenSeat>;
  /** Each category's numbered seats (guids, plan order). */
  seatsOfCategory: Map<string, string[]>;
  /** `plan` with only its standing sections: what SeatMap's backdrop needs besides the seats. */
  backdrop: BuyerPlan;
}

export interface CachedSeating {
  seating: EventSeatingRow;
  map: PreparedMap;
}

interface Entry<T> {
  db: DbOrTx;
  /** Date.now() after which it is read again. */
  until: number;
  value: Promise<T>;
  /** Known once the read came back. */
  bytes: number;
}

/** An event's `event_seating` row and the version of its map (the map itself is kept apart, once for every event that uses it). */
interface SeatingRow {
  seating: EventSeatingRow;
  version: number;
}

const seatingByEvent = new Map<string, Entry<SeatingRow | null>>();
const mapsByKey = new Map<string, Entry<PreparedMap>>();
let seatingBytes = 0;
let mapBytes = 0;

const mapKey = (id: string, version: number) => `${id}@${version}`;

// ───────────────────────── Following changes ─────────────────────────

/** "The seating of an event or a map changed": ids only; an empty field names nothing. */
const seatingChannel = defineChannel("seating", ["eventId", "seatMapId"]);

/**
 * After a committed change of seating: `setEventSeating` (the event and the map it now uses) or a map saved
 * (its id, no event). Every process drops what it keeps of them.
 */
export function seatingChanged(change: { eventId?: string | null; seatMapId?: string | null }): void {
  seatingChannel.publish({ eventId: change.eventId ?? "", seatMapId: change.seatMapId ?? "" });
}

function forget({ eventId, seatMapId }: { eventId: string; seatMapId: string }): void {
  if (eventId) dropSeating(eventId);
  if (!seatMapId) return;
  for (const [key, entry] of mapsByKey) if (key.startsWith(`${seatMapId}@`)) dropMap(key, entry);
  // The events that use the map (known once their read came back; one still on its way is dropped too).
  for (const [id, entry] of seatingByEvent) {
    if (entry.bytes === 0) dropSeating(id, entry);
    else void entry.value.then((row) => row?.seating.seatMapId === seatMapId && dropSeating(id, entry));
  }
}

/** Drops every copy (notifications may have been missed; tests). */
export function forgetAllSeating(): void {
  seatingByEvent.clear();
  mapsByKey.clear();
  seatingBytes = 0;
  mapBytes = 0;
}

seatingChannel.subscribe(forget);
onMissedNotifications(forgetAllSeating);
followEventChanges({ forget: (eventId) => dropSeating(eventId), forgetAll: forgetAllSeating });

/** How much this process keeps (what the bounds above limit). */
export function seatingCacheKept(): { events: number; eventBytes: number; maps: number; mapBytes: number } {
  return { events: seatingByEvent.size, eventBytes: seatingBytes, maps: mapsByKey.size, mapBytes };
}

// ───────────────────────── Bounds ─────────────────────────

function dropSeating(eventId: string, entry: Entry<SeatingRow | null> | undefined = seatingByEvent.get(eventId)): void {
  if (!entry || seatingByEvent.get(eventId) !== entry) return;
  seatingByEvent.delete(eventId);
  seatingBytes -= entry.bytes;
}

function dropMap(key: string, entry: Entry<PreparedMap> | undefined = mapsByKey.get(key)): void {
  if (!entry || mapsByKey.get(key) !== entry) return;
  mapsByKey.delete(key);
  mapBytes -= entry.bytes;
}

/** Room for one more event (expired ones first, then the oldest), never dropping `keep`. */
function roomForSeating(now: number, keep?: Entry<SeatingRow | null>): void {
  for (const [id, entry] of seatingByEvent) if (entry.until <= now && entry !== keep) dropSeating(id, entry);
  for (const [id, entry] of seatingByEvent) {
    if (seatingByEvent.size < SEATING_CACHE_MAX_EVENTS + (keep ? 1 : 0) && seatingBytes <= SEATING_CACHE_MAX_EVENT_BYTES) break;
    if (entry !== keep) dropSeating(id, entry);
  }
}

/** Room for one more map (the least recently used first), never dropping `keep`. */
function roomForMap(keep?: Entry<PreparedMap>): void {
  for (const [key, entry] of mapsByKey) {
    if (mapsByKey.size < SEATING_CACHE_MAX_MAPS + (keep ? 1 : 0) && mapBytes <= SEATING_CACHE_MAX_BYTES) break;
    if (entry !== keep) dropMap(key, entry);
  }
}

/**
 * What a kept map weighs in the heap: ten times its plan as JSON. Measured with Node 20 (heap after GC): a prepared
 * 500-seat plan (32 kB of JSON) takes ~325 kB, a 6,000-seat one (400 kB) ~3.6 MB — the parsed plan, its seat list
 * and its index are an object per seat each.
 */
function estimateBytes(map: SeatMapRow): number {
  return 10 * JSON.stringify(map.plan).length + map.name.length + 200;
}

// ───────────────────────── Reads ─────────────────────────

/** The plan and what is derived from it, computed once per map version. */
export function prepareMap(row: SeatMapRow): PreparedMap {
  const plan = row.plan;
  const index = seatIndex(plan);
  const seatsOfCategory = new Map<string, string[]>();
  for (const seat of index.values()) {
    let list = seatsOfCategory.get(seat.category);
    if (!list) seatsOfCategory.set(seat.category, (list = []));
    list.push(seat.guid);
  }
  return {
    row,
    plan,
    seats: listPlanSeats(plan),
    index,
    seatsOfCategory,
    backdrop: { size: plan.size, shapes: plan.shapes, categories: plan.categories, sections: plan.sections.flatMap((s) => (s.kind === "numbered" ? [] : [{ ...s, rows: [] }])), front: plan.front },
  };
}

/** The map of `id` at `version`, prepared: read (and kept) on a miss. A map saved since is read and kept at its new version. */
export function cachedMap(db: DbOrTx, id: string, version: number): Promise<PreparedMap> {
  const key = mapKey(id, version);
  const kept = mapsByKey.get(key);
  if (kept && kept.db === db) {
    // Least recently used goes first: a hit moves to the end.
    mapsByKey.delete(key);
    mapsByKey.set(key, kept);
    return kept.value;
  }
  const value = readMap(db, id).then(prepareMap);
  const entry: Entry<PreparedMap> = { db, until: Infinity, value, bytes: 0 };
  dropMap(key);
  roomForMap();
  mapsByKey.set(key, entry);
  value.then(
    (map) => {
      if (mapsByKey.get(key) !== entry) return;
      if (map.row.version !== version) {
        // Saved in between: keep it under the version it has.
        dropMap(key, entry);
        const newer = mapKey(id, map.row.version);
        if (mapsByKey.has(newer)) return;
        mapsByKey.set(newer, entry);
        return keepMapBytes(newer, entry, map);
      }
      keepMapBytes(key, entry, map);
    },
    // A failed read is not kept.
    () => dropMap(key, entry),
  );
  return value;
}

function keepMapBytes(key: string, entry: Entry<PreparedMap>, map: PreparedMap): void {
  entry.bytes = estimateBytes(map.row);
  mapBytes += entry.bytes;
  if (entry.bytes > SEATING_CACHE_MAX_BYTES / 4) dropMap(key, entry);
  else if (mapBytes > SEATING_CACHE_MAX_BYTES) roomForMap(entry);
}

async function readMap(db: DbOrTx, id: string): Promise<SeatMapRow> {
  const [row] = await db.select().from(seatMaps).where(eq(seatMaps.id, id));
  // The seating row named it, and a map is never deleted: only a broken database gets here.
  if (!row) throw new Error(`No existe el mapa de asientos ${id}.`);
  return row;
}

/**
 * The event's seating with its prepared map, or null for general admission (`eventId` must be a UUID).
 * Kept until its change is heard (above). Concurrent misses share one read.
 */
export async function cachedSeatingOfEvent(db: DbOrTx, eventId: string): Promise<CachedSeating | null> {
  const row = await seatingRow(db, eventId);
  return row && { seating: row.seating, map: await cachedMap(db, row.seating.seatMapId, row.version) };
}

function seatingRow(db: DbOrTx, eventId: string): Promise<SeatingRow | null> {
  const now = Date.now();
  const kept = seatingByEvent.get(eventId);
  if (kept && kept.db === db && kept.until > now) return kept.value;
  const value = readSeating(db, eventId);
  const entry: Entry<SeatingRow | null> = { db, until: now + SEATING_CACHE_TTL_MS, value, bytes: 0 };
  dropSeating(eventId);
  roomForSeating(now);
  seatingByEvent.set(eventId, entry);
  value.then(
    (row) => {
      if (seatingByEvent.get(eventId) !== entry) return;
      entry.bytes = eventId.length + (row ? JSON.stringify(row).length : 0) + 100;
      seatingBytes += entry.bytes;
      if (seatingBytes > SEATING_CACHE_MAX_EVENT_BYTES) roomForSeating(Date.now(), entry);
    },
    // A failed read is not kept.
    () => dropSeating(eventId, entry),
  );
  return value;
}

async function readSeating(db: DbOrTx, eventId: string): Promise<SeatingRow | null> {
  const [row] = await db
    .select({ seating: eventSeating, version: seatMaps.version })
    .from(eventSeating)
    .innerJoin(seatMaps, eq(seatMaps.id, eventSeating.seatMapId))
    .where(eq(eventSeating.eventId, eventId));
  return row ?? null;
}
