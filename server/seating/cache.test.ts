import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SeatPlan } from "#common/seating-plan";
import { getDb } from "#server/db/client";
import { PG_CHANNEL } from "#server/db/notify";
import { eventSeating, seatMaps } from "#server/db/schema";
import { ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { killListener, listenOnTestDatabase, type ListeningProcess } from "#tests/support/listening";
import { createEventWithTickets } from "#tests/support/factories";
import { buyerSeating } from "./buyer";
import { cachedMap, cachedSeatingOfEvent, forgetAllSeating, seatingCacheKept, SEATING_CACHE_MAX_BYTES, SEATING_CACHE_MAX_EVENTS, SEATING_CACHE_MAX_MAPS } from "./cache";
import { blockSeats, getEventSeating, setEventSeating } from "./event-seating";
import { editSeatMap, saveSeatMap } from "./maps";
import { until } from "#tests/support/until";

/** One numbered section of `rows` rows of `perRow` seats ("A1"…), Platea, plus a standing area. */
function plan(rows: number, perRow: number, name = "Sala de prueba"): SeatPlan {
  return {
    name,
    size: { width: 20 + perRow * 10, height: 60 + rows * 10 },
    categories: [{ name: "Platea", color: "#38bdf8" }, { name: "Campo" }],
    sections: [
      {
        id: "platea",
        name: "Platea",
        kind: "numbered",
        rows: Array.from({ length: rows }, (_, r) => {
          const label = String.fromCharCode(65 + (r % 26)) + (r >= 26 ? String(r) : "");
          return { label, seats: Array.from({ length: perRow }, (_, s) => ({ guid: `${label}${s + 1}`, number: String(s + 1), x: 10 + s * 10, y: 40 + r * 10, category: "Platea" })) };
        }),
      },
      { id: "campo", name: "Campo", kind: "standing", rows: [], standing: { category: "Campo", capacity: 50, x: 0, y: 0, width: 50, height: 20 } },
    ],
    shapes: [{ text: "Escenario", x: 0, y: 0, width: 100, height: 10 }],
  };
}

async function seatedEvent(rows = 2, perRow = 5) {
  const made = await createEventWithTickets([{ name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 10 }]);
  const map = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan: plan(rows, perRow) });
  await setEventSeating(made.ctx, { eventId: made.event.id, seatMapId: map.id, categories: [{ category: "Platea", ticketTypeId: made.tickets.Platea.id }] });
  return { ...made, map };
}

type Seated = Awaited<ReturnType<typeof seatedEvent>>;

/** What a buyer sees: the guids the public map lists. */
async function guidsOnTheMap(made: Seated) {
  return (await getEventSeating(await ctxAs(), made.event.id, made.date.id)).seats.map((s) => s.guid);
}

/** Adds seat A6 to the map's plan behind the domain's back (as another process would have saved it), a version up. */
async function addSeatBehindTheDomain(made: Seated) {
  const db = await getDb();
  const [row] = await db.select().from(seatMaps).where(eq(seatMaps.id, made.map.id));
  const changed = structuredClone(row!.plan);
  changed.sections[0]!.rows[0]!.seats.push({ guid: "A6", number: "6", x: 70, y: 40, category: "Platea" });
  await db.update(seatMaps).set({ plan: changed, version: row!.version + 1 }).where(eq(seatMaps.id, made.map.id));
}

beforeEach(() => forgetAllSeating());

