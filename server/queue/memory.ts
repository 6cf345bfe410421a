import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import { getDb, type Db, type DbOrTx } from "#server/db/client";
import { eventQueues, events, queuePlaces, type QueuePlaceStatus } from "#server/db/schema";
import { onMissedNotifications } from "#server/db/notify";
import { ensureQueueTicker } from "./admitter";
import { queueChanges, type QueueChange } from "./changes";

/**
 * Each process's copy of the queues it serves (docs/queue.md, decision 189):
 * per event the settings, the watermark and every place (by account and by
 * id), so a waiting person's refresh is answered without PostgreSQL. The
 * copy is loaded once, then follows the `queue` channel: whatever any
 * process changes, each copy reads just that from the database (once per
 * change and process, never per refresh). After a missed notification
 * everything is forgotten and loaded again on next use.
 */

export interface PlaceEntry {
  id: string;
  userId: string;
  position: number | null;
  status: QueuePlaceStatus;
  joinedAt: Date;
  admissionExpiresAt: Date | null;
}

export interface QueueSettings {
  enabled: boolean;
  opensAt: Date;
  admissionMinutes: number;
  admitPerMinute: number | null;
  paused: boolean;
  soldOut: boolean;
  drawCommitment: string;
  /** Only once drawn: the seed is secret before. */
  drawSeed: string | null;
  drawnAt: Date | null;
  nextPosition: number;
  admittedThrough: number;
}

const STATUSES: readonly QueuePlaceStatus[] = ["waiting", "admitted", "bought", "left"];
const STATUS_CODE: Record<QueuePlaceStatus, number> = { waiting: 0, admitted: 1, bought: 2, left: 3 };
const NO_POSITION = -1;

/**
 * The places of one queue, in columns (decision 205): a stadium's 20,000 places
 * as objects with two Dates each cost ~390 bytes a place, in columns ~200 (the
 * two ids and one index entry; the rest typed arrays). One place per account
 * and event (the unique index), so the account is the key. A lookup builds the
 * `PlaceEntry` it returns: a short-lived object, never kept.
 */
export class PlaceColumns {
  private slots = new Map<string, number>();
  private ids: string[] = [];
  private userIds: string[] = [];
  private positions = new Int32Array(64);
  private statuses = new Uint8Array(64);
  private joined = new Float64Array(64);
  /** NaN: no admission. */
  private expires = new Float64Array(64);

  get size(): number {
    return this.ids.length;
  }

  byUser(userId: string): PlaceEntry | undefined {
    const slot = this.slots.get(userId);
    return slot === undefined ? undefined : this.entry(slot);
  }

  put(place: PlaceEntry): void {
    let slot = this.slots.get(place.userId);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot === this.positions.length) this.grow();
      this.slots.set(place.userId, slot);
      this.ids.push(place.id);
      this.userIds.push(place.userId);
    }
    this.positions[slot] = place.position ?? NO_POSITION;
    this.statuses[slot] = STATUS_CODE[place.status];
    this.joined[slot] = place.joinedAt.getTime();
    this.expires[slot] = place.admissionExpiresAt ? place.admissionExpiresAt.getTime() : NaN;
  }

  private entry(slot: number): PlaceEntry {
    const position = this.positions[slot];
    const expires = this.expires[slot];
    return {
      id: this.ids[slot],
      userId: this.userIds[slot],
      position: position === NO_POSITION ? null : position,
      status: STATUSES[this.statuses[slot]],
      joinedAt: new Date(this.joined[slot]),
      admissionExpiresAt: Number.isNaN(expires) ? null : new Date(expires),
    };
  }

  private grow(): void {
    const size = this.positions.length * 2;
    const positions = new Int32Array(size);
    positions.set(this.positions);
    this.positions = positions;
    const statuses = new Uint8Array(size);
    statuses.set(this.statuses);
    this.statuses = statuses;
    const joined = new Float64Array(size);
    joined.set(this.joined);
    this.joined = joined;
    const expires = new Float64Array(size);
    expires.set(this.expires);
    this.expires = expires;
  }
}

export interface QueueState {
  eventId: string;
  eventSlug: string;
  eventName: string;
  settings: QueueSettings;
  places: PlaceColumns;
  lastArrival: number;
  /** (time, watermark) of the last few minutes: the pace the estimated wait is drawn from. */
  history: { at: number; through: number }[];
  /** When this copy last heard of or read a change. */
  syncedAt: number;
}

type Dirty = { settings: boolean; joined: boolean; full: boolean; admittedFrom: number | null; bought: Set<string> };

interface Slot {
  db: DbOrTx;
  state: QueueState;
  dirty: Dirty | null;
  running: Promise<void> | null;
}

const HISTORY_MS = 5 * 60_000;
const NEGATIVE_SLUG_MS = 5_000;
/** A copy that heard nothing for this long reads the queue again (in the background) on its next use. */
const RESYNC_MS = 10_000;

function freshDirty(): Dirty {
  return { settings: false, joined: false, full: false, admittedFrom: null, bought: new Set() };
}

