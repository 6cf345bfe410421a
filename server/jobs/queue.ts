import type { JobRow } from "#server/db/schema";
import { and, asc, eq, inArray, isNull, lt, lte, notInArray, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "#server/db/client";
import { jobs } from "#server/db/schema";
import { insertRows } from "#server/db/bulk-insert";

/**
 * The job queue (DESIGN.md §6): rows in `jobs`, claimed with
 * `FOR UPDATE SKIP LOCKED` so any number of server processes can run them
 * without taking the same job twice.
 */
export type JobHandler = (payload: Record<string, unknown>, job: { db: Db; now: Date; row: JobRow }) => Promise<void>;
export type JobHandlers = Record<string, JobHandler>;

/**
 * A lane takes only some kinds of job (`kinds`) or all but some
 * (`exceptKinds`). Each lane of a runner claims and runs on its own, so a
 * backlog in one (thousands of tickets emails after an on-sale, a slow SMTP
 * server) never delays another (a hold's expiry, which gives stock back).
 */
export interface JobLane {
  kinds?: readonly string[];
  exceptKinds?: readonly string[];
  /** Jobs of one claim run this many at a time (1: one after the other, in due order). */
  concurrency?: number;
}

/** After this many failed attempts a job is given up (failed_at set). */
export const MAX_ATTEMPTS = 10;
/** A job claimed this long ago and neither done nor failed is taken as abandoned (its process died). */
export const LOCK_TIMEOUT_MS = 5 * 60_000;

/** Retry delay after the n-th failed attempt: 30 s, 1 min, 2 min… capped at one hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

/** Adds a job; pass the order's transaction so the job exists only if the transaction commits. */
export async function enqueue(db: DbOrTx, kind: string, payload: Record<string, unknown>, runAt: Date = new Date()) {
  const [row] = await db.insert(jobs).values({ kind, payload, runAt }).returning();
  return row;
}

/** Several jobs of one kind in one INSERT (a batch of orders' expiry jobs); their ids, in the order given. */
export async function enqueueMany(db: DbOrTx, kind: string, entries: { payload: Record<string, unknown>; runAt: Date }[]): Promise<number[]> {
  if (!entries.length) return [];
  const rows = await insertRows(db, jobs, entries.map((e) => ({ kind, payload: e.payload, runAt: e.runAt })), ["id"]);
  // bigserial ids are handed out in the order the rows are inserted.
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/**
 * A recurring job's next run: enqueued unless one of that kind is already
 * waiting (not running: a run schedules its successor while it is itself
 * still pending). Idempotent, so every replica may call it at start.
 */
export async function ensureJob(db: DbOrTx, kind: string, runAt: Date = new Date()) {
  const [pending] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, kind), isNull(jobs.doneAt), isNull(jobs.failedAt), isNull(jobs.lockedAt)))
    .limit(1);
  if (!pending) await enqueue(db, kind, {}, runAt);
}

/**
 * Runs up to `limit` due jobs. Claiming (attempts + 1, locked_at) happens in
 * its own short transaction with SKIP LOCKED; handlers run after it commits,
 * so a slow handler holds no lock. A job that throws is retried with backoff
 * until MAX_ATTEMPTS. Returns how many ran and how many failed.
 */
export async function runDueJobs(db: Db, handlers: JobHandlers, now: Date = new Date(), limit = 20, lane: JobLane = {}) {
  const staleBefore = new Date(now.getTime() - LOCK_TIMEOUT_MS);
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          isNull(jobs.doneAt),
          isNull(jobs.failedAt),
          lte(jobs.runAt, now),
          or(isNull(jobs.lockedAt), lt(jobs.lockedAt, staleBefore)),
          lane.kinds ? inArray(jobs.kind, [...lane.kinds]) : undefined,
          lane.exceptKinds?.length ? notInArray(jobs.kind, [...lane.exceptKinds]) : undefined,
        ),
      )
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(jobs)
      .set({ lockedAt: now, attempts: sql`${jobs.attempts} + 1` })
      .where(inArray(
        jobs.id,
        due.map((d) => d.id),
      ))
      .returning();
  });

  let done = 0;
  let failed = 0;
  const runOne = async (row: JobRow) => {
    const handler = handlers[row.kind];
    try {
      if (!handler) throw new Error(`No hay handler para los jobs «${row.kind}»`);
      await handler(row.payload, { db, now, row });
      await db.update(jobs).set({ doneAt: new Date(), lockedAt: null, lastError: null }).where(eq(jobs.id, row.id));
      done += 1;
    } catch (error) {
      failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = row.attempts >= MAX_ATTEMPTS;
      await db
        .update(jobs)
        .set({
          lockedAt: null,
          lastError: message.slice(0, 2000),
          runAt: giveUp ? row.runAt : new Date(now.getTime() + backoffMs(row.attempts)),
          failedAt: giveUp ? new Date() : null,
        })
        .where(eq(jobs.id, row.id));
    }
  };
  // Started in due order; with concurrency > 1, that many run side by side.
  const queue = [...claimed].sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
  const workers = Array.from({ length: Math.max(1, Math.min(lane.concurrency ?? 1, queue.length)) }, async () => {
    for (let row = queue.shift(); row; row = queue.shift()) await runOne(row);
  });
  await Promise.all(workers);
  return { claimed: claimed.length, done, failed };
}

/**
 * Polls the queue every `intervalMs` (unref'd: it never keeps the process
 * alive), each lane on its own: one run at a time per lane and process;
 * errors are logged, not thrown.
 */
export function startJobRunner(
  getDb: () => Promise<Db>,
  handlers: JobHandlers,
  options: { intervalMs?: number; limit?: number; lanes?: readonly JobLane[] } = {},
) {
  const limit = options.limit ?? 20;
  const laneTicks = (options.lanes ?? [{}]).map((lane) => {
    let running: Promise<void> | null = null;
    const drain = async () => {
      try {
        const db = await getDb();
        // Keep going while full batches come back, so a backlog drains at once (each lane on its own).
        for (let claimed = limit; claimed === limit; ) ({ claimed } = await runDueJobs(db, handlers, new Date(), limit, lane));
      } catch (error) {
        console.error("Error corriendo jobs:", error);
      } finally {
        running = null;
      }
    };
    return () => (running ??= drain());
  });
  const tick = async () => {
    await Promise.all(laneTicks.map((laneTick) => laneTick()));
  };
  const timer = setInterval(() => void tick(), options.intervalMs ?? 5_000);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer), tick };
}
