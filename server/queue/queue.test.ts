import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { eventQueues, loginAttempts, queuePlaces, ticketTypes, users } from "#server/db/schema";
import { isDomainError } from "#server/errors";
import { createOrder } from "#server/orders/orders";
import { previewOrder } from "#server/orders/preview";
import { previewMenuOrder, createMenuItem } from "#server/menu/menu";
import { expireOrder } from "#server/orders/orders";
import { actorFor, ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { verifyAdmission, signAdmission, admissionCookieHeader, ADMISSION_COOKIE } from "./admission";
import { ADMITTER_LOCK_KEY, ensureQueueTicker, runAdmissionTick } from "./admitter";
import { drawCommitment, drawOrder } from "./draw";
import { QueueMemory, queueMemory } from "./memory";
import { assertAdmitted, eventQueue, isAdmitted, joinQueue, JOINS_PER_IP, pauseEventQueue, queueInfo, queuePlace, resumeEventQueue, setEventQueue } from "./queue";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** Accounts without a password (hashing one per buyer would only slow the test down). */
async function buyers(n: number) {
  const db = await getDb();
  const rows = await db
    .insert(users)
    .values(Array.from({ length: n }, (_, i) => ({ email: `fila-${i}-${randomTag(8)}@example.com`, firstName: "Ana", lastName: "Gómez" })))
    .returning();
  return rows;
}

async function as(user: { id: string; email: string }, now: Date, ip?: string): Promise<Ctx> {
  const ctx = await ctxAs(actorFor({ ...user, roles: [] }), now, ip);
  return ctx;
}

const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

/** An event with a queue opening at `opensAt`, and its organizer's context. */
async function eventWithQueue(options: { stock?: number; opensAt: Date; admitPerMinute?: number | null }) {
  const made = await createEventWithTickets([{ name: "General", price: 1_500_000, stock: options.stock ?? 100, maxPerOrder: 10 }]);
  const view = await setEventQueue({ ...made.ctx, now: new Date() }, { eventId: made.event.id, enabled: true, opensAt: options.opensAt, admitPerMinute: options.admitPerMinute ?? null });
  return { ...made, view };
}

/** Every tick and every copy settled (the tests move time by hand). */
async function tick(now: Date, memory: QueueMemory = queueMemory, eventId?: string) {
  const outcome = await runAdmissionTick(await getDb(), now);
  if (eventId) await memory.settled(eventId);
  return outcome;
}

function codeOf(error: unknown) {
  return isDomainError(error) ? { code: error.code, reason: error.reason } : error;
}

afterAll(() => queueMemory.forgetAll());

describe("la fila virtual: el sorteo", () => {
  it("publishes the commitment before the opening, reveals the seed after, and the seed reproduces every position; a join after the opening goes last", async () => {
    const opensAt = at(new Date(), 3600);
    const { event, view } = await eventWithQueue({ opensAt });
    expect(view.drawSeed).toBeNull();
    expect(view.drawCommitment).toMatch(/^[0-9a-f]{64}$/);

    const people = await buyers(30);
    const before = at(opensAt, -600);
    const places = await Promise.all(people.map(async (p) => joinQueue(await as(p, before), event.slug)));
    for (const place of places) {
      expect(place.status).toBe("WAITING");
      expect(place.position).toBeNull();
      expect(place.drawSeed).toBeNull();
      expect(place.drawCommitment).toBe(view.drawCommitment);
    }
    // Asking again (another device) is the same place.
    expect((await joinQueue(await as(people[0], before), event.slug)).id).toBe(places[0].id);

    // The opening: the admitter draws.
    await tick(at(opensAt, 1), queueMemory, event.id);
    const late = (await buyers(1))[0];
    const latePlace = await joinQueue(await as(late, at(opensAt, 5)), event.slug);

    const after = await Promise.all(people.map(async (p) => (await queuePlace(await as(p, at(opensAt, 6)), event.slug))!));
    const seed = after[0].drawSeed!;
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(drawCommitment(seed)).toBe(view.drawCommitment);
    const expected = drawOrder(seed, places.map((p) => p.id));
    const byPosition = [...after].sort((a, b) => a.position! - b.position!).map((p) => p.id);
    expect(byPosition).toEqual(expected);
    expect(after.map((p) => p.position).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(latePlace.position).toBe(31);
  });

  it("gives one place per account under 50 concurrent joins of the same account", async () => {
    const { event } = await eventWithQueue({ opensAt: at(new Date(), 3600) });
    const [person] = await buyers(1);
    const now = new Date();
    // 50 joins at once through two copies of the queue: batched together or not, the unique index leaves one row.
    const other = new QueueMemory();
    try {
      const joins = await Promise.all(Array.from({ length: 50 }, async (_, i) => joinQueue(await as(person, now), event.slug, i % 2 ? other : queueMemory)));
      expect(new Set(joins.map((j) => j.id)).size).toBe(1);
      const db = await getDb();
      const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(queuePlaces).where(eq(queuePlaces.eventId, event.id));
      expect(n).toBe(1);
    } finally {
      other.close();
    }
  });
});

describe("la fila virtual: altas", () => {
  it("limits new places per IP, but asking again for one's own place is never limited", async () => {
    const { event } = await eventWithQueue({ opensAt: at(new Date(), 3600) });
    const [ana, beto] = await buyers(2);
    const ip = `198.51.100.${Math.floor(Math.random() * 200)}`;
    const now = new Date();
    const mine = await joinQueue(await as(ana, now, ip), event.slug);
    const db = await getDb();
    await db.insert(loginAttempts).values(Array.from({ length: JOINS_PER_IP }, () => ({ key: `queue-join:ip:${ip}`, createdAt: now })));
    await expect(joinQueue(await as(beto, now, ip), event.slug).catch(codeOf)).resolves.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect((await joinQueue(await as(ana, now, ip), event.slug)).id).toBe(mine.id);
    // Another address is not limited.
    await expect(joinQueue(await as(beto, now, "192.0.2.1"), event.slug)).resolves.toMatchObject({ status: "WAITING" });
  });
});

describe("la fila virtual: nadie se cuela", () => {
  it("refuses createOrder, previewOrder and the menu without an admission and accepts them with one; expired, another event's or another account's is refused", async () => {
    const opensAt = at(new Date(), -5);
    const { event, tickets, ctx: organizer } = await eventWithQueue({ opensAt, stock: 100 });
    const other = await eventWithQueue({ opensAt, stock: 100 });
    const beer = await createMenuItem({ ...organizer, now: new Date() }, { eventId: event.id, name: "Cerveza", category: "drink", price: 300_000, stock: 50 });
    const [ana, beto] = await buyers(2);
    const now = new Date();
    const order = { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" as const };
    const refusal = { code: "QUEUE_REQUIRED", reason: event.slug };

    // Anonymous, and signed in without a place.
    await expect(createOrder(await ctxAs(undefined, now), order).catch(codeOf)).resolves.toEqual(refusal);
    await expect(createOrder(await as(ana, now), order).catch(codeOf)).resolves.toEqual(refusal);
    await expect(previewOrder(await as(ana, now), { eventSlug: event.slug, items: order.items }).catch(codeOf)).resolves.toEqual(refusal);
    await expect(previewMenuOrder(await as(ana, now), event.slug, [{ ticketId: beer.id, qty: 1 }]).catch(codeOf)).resolves.toEqual(refusal);

    // Waiting is not enough.
    await joinQueue(await as(ana, now), event.slug);
    await expect(createOrder(await as(ana, now), order).catch(codeOf)).resolves.toEqual(refusal);
    expect(await isAdmitted(await as(ana, now), event.id)).toBe(false);

    await tick(at(now, 1), queueMemory, event.id);
    const place = (await queuePlace(await as(ana, at(now, 2)), event.slug))!;
    expect(place.status).toBe("ADMITTED");
    expect(place.grant).not.toBeNull();

    // GraphQL's way: the account's own admission.
    const preview = await previewOrder(await as(ana, at(now, 2)), { eventSlug: event.slug, items: order.items });
    expect(preview.total).toBeGreaterThan(0);
    // The page's way: the cookie's grant, for this event and account.
    const grant = verifyAdmission(signAdmission(place.grant!), at(now, 2))!;
    expect(admissionCookieHeader(grant, at(now, 2))).toContain(`${ADMISSION_COOKIE}=`);
    const withGrant = { ...(await as(ana, at(now, 3))), admission: grant };
    expect(await isAdmitted(withGrant, event.id)).toBe(true);
    await expect(previewMenuOrder(withGrant, event.slug, [{ ticketId: beer.id, qty: 1 }])).resolves.toMatchObject({ ok: true });
    const placed = await createOrder(withGrant, order);
    expect(placed.order.status).toBeDefined();

    // Another account with Ana's grant, and Ana's grant at another event: refused.
    await expect(createOrder({ ...(await as(beto, at(now, 3))), admission: grant }, order).catch(codeOf)).resolves.toEqual(refusal);
    await expect(
      createOrder({ ...(await as(ana, at(now, 3))), admission: grant }, { ...order, eventSlug: other.event.slug, items: [{ ticketId: other.tickets.General.id, qty: 1 }] }).catch(codeOf),
    ).resolves.toEqual({ code: "QUEUE_REQUIRED", reason: other.event.slug });

    // A forged or tampered grant is nothing.
    expect(verifyAdmission(signAdmission(grant).replace(/.$/, (c) => (c === "A" ? "B" : "A")), at(now, 3))).toBeNull();

    // Expired: the grant is no longer read, the place is gone at the next tick, and buying is refused.
    const later = at(grant.expiresAt, 1);
    expect(verifyAdmission(signAdmission(grant), later)).toBeNull();
    await expect(assertAdmitted({ ...(await as(ana, later)), admission: grant }, event.id).catch(codeOf)).resolves.toEqual(refusal);
    await tick(later, queueMemory, event.id);
    expect((await queuePlace(await as(ana, later), event.slug))!).toMatchObject({ status: "CLOSED", closedReason: "EXPIRED" });
    await expect(createOrder(await as(ana, later), order).catch(codeOf)).resolves.toEqual(refusal);
  });

  it("lets everyone buy when the event's queue is off", async () => {
    const { event, tickets, ctx: organizer } = await eventWithQueue({ opensAt: at(new Date(), -5) });
    await setEventQueue({ ...organizer, now: new Date() }, { eventId: event.id, enabled: false, opensAt: at(new Date(), -5) });
    await queueMemory.settled(event.id);
    const [ana] = await buyers(1);
    const preview = await previewOrder(await as(ana, new Date()), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }] });
    expect(preview.total).toBeGreaterThan(0);
  });
});

