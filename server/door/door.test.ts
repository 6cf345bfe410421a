import { createHmac, pbkdf2Sync } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { doorScans, issuedProducts, memberships, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { listOrganizationOrders } from "#server/refunds/sales";
import { newTicketCode, ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { DOOR_PIN_LIMITS, doorPinOf, listDoorPins, openDoor, revokeDoorPin, rotateDoorPin, unlockDoor, type DoorAccess } from "./access";
import { redeemAtDoor, syncDoorScans, type DoorAnswer, type DoorScanRefused } from "./redeem";
import { doorManifest } from "./manifest";
import { parseShortTicketCode, shortTicketCode, verdictDetail } from "#common/door";
import type { DoorManifest } from "#common/door-manifest";

/** A synced scan's outcome, or the refusal's reason. */
const outcomeOf = (answer: DoorAnswer | DoorScanRefused) => ("error" in answer ? answer.error.reason : answer.outcome);
const hmac = (key: string, value: string) => createHmac("sha256", Buffer.from(key, "base64url")).update(value).digest().subarray(0, 16).toString("base64url");

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** A producer's event tonight with `qty` paid General tickets. */
async function nightWithTickets(qty = 2, options: { days?: number } = {}) {
  const producer = await createProducer();
  const { event, date } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    days: options.days ?? 0,
    ticketTypes: [{ name: "General", price: 1_000_000, stock: 1000 }],
  });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const buyer = await ctxAs();
  const { order, billing } = await createOrder(buyer, { eventSlug: event.slug, items: [{ ticketId: general.id, qty }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  // Sold an hour ago: an offline scan minutes ago is after the ticket was issued (decision 149).
  await db.update(issuedProducts).set({ createdAt: new Date(Date.now() - 3600_000) }).where(eq(issuedProducts.orderId, order.id));
  const tickets = await ticketsOfOrder(db, order.id);
  const access: DoorAccess = { event: { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug }, userId: producer.user.id, pinSessionId: null };
  return { db, producer, event, date, order, tickets, access };
}

describe("redeemAtDoor", () => {
  it("admits a signed QR once; the second scan says when and through which door it got in", async () => {
    const { producer, tickets, access } = await nightWithTickets();
    const first = await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[0].code), door: "Puerta 2" });
    expect(first).toMatchObject({ outcome: "admitted", holderName: "Sofía Peña", ticketTypeName: "General" });
    const again = await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[0].code), door: "Puerta 1" });
    expect(again).toMatchObject({ outcome: "already_in", redeemedDoor: "Puerta 2" });
    expect(new Date(again.redeemedAt!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // A ticket code typed by hand works like the QR.
    expect(await redeemAtDoor(producer.ctx, access, { code: ` ${tickets[1].code} ` })).toMatchObject({ outcome: "admitted" });
  });

  it("a repeat scan's verdict says whose ticket it was, online and when the same scan id is sent again", async () => {
    const { producer, tickets, access } = await nightWithTickets();
    await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[0].code), door: "Puerta 2" });
    const again = await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[0].code), door: "Puerta 1", scanId: "repeat-1" });
    expect(again).toMatchObject({ outcome: "already_in", holderName: "Sofía Peña", redeemedDoor: "Puerta 2" });
    // What the screen and GraphQL's `detail` say: when, where and who.
    expect(verdictDetail(again)).toMatch(/^Ya ingresó a las \d{2}:\d{2} por Puerta 2: Sofía Peña\.$/);
    const resent = await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[0].code), door: "Puerta 1", scanId: "repeat-1" });
    expect(verdictDetail(resent)).toContain("Sofía Peña");
  });

  it("refuses forged, unknown, voided and other events' codes, and records every scan", async () => {
    const { db, producer, tickets, access } = await nightWithTickets(3);
    const payload = qrPayloadFor(tickets[0].code);
    const forged = `${payload.slice(0, -2)}${payload.endsWith("AA") ? "BB" : "AA"}`;
    expect(await redeemAtDoor(producer.ctx, access, { code: forged })).toEqual(expect.objectContaining({ outcome: "unknown" }));
    expect(await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(newTicketCode()) })).toMatchObject({ outcome: "unknown" });
    expect(await redeemAtDoor(producer.ctx, access, { code: "hola; drop table" })).toMatchObject({ outcome: "unknown" });

    await db.update(issuedProducts).set({ status: "voided" }).where(eq(issuedProducts.id, tickets[1].id));
    expect(await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[1].code) })).toMatchObject({ outcome: "voided" });

    const other = await nightWithTickets(1);
    const answer = await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(other.tickets[0].code) });
    expect(answer).toEqual({ scanId: answer.scanId, outcome: "other_event", otherEventName: other.event.name });
    const [stillValid] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, other.tickets[0].id));
    expect(stillValid.status).toBe("redeemable");

    const scans = await db.select().from(doorScans).where(eq(doorScans.eventId, access.event.id));
    expect(scans.map((s) => s.outcome).sort()).toEqual(["other_event", "unknown", "unknown", "unknown", "voided"]);
  });

  it("a ticket for another date of the event is refused with its date", async () => {
    const { db, producer, event, tickets, access } = await nightWithTickets(1, { days: 7 });
    const { addEventDate } = await import("#server/events/events");
    const tonight = new Date(Date.now() + 3600_000);
    const other = await addEventDate(producer.ctx, { eventId: event.id, startsAt: tonight.toISOString(), endsAt: new Date(tonight.getTime() + 5 * 3600_000).toISOString() });
    const answer = await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[0].code) });
    expect(answer.outcome).toBe("other_date");
    expect(answer.eventDateStartsAt).toBeTruthy();
    expect((await db.select().from(doorScans).where(eq(doorScans.scanId, answer.scanId)))[0].eventDateId).toBe(other.id);
  });

  it("the same scan id sent twice is applied once and answers the same", async () => {
    const { db, producer, tickets, access } = await nightWithTickets(1);
    const scan = { code: qrPayloadFor(tickets[0].code), scanId: "device-a:1", door: "Puerta 1", deviceId: "device-a" };
    const first = await redeemAtDoor(producer.ctx, access, scan);
    const resend = await redeemAtDoor(producer.ctx, access, scan);
    expect(first.outcome).toBe("admitted");
    expect(resend).toEqual(first);
    expect(await db.select().from(doorScans).where(eq(doorScans.issuedProductId, tickets[0].id))).toHaveLength(1);
  });
});

