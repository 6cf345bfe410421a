import { and, count, eq, gt, lte, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "#server/db/client";
import { eventQueues, queuePlaces, ticketTypes } from "#server/db/schema";
import { resultRows } from "#server/db/raw";
import { publishQueueChange, type QueueChange } from "./changes";
import { drawIfDue } from "./draw-run";

/**
 * The admitter (docs/queue.md, decision 189): every second, in one process
 * at a time (a PostgreSQL advisory lock taken for the tick's transaction;
 * the other processes' ticks find it taken and do nothing), for every open
 * queue: the opening's draw, admissions that ended unused go (and free their
 * room), sold out is noticed, and the next people in line are admitted as
 * far as the stock left (and the set pace) allow.
 */

/** The advisory lock's key: "tribuna-queue" as a number, any constant would do. */
export const ADMITTER_LOCK_KEY = 7_214_932_077;
/** Bounds a tick's statement and the jump of the watermark. */
export const MAX_ADMISSIONS_PER_TICK = 1_000;
/** What an admitted person is expected to take when the event has no orders yet. */
const DEFAULT_QTY = 2;

type QueueRow = typeof eventQueues.$inferSelect;

export interface TickOutcome {
  /** Whether this process held the lock (false: another one is ticking). */
  acted: boolean;
  admitted: number;
}

export async function runAdmissionTick(db: Db, now: Date = new Date()): Promise<TickOutcome> {
  const changes: [string, QueueChange][] = [];
  const outcome = await db.transaction(async (tx) => {
    const [lock] = resultRows<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${ADMITTER_LOCK_KEY}) as locked`));
    if (!lock?.locked) return { acted: false, admitted: 0 };
    const queues = await tx
      .select()
      .from(eventQueues)
      .where(and(eq(eventQueues.enabled, true), lte(eventQueues.opensAt, now)))
      .for("update");
    let admitted = 0;
    for (const queue of queues) admitted += await tickQueue(tx, queue, now, (change) => changes.push([queue.eventId, change]));
    return { acted: true, admitted };
  });
  for (const [eventId, change] of changes) publishQueueChange(eventId, change);
  return outcome;
}

async function tickQueue(tx: DbOrTx, locked: QueueRow, now: Date, changed: (change: QueueChange) => void): Promise<number> {
  const { queue, drawn } = await drawIfDue(tx, locked, now);
  if (drawn) changed("drawn");

  // Admissions that ended unused: the place is gone, its room goes to the next in line.
  await tx
    .update(queuePlaces)
    .set({ status: "left" })
    .where(and(eq(queuePlaces.eventId, queue.eventId), eq(queuePlaces.status, "admitted"), lte(queuePlaces.admissionExpiresAt, now)));

  const left = await ticketsLeft(tx, queue.eventId);
  const soldOut = left <= 0;
  if (soldOut !== queue.soldOut) {
    await tx.update(eventQueues).set({ soldOut, updatedAt: now }).where(eq(eventQueues.eventId, queue.eventId));
    changed("settings");
  }
  if (soldOut || queue.paused || queue.admittedThrough >= queue.nextPosition) return 0;

  let room: number;
  if (queue.admitPerMinute) {
    const [recent] = await tx
      .select({ n: count() })
      .from(queuePlaces)
      .where(and(eq(queuePlaces.eventId, queue.eventId), gt(queuePlaces.admittedAt, new Date(now.getTime() - 60_000))));
    room = queue.admitPerMinute - recent.n;
  } else room = Infinity;
  // Honest about stock: only as many as what is left (minus what the admitted who have not ordered yet will likely take) can serve.
  // Rounded up: the last tickets (fewer than an average order) still serve someone who takes fewer.
  const { pending, perPerson } = await likelyDemand(tx, queue.eventId, now);
  const free = left - pending * perPerson;
  const serve = free > 0 ? Math.ceil(free / perPerson) : 0;
  const n = Math.min(room, serve, MAX_ADMISSIONS_PER_TICK, queue.nextPosition - queue.admittedThrough);
  if (n <= 0) return 0;

  const from = queue.admittedThrough;
  const through = from + n;
  await tx
    .update(queuePlaces)
    .set({ status: "admitted", admittedAt: now, admissionExpiresAt: new Date(now.getTime() + queue.admissionMinutes * 60_000) })
    .where(and(eq(queuePlaces.eventId, queue.eventId), gt(queuePlaces.position, from), lte(queuePlaces.position, through), eq(queuePlaces.status, "waiting")));
  await tx.update(eventQueues).set({ admittedThrough: through, updatedAt: now }).where(eq(eventQueues.eventId, queue.eventId));
  changed("admitted");
  return n;
}

/** Tickets (not menu items) still on sale: stock minus sold minus live holds (`sold` counts both). */
export async function ticketsLeft(tx: DbOrTx, eventId: string): Promise<number> {
  const [row] = await tx
    .select({ left: sql<string>`coalesce(sum(${ticketTypes.stock} - ${ticketTypes.sold}), 0)` })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.kind, "ticket"), eq(ticketTypes.status, "active")));
  return Number(row?.left ?? 0);
}

/**
 * Admitted people with no order since their admission (their tickets are not
 * held yet), and how many tickets a buyer of this event takes on average
 * (orders of tickets; 2 before the first).
 */
async function likelyDemand(tx: DbOrTx, eventId: string, now: Date): Promise<{ pending: number; perPerson: number }> {
  const [row] = resultRows<{ pending: string; per_person: string | null }>(
    await tx.execute(sql`
      select
        (select count(*) from queue_places p
          where p.event_id = ${eventId} and p.status = 'admitted' and p.admission_expires_at > ${now.toISOString()}::timestamptz
            and not exists (select 1 from orders o where o.event_id = p.event_id and o.buyer_user_id = p.user_id and o.created_at >= p.admitted_at)
        ) as pending,
        (select avg(q) from (
          select sum(i.qty) as q from order_items i join orders o on o.id = i.order_id join ticket_types t on t.id = i.ticket_type_id
          where o.event_id = ${eventId} and t.kind = 'ticket' group by o.id order by max(o.created_at) desc limit 500
        ) recent) as per_person`),
  );
  const perPerson = Math.min(10, Math.max(1, Number(row?.per_person ?? DEFAULT_QTY) || DEFAULT_QTY));
  return { pending: Number(row?.pending ?? 0), perPerson };
}

const TICKER_KEY = Symbol.for("tribuna.queue-ticker");
const globalTicker = globalThis as typeof globalThis & { [TICKER_KEY]?: { stop(): void } };

/**
 * Starts this process's admitter (once; every second). Started by the first
 * queue activity of the process, not in tests (they call runAdmissionTick
 * themselves, at the time they choose).
 */
export function ensureQueueTicker(db: Db, options: { everyMs?: number; force?: boolean } = {}): { stop(): void } | null {
  if (process.env.NODE_ENV === "test" && !options.force) return null;
  if (globalTicker[TICKER_KEY]) return globalTicker[TICKER_KEY];
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runAdmissionTick(db)
      .catch((error: unknown) => console.error("El turno de la fila virtual falló:", error))
      .finally(() => (running = false));
  }, options.everyMs ?? 1_000);
  timer.unref?.();
  const ticker = {
    stop() {
      clearInterval(timer);
      delete globalTicker[TICKER_KEY];
    },
  };
  globalTicker[TICKER_KEY] = ticker;
  return ticker;
}
