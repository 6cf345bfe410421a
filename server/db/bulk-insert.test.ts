import { asc, eq, inArray } from "drizzle-orm";
import { numeric, pgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { connectPglite, getDb, type Db } from "#server/db/client";
import { jobs, orders } from "#server/db/schema";
import { createEventWithTickets } from "#tests/support/factories";
import { insertRows } from "./bulk-insert";

const at = new Date("2031-03-01T23:30:00.123Z");

function jobRows(kind: string) {
  return [
    { kind, payload: { orderId: "a", nested: { list: [1, "dos", null] } }, runAt: at },
    { kind, payload: {}, runAt: new Date(at.getTime() + 1000) },
    { kind, payload: { texto: "Peña «Ñandú» \\ \"comillas\"" }, runAt: at },
  ];
}

/** An order's columns for a fresh event, as createOrder writes them (jsonb, uuids, nulls, dates). */
async function orderFields() {
  const { event, date, organization } = await createEventWithTickets();
  return {
    eventId: event.id,
    eventDateId: date.id,
    organizationId: organization.id,
    buyerUserId: null,
    payer: { lastName: "Peña", firstName: "Sofía", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234", score: 1.5e2 },
    attendees: null,
    customFields: null,
    status: "draft" as const,
    paymentMethod: "MERCADO_PAGO" as const,
    referredNick: "rrpp-ñandú",
    promoterUserId: null,
    subtotal: 1000,
    serviceFee: 100,
    discount: 0,
    total: 1100,
    holdExpiresAt: at,
    createdAt: at,
    updatedAt: at,
  };
}

/** What insertRows returns and stores must be what drizzle's own insert returns and stores. */
async function sameAsDrizzle(db: Db) {
  const ours = await insertRows(db, jobs, jobRows("bulk-ours"));
  const theirs = await db.insert(jobs).values(jobRows("bulk-theirs")).returning();
  const comparable = (rows: typeof ours) => rows.map(({ id: _id, kind: _kind, createdAt, ...rest }) => ({ ...rest, createdAt: createdAt instanceof Date }));
  expect(comparable(ours)).toEqual(comparable(theirs));
  // Serial ids follow the order given.
  expect(ours.map((r) => r.id)).toEqual([...ours.map((r) => r.id)].sort((a, b) => a - b));
  expect(ours.map((r) => r.payload)).toEqual(jobRows("x").map((r) => r.payload));
  expect(ours[0].runAt).toEqual(at);
}

describe("insertRows: many rows in one statement, returned as drizzle returns them", () => {
  it("on the test database: jobs (jsonb, dates, serial ids) and orders (uuids, nulls, defaults left to the database)", async () => {
    const db = await getDb();
    await sameAsDrizzle(db);

    const order = await orderFields();
    const [ours] = await insertRows(db, orders, [{ code: "BULKOURS1", ...order }]);
    const [theirs] = await db.insert(orders).values({ code: "BULKTHEI1", ...order }).returning();
    expect({ ...ours, id: "", code: "" }).toEqual({ ...theirs, id: "", code: "" });
    expect(ours.gift).toBe(false);
  });

  it("on the embedded database (PGlite), the same", async () => {
    const embedded = await connectPglite();
    try {
      await embedded.migrate();
      await sameAsDrizzle(embedded.db);
    } finally {
      await embedded.close();
    }
  });

  it("refuses a column type it cannot carry through JSON, before writing anything", async () => {
    const db = await getDb();
    await expect(insertRows(db, jobs, [])).resolves.toEqual([]);
    const prices = pgTable("prices_never_created", { amount: numeric("amount") });
    await expect(insertRows(db, prices, [{ amount: "1.5" }])).rejects.toThrow(/no viaja como JSON/);
  });
});

describe("insertRows with a returning list", () => {
  it("writes every column given and reads back only the columns asked for", async () => {
    const db = await getDb();
    const rows = await insertRows(db, jobs, jobRows("bulk-only-ids"), ["id", "runAt"]);
    expect(rows.map((r) => Object.keys(r).sort())).toEqual([["id", "runAt"], ["id", "runAt"], ["id", "runAt"]]);
    expect(rows[0].runAt).toEqual(at);
    const stored = await db.select().from(jobs).where(eq(jobs.kind, "bulk-only-ids")).orderBy(asc(jobs.id));
    expect(stored.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(stored.map((r) => r.payload)).toEqual(jobRows("x").map((r) => r.payload));
  });
});

describe("insertRows hands back whole rows without reading back what it sent", () => {
  it("returns what the database stored where it differs from what was sent: an id in capitals, jsonb's own key order", async () => {
    const db = await getDb();
    const fields = await orderFields();
    const sent = { ...fields, eventId: fields.eventId.toUpperCase() };
    const [ours] = await insertRows(db, orders, [{ code: "BULKECHO1", ...sent }]);
    const [theirs] = await db.insert(orders).values({ code: "BULKECHO2", ...sent }).returning();
    expect(ours.eventId).toBe(fields.eventId);
    expect(Object.keys(ours.payer)).toEqual(Object.keys(theirs.payer));
    expect({ ...ours, id: "", code: "" }).toEqual({ ...theirs, id: "", code: "" });
    const [stored] = await db.select().from(orders).where(eq(orders.id, ours.id));
    expect(stored).toEqual(ours);
  });

  it("gives each row Dates of its own, and reads back the columns the rows left to the database", async () => {
    const db = await getDb();
    const fields = await orderFields();
    const rows = await insertRows(db, orders, [
      { code: "BULKECHO3", ...fields },
      { code: "BULKECHO4", ...fields },
    ]);
    expect(rows[0].createdAt).toEqual(at);
    expect(rows[0].createdAt).not.toBe(at);
    expect(rows[0].createdAt).not.toBe(rows[1].createdAt);
    expect(rows.map((r) => r.gift)).toEqual([false, false]);
    const stored = await db.select().from(orders).where(inArray(orders.id, rows.map((r) => r.id)));
    expect(stored.sort((a, b) => a.code.localeCompare(b.code))).toEqual(rows);
  });
});
