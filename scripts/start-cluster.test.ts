/** `npm start`'s cluster rules (scripts/start-cluster.mjs): how many workers run, and how fast a dying one is started again. */
import { describe, expect, it } from "vitest";
import { restartDelayMs, workerCount } from "./start-cluster.mjs";

describe("WEB_CONCURRENCY", () => {
  it("runs the workers asked for on PostgreSQL", () => {
    expect(workerCount({ WEB_CONCURRENCY: "3", DATABASE_URL: "postgres://db/tribuna" })).toEqual({ asked: 3, workers: 3, reason: null });
  });

  it("stays at one process on the embedded database, and says why", () => {
    const count = workerCount({ WEB_CONCURRENCY: "4" });
    expect(count.workers).toBe(1);
    expect(count.reason).toMatch(/PGlite.*DATABASE_URL/);
  });

  it("one process when unset or nonsense", () => {
    expect(workerCount({ DATABASE_URL: "postgres://db/tribuna" }).workers).toBe(1);
    expect(workerCount({ WEB_CONCURRENCY: "muchos", DATABASE_URL: "postgres://db/tribuna" }).workers).toBe(1);
    expect(workerCount({ WEB_CONCURRENCY: "0", DATABASE_URL: "postgres://db/tribuna" }).workers).toBe(1);
  });
});

describe("restarting a worker that died", () => {
  it("waits 1 s, then twice as long each time it keeps dying, up to 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