describe("the seating cache", () => {
  it("reads the plan once: a change written behind the domain's back is not seen until it is announced", async () => {
    const made = await seatedEvent();
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    await addSeatBehindTheDomain(made);
    // Kept: the map shown is the one read first (so a read does not touch seat_maps).
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    forgetAllSeating();
    expect(await guidsOnTheMap(made)).toContain("A6");
  });

  it("follows a map saved through the editor: the buyer's page and GraphQL's read show the new seat at once", async () => {
    const made = await seatedEvent();
    expect((await buyerSeating(await ctxAs(), made.event.slug)).seats).toHaveLength(10);
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    await editSeatMap(made.ctx, { id: made.map.id, organizationId: made.organization.id, version: made.map.version, edit: { op: "details", name: "Sala renombrada", front: "bottom" } });
    const view = await getEventSeating(await ctxAs(), made.event.id, made.date.id);
    expect(view.map.name).toBe("Sala renombrada");
    expect(view.map.version).toBe(made.map.version + 1);
    expect(view.plan.front).toBe("bottom");

    const [row] = await (await getDb()).select().from(seatMaps).where(eq(seatMaps.id, made.map.id));
    const withSeat = structuredClone(row!.plan);
    withSeat.sections[0]!.rows[1]!.seats.push({ guid: "B6", number: "6", x: 70, y: 50, category: "Platea" });
    await saveSeatMap(made.ctx, { id: made.map.id, organizationId: made.organization.id, plan: withSeat, version: row!.version });
    expect(await guidsOnTheMap(made)).toContain("B6");
    const page = await buyerSeating(await ctxAs(), made.event.slug);
    expect(page.seats.find((s) => s.guid === "B6")).toMatchObject({ state: "free", row: "B", section: "Platea" });
    expect(page.categories.find((c) => c.name === "Platea")?.free).toBe(11);
  });

  it("follows setEventSeating: the event moved to another map shows that map", async () => {
    const made = await seatedEvent();
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    const bigger = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan: plan(3, 4, "Sala grande") });
    await setEventSeating(made.ctx, { eventId: made.event.id, seatMapId: bigger.id, categories: [{ category: "Platea", ticketTypeId: made.tickets.Platea.id }] });
    const view = await getEventSeating(await ctxAs(), made.event.id, made.date.id);
    expect(view.map.id).toBe(bigger.id);
    expect(view.seats).toHaveLength(12);
  });

  it("claims are never kept: a seat blocked after the map was read shows blocked on the next read", async () => {
    const made = await seatedEvent();
    await guidsOnTheMap(made);
    await blockSeats(made.ctx, { eventId: made.event.id, eventDateId: made.date.id, seats: ["A1"], reason: "Prensa" });
    const view = await getEventSeating(await ctxAs(), made.event.id, made.date.id);
    expect(view.seats.find((s) => s.guid === "A1")?.state).toBe("blocked");
    expect((await buyerSeating(await ctxAs(), made.event.slug)).categories[0]?.free).toBe(9);
  });

  it("sends the buyer's page the plan without its numbered rows: the seats travel once, with their state", async () => {
    const made = await seatedEvent(20, 25);
    const page = await buyerSeating(await ctxAs(), made.event.slug);
    expect(page.seats).toHaveLength(500);
    expect(page.plan.sections.map((s) => s.kind)).toEqual(["standing"]);
    expect(page.plan.shapes).toHaveLength(1);
    const full = { plan: { ...page.plan, sections: plan(20, 25).sections }, seats: page.seats };
    const sent = { plan: page.plan, seats: page.seats };
    // The numbered rows were about a third of the payload.
    expect(JSON.stringify(sent).length).toBeLessThan(JSON.stringify(full).length * 0.75);
  });

  it("stays bounded in count: many more maps and events than it keeps never grow it past its bounds", async () => {
    const made = await seatedEvent();
    const db = await getDb();
    const rows = await db
      .insert(seatMaps)
      .values(Array.from({ length: SEATING_CACHE_MAX_MAPS + 30 }, (_, i) => ({ organizationId: made.organization.id, name: `Sala ${i}`, plan: plan(1, 2, `Sala ${i}`), createdAt: new Date(), updatedAt: new Date() })))
      .returning({ id: seatMaps.id, version: seatMaps.version });
    for (const row of rows) {
      expect((await cachedMap(db, row.id, row.version)).row.id).toBe(row.id);
      expect(seatingCacheKept().maps).toBeLessThanOrEqual(SEATING_CACHE_MAX_MAPS);
    }
    expect(seatingCacheKept().maps).toBe(SEATING_CACHE_MAX_MAPS);

    // Events that do not exist (or sell without seats) are kept as "no seating", within their bound too.
    for (let i = 0; i < SEATING_CACHE_MAX_EVENTS + 50; i++) {
      expect(await cachedSeatingOfEvent(db, crypto.randomUUID())).toBeNull();
      expect(seatingCacheKept().events).toBeLessThanOrEqual(SEATING_CACHE_MAX_EVENTS);
    }
    expect(seatingCacheKept().events).toBe(SEATING_CACHE_MAX_EVENTS);
    // And the seated event still reads right.
    expect(await guidsOnTheMap(made)).toHaveLength(10);
  });

  it("stays bounded in bytes: big plans fill it past its bytes, it stays under them and still answers each one right", async () => {
    const made = await seatedEvent();
    const db = await getDb();
    // ~400 kB of JSON each (~4 MB counted, with what is derived from it): about sixteen fill the bytes.
    const big = plan(40, 150);
    const rows = await db
      .insert(seatMaps)
      .values(Array.from({ length: 30 }, (_, i) => ({ organizationId: made.organization.id, name: `Estadio ${i}`, plan: big, createdAt: new Date(), updatedAt: new Date() })))
      .returning({ id: seatMaps.id, version: seatMaps.version });
    for (const row of rows) {
      const map = await cachedMap(db, row.id, row.version);
      expect(map.index.size).toBe(6000);
      expect(seatingCacheKept().mapBytes).toBeLessThanOrEqual(SEATING_CACHE_MAX_BYTES);
    }
    expect(seatingCacheKept().maps).toBeLessThan(rows.length);
    expect(seatingCacheKept().maps).toBeGreaterThan(0);
  });
});