describe("syncDoorScans (offline queues)", () => {
  it("the same queue synced twice redeems each ticket once", async () => {
    const { db, producer, tickets, access } = await nightWithTickets(3);
    const t0 = Date.now() - 10 * 60_000;
    const queue = tickets.map((t, i) => ({ code: qrPayloadFor(t.code), scanId: `dev-1:${i}`, deviceId: "dev-1", door: "Puerta 1", scannedAt: new Date(t0 + i * 1000).toISOString(), acceptedOffline: true }));
    const first = await syncDoorScans(producer.ctx, access, queue);
    const second = await syncDoorScans(producer.ctx, access, queue);
    expect(first.map(outcomeOf)).toEqual(["admitted", "admitted", "admitted"]);
    expect(second).toEqual(first);
    const rows = await db.select().from(doorScans).where(eq(doorScans.eventId, access.event.id));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.offline)).toBe(true);
    const redeemed = await ticketsOfOrder(db, tickets[0].orderId);
    expect(redeemed.map((t) => t.status)).toEqual(["redeemed", "redeemed", "redeemed"]);
    // Redeemed at the device's scan time, not when the queue arrived.
    expect(redeemed[0].redeemedAt!.getTime()).toBe(t0);
  });

  it("two devices that let the same ticket in offline: one redemption (the earlier scan), one conflict", async () => {
    const { db, producer, tickets, access } = await nightWithTickets(1);
    const code = qrPayloadFor(tickets[0].code);
    const early = new Date(Date.now() - 5 * 60_000);
    const late = new Date(Date.now() - 2 * 60_000);
    // The later scan syncs first; the earlier one arrives afterwards and takes the redemption.
    const [fromB] = await syncDoorScans(producer.ctx, access, [{ code, scanId: "b:1", deviceId: "b", door: "Puerta 2", scannedAt: late, acceptedOffline: true }]);
    const [fromA] = await syncDoorScans(producer.ctx, access, [{ code, scanId: "a:1", deviceId: "a", door: "Puerta 1", scannedAt: early, acceptedOffline: true }]);
    expect(outcomeOf(fromB)).toBe("admitted");
    expect(outcomeOf(fromA)).toBe("admitted");
    const [ticket] = await ticketsOfOrder(db, tickets[0].orderId);
    expect(ticket).toMatchObject({ status: "redeemed", redeemedDoor: "Puerta 1" });
    expect(ticket.redeemedAt!.getTime()).toBe(early.getTime());
    const rows = await db.select().from(doorScans).where(eq(doorScans.issuedProductId, ticket.id));
    expect(rows.map((r) => [r.deviceId, r.outcome]).sort()).toEqual([["a", "admitted"], ["b", "conflict"]]);

    // A third device that also let it in offline, later: a conflict naming the first door.
    const [fromC] = await syncDoorScans(producer.ctx, access, [{ code, scanId: "c:1", deviceId: "c", door: "Puerta 3", scannedAt: new Date(), acceptedOffline: true }]);
    expect(fromC).toMatchObject({ outcome: "conflict", redeemedDoor: "Puerta 1" });
  });

  it("a forged or other event's code is refused in a synced queue too", async () => {
    const { producer, access } = await nightWithTickets(1);
    const other = await nightWithTickets(1);
    const answers = await syncDoorScans(producer.ctx, access, [
      { code: "TRB1.AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB", scanId: "x:1", acceptedOffline: true },
      { code: qrPayloadFor(other.tickets[0].code), scanId: "x:2", acceptedOffline: true },
    ]);
    expect(answers.map(outcomeOf)).toEqual(["unknown", "other_event"]);
  });
});

