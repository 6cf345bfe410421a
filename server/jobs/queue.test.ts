import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { jobs } from "#server/db/schema";
import { backoffMs, enqueue, MAX_ATTEMPTS, runDueJobs, startJobRunner } from "./queue";

describe("job queue", () => {
  it("runs due jobs once, retries failures with backoff and gives up after MAX_ATTEMPTS", async () => {
    const db = await getDb();
    const now = new Date("2030-01-01T03:00:00Z");
    const seen: string[] = [];
    const handlers = {
      ok: async (payload: Record<string, unknown>) => {
        seen.push(String(payload.n));
      },
      boom: async () => {
        throw new Error("falló");
      },
    };
    const ok = await enqueue(db, "ok", { n: 1 }, now);
    await enqueue(db, "ok", { n: 2 }, new Date(now.getTime() + 60_000));
    const boom = await enqueue(db, "boom", {}, now);

    const first = await runDueJobs(db, handlers, now, 10);
    expect(first).toEqual({ claimed: 2, done: 1, failed: 1 });
    expect(seen).toEqual(["1"]);
    const [okRow] = await db.select().from(jobs).where(eq(jobs.id, ok.id));
    expect(okRow.doneAt).not.toBeNull();
    let [boomRow] = await db.select().from(jobs).where(eq(jobs.id, boom.id));
    expect(boomRow).toMatchObject({ attempts: 1, lastError: "falló", failedAt: null, lockedAt: null });
    expect(boomRow.runAt.getTime()).toBe(now.getTime() + backoffMs(1));

    // Running again at the same moment finds nothing new.
    expect((await runDueJobs(db, handlers, now, 10)).claimed).toBe(0);

    let t = now.getTime();
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      t += 2 * 3600_000;
      await runDueJobs(db, { ...handlers, ok: async () => {} }, new Date(t), 10);
    }
    [boomRow] = await db.select().from(jobs).where(eq(jobs.id, boom.id));
    expect(boomRow.attempts).toBe(MAX_ATTEMPTS);
    expect(boomRow.failedAt).not.toBeNull();
  });

  it("runs each lane on its own: a hold's expiry is not kept waiting behind a backlog of slow emails queued before it", async () => {
    const db = await getDb();
    const queuedAt = new Date(Date.now() - 60_000);
    let releaseEmails!: () => void;
    const smtpStuck = new Promise<void>((resolve) => (releaseEmails = resolve));
    const sentEmails: number[] = [];
    let expired = false;
    const handlers = {
      email: async (payload: Record<string, unknown>) => {
        await smtpStuck;
        sentEmails.push(Number(payload.n));
      },
      expire: async () => {
        expired = true;
      },
    };
    for (let n = 0; n < 30; n++) await enqueue(db, "email", { n }, queuedAt);
    const expiry = await enqueue(db, "expire", {}, new Date(queuedAt.getTime() + 1000));

    const runner = startJobRunner(async () => db, handlers, { intervalMs: 20, limit: 5, lanes: [{ kinds: ["expire"] }, { exceptKinds: ["expire"] }] });
    try {
      for (let i = 0; i < 500 && !expired; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(expired).toBe(true);
      expect(sentEmails).toEqual([]);
      const [row] = await db.select().from(jobs).where(eq(jobs.id, expiry.id));
      expect(row.doneAt).not.toBeNull();
    } finally {
      releaseEmails();
      runner.stop();
      await runner.tick();
    }
    // The email lane then drains its backlog in order.
    for (let i = 0; i < 500 && sentEmails.length < 30; i++) await runner.tick();
    expect(sentEmails).toEqual(Array.from({ length: 30 }, (_, n) => n));
  });

  it("a lane claims only its kinds; all kinds together run strictly by due time", async () => {
    const db = await getDb();
    const queuedAt = new Date("2031-01-01T03:00:00Z");
    const ran: string[] = [];
    const handlers = { email: async () => void ran.push("email"), expire: async () => void ran.push("expire") };
    for (let n = 0; n < 3; n++) await enqueue(db, "email", { n }, queuedAt);
    await enqueue(db, "expire", {}, new Date(queuedAt.getTime() + 1000));
    await runDueJobs(db, handlers, new Date(queuedAt.getTime() + 2000), 2, { exceptKinds: [] });
    expect(ran).toEqual(["email", "email"]);
    await runDueJobs(db, handlers, new Date(queuedAt.getTime() + 2000), 2, { kinds: ["expire"] });
    expect(ran).toEqual(["email", "email", "expire"]);
  });

  it("a lane with concurrency runs that many jobs of one claim side by side, each once", async () => {
    const db = await getDb();
    const dueAt = new Date("2032-01-01T03:00:00Z");
    let running = 0;
    let most = 0;
    const ran: number[] = [];
    const handlers = {
      expire: async (payload: Record<string, unknown>) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        ran.push(Number(payload.n));
        running -= 1;
      },
    };
    for (let n = 0; n < 10; n++) await enqueue(db, "expire", { n }, dueAt);
    const result = await runDueJobs(db, handlers, dueAt, 10, { kinds: ["expire"], concurrency: 3 });
    expect(result).toEqual({ claimed: 10, done: 10, failed: 0 });
    expect(most).toBe(3);
    expect([...ran].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
