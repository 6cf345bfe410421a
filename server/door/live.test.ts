import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connectPostgres, getDb } from "#server/db/client";
import { liveStreams, memberships, ticketTypes } from "#server/db/schema";
import { removeMember } from "#server/team/team";
import { actorFor, createTestUser, ctxAs, sessionTokensFor } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { buyPaid, createSeatedEvent } from "#tests/support/seating";
import { hasPostgresServer, withDatabase } from "#tests/support/db";
import { createMenuItem } from "#server/menu/menu";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { LIVE_ACCESS_ENDED, LIVE_STREAM_STALE_SECONDS, LIVE_STREAMS_PER_ACCOUNT, TOO_MANY_LIVE_STREAMS, liveNight, openLiveNight, type LiveNight } from "./live";
import { redeemAtDoor } from "./redeem";
import type { DoorAccess } from "./access";
import { until } from "#tests/support/until";

/** An operator of tonight's event, acting from a real sign-in (a session id, as every request's actor has). */
async function operatorOfTonight() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0 });
  const operator = await createTestUser();
  await (await getDb()).insert(memberships).values({ organizationId: producer.organization.id, userId: operator.id, role: "operator" });
  const { sessionId } = await sessionTokensFor(operator.id);
  const actor = actorFor(operator);
  if (actor.kind !== "user") throw new Error("unreachable");
  const ctx = await ctxAs({ ...actor, sessionId });
  return { producer, event, operator, ctx };
}

describe("openLiveNight", () => {
  it("checks access again on its own, with nothing happening at the door: a removed member's stream ends", async () => {
    const { producer, event, operator, ctx } = await operatorOfTonight();
    const stream = await openLiveNight(ctx, event.slug, { recheckMs: 100 });
    expect((await stream.next()).value).toMatchObject({ event: { slug: event.slug }, entered: 0 });
    const waiting = stream.next().then(
      (step) => ({ step }),
      (error: unknown) => ({ error }),
    );
    await removeMember(producer.ctx, { organizationId: producer.organization.id, userId: operator.id });
    // No scan, no update: only the periodic check can end it.
    expect(await waiting).toEqual({ error: expect.objectContaining({ code: "FORBIDDEN", message: LIVE_ACCESS_ENDED }) });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it("ends at once when the phone goes away, even while waiting for an update", async () => {
    const { event, ctx } = await operatorOfTonight();
    const controller = new AbortController();
    const stream = await openLiveNight(ctx, event.slug, { signal: controller.signal });
    await stream.next();
    const waiting = stream.next();
    controller.abort();
    expect(await waiting).toEqual({ value: undefined, done: true });

    const other = await openLiveNight(ctx, event.slug);
    await other.next();
    const pending = other.next();
    await other.return!();
    expect(await pending).toEqual({ value: undefined, done: true });
  });
});

/** The account's rows in `live_streams`: its open streams, on every process. */
async function streamRowsOf(userId: string) {
  return (await getDb()).select().from(liveStreams).where(eq(liveStreams.userId, userId));
}

/** The first step of each stream, all at once: how many opened and how many were refused (and why). */
async function openAll(streams: AsyncIterableIterator<LiveNight>[]) {
  const steps = await Promise.allSettled(streams.map((stream) => stream.next()));
  const refusals = steps.flatMap((step) => (step.status === "rejected" ? [step.reason as { code: string; message: string }] : []));
  return { opened: steps.length - refusals.length, refusals };
}

describe("live streams per account, across processes (decision 167)", () => {
  it.skipIf(!hasPostgresServer)(`two processes opening streams of one account at once hold ${LIVE_STREAMS_PER_ACCOUNT} between them, not ${LIVE_STREAMS_PER_ACCOUNT} each`, async () => {
    const { event, operator, ctx } = await operatorOfTonight();
    // The other process: a pool of its own on the same database.
    const [{ name }] = (await ctx.db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
    const otherProcess = connectPostgres(withDatabase(process.env.DATABASE_URL!, name), { max: 10 });
    const streams: AsyncIterableIterator<LiveNight>[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        streams.push(await openLiveNight(ctx, event.slug));
        streams.push(await openLiveNight({ ...ctx, db: otherProcess.db }, event.slug));
      }
      const { opened, refusals } = await openAll(streams);
      expect(opened).toBe(LIVE_STREAMS_PER_ACCOUNT);
      expect(refusals).toHaveLength(16 - LIVE_STREAMS_PER_ACCOUNT);
      for (const refusal of refusals) expect(refusal).toMatchObject({ code: "TOO_MANY_REQUESTS", message: TOO_MANY_LIVE_STREAMS });
      expect(await streamRowsOf(operator.id)).toHaveLength(LIVE_STREAMS_PER_ACCOUNT);
    } finally {
      await Promise.all(streams.map((stream) => stream.return!()));
      // Closed streams give their places back, whichever process held them.
      await until(async () => (await streamRowsOf(operator.id)).length === 0);
      await otherProcess.close();
    }
  });

  it(`a process that died holds no place once its streams go ${LIVE_STREAM_STALE_SECONDS} s without a heartbeat`, async () => {
    const { event, operator, ctx } = await operatorOfTonight();
    const db = await getDb();
    // Another process's streams, its last heartbeat 30 s ago: still alive, they count.
    await db.insert(liveStreams).values(
      Array.from({ length: LIVE_STREAMS_PER_ACCOUNT }, () => ({ userId: operator.id, processId: "otra-maquina:4242", heartbeatAt: sql`now() - interval '30 seconds'` })),
    );
    const refused = await openLiveNight(ctx, event.slug);
    await expect(refused.next()).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: TOO_MANY_LIVE_STREAMS });

    // The process died: no heartbeat for longer than the window.
    await db
      .update(liveStreams)
      .set({ heartbeatAt: sql`now() - make_interval(secs => ${LIVE_STREAM_STALE_SECONDS + 1})` })
      .where(eq(liveStreams.processId, "otra-maquina:4242"));
    const stream = await openLiveNight(ctx, event.slug);
    expect((await stream.next()).value).toMatchObject({ event: { slug: event.slug } });
    // Its rows are gone; this stream's is the account's only one.
    expect((await streamRowsOf(operator.id)).map((row) => row.processId)).toEqual([expect.not.stringMatching("otra-maquina")]);
    await stream.return!();
  });

  it("an open stream keeps its place alive with a heartbeat on every access check", async () => {
    const { event, operator, ctx } = await operatorOfTonight();
    const stream = await openLiveNight(ctx, event.slug, { recheckMs: 100 });
    await stream.next();
    const db = await getDb();
    await db
      .update(liveStreams)
      .set({ heartbeatAt: sql`now() - interval '80 seconds'` })
      .where(eq(liveStreams.userId, operator.id));
    await until(async () => {
      const [row] = await streamRowsOf(operator.id);
      return row.heartbeatAt.getTime() > Date.now() - 5_000;
    });
    await stream.return!();
    await until(async () => (await streamRowsOf(operator.id)).length === 0);
  });
});