describe("scan ids belong to their event (decision 149)", () => {
  it("another organizer's door replaying a scan id judges its own ticket and never answers with ours", async () => {
    const a = await nightWithTickets(2);
    const b = await nightWithTickets(2);
    await b.db.update(issuedProducts).set({ holderName: "Bruno Díaz" }).where(eq(issuedProducts.orderId, b.order.id));

    // A's door first, then B's door with the same scan id: B's own ticket is judged and let in.
    const fromA = await redeemAtDoor(a.producer.ctx, a.access, { code: qrPayloadFor(a.tickets[0].code), scanId: "scan-1", door: "Puerta A" });
    expect(fromA).toMatchObject({ outcome: "admitted", holderName: "Sofía Peña" });
    const fromB = await redeemAtDoor(b.producer.ctx, b.access, { code: qrPayloadFor(b.tickets[0].code), scanId: "scan-1", door: "Puerta B" });
    expect(fromB).toMatchObject({ scanId: "scan-1", outcome: "admitted", holderName: "Bruno Díaz", redeemedDoor: "Puerta B" });
    expect(JSON.stringify(fromB)).not.toContain("Sofía");

    // B's door first this time: A's real ticket is not blocked by it.
    const firstB = await redeemAtDoor(b.producer.ctx, b.access, { code: qrPayloadFor(b.tickets[1].code), scanId: "scan-2", door: "Puerta B" });
    expect(firstB).toMatchObject({ outcome: "admitted", holderName: "Bruno Díaz" });
    const thenA = await redeemAtDoor(a.producer.ctx, a.access, { code: qrPayloadFor(a.tickets[1].code), scanId: "scan-2", door: "Puerta A" });
    expect(thenA).toMatchObject({ outcome: "admitted", holderName: "Sofía Peña", redeemedDoor: "Puerta A" });

    // Both events' tickets got in, each recorded under its own event; resending within an event still changes nothing.
    const statuses = [...(await ticketsOfOrder(a.db, a.order.id)), ...(await ticketsOfOrder(b.db, b.order.id))].map((t) => t.status);
    expect(statuses).toEqual(["redeemed", "redeemed", "redeemed", "redeemed"]);
    expect(await redeemAtDoor(b.producer.ctx, b.access, { code: qrPayloadFor(b.tickets[0].code), scanId: "scan-1", door: "Puerta B" })).toEqual(fromB);
    const scans = await a.db.select({ eventId: doorScans.eventId }).from(doorScans).where(eq(doorScans.scanId, "scan-1"));
    expect(scans.map((s) => s.eventId).sort()).toEqual([a.event.id, b.event.id].sort());
  });
});