describe.skipIf(!hasPostgresServer)("the seating cache across processes (PostgreSQL notifications)", () => {
  let listening: ListeningProcess;
  /** Another process's connection to the same database. */
  let other: postgres.Sql;

  beforeAll(async () => {
    listening = await listenOnTestDatabase({ checkEveryMs: 200, retryMs: 50 });
    other = listening.other;
  });

  afterAll(() => listening?.stop());

  it("a map saved by another process: its notification drops this process's copy", async () => {
    const made = await seatedEvent();
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    await addSeatBehindTheDomain(made);
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    // What saveSeatMap publishes in the other process after its commit.
    await other`select pg_notify(${PG_CHANNEL}, ${JSON.stringify({ c: "seating", eventId: "", seatMapId: made.map.id, o: "otro-proceso" })})`;
    await until(async () => (await guidsOnTheMap(made)).includes("A6"));
  });

  it("an event's seating changed by another process: its notification drops this process's copy", async () => {
    const made = await seatedEvent();
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    const smaller = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan: plan(1, 3, "Sala chica") });
    const db = await getDb();
    await db.update(eventSeating).set({ seatMapId: smaller.id }).where(eq(eventSeating.eventId, made.event.id));
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    await other`select pg_notify(${PG_CHANNEL}, ${JSON.stringify({ c: "seating", eventId: made.event.id, seatMapId: "", o: "otro-proceso" })})`;
    await until(async () => (await guidsOnTheMap(made)).length === 3);
  });

  it("notifications missed (the listening connection died): every copy is dropped", async () => {
    const made = await seatedEvent();
    expect(await guidsOnTheMap(made)).toHaveLength(10);
    expect(seatingCacheKept().maps).toBeGreaterThan(0);
    expect(await killListener(other)).toBe(1);
    // Saved while nobody listened: never announced, so only forgetting everything shows it.
    await addSeatBehindTheDomain(made);
    await until(async () => seatingCacheKept().maps === 0);
    expect(await guidsOnTheMap(made)).toContain("A6");
  });
});