describe("la fila virtual: un solo admisor a la vez", () => {
  it("a tick does nothing while another process holds the admitter's lock", async () => {
    const db = await getDb();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ADMITTER_LOCK_KEY})`);
      locked();
      await held;
    });
    await isLocked;
    try {
      expect(await runAdmissionTick(db, new Date())).toEqual({ acted: false, admitted: 0 });
    } finally {
      release();
      await holder;
    }
    expect((await runAdmissionTick(db, new Date())).acted).toBe(true);
  });
});

describe("la fila virtual: el admisor solo", () => {
  it("once started, admits every second without anyone calling it", async () => {
    const { event } = await eventWithQueue({ opensAt: at(new Date(), -5), stock: 10 });
    const [ana] = await buyers(1);
    await joinQueue(await as(ana, new Date()), event.slug);
    const ticker = ensureQueueTicker(await getDb(), { force: true, everyMs: 100 })!;
    try {
      const deadline = Date.now() + 5_000;
      while ((await queuePlace(await as(ana, new Date()), event.slug))!.status !== "ADMITTED") {
        if (Date.now() > deadline) throw new Error("Nadie admitió en 5 s");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      ticker.stop();
    }
  });
});

describe("la fila virtual: honesta con el stock", () => {
  it("admits only as many as the stock can serve, tells everyone waiting it sold out, resumes when held tickets come back, and stops while paused", async () => {
    const opensAt = at(new Date(), -5);
    const { event, tickets, ctx: organizer } = await eventWithQueue({ opensAt, stock: 4 });
    const people = await buyers(6);
    const now = new Date();
    for (const p of people) await joinQueue(await as(p, now), event.slug);
    await tick(at(now, 1), queueMemory, event.id);
    const view = async (i: number, when: Date) => (await queuePlace(await as(people[i], when), event.slug))!;
    const statuses = async (when: Date) => Promise.all(people.map(async (_, i) => (await view(i, when)).status));

    // 4 tickets, 2 per person expected: two admitted.
    const first = await statuses(at(now, 2));
    expect(first.filter((s) => s === "ADMITTED")).toHaveLength(2);
    const admitted = people.filter((_, i) => first[i] === "ADMITTED");
    const waitingOne = people.findIndex((_, i) => first[i] === "WAITING");
    expect((await view(waitingOne, at(now, 2))).ahead).toBeGreaterThanOrEqual(0);

    // Both buy all 4 (held): sold out reaches everyone waiting.
    const orders = [];
    for (const p of admitted) orders.push(await createOrder(await as(p, at(now, 3)), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" }));
    await tick(at(now, 4), queueMemory, event.id);
    const soldOut = await statuses(at(now, 5));
    expect(soldOut.filter((s) => s === "SOLD_OUT")).toHaveLength(4);
    expect((await queueInfo(await ctxAs(undefined, at(now, 5)), event.slug))!.soldOut).toBe(true);

    // One hold expires: 2 tickets come back, one more person is admitted.
    const db = await getDb();
    const [ord] = orders;
    await expireOrder(await ctxAs(undefined, at(ord.order.holdExpiresAt!, 1)), ord.order.id);
    const [row] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, tickets.General.id));
    expect(row.stock - row.sold).toBe(2);

    // Paused: nobody is admitted, even with stock back.
    await pauseEventQueue({ ...organizer, now: at(now, 6) }, event.id);
    await tick(at(now, 7), queueMemory, event.id);
    expect((await statuses(at(now, 8))).filter((s) => s === "ADMITTED")).toHaveLength(2);
    expect((await statuses(at(now, 8))).filter((s) => s === "WAITING")).toHaveLength(4);

    await resumeEventQueue({ ...organizer, now: at(now, 9) }, event.id);
    await tick(at(now, 10), queueMemory, event.id);
    const resumed = await statuses(at(now, 11));
    expect(resumed.filter((s) => s === "ADMITTED")).toHaveLength(3);

    const counts = await eventQueue({ ...organizer, now: at(now, 11) }, event.id);
    expect(counts).toMatchObject({ waiting: 3, admitted: 3, soldOut: false, paused: false, total: 6 });
    const [q] = await db.select().from(eventQueues).where(eq(eventQueues.eventId, event.id));
    expect(q.admittedThrough).toBe(3);
  });

  it("the last ticket still lets one person in, and only one", async () => {
    const { event } = await eventWithQueue({ opensAt: at(new Date(), -5), stock: 1 });
    const people = await buyers(3);
    const now = new Date();
    for (const p of people) await joinQueue(await as(p, now), event.slug);
    await tick(at(now, 1), queueMemory, event.id);
    await tick(at(now, 2), queueMemory, event.id);
    const statuses = await Promise.all(people.map(async (p) => (await queuePlace(await as(p, at(now, 3)), event.slug))!.status));
    expect(statuses.filter((s) => s === "ADMITTED")).toHaveLength(1);
    expect(statuses.filter((s) => s === "WAITING")).toHaveLength(2);
  });

  it("an admitted buyer who pays is counted as bought, and stops counting against the stock as someone about to buy", async () => {
    const { event, tickets, ctx: organizer } = await eventWithQueue({ opensAt: at(new Date(), -5), stock: 100 });
    const [ana] = await buyers(1);
    const now = new Date();
    await joinQueue(await as(ana, now), event.slug);
    await tick(at(now, 1), queueMemory, event.id);
    const placed = await createOrder(await as(ana, at(now, 2)), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    const { payInSandbox } = await import("#server/payment-notifications/sandbox");
    await payInSandbox(await getDb(), placed.billing.id, "approved");
    expect(await eventQueue({ ...organizer, now: at(now, 3) }, event.id)).toMatchObject({ admitted: 0, bought: 1, waiting: 0 });
  });

  it("an admission that expires unused is gone and the next person in line comes in", async () => {
    const { event } = await eventWithQueue({ opensAt: at(new Date(), -5), stock: 2 });
    const people = await buyers(2);
    const now = new Date();
    for (const p of people) await joinQueue(await as(p, now), event.slug);
    await tick(at(now, 1), queueMemory, event.id);
    const views = async (when: Date) => Promise.all(people.map(async (p) => (await queuePlace(await as(p, when), event.slug))!));
    const first = await views(at(now, 2));
    // Two tickets, two per buyer expected: one at a time.
    expect(first.map((v) => v.status).sort()).toEqual(["ADMITTED", "WAITING"]);
    const admitted = first.find((v) => v.status === "ADMITTED")!;
    const later = at(admitted.admissionExpiresAt!, 1);
    await tick(later, queueMemory, event.id);
    const second = await views(later);
    expect(second.find((v) => v.id === admitted.id)).toMatchObject({ status: "CLOSED", closedReason: "EXPIRED" });
    expect(second.find((v) => v.id !== admitted.id)).toMatchObject({ status: "ADMITTED" });
  });

  it("never admits more per minute than the set pace", async () => {
    const opensAt = at(new Date(), -5);
    const { event } = await eventWithQueue({ opensAt, stock: 1000, admitPerMinute: 3 });
    const people = await buyers(10);
    const now = new Date();
    for (const p of people) await joinQueue(await as(p, now), event.slug);
    expect((await tick(at(now, 1), queueMemory, event.id)).admitted).toBe(3);
    await tick(at(now, 20), queueMemory, event.id);
    await tick(at(now, 40), queueMemory, event.id);
    const db = await getDb();
    const [q] = await db.select().from(eventQueues).where(eq(eventQueues.eventId, event.id));
    expect(q.admittedThrough).toBe(3);
    await tick(at(now, 62), queueMemory, event.id);
    const [q2] = await db.select().from(eventQueues).where(eq(eventQueues.eventId, event.id));
    expect(q2.admittedThrough).toBe(6);
  });
});
