import { spawn } from "node:child_process";
import readline from "node:readline";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDatabase, getDb } from "#server/db/client";
import { startNotifications, type NotificationsListener } from "#server/db/notify";
import { users } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { actorFor, ctxAs } from "#tests/support/context";
import { hasPostgresServer, withDatabase } from "#tests/support/db";
import { createEventWithTickets } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { runAdmissionTick } from "./admitter";
import { queueMemory } from "./memory";
import { joinQueue, queuePlace, setEventQueue, type QueuePlaceView } from "./queue";
import { until } from "#tests/support/until";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

/** Another app process on the same database (tests/support/queue-process.ts), driven one command at a time. */
function otherProcess(url: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/queue-process.ts"], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const answers = readline.createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  answers.on("line", (line) => waiting.shift()?.(line));
  return {
    async ask<T>(command: Record<string, unknown>): Promise<T> {
      const line = await new Promise<string>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify(command)}\n`);
      });
      const answer = JSON.parse(line) as { ok?: T; error?: string };
      if (answer.error) throw new Error(answer.error);
      return answer.ok as T;
    },
    async stop() {
      child.stdin.end();
      await new Promise((resolve) => child.on("exit", resolve));
    },
  };
}

describe.skipIf(!hasPostgresServer)("la fila virtual en dos procesos sobre una base", () => {
  let listener: NotificationsListener;
  let other: ReturnType<typeof otherProcess>;

  beforeAll(async () => {
    const database = await getDatabase();
    const [{ name }] = (await database.db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
    const url = withDatabase(process.env.DATABASE_URL!, name);
    listener = await startNotifications(database, { url, checkEveryMs: 200, retryMs: 50 });
    other = otherProcess(url);
  });

  afterAll(async () => {
    await other?.stop();
    await listener?.stop();
    queueMemory.forgetAll();
  });

  it("one account joining 25 times here and 25 times there at once gets one place", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 4, maxPerOrder: 10 }]);
    await setEventQueue({ ...made.ctx, now: new Date() }, { eventId: made.event.id, enabled: true, opensAt: at(new Date(), 3600) });
    const db = await getDb();
    const [person] = await db.insert(users).values({ email: `una-${randomTag(8)}@example.com`, firstName: "Ana", lastName: "Gómez" }).returning();
    const now = new Date();
    const [here, there] = await Promise.all([
      Promise.all(Array.from({ length: 25 }, async () => joinQueue(await ctxAs(actorFor({ ...person, roles: [] }), now), made.event.slug))),
      other.ask<QueuePlaceView[]>({ op: "join", slug: made.event.slug, userIds: Array.from({ length: 25 }, () => person.id), now: now.toISOString() }),
    ]);
    expect(new Set([...here, ...there].map((p) => p.id)).size).toBe(1);
    const [{ n }] = (await db.execute(sql`select count(*)::int as n from queue_places where event_id = ${made.event.id}`)) as unknown as { n: number }[];
    expect(n).toBe(1);
  }, 60_000);

  it("share one queue: one line of positions, the admissions of either, and sold out reaches the waiting of both", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 4, maxPerOrder: 10 }]);
    const opensAt = at(new Date(), 60);
    await setEventQueue({ ...made.ctx, now: new Date() }, { eventId: made.event.id, enabled: true, opensAt });
    const db = await getDb();
    const people = await db
      .insert(users)
      .values(Array.from({ length: 10 }, (_, i) => ({ email: `dos-${i}-${randomTag(8)}@example.com`, firstName: "Ana", lastName: "Gómez" })))
      .returning();
    const ids = people.map((p) => p.id);
    const here = people.slice(0, 5);
    const there = ids.slice(5);
    const before = at(opensAt, -30).toISOString();

    // Half join here, half there, at the same time.
    const [joinedHere, joinedThere] = await Promise.all([
      Promise.all(here.map(async (p) => joinQueue(await ctxAs(actorFor({ ...p, roles: [] }), new Date(before)), made.event.slug))),
      other.ask<QueuePlaceView[]>({ op: "join", slug: made.event.slug, userIds: there, now: before }),
    ]);
    expect(joinedHere.concat(joinedThere).every((p) => p.status === "WAITING" && p.position === null)).toBe(true);

    // The other process opens the line (its tick draws and admits); this one learns it through PostgreSQL.
    const opened = at(opensAt, 1);
    const tick = await other.ask<{ acted: boolean; admitted: number }>({ op: "tick", now: opened.toISOString() });
    expect(tick).toMatchObject({ acted: true, admitted: 2 });
    const mine = async (now: Date) => Promise.all(people.map(async (p) => (await queuePlace(await ctxAs(actorFor({ ...p, roles: [] }), now), made.event.slug))!));
    await until(async () => (await mine(at(opened, 1))).every((p) => p.position !== null) && (await mine(at(opened, 1))).filter((p) => p.status === "ADMITTED").length === 2);
    const seenHere = await mine(at(opened, 1));
    await other.ask({ op: "settle", eventId: made.event.id });
    const seenThere = await other.ask<QueuePlaceView[]>({ op: "places", slug: made.event.slug, userIds: ids, now: at(opened, 1).toISOString() });
    // The same line in both copies: every position once, the same admitted, the same seed.
    expect(seenHere.map((p) => p.position).sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(seenThere.map((p) => [p.position, p.status, p.drawSeed])).toEqual(seenHere.map((p) => [p.position, p.status, p.drawSeed]));

    // Both tick at once: the lock lets them act one after the other, and neither admits past what the stock can serve.
    const both = await Promise.all([runAdmissionTick(db, at(opened, 2)), other.ask<{ acted: boolean; admitted: number }>({ op: "tick", now: at(opened, 2).toISOString() })]);
    expect(both.reduce((n, t) => n + t.admitted, 0)).toBe(0);

    // The admitted buy everything here; the other process's tick notices the sell-out, and every waiting place of both copies reads it.
    const admitted = people.filter((_, i) => seenHere[i].status === "ADMITTED");
    for (const p of admitted) {
      await createOrder(await ctxAs(actorFor({ ...p, roles: [] }), at(opened, 3)), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    }
    await other.ask({ op: "tick", now: at(opened, 4).toISOString() });
    await until(async () => (await mine(at(opened, 5))).filter((p) => p.status === "SOLD_OUT").length === 8);
    await other.ask({ op: "settle", eventId: made.event.id });
    const soldOutThere = await other.ask<QueuePlaceView[]>({ op: "places", slug: made.event.slug, userIds: ids, now: at(opened, 5).toISOString() });
    expect(soldOutThere.filter((p) => p.status === "SOLD_OUT")).toHaveLength(8);
  }, 60_000);
});
