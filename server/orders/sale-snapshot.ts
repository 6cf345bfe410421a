import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { eventCustomFields, eventDates, events, ticketTypes, type EventCustomFieldRow, type EventDateRow, type EventRow, type TicketTypeRow } from "#server/db/schema";
import { followEventChanges } from "#server/events/changes";

/**
 * What createOrder reads about an event before taking stock — the event, its
 * dates and its questions — kept one second per process (decision 125): in an
 * on-sale every buyer asks for the same rows, and three reads per order are
 * most of an order's work. A change made through the domain (server/events:
 * `eventChanged`) drops this process's copy at once and the other processes'
 * copies a few milliseconds later (PostgreSQL notifications, docs/scaling.md);
 * a copy whose notification was lost lives at most `SALE_SNAPSHOT_MS`, and a
 * dropped listening connection drops every copy. Ticket types are always read fresh (their
 * stock, status and price), and the hold re-checks status and price under
 * the row lock, so a copy can never sell what is not for sale.
 */
export const SALE_SNAPSHOT_MS = 1_000;
/**
 * How many events' copies and how many bytes of them (their rows as JSON, descriptions included) a process keeps
 * (decision 195): an on-sale needs one, a busy night a few dozen; requests for slugs that do not exist, or for
 * thousands of events, must not grow the process. Expired copies go first, then the oldest.
 */
export const SALE_SNAPSHOT_MAX_ENTRIES = 500;
export const SALE_SNAPSHOT_MAX_BYTES = 4 * 1024 * 1024;

export interface SaleSnapshot {
  event: EventRow;
  /** Not deleted, soonest first (ended ones included: the caller filters by its clock). */
  dates: EventDateRow[];
  customFields: EventCustomFieldRow[];
}

interface Entry {
  db: DbOrTx;
  until: number;
  snapshot: Promise<SaleSnapshot | null>;
  /** Known once the read has come back. */
  bytes: number;
}

const bySlug = new Map<string, Entry>();
let keptBytes = 0;

function drop(key: string, entry: Entry | undefined = bySlug.get(key)): void {
  if (!entry || bySlug.get(key) !== entry) return;
  bySlug.delete(key);
  keptBytes -= entry.bytes;
}

/** Makes room for one more copy (expired ones first, then the oldest), never dropping `keep`. */
function makeRoom(now: number, keep?: Entry): void {
  for (const [key, entry] of bySlug) if (entry.until <= now && entry !== keep) drop(key, entry);
  for (const [key, entry] of bySlug) {
    if (bySlug.size < SALE_SNAPSHOT_MAX_ENTRIES + (keep ? 1 : 0) && keptBytes <= SALE_SNAPSHOT_MAX_BYTES) break;
    if (entry !== keep) drop(key, entry);
  }
}
followEventChanges({
  forget(eventId) {
    for (const [slug, entry] of bySlug) {
      void entry.snapshot.then((s) => {
        if (!s || s.event.id === eventId) drop(slug, entry);
      });
    }
  },
  forgetAll: () => forgetSaleSnapshots(),
});

/** The event of `slug` (lowercased) with its dates and questions; null when there is no such event. Concurrent misses share one read. */
export function saleSnapshot(db: DbOrTx, slug: string): Promise<SaleSnapshot | null> {
  const key = slug.toLowerCase();
  const now = Date.now();
  const cached = bySlug.get(key);
  if (cached && cached.db === db && cached.until > now) return cached.snapshot;
  const snapshot = readSnapshot(db, key);
  const entry: Entry = { db, until: now + SALE_SNAPSHOT_MS, snapshot, bytes: 0 };
  drop(key);
  makeRoom(now);
  bySlug.set(key, entry);
  snapshot.then(
    (kept) => {
      if (bySlug.get(key) !== entry) return;
      entry.bytes = key.length + (kept ? JSON.stringify(kept).length : 0);
      keptBytes += entry.bytes;
      if (entry.bytes > SALE_SNAPSHOT_MAX_BYTES / 10) drop(key, entry);
      else if (keptBytes > SALE_SNAPSHOT_MAX_BYTES) makeRoom(Date.now(), entry);
    },
    // A failed read is not kept.
    () => drop(key, entry),
  );
  return snapshot;
}

/** Drops every copy (notifications may have been missed; tests that change rows behind the domain's back). */
export function forgetSaleSnapshots(): void {
  bySlug.clear();
  keptBytes = 0;
}

/** How many events' copies this process keeps and their size (what the bounds above limit). */
export function saleSnapshotsKept(): { entries: number; bytes: number } {
  return { entries: bySlug.size, bytes: keptBytes };
}

async function readSnapshot(db: DbOrTx, slug: string): Promise<SaleSnapshot | null> {
  const [event] = await db.select().from(events).where(eq(events.slug, slug));
  if (!event) return null;
  const [dates, customFields] = await Promise.all([
    db
      .select()
      .from(eventDates)
      .where(and(eq(eventDates.eventId, event.id), ne(eventDates.status, "deleted")))
      .orderBy(asc(eventDates.startsAt)),
    db.select().from(eventCustomFields).where(eq(eventCustomFields.eventId, event.id)).orderBy(asc(eventCustomFields.sortOrder)),
  ]);
  return { event, dates, customFields };
}

/** The one query of every order that is never kept: built once per database handle, not per buyer. */
function ticketTypesQuery(db: DbOrTx) {
  return db.select().from(ticketTypes).where(eq(ticketTypes.eventId, sql.placeholder("eventId"))).prepare("sale_ticket_types");
}
const preparedByDb = new WeakMap<DbOrTx, ReturnType<typeof ticketTypesQuery>>();
const inFlight = new Map<string, { db: DbOrTx; rows: Promise<TicketTypeRow[]> }>();

/**
 * The event's ticket types (menu items too) as they are now: never kept.
 * Buyers who ask while a read of the same event is on its way share it (in
 * an on-sale, a hundred requests in flight make a handful of reads): that
 * read started at most one round trip before they asked, and the hold
 * re-checks status, price and stock under the row lock anyway.
 */
export function currentTicketTypes(db: DbOrTx, eventId: string): Promise<TicketTypeRow[]> {
  const pending = inFlight.get(eventId);
  if (pending && pending.db === db) return pending.rows;
  let query = preparedByDb.get(db);
  if (!query) preparedByDb.set(db, (query = ticketTypesQuery(db)));
  const rows = query.execute({ eventId });
  const entry = { db, rows };
  inFlight.set(eventId, entry);
  const done = () => inFlight.get(eventId) === entry && inFlight.delete(eventId);
  rows.then(done, done);
  return rows;
}
