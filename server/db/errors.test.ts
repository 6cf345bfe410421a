import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { users } from "#server/db/schema";
import { createTestUser } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { isDeadlock, retryOnDeadlock } from "./errors";

describe.runIf(hasPostgresServer)("deadlocks (PostgreSQL)", () => {
  it("two transactions locking two rows in opposite order: PostgreSQL rolls one back, it is recognised and run again, and both finish", async () => {
    const db = await getDb();
    const [ana, beto] = [await createTestUser({ firstName: "Ana" }), await createTestUser({ firstName: "Beto" })];
    // Each takes its first row, then waits until the other has too: the second row is then a cycle.
    let firstRows = 0;
    let bothHaveOne!: () => void;
    const together = new Promise<void>((resolve) => (bothHaveOne = resolve));
    const seen: unknown[] = [];
    const attempts = { ab: 0, ba: 0 };
    const lockBoth = (name: "ab" | "ba", first: string, second: string) =>
      retryOnDeadlock(() =>
        db
          .transaction(async (tx) => {
            attempts[name]++;
            await tx.update(users).set({ lastName: name }).where(eq(users.id, first));
            if (attempts[name] === 1 && ++firstRows === 2) bothHaveOne();
            if (attempts[name] === 1) await together;
            await tx.update(users).set({ lastName: name }).where(eq(users.id, second));
          })
          .catch((error: unknown) => {
            seen.push(error);
            throw error;
          }),
      );
    await Promise.all([lockBoth("ab", ana.id, beto.id), lockBoth("ba", beto.id, ana.id)]);
    // Usually one deadlock. On a loaded machine the retry can reach the first row before the other transaction,
    // woken by the rollback, re-reads it: a second cycle, also a deadlock, also run again.
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every(isDeadlock)).toBe(true);
    expect(attempts.ab + attempts.ba).toBe(2 + seen.length);
  });
});

describe("retryOnDeadlock", () => {
  it("anything but a deadlock is not run again", async () => {
    let runs = 0;
    await expect(
      retryOnDeadlock(async () => {
        runs++;
        throw new Error("otra cosa");
      }),
    ).rejects.toThrow("otra cosa");
    expect(runs).toBe(1);
  });
});
