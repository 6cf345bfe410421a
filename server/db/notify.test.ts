import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDatabase, getDb } from "#server/db/client";
import { eventDates, events } from "#server/db/schema";
import { doorDateOf } from "#server/door/redeem";
import { onDoorChange } from "#server/door/changes";
import { followEventChanges } from "#server/events/changes";
import { PageCache } from "#server/http/page-cache";
import { saleSnapshot } from "#server/orders/sale-snapshot";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { dropDatabase, hasPostgresServer, withDatabase } from "#tests/support/db";
import { killListener, listenOnTestDatabase, type ListeningProcess } from "#tests/support/listening";
import { defineChannel, LISTENER_APPLICATION_NAME, onMissedNotifications, PG_CHANNEL, startNotifications, type NotificationsListener } from "./notify";
import { until, EVENTUALLY_MS } from "#tests/support/until";

const ping = defineChannel("test.ping", ["id"]);

/** Resolves with what `listen` hears first, or rejects after `ms`. */
function heardWithin<T>(ms: number, listen: (heard: (value: T) => void) => () => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`Nada en ${ms} ms`));
    }, ms);
    const stop = listen((value) => {
      clearTimeout(timer);
      stop();
      resolve(value);
    });
  });
}

/** A public page the micro-cache keeps. */
async function keepOnePage(cache: PageCache) {
  await cache.handle(new Request("http://pagina.local/"), async () => new Response("<p>hola</p>", { headers: { "Cache-Control": "public, max-age=5" } }));
  expect(cache.size).toBe(1);
}

async function eventWithCaches() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0 });
  const db = await getDb();
  const first = await saleSnapshot(db, event.slug);
  expect(first?.event.name).toBe(event.name);
  const date = await doorDateOf(db, event.id, new Date());
  expect(date).not.toBeNull();
  /** Changes the event and its date behind the domain's back: only a notification (or a cache's end) shows them. */
  const changeBehindTheDomain = async () => {
    await db.update(events).set({ name: "Nombre nuevo" }).where(eq(events.id, event.id));
    await db
      .update(eventDates)
      .set({ startsAt: sql`${eventDates.startsAt} + interval '1 hour'` })
      .where(eq(eventDates.id, date!.id));
  };
  /** Whether what the caches answer now is the changed event (read less than a second after `first`: the sale snapshot's lifetime). */
  const cachesShowTheChange = async () => {
    const snapshot = await saleSnapshot(db, event.slug);
    const doorDate = await doorDateOf(db, event.id, new Date());
    return snapshot?.event.name === "Nombre nuevo" && doorDate!.startsAt.getTime() === date!.startsAt.getTime() + 3600e3;
  };
  return { event, changeBehindTheDomain, cachesShowTheChange };
}