type QueueRow = typeof eventQueues.$inferSelect;

export function settingsOf(row: QueueRow): QueueSettings {
  return {
    enabled: row.enabled,
    opensAt: row.opensAt,
    admissionMinutes: row.admissionMinutes,
    admitPerMinute: row.admitPerMinute,
    paused: row.paused,
    soldOut: row.soldOut,
    drawCommitment: row.drawCommitment,
    drawSeed: row.drawnAt ? row.drawSeed : null,
    drawnAt: row.drawnAt,
    nextPosition: row.nextPosition,
    admittedThrough: row.admittedThrough,
  };
}

/** The columns a place is kept in memory with (also what a join batch reads back). */
export const placeColumns = {
  id: queuePlaces.id,
  userId: queuePlaces.userId,
  position: queuePlaces.position,
  status: queuePlaces.status,
  joinedAt: queuePlaces.joinedAt,
  admissionExpiresAt: queuePlaces.admissionExpiresAt,
  arrival: queuePlaces.arrival,
};

export class QueueMemory {
  private slots = new Map<string, Promise<Slot | null>>();
  /** What each slot's promise resolved to, for `peekBySlug` (a slot replaced or dropped is no longer in `slots`). */
  private ready = new WeakMap<Promise<Slot | null>, Slot | null>();
  private slugs = new Map<string, { eventId: string | null; at: number }>();
  private stops: (() => void)[] = [];

  constructor() {
    this.stops.push(
      queueChanges.subscribe(({ eventId, change, placeId }) => this.heard(eventId, change as QueueChange, placeId)),
      onMissedNotifications(() => this.forgetAll()),
    );
  }

  /** Stops following changes (tests that make a copy per simulated process). */
  close(): void {
    for (const stop of this.stops) stop();
    this.forgetAll();
  }

  forgetAll(): void {
    this.slots.clear();
    this.slugs.clear();
  }

  /** The event's queue (null: it never had one), loaded from the database the first time only. */
  async get(db: DbOrTx, eventId: string): Promise<QueueState | null> {
    let slot = this.slots.get(eventId);
    if (!slot) {
      const loading = this.load(db, eventId);
      slot = loading;
      this.slots.set(eventId, loading);
      loading.then(
        (loaded) => this.ready.set(loading, loaded),
        () => this.slots.delete(eventId),
      );
    }
    const loaded = await slot;
    if (loaded) this.resyncIfQuiet(loaded);
    return loaded?.state ?? null;
  }

  /**
   * The queue by slug when this process already holds its copy, without waiting (the poll, decision 204):
   * null when the event has no queue, undefined when only `bySlug` can tell (it may read the database).
   */
  peekBySlug(slug: string, now = Date.now()): QueueState | null | undefined {
    const known = this.slugs.get(slug);
    if (!known) return undefined;
    if (!known.eventId) return now - known.at < NEGATIVE_SLUG_MS ? null : undefined;
    const pending = this.slots.get(known.eventId);
    if (!pending || !this.ready.has(pending)) return undefined;
    const loaded = this.ready.get(pending)!;
    if (loaded) this.resyncIfQuiet(loaded);
    return loaded?.state ?? null;
  }

  private resyncIfQuiet(loaded: Slot): void {
    if (!loaded.running && Date.now() - loaded.state.syncedAt > RESYNC_MS) {
      // The safety net if a notification never left its process: read again in the background, answer now.
      loaded.state.syncedAt = Date.now();
      this.mark(loaded, "admitted");
      this.mark(loaded, "joined");
    }
  }

  async bySlug(db: DbOrTx, slug: string, now = Date.now()): Promise<QueueState | null> {
    const known = this.slugs.get(slug);
    if (known && (known.eventId || now - known.at < NEGATIVE_SLUG_MS)) return known.eventId ? this.get(db, known.eventId) : null;
    if (slug.length > 200) return null;
    const [row] = await db.select({ id: events.id }).from(events).where(eq(events.slug, slug));
    this.slugs.set(slug, { eventId: row?.id ?? null, at: now });
    return row ? this.get(db, row.id) : null;
  }

  /** Resolves once every change heard so far for the event is in the copy (tests, and a process that just changed it). */
  async settled(eventId: string): Promise<void> {
    const slot = await this.slots.get(eventId)?.catch(() => null);
    while (slot?.running) await slot.running;
  }

  /** A place this process just wrote: in the copy at once (its owner's next refresh may come here before the notification). */
  remember(eventId: string, place: PlaceEntry & { arrival?: number }): void {
    void this.slots.get(eventId)?.then((slot) => {
      if (slot) put(slot.state, place);
    });
  }