const PAYER = { firstName: "Ana", lastName: "Peña", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

describe("liveNight's latest scans", () => {
  it("say what was redeemed: the person at the door, the product at the bar, and repeats as such", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
    const db = await getDb();
    const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const drink = await createMenuItem(producer.ctx, { eventId: event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "10" });
    const buy = async (ticketId: string) => {
      const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
      await payInSandbox(db, billing.id, "approved");
      return (await ticketsOfOrder(db, order.id))[0];
    };
    const ticket = await buy(general.id);
    const served = await buy(drink.id);
    const access: DoorAccess = { event: { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug }, userId: producer.user.id, pinSessionId: null };

    // The bar phone is still named after its door: the bar is recorded as the bar.
    const start = Date.now();
    const scans = [
      { code: qrPayloadFor(ticket.code), door: "Puerta 2" },
      { code: qrPayloadFor(served.code), door: "Puerta 2", mode: "bar" as const },
      { code: qrPayloadFor(served.code), door: "Puerta 2", mode: "bar" as const },
      { code: qrPayloadFor(ticket.code), door: "Puerta 1" },
    ];
    // A second apart, so the log's order is the scans' order.
    for (const [i, scan] of scans.entries()) await redeemAtDoor({ ...producer.ctx, now: new Date(start + i * 1000) }, access, scan);

    const night = await liveNight(producer.ctx, event.slug);
    expect(night.latestScans.map((s) => [s.door, s.line])).toEqual([
      ["Puerta 1", "Ya ingresó · Ana Peña"],
      ["Barra", "Ya se entregó · Fernet con coca"],
      ["Barra", "Entregada · Fernet con coca · Ana Peña"],
      ["Puerta 2", "Ingresó · Ana Peña"],
    ]);
    expect(night.latestScans[2]).toMatchObject({ productKind: "menu", ticketTypeName: "Fernet con coca" });
    expect(night.latestScans.every((s) => s.seatLabel === null)).toBe(true);
  });

  it("say where a numbered ticket sits; a general one shows no seat", async () => {
    const made = await createSeatedEvent({ days: 0 });
    const [seated] = (await buyPaid(made, { seats: ["F12"] })).tickets;
    const [general] = (await buyPaid(made, { general: 1, email: "ana.pena@example.com" })).tickets;
    const access: DoorAccess = { event: { id: made.event.id, organizationId: made.organization.id, name: made.event.name, slug: made.event.slug }, userId: made.user.id, pinSessionId: null };
    const start = Date.now();
    await redeemAtDoor({ ...made.ctx, now: new Date(start) }, access, { code: qrPayloadFor(seated.code), door: "Puerta 1" });
    await redeemAtDoor({ ...made.ctx, now: new Date(start + 1000) }, access, { code: qrPayloadFor(general.code), door: "Puerta 1" });
    await redeemAtDoor({ ...made.ctx, now: new Date(start + 2000) }, access, { code: qrPayloadFor(seated.code), door: "Puerta 2" });

    const night = await liveNight(made.ctx, made.event.slug);
    expect(night.latestScans.map((s) => [s.door, s.outcome, s.ticketTypeName, s.seatLabel])).toEqual([
      ["Puerta 2", "already_in", "Platea", "Platea · Fila F · Asiento 12"],
      ["Puerta 1", "admitted", "General", null],
      ["Puerta 1", "admitted", "Platea", "Platea · Fila F · Asiento 12"],
    ]);
  });
});
