import type { JobRow } from "#server/db/schema";
import { and, asc, eq, inArray, isNull, lt, lte, notInArray, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "#server/db/client";
import { jobs } from "#server/db/schema";
import { insertRows } from "#server/db/bulk-insert";
import { resultRows } from "#server/db/raw";
import { log } from "#server/monitoring/log";
import { jobsRun, type QueueLaneState } from "#server/monitoring/metrics";

/**
 * The job queue (decision 22): rows in `jobs`, claimed with
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
  /** Its name in the metrics and the log (default: its kinds, or "resto"). */
  name?: string;
  kinds?: readonly string[];
  exceptKinds?: readonly string[];
  /** Jobs of one claim run this many at a time (1: one after the other, in due order). */
  concurrency?: number;
}

/** A lane's name for the metrics and the log. */
export function laneName(lane: JobLane): string {
  return lane.name ?? (lane.kinds?.length ? lane.kinds.join("+") : "resto");
}

/**
 * What a runner of one process is doing, so a shutdown can stop it cleanly: `stopping` makes it claim
 * nothing more and start no job it claimed; `claimed` are its jobs not settled yet (claimed, maybe running);
 * `started` those whose handler already began.
 */
export interface RunnerControl {
  stopping: boolean;
  claimed: Set<number>;
  started: Set<number>;
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
export async function runDueJobs(db: Db, handlers: JobHandlers, now: Date = new Date(), limit = 20, lane: JobLane = {}, control?: RunnerControl) {
  if (control?.stopping) return { claimed: 0, done: 0, failed: 0 };
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

  for (const row of claimed) control?.claimed.add(row.id);
  let done = 0;
  let failed = 0;
  const laneLabel = laneName(lane);
  const runOne = async (row: JobRow) => {
    const handler = handlers[row.kind];
    control?.started.add(row.id);
    const startedAt = performance.now();
    try {
      if (!handler) throw new Error(`No hay handler para los jobs «${row.kind}»`);
      await handler(row.payload, { db, now, row });
      await db.update(jobs).set({ doneAt: new Date(), lockedAt: null, lastError: null }).where(eq(jobs.id, row.id));
      done += 1;
      jobsRun.inc({ kind: row.kind, outcome: "done" });
      log().info({ job: row.id, kind: row.kind, lane: laneLabel, attempt: row.attempts, durationMs: Math.round(performance.now() - startedAt), outcome: "done" }, "job");
    } catch (error) {
      failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = row.attempts >= MAX_ATTEMPTS;
      jobsRun.inc({ kind: row.kind, outcome: "failed" });
      // The error's message only: a handler's error may quote its payload, which the log never carries.
      log().warn({ job: row.id, kind: row.kind, lane: laneLabel, attempt: row.attempts, durationMs: Math.round(performance.now() - startedAt), outcome: giveUp ? "given_up" : "retry", error: message.slice(0, 300) }, "job");
      await db
        .update(jobs)
        .set({
          lockedAt: null,
          lastError: message.slice(0, 2000),
          runAt: giveUp ? row.runAt : new Date(now.getTime() + backoffMs(row.attempts)),
          failedAt: giveUp ? new Date() : null,
        })
        .where(eq(jobs.id, row.id));
    } finally {
      control?.claimed.delete(row.id);
      control?.started.delete(row.id);
    }
  };
  // Started in due order; with concurrency > 1, that many run side by side.
  const queue = [...claimed].sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
  const workers = Array.from({ length: Math.max(1, Math.min(lane.concurrency ?? 1, queue.length)) }, async () => {
    // A stopping runner starts nothing more: what it claimed and did not start is released (releaseClaimedJobs).
    for (let row = queue.shift(); row && !control?.stopping; row = queue.shift()) await runOne(row);
  });
  await Promise.all(workers);
  return { claimed: claimed.length, done, failed };
}

/**
 * Gives back jobs this process claimed and will not finish (a shutdown): unlocked at once, so another
 * process runs them now rather than after LOCK_TIMEOUT_MS. A job that never started gets its attempt back.
 */
export async function releaseClaimedJobs(db: Db, claimed: readonly number[], started: ReadonlySet<number>) {
  if (!claimed.length) return 0;
  const notStarted = claimed.filter((id) => !started.has(id));
  const stillRunning = claimed.filter((id) => started.has(id));
  let released = 0;
  const open = and(isNull(jobs.doneAt), isNull(jobs.failedAt));
  if (notStarted.length) {
    const rows = await db.update(jobs).set({ lockedAt: null, attempts: sql`greatest(${jobs.attempts} - 1, 0)` }).where(and(inArray(jobs.id, notStarted), open)).returning({ id: jobs.id });
    released += rows.length;
  }
  if (stillRunning.length) {
    const rows = await db.update(jobs).set({ lockedAt: null }).where(and(inArray(jobs.id, stillRunning), open)).returning({ id: jobs.id });
    released += rows.length;
  }
  return released;
}

/** Due jobs not finished per lane, and how long the oldest has been due (the queue's metrics). */
export async function queueStateByLane(db: Db, lanes: readonly JobLane[], now: Date = new Date()): Promise<QueueLaneState[]> {
  const rows = resultRows<{ kind: string; depth: number | string; oldest: string | Date | null }>(
    await db.execute(sql`select ${jobs.kind} as kind, count(*)::int as depth, min(${jobs.runAt}) as oldest from ${jobs} where ${jobs.doneAt} is null and ${jobs.failedAt} is null and ${jobs.runAt} <= ${now.toISOString()}::timestamptz group by ${jobs.kind}`),
  );
  return lanes.map((lane) => {
    const mine = rows.filter((row) => (lane.kinds ? lane.kinds.includes(row.kind) : !(lane.exceptKinds ?? []).includes(row.kind)));
    const oldest = Math.min(...mine.map((row) => (row.oldest ? new Date(row.oldest).getTime() : now.getTime())));
    return {
      lane: laneName(lane),
      depth: mine.reduce((sum, row) => sum + Number(row.depth), 0),
      oldestAgeSeconds: mine.length ? Math.max(0, (now.getTime() - oldest) / 1000) : 0,
    };
  });
}

/**
 * Polls the queue every `intervalMs` (unref'd: it never keeps the process
 * alive), each lane on its own: one run at a time per lane and process;
 * errors are logged, not thrown. `stop` ends the polling (a `tick` still
 * runs the lanes); `shutdown` also claims nothing more, lets the jobs already
 * running finish (up to `timeoutMs`) and releases what is left.
 */
export function startJobRunner(
  getDb: () => Promise<Db>,
  handlers: JobHandlers,
  options: { intervalMs?: number; limit?: number; lanes?: readonly JobLane[] } = {},
) {
  const limit = options.limit ?? 20;
  const control: RunnerControl = { stopping: false, claimed: new Set(), started: new Set() };
  const running = new Set<Promise<void>>();
  const laneTicks = (options.lanes ?? [{}]).map((lane) => {
    let current: Promise<void> | null = null;
    const drain = async () => {
      try {
        const db = await getDb();
        // Keep going while full batches come back, so a backlog drains at once (each lane on its own).
        for (let claimed = limit; claimed === limit && !control.stopping; ) ({ claimed } = await runDueJobs(db, handlers, new Date(), limit, lane, control));
      } catch (error) {
        log().error({ lane: laneName(lane), error: error instanceof Error ? error.message : String(error) }, "Error corriendo jobs");
      } finally {
        current = null;
      }
    };
    return () => {
      if (current || control.stopping) return current ?? Promise.resolve();
      const run = (current = drain());
      running.add(run);
      void run.finally(() => running.delete(run));
      return run;
    };
  });
  const tick = async () => {
    await Promise.all(laneTicks.map((laneTick) => laneTick()));
  };
  const timer = setInterval(() => void tick(), options.intervalMs ?? 5_000);
  timer.unref();
  void tick();
  const stop = () => clearInterval(timer);
  const shutdown = async ({ timeoutMs = 10_000 }: { timeoutMs?: number } = {}) => {
    stop();
    control.stopping = true;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(running), new Promise<void>((resolve) => (timeout = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timeout);
    const left = [...control.claimed];
    const released = left.length ? await releaseClaimedJobs(await getDb(), left, control.started) : 0;
    return { released };
  };
  return { stop, shutdown, tick, control };
}
