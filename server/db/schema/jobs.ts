import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Background work (decision 22): hold expiry, campaign batches, webhook
 * retries. Claimed with `FOR UPDATE SKIP LOCKED` by any server process.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    doneAt: timestamp("done_at", { withTimezone: true }),
    /** Set when the job gave up (too many attempts). */
    failedAt: timestamp("failed_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Claiming looks only at pending jobs, soonest first; a lane (server/jobs/queue.ts) by kind too.
  (t) => [
    index("jobs_due_idx").on(t.runAt).where(sql`done_at is null and failed_at is null`),
    index("jobs_due_kind_idx").on(t.kind, t.runAt).where(sql`done_at is null and failed_at is null`),
  ],
);

/** Row types: what a select of these tables returns. */
export type JobRow = typeof jobs.$inferSelect;
