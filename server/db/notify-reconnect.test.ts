import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasPostgresServer } from "#tests/support/db";
import { killListener, listenOnTestDatabase, type ListeningProcess } from "#tests/support/listening";
import { defineChannel, LISTENER_APPLICATION_NAME, onMissedNotifications, PG_CHANNEL } from "./notify";

const ping = defineChannel("test.reconnect", ["id"]);

describe.skipIf(!hasPostgresServer)("the listening connection killed again and again (PostgreSQL)", () => {
  let listening: ListeningProcess;
  let other: postgres.Sql;

  beforeAll(async () => {
    // A check every 2 ms: the backend is often killed while the check's query is on its way, the case that once
    // left the listener waiting for an answer that never came (and the process deaf until restarted).
    listening = await listenOnTestDatabase({ checkEveryMs: 2, retryMs: 20 });
    other = listening.other;
  });

  afterAll(() => listening?.stop());

  it("comes back every time: the copies are forgotten after each drop, and notifications are heard again", async () => {
    let missed = 0;
    const stopMissed = onMissedNotifications(() => missed++);
    const deaf: number[] = [];
    for (let round = 0; round < 40; round++) {
      const before = missed;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 8));
      expect(await killListener(other)).toBe(1);
      const deadline = Date.now() + 5_000;
      while (missed === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      if (missed === before) deaf.push(round);
      // The next kill must find the new listening backend, not race its start.
      while (Date.now() < deadline) {
        const [{ listening }] = await other`
          select count(*)::int as listening from pg_stat_activity
          where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database() and state is not null`;
        if (listening === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    stopMissed();
    expect(deaf).toEqual([]);

    const heard = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("Nada en 2000 ms")), 2_000);
      const stop = ping.subscribe(({ id }) => {
        clearTimeout(timer);
        stop();
        resolve(id);
      });
    });
    await other`select pg_notify(${PG_CHANNEL}, ${JSON.stringify({ c: "test.reconnect", id: "de-vuelta", o: "otro-proceso" })})`;
    expect(await heard).toBe("de-vuelta");
  }, 120_000);
});