describe("offline scan times (decision 149)", () => {
  it("a scan dated 1970, year 1 or the earliest JavaScript date is refused on its own; the real entry keeps its time and the rest of the queue is judged", async () => {
    const { db, producer, tickets, access } = await nightWithTickets(3);
    const code = qrPayloadFor(tickets[0].code);
    const real = await redeemAtDoor(producer.ctx, access, { code, scanId: "real:1", door: "Puerta 1", deviceId: "online" });
    expect(real.outcome).toBe("admitted");
    const [before] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, tickets[0].id));

    const early = ["1970-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "-271821-04-20T00:00:00Z"];
    const queue = [
      ...early.map((scannedAt, i) => ({ code, scanId: `old:${i}`, deviceId: "old", door: "Puerta 9", scannedAt, acceptedOffline: true })),
      { code, scanId: "old:nan", deviceId: "old", door: "Puerta 9", scannedAt: "ayer a la noche", acceptedOffline: true },
      { code: qrPayloadFor(tickets[1].code), scanId: "old:ok", deviceId: "old", door: "Puerta 9", scannedAt: new Date(Date.now() - 60_000).toISOString(), acceptedOffline: true },
    ];
    const answers = await syncDoorScans(producer.ctx, access, queue);
    expect(answers.map((a) => ("error" in a ? [a.scanId, a.error.code, a.error.reason] : [a.scanId, a.outcome]))).toEqual([
      ["old:0", "BAD_USER_INPUT", "SCAN_TIME_BEFORE_DOOR_OPENED"],
      ["old:1", "BAD_USER_INPUT", "SCAN_TIME_BEFORE_DOOR_OPENED"],
      ["old:2", "BAD_USER_INPUT", "SCAN_TIME_BEFORE_DOOR_OPENED"],
      ["old:nan", "BAD_USER_INPUT", "SCAN_TIME_INVALID"],
      ["old:ok", "admitted"],
    ]);
    const [after] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, tickets[0].id));
    expect(after).toMatchObject({ status: "redeemed", redeemedDoor: "Puerta 1" });
    expect(after.redeemedAt!.getTime()).toBe(before.redeemedAt!.getTime());
    // The refused scans left nothing behind: sending them again is refused again.
    expect(await db.select().from(doorScans).where(eq(doorScans.deviceId, "old"))).toHaveLength(1);
    const again = await syncDoorScans(producer.ctx, access, queue.slice(0, 1));
    expect(again[0]).toMatchObject({ scanId: "old:0", error: { code: "BAD_USER_INPUT" } });
  });

  it("a scan dated before its ticket was issued counts from the issue; one in the future counts as now", async () => {
    const { db, producer, tickets, access } = await nightWithTickets(2);
    // Bought at the box office 10 minutes ago; the phone's clock runs 30 minutes behind.
    const issuedAt = new Date(Date.now() - 10 * 60_000);
    await db.update(issuedProducts).set({ createdAt: issuedAt }).where(eq(issuedProducts.orderId, tickets[0].orderId));
    const behind = new Date(Date.now() - 40 * 60_000).toISOString();
    const ahead = new Date(Date.now() + 3 * 3600e3).toISOString();
    const answers = await syncDoorScans(producer.ctx, access, [
      { code: qrPayloadFor(tickets[0].code), scanId: "clock:1", scannedAt: behind, acceptedOffline: true },
      { code: qrPayloadFor(tickets[1].code), scanId: "clock:2", scannedAt: ahead, acceptedOffline: true },
    ]);
    expect(answers.map((a) => ("outcome" in a ? a.outcome : a.error.message))).toEqual(["admitted", "admitted"]);
    const [first] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, tickets[0].id));
    const [second] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, tickets[1].id));
    expect(first.redeemedAt!.getTime()).toBe(issuedAt.getTime());
    expect(second.redeemedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(second.redeemedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe("the door manifest's short codes (decision 150)", () => {
  const shortOf = (code: string) => parseShortTicketCode(shortTicketCode(code))!;

  it("a copied manifest tests a guessed short code only at the cost of a slow hash with the event's own salt", async () => {
    const { producer, tickets, access } = await nightWithTickets(2);
    const other = await nightWithTickets(1);
    const manifest = JSON.parse((await doorManifest(producer.ctx, access)).payload) as DoorManifest;
    const entry = manifest.entries.find((e) => e.k === hmac(manifest.key, tickets[0].code))!;
    expect(entry).toMatchObject({ n: "Sofía Peña", st: "redeemable" });

    // What the manifest hands out (its key) no longer checks a guess with one fast hash…
    const fastGuesses = tickets.map((t) => hmac(manifest.key, shortOf(t.code)));
    expect(manifest.entries.filter((e) => fastGuesses.includes(e.s))).toEqual([]);
    // …only PBKDF2-SHA256 with thousand iterations or more, salted per event.
    expect(manifest.shortCodes).toMatchObject({ alg: "PBKDF2-SHA256", bytes: 16 });
    expect(manifest.shortCodes.iterations).toBeGreaterThanOrEqual(1000);
    const salt = Buffer.from(manifest.shortCodes.salt, "base64url");
    expect(entry.s).toBe(pbkdf2Sync(shortOf(tickets[0].code), salt, manifest.shortCodes.iterations, 16, "sha256").toString("base64url"));
    const otherManifest = JSON.parse((await doorManifest(other.producer.ctx, other.access)).payload) as DoorManifest;
    expect(otherManifest.shortCodes.salt).not.toBe(manifest.shortCodes.salt);
    // The same hashes in the next manifest (cached per process), so a phone's incremental updates match its full one.
    const again = JSON.parse((await doorManifest(producer.ctx, access)).payload) as DoorManifest;
    expect(again.entries.map((e) => e.s).sort()).toEqual(manifest.entries.map((e) => e.s).sort());
  });
});

describe("door PIN", () => {
  it("owners generate, read, rotate and revoke it; rotating or revoking closes the doors opened with the old one", async () => {
    const { producer, event } = await nightWithTickets(1);
    expect(await doorPinOf(producer.ctx, event.id)).toBeNull();
    const { pin } = await rotateDoorPin(producer.ctx, event.id);
    expect(pin).toMatch(/^\d{8}$/);
    expect((await doorPinOf(producer.ctx, event.id))?.pin).toBe(pin);
    expect((await listDoorPins(producer.ctx, producer.organization.id)).find((e) => e.id === event.id)?.pin).toBe(pin);

    const staff = await ctxAs(undefined, new Date(), "198.51.100.20");
    const { token, access, expiresAt } = await unlockDoor(staff, { slug: event.slug, pin });
    expect(access.pinSessionId).toBeTruthy();
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect((await openDoor(staff, { slug: event.slug, session: token })).event.id).toBe(event.id);

    const rotated = await rotateDoorPin(producer.ctx, event.id);
    expect(rotated.pin).not.toBe(pin);
    await expect(openDoor(staff, { slug: event.slug, session: token })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const again = await unlockDoor(staff, { slug: event.slug, pin: rotated.pin });
    await revokeDoorPin(producer.ctx, event.id);
    await expect(openDoor(staff, { slug: event.slug, session: again.token })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(unlockDoor(staff, { slug: event.slug, pin: rotated.pin })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("a PIN opens only its own event", async () => {
    const a = await nightWithTickets(1);
    const b = await nightWithTickets(1);
    const { pin } = await rotateDoorPin(a.producer.ctx, a.event.id);
    await rotateDoorPin(b.producer.ctx, b.event.id);
    const staff = await ctxAs(undefined, new Date(), "198.51.100.21");
    const { token } = await unlockDoor(staff, { slug: a.event.slug, pin });
    await expect(openDoor(staff, { slug: b.event.slug, session: token })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(unlockDoor(staff, { slug: b.event.slug, pin })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("wrong PINs are limited per address and per event, with a Spanish message; the right PIN does not count", async () => {
    const { producer, event } = await nightWithTickets(1);
    const { pin } = await rotateDoorPin(producer.ctx, event.id);
    const wrong = pin === "00000000" ? "11111111" : "00000000";
    const staff = await ctxAs(undefined, new Date(), "198.51.100.22");
    for (let i = 0; i < 5; i++) await unlockDoor(staff, { slug: event.slug, pin });
    for (let i = 0; i < DOOR_PIN_LIMITS.ip; i++) await expect(unlockDoor(staff, { slug: event.slug, pin: wrong })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    await expect(unlockDoor(staff, { slug: event.slug, pin })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.stringContaining("demasiados intentos") });

    // From many addresses, the event's own limit stops the guessing.
    let refused = 0;
    for (let i = 0; i < DOOR_PIN_LIMITS.event + 5; i++) {
      const elsewhere = await ctxAs(undefined, new Date(), `192.0.2.${i + 1}`);
      await unlockDoor(elsewhere, { slug: event.slug, pin: wrong }).catch((e) => e.code === "TOO_MANY_REQUESTS" && refused++);
    }
    expect(refused).toBeGreaterThan(0);
  });

  it("only owners and admins see or change PINs; door staff members cannot read sales", async () => {
    const { db, producer, event } = await nightWithTickets(1);
    const staffUser = await createTestUser();
    await db.insert(memberships).values({ organizationId: producer.organization.id, userId: staffUser.id, role: "staff" });
    const staffCtx = await ctxAs(actorFor({ ...staffUser, roles: [] }));
    await expect(rotateDoorPin(staffCtx, event.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(doorPinOf(staffCtx, event.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listOrganizationOrders(staffCtx, { organizationId: producer.organization.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // …but they work the door without a PIN.
    expect((await openDoor(staffCtx, { slug: event.slug })).userId).toBe(staffUser.id);
    const stranger = await ctxAs(actorFor({ ...(await createTestUser()), roles: [] }));
    await expect(openDoor(stranger, { slug: event.slug })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(openDoor(await ctxAs(), { slug: event.slug })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe.runIf(hasPostgresServer)("redeeming under concurrency (PostgreSQL)", () => {
  it("50 phones scanning the same code at once: exactly one Adelante", async () => {
    const { db, producer, tickets, access } = await nightWithTickets(1);
    const code = qrPayloadFor(tickets[0].code);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => redeemAtDoor(producer.ctx, access, { code, deviceId: `phone-${i}`, door: `Puerta ${(i % 2) + 1}` })));
    expect(answers.filter((a) => a.outcome === "admitted")).toHaveLength(1);
    expect(answers.filter((a) => a.outcome === "already_in")).toHaveLength(49);
    expect(await db.select().from(doorScans).where(eq(doorScans.issuedProductId, tickets[0].id))).toHaveLength(50);
  });

  it("500 distinct codes from 20 devices at once: 500 admitted, none twice", async () => {
    const { db, producer, order, tickets, access } = await nightWithTickets(1);
    const extra = Array.from({ length: 499 }, () => ({ ...tickets[0], id: undefined, code: newTicketCode() }));
    const inserted = await db.insert(issuedProducts).values(extra.map(({ id: _id, ...t }) => t)).returning();
    const codes = [tickets[0], ...inserted].map((t) => qrPayloadFor(t.code));
    expect(new Set(codes).size).toBe(500);
    const perDevice = Array.from({ length: 20 }, (_, d) => codes.filter((_, i) => i % 20 === d));
    const answers = (
      await Promise.all(perDevice.map(async (mine, d) => {
        const out = [];
        for (const code of mine) out.push(await redeemAtDoor(producer.ctx, access, { code, deviceId: `device-${d}`, door: "Puerta 1" }));
        return out;
      }))
    ).flat();
    expect(answers.filter((a) => a.outcome === "admitted")).toHaveLength(500);
    const after = await ticketsOfOrder(db, order.id);
    expect(after.filter((t) => t.status === "redeemed")).toHaveLength(500);
    const admittedScans = await db.select().from(doorScans).where(eq(doorScans.outcome, "admitted"));
    expect(new Set(admittedScans.filter((s) => s.eventId === access.event.id).map((s) => s.issuedProductId)).size).toBe(500);
  });
});


describe("reserved seating at the door (docs/seating.md, decision 232)", () => {
  it("the verdict, the search and the offline manifest say the seat; a general-admission ticket has none", async () => {
    const { createSeatedEvent, buyPaid } = await import("#tests/support/seating");
    const { judgeOffline } = await import("#common/door-manifest");
    const { searchAtDoor } = await import("./search");
    const made = await createSeatedEvent({ days: 0 });
    const seated = await buyPaid(made, { seats: ["F12"] });
    const general = await buyPaid(made, { general: 1 });
    const db = await getDb();
    await db.update(issuedProducts).set({ createdAt: new Date(Date.now() - 3600_000) }).where(eq(issuedProducts.eventId, made.event.id));
    const access: DoorAccess = { event: { id: made.event.id, organizationId: made.event.organizationId, name: made.event.name, slug: made.event.slug }, userId: made.user.id, pinSessionId: null };

    // Offline: the manifest's entry carries the label, and the phone's verdict shows it.
    const manifest = JSON.parse((await doorManifest(made.ctx, access)).payload) as DoorManifest;
    const entryOf = (code: string) => manifest.entries.find((e) => e.k === hmac(manifest.key, code));
    expect(entryOf(seated.tickets[0].code)?.seat).toBe("Platea · Fila F · Asiento 12");
    expect(entryOf(general.tickets[0].code)).not.toHaveProperty("seat");
    expect(judgeOffline(entryOf(seated.tickets[0].code), manifest)).toMatchObject({ outcome: "admitted", seatLabel: "Platea · Fila F · Asiento 12" });
    expect(judgeOffline(entryOf(general.tickets[0].code), manifest)).toMatchObject({ outcome: "admitted", seatLabel: null });
    // A manifest from before seats (no `seat` in its entries) still judges: the verdict just has no seat.
    const { seat: _seat, ...older } = entryOf(seated.tickets[0].code)!;
    expect(judgeOffline(older, manifest)).toMatchObject({ outcome: "admitted", holderName: "Sofía Peña", seatLabel: null });

    // Online.
    const hits = await searchAtDoor(made.ctx, access, "Peña");
    expect(hits.find((h) => h.code === seated.tickets[0].code)?.seatLabel).toBe("Platea · Fila F · Asiento 12");
    expect(hits.find((h) => h.code === general.tickets[0].code)?.seatLabel).toBeNull();
    expect(await redeemAtDoor(made.ctx, access, { code: qrPayloadFor(seated.tickets[0].code) })).toMatchObject({ outcome: "admitted", seatLabel: "Platea · Fila F · Asiento 12" });
    expect(await redeemAtDoor(made.ctx, access, { code: qrPayloadFor(general.tickets[0].code) })).toMatchObject({ outcome: "admitted", seatLabel: null });
  }, 60_000);
});