  private async load(db: DbOrTx, eventId: string): Promise<Slot | null> {
    const [row] = await db
      .select({ queue: eventQueues, slug: events.slug, name: events.name })
      .from(eventQueues)
      .innerJoin(events, eq(events.id, eventQueues.eventId))
      .where(eq(eventQueues.eventId, eventId));
    if (!row) return null;
    const state: QueueState = {
      eventId,
      eventSlug: row.slug,
      eventName: row.name,
      settings: settingsOf(row.queue),
      places: new PlaceColumns(),
      lastArrival: 0,
      history: [{ at: Date.now(), through: row.queue.admittedThrough }],
      syncedAt: Date.now(),
    };
    const places = await db.select(placeColumns).from(queuePlaces).where(eq(queuePlaces.eventId, eventId)).orderBy(asc(queuePlaces.arrival));
    for (const place of places) put(state, place);
    this.slugs.set(row.slug, { eventId, at: Date.now() });
    // Later reads follow changes after the request that loaded it ended: the app's database, never its transaction.
    const root = await getDb();
    // A process that serves an open queue takes part in admitting (only one acts at a time).
    if (state.settings.enabled) ensureQueueTicker(root);
    return { db: root, state, dirty: null, running: null };
  }

  private heard(eventId: string, change: QueueChange, placeId: string): void {
    const pending = this.slots.get(eventId);
    if (!pending) return;
    void pending.then((slot) => {
      if (!slot) {
        // A queue created since this process looked: load it next time.
        if (change === "settings") this.slots.delete(eventId);
        return;
      }
      this.mark(slot, change, placeId);
    }, () => {});
  }

  private mark(slot: Slot, change: QueueChange, placeId = ""): void {
    const dirty = (slot.dirty ??= freshDirty());
    if (change === "joined") dirty.joined = true;
    else if (change === "drawn") dirty.full = true;
    else if (change === "settings") dirty.settings = true;
    else if (change === "admitted") {
      dirty.settings = true;
      dirty.admittedFrom = Math.min(dirty.admittedFrom ?? Infinity, slot.state.settings.admittedThrough);
    } else if (change === "bought" && placeId) dirty.bought.add(placeId);
    slot.running ??= this.follow(slot);
  }

  private async follow(slot: Slot): Promise<void> {
    try {
      while (slot.dirty) {
        const dirty = slot.dirty;
        slot.dirty = null;
        await this.apply(slot, dirty).catch((error: unknown) => {
          console.error("No se pudo actualizar la copia de la fila:", error);
          this.slots.delete(slot.state.eventId);
        });
      }
    } finally {
      slot.running = null;
    }
  }

  private async apply(slot: Slot, dirty: Dirty): Promise<void> {
    const { db, state } = slot;
    const eventId = state.eventId;
    if (dirty.settings || dirty.full || dirty.admittedFrom !== null) {
      const [row] = await db.select().from(eventQueues).where(eq(eventQueues.eventId, eventId));
      if (!row) {
        this.slots.delete(eventId);
        return;
      }
      const wasDrawn = state.settings.drawnAt !== null;
      state.settings = settingsOf(row);
      if (row.enabled) ensureQueueTicker(db as Db);
      if (!wasDrawn && row.drawnAt) dirty.full = true;
      const now = Date.now();
      state.history.push({ at: now, through: row.admittedThrough });
      while (state.history.length > 2 && state.history[0].at < now - HISTORY_MS) state.history.shift();
    }
    if (dirty.full) {
      const places = await db.select(placeColumns).from(queuePlaces).where(eq(queuePlaces.eventId, eventId));
      for (const place of places) put(state, place);
    } else {
      if (dirty.joined) {
        const places = await db
          .select(placeColumns)
          .from(queuePlaces)
          .where(and(eq(queuePlaces.eventId, eventId), gt(queuePlaces.arrival, state.lastArrival)))
          .orderBy(asc(queuePlaces.arrival));
        for (const place of places) put(state, place);
      }
      if (dirty.admittedFrom !== null && state.settings.admittedThrough > dirty.admittedFrom) {
        const places = await db
          .select(placeColumns)
          .from(queuePlaces)
          .where(and(eq(queuePlaces.eventId, eventId), gt(queuePlaces.position, dirty.admittedFrom), lte(queuePlaces.position, state.settings.admittedThrough)));
        for (const place of places) put(state, place);
      }
      if (dirty.bought.size) {
        const places = await db
          .select(placeColumns)
          .from(queuePlaces)
          .where(and(eq(queuePlaces.eventId, eventId), inArray(queuePlaces.id, [...dirty.bought].filter((id) => /^[0-9a-f-]{36}$/i.test(id)))));
        for (const place of places) put(state, place);
      }
    }
    state.syncedAt = Date.now();
  }
}

function put(state: QueueState, place: PlaceEntry & { arrival?: number }): void {
  state.places.put(place);
  if (place.arrival !== undefined && place.arrival > state.lastArrival) state.lastArrival = place.arrival;
}

/** This process's copy (server.ts and the Remix build share it: the registry of channels is global too). */
const KEY = Symbol.for("tribuna.queue-memory");
const globalMemory = globalThis as typeof globalThis & { [KEY]?: QueueMemory };
export const queueMemory: QueueMemory = (globalMemory[KEY] ??= new QueueMemory());