describe.skipIf(!hasPostgresServer)("cambios entre procesos por PostgreSQL (LISTEN/NOTIFY)", () => {
  let listening: ListeningProcess;
  /** Another process's connection to the same database. */
  let other: postgres.Sql;
  const fromAnotherProcess = (channel: string, payload: Record<string, string>) =>
    other`select pg_notify(${PG_CHANNEL}, ${JSON.stringify({ c: channel, ...payload, o: "otro-proceso" })})`;

  beforeAll(async () => {
    listening = await listenOnTestDatabase({ checkEveryMs: 200, retryMs: 50 });
    other = listening.other;
  });

  afterAll(() => listening?.stop());

  it("a change sent through another connection reaches this process's listeners within a second", async () => {
    const heard = heardWithin<{ id: string }>(EVENTUALLY_MS, (h) => ping.subscribe(h));
    await fromAnotherProcess("test.ping", { id: "abc" });
    expect(await heard).toEqual({ id: "abc" });

    // The door's live view: a scan made through another process.
    const doorHeard = heardWithin<string>(EVENTUALLY_MS, (h) => onDoorChange("evento-1", h));
    await fromAnotherProcess("door", { eventId: "evento-1" });
    expect(await doorHeard).toBe("evento-1");
  });

  it("publish: this process hears it at once and once, the others through PostgreSQL", async () => {
    const elsewhere: string[] = [];
    const otherListening = await other.listen(PG_CHANNEL, (message) => elsewhere.push(message));
    const here: string[] = [];
    const stop = ping.subscribe(({ id }) => here.push(id));
    ping.publish({ id: "uno" });
    expect(here).toEqual(["uno"]);
    await until(() => elsewhere.length > 0);
    expect(JSON.parse(elsewhere[0])).toMatchObject({ c: "test.ping", id: "uno" });
    // Its own NOTIFY comes back to this process's listener too: it is not delivered twice.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(here).toEqual(["uno"]);
    stop();
    await otherListening.unlisten();
  });

  it("publishInTransaction: heard here and elsewhere only if the transaction commits", async () => {
    const db = await getDb();
    const here: string[] = [];
    const stop = ping.subscribe(({ id }) => here.push(id));
    await expect(
      db.transaction(async (tx) => {
        await ping.publishInTransaction(tx, { id: "deshecho" });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    await db.transaction(async (tx) => {
      await ping.publishInTransaction(tx, { id: "confirmado" });
      // Not before the commit.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(here).toEqual([]);
    });
    await until(() => here.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(here).toEqual(["confirmado"]);
    stop();
  });

  it("an event changed through another process drops this process's sale snapshot, door dates and page copies", async () => {
    const pages = new PageCache();
    const stopPages = followEventChanges(pages);
    await keepOnePage(pages);
    const { event, changeBehindTheDomain, cachesShowTheChange } = await eventWithCaches();
    await changeBehindTheDomain();
    expect(await cachesShowTheChange()).toBe(false);

    const heard = heardWithin<string>(EVENTUALLY_MS, (h) => followEventChanges({ forget: h, forgetAll: () => {} }));
    await fromAnotherProcess("event", { eventId: event.id });
    expect(await heard).toBe(event.id);
    expect(pages.size).toBe(0);
    expect(await cachesShowTheChange()).toBe(true);
    stopPages();
  });

  it("a listening connection that dies comes back, forgets every copy (notifications were missed) and hears again", async () => {
    const pages = new PageCache();
    const stopPages = followEventChanges(pages);
    await keepOnePage(pages);
    const { changeBehindTheDomain, cachesShowTheChange } = await eventWithCaches();
    let missed = 0;
    const stopMissed = onMissedNotifications(() => missed++);
    const liveViewRefreshed: string[] = [];
    const stopDoor = onDoorChange("evento-2", (id) => liveViewRefreshed.push(id));

    expect(await killListener(other)).toBe(1);
    // A change made while nobody listened: never announced, so only forgetting everything shows it.
    await changeBehindTheDomain();
    await until(() => missed > 0);
    expect(pages.size).toBe(0);
    expect(await cachesShowTheChange()).toBe(true);
    expect(liveViewRefreshed).toEqual(["evento-2"]);

    const heard = heardWithin<{ id: string }>(EVENTUALLY_MS, (h) => ping.subscribe(h));
    await fromAnotherProcess("test.ping", { id: "de-vuelta" });
    expect(await heard).toEqual({ id: "de-vuelta" });
    stopMissed();
    stopDoor();
    stopPages();
  });

  it("refuses a payload that is not ids, and ignores foreign or malformed notifications", async () => {
    expect(() => ping.publish({ id: "x".repeat(500) })).toThrow(/tiene que ser un id/);
    expect(() => defineChannel("test.other", ["c"])).toThrow(/reservado/);
    const here: string[] = [];
    const stop = ping.subscribe(({ id }) => here.push(id));
    await other`select pg_notify(${PG_CHANNEL}, 'no es json')`;
    await other`select pg_notify(${PG_CHANNEL}, ${JSON.stringify({ c: "test.ping", id: 7 })})`;
    await other`select pg_notify(${PG_CHANNEL}, ${JSON.stringify({ c: "desconocido", id: "x" })})`;
    await fromAnotherProcess("test.ping", { id: "bueno" });
    await until(() => here.length > 0);
    expect(here).toEqual(["bueno"]);
    stop();
  });
});

describe.skipIf(!hasPostgresServer)("DATABASE_LISTEN_URL: the listening connection goes straight to PostgreSQL", () => {
  it("listens on the database DATABASE_LISTEN_URL names, not DATABASE_URL's, and hears what is notified there", async () => {
    const serverUrl = process.env.DATABASE_URL!;
    // A database of its own: who listens on it shows which URL the listener used.
    const name = `tribuna_listen_${crypto.randomBytes(6).toString("hex")}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const direct = postgres(withDatabase(serverUrl, name), { max: 1, onnotice: () => {} });
    process.env.DATABASE_LISTEN_URL = withDatabase(serverUrl, name);
    let listener: NotificationsListener | undefined;
    try {
      // A fresh copy of the modules reads the environment again, as a process starting with the variable would.
      vi.resetModules();
      const fresh = await import("./notify");
      listener = await fresh.startNotifications(await getDatabase());
      // DATABASE_URL names another database: a listener here can only come from DATABASE_LISTEN_URL.
      const [{ listening }] = await admin`
        select count(*)::int as listening from pg_stat_activity where application_name = ${LISTENER_APPLICATION_NAME} and datname = ${name}`;
      expect(listening).toBe(1);

      const heard = heardWithin<{ id: string }>(EVENTUALLY_MS, (h) => ping.subscribe(h));
      await direct`select pg_notify(${PG_CHANNEL}, ${JSON.stringify({ c: "test.ping", id: "directo", o: "otro-proceso" })})`;
      expect(await heard).toEqual({ id: "directo" });
    } finally {
      delete process.env.DATABASE_LISTEN_URL;
      await listener?.stop();
      await direct.end();
      await admin.end();
      await dropDatabase(serverUrl, name);
    }
  });
});

describe.skipIf(hasPostgresServer)("cambios con PGlite (un solo proceso)", () => {
  let listener: NotificationsListener;
  beforeAll(async () => {
    listener = await startNotifications(await getDatabase());
  });
  afterAll(async () => {
    await listener?.stop();
  });

  it("publish is heard at once; publishInTransaction only after a commit", async () => {
    const db = await getDb();
    const here: string[] = [];
    const stop = ping.subscribe(({ id }) => here.push(id));
    ping.publish({ id: "ya" });
    expect(here).toEqual(["ya"]);
    await expect(
      db.transaction(async (tx) => {
        await ping.publishInTransaction(tx, { id: "deshecho" });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    await db.transaction(async (tx) => {
      await ping.publishInTransaction(tx, { id: "confirmado" });
    });
    await until(() => here.length > 1);
    expect(here).toEqual(["ya", "confirmado"]);
    stop();
  });
});
