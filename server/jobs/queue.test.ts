import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { jobs } from "#server/db/schema";
import { backoffMs, enqueue, MAX_ATTEMPTS, runDueJobs } from "./queue";

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
});
