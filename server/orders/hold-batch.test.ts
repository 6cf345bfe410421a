import { spawn } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { billings, jobs, orders, ticketTypes } from "#server/db/schema";
import { ctxAs } from "#tests/support/context";
import { hasPostgresServer, withDatabase } from "#tests/support/db";
import { createEventWithTickets } from "#tests/support/factories";
import { seeded } from "#tests/support/random";
import { createOrder, EXPIRE_ORDER_JOB } from "./orders";

const NOT_ENOUGH = "No quedan suficientes entradas de «General». Elegí menos o probá otra.";

function payer(i: number) {
  return { firstName: "Sofía", lastName: "Peña", email: `comprador${i}@example.com`, documentType: "dni", documentNumber: "30.123.456", phoneNumber: "+54 11 5555-1234" };
}

/** `buyers` anonymous buyers at once, one ticket each, for a "General" ticket type of `stock`. */
async function rushOneEach(buyers: number, stock: number) {
  const { event, tickets } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock, maxPerOrder: 10 }]);
  const ctx = await ctxAs();
  const results = await Promise.allSettled(
    Array.from({ length: buyers }, (_, i) =>
      createOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: payer(i), paymentMethod: "MERCADO_PAGO" }),
    ),
  );
  return { event, tickets, results };
}

async function countsOf(eventId: string, ticketTypeId: string) {
  const db = await getDb();
  const [tt] = await db.select({ sold: ticketTypes.sold, stock: ticketTypes.stock }).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  const [o] = await db.select({ n: sql<number>`count(*)::int`, transactions: sql<number>`count(distinct xmin::text)::int` }).from(orders).where(eq(orders.eventId, eventId));
  const [b] = await db.select({ n: sql<number>`count(*)::int` }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(orders.eventId, eventId));
  const [j] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .innerJoin(orders, sql`${orders.id}::text = ${jobs.payload}->>'orderId'`)
    .where(and(eq(jobs.kind, EXPIRE_ORDER_JOB), eq(orders.eventId, eventId)));
  return { sold: tt.sold, stock: tt.stock, orders: o.n, transactions: o.transactions, billings: b.n, expiryJobs: j.n };
}

// Without DATABASE_URL this runs on PGlite, the embedded default of `npm start`: a batch's statements go out
// together there too (writeOrderBatch), and must come back as one transaction.
describe("batched holds on whichever database the app runs", () => {
  it("40 buyers at once for 10 tickets: 10 orders in few transactions, the rest CONFLICT", async () => {
    const { event, tickets, results } = await rushOneEach(40, 10);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused).toHaveLength(30);
    for (const r of refused) expect(r.reason).toMatchObject({ code: "CONFLICT", message: NOT_ENOUGH });
    const counts = await countsOf(event.id, tickets.General.id);
    expect(counts).toMatchObject({ sold: 10, orders: 10, billings: 10, expiryJobs: 10 });
    expect(counts.transactions).toBeLessThan(5);
  }, 60_000);
});

describe.runIf(hasPostgresServer)("batched holds (one transaction for the buyers of a tick)", () => {
  it("500 buyers at once for 50 tickets: exactly 50 orders, each buyer its own answer, the rest CONFLICT, in few transactions", async () => {
    const { event, tickets, results } = await rushOneEach(500, 50);
    const held = results.flatMap((r, i) => (r.status === "fulfilled" ? [{ i, value: r.value }] : []));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(held).toHaveLength(50);
    expect(refused).toHaveLength(450);
    for (const r of refused) expect(r.reason).toMatchObject({ code: "CONFLICT", message: NOT_ENOUGH });
    // Each buyer got its own order: its own payer, one line of one ticket, its own pending billing.
    for (const { i, value } of held) {
      expect(value.order.payer.email).toBe(`comprador${i}@example.com`);
      expect(value.order.items).toEqual([expect.objectContaining({ ticketTypeId: tickets.General.id, qty: 1, unitPrice: 1_000_000 })]);
      expect(value.billing).toMatchObject({ orderId: value.order.id, status: "pending", amount: value.order.total });
    }
    expect(new Set(held.map((h) => h.value.order.id)).size).toBe(50);
    const counts = await countsOf(event.id, tickets.General.id);
    expect(counts).toMatchObject({ sold: 50, stock: 50, orders: 50, billings: 50, expiryJobs: 50 });
    // Written in batches: far fewer transactions than orders (rows inserted by one transaction share its xmin).
    expect(counts.transactions).toBeLessThan(25);
  }, 120_000);

  it("mixed quantities: what is held never passes the stock, and nobody is refused while enough for them is left", async () => {
    const { event, tickets } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 37, maxPerOrder: 10 }]);
    const ctx = await ctxAs();
    const random = seeded(37);
    const quantities = Array.from({ length: 120 }, () => 1 + Math.floor(random() * 5));
    const results = await Promise.allSettled(
      quantities.map((qty, i) =>
        createOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty }], payer: payer(i), paymentMethod: "MERCADO_PAGO" }),
      ),
    );
    const heldQty = results.reduce((sum, r, i) => sum + (r.status === "fulfilled" ? quantities[i] : 0), 0);
    const counts = await countsOf(event.id, tickets.General.id);
    expect(counts.sold).toBe(heldQty);
    expect(heldQty).toBeLessThanOrEqual(37);
    const left = 37 - heldQty;
    results.forEach((r, i) => {
      if (r.status === "rejected") {
        expect(r.reason).toMatchObject({ code: "CONFLICT", message: NOT_ENOUGH });
        expect(quantities[i]).toBeGreaterThan(left);
      } else {
        expect(r.value.order.items[0].qty).toBe(quantities[i]);
      }
    });
    expect(counts.orders).toBe(results.filter((r) => r.status === "fulfilled").length);
  }, 120_000);

  it("two app processes at once on one PostgreSQL: exactly the stock, shared between them", async () => {
    const { event, tickets } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 60, maxPerOrder: 10 }]);
    const db = await getDb();
    const [{ name }] = (await db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
    const other = new Promise<{ held: number; conflicts: number; failures: string[] }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "tests/support/place-orders-process.ts"], {
        env: { ...process.env, DATABASE_URL: withDatabase(process.env.DATABASE_URL!, name), COUNT: "150", EVENT_SLUG: event.slug, TICKET_ID: tickets.General.id },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.on("error", reject);
      child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!)) : reject(new Error(`second process exited with ${code}`))));
    });
    const ctx = await ctxAs();
    const here = await Promise.allSettled(
      Array.from({ length: 150 }, (_, i) =>
        createOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: payer(i), paymentMethod: "MERCADO_PAGO" }),
      ),
    );
    const there = await other;
    const heldHere = here.filter((r) => r.status === "fulfilled").length;
    for (const r of here) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CONFLICT" });
    expect(there.failures).toEqual([]);
    expect(heldHere + there.held).toBe(60);
    expect(there.held + there.conflicts).toBe(150);
    expect(await countsOf(event.id, tickets.General.id)).toMatchObject({ sold: 60, orders: 60, billings: 60, expiryJobs: 60 });
  }, 120_000);
});
