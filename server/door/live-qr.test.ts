import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { EXPIRED_CODE_DETAIL, verdictDetail, verdictTitle } from "#common/door";
import { judgeOffline, type DoorManifest } from "#common/door-manifest";
import { base64urlToBytes, hexToBytes, LIVE_QR_PERIOD_MS, liveCodeAt, liveRefLookup, liveTicketSecret, ticketRefOf, unwrapLiveSecret, verifyLiveCode } from "#common/live-qr";
import { decryptSecret } from "#server/auth/encryption";
import { getDb } from "#server/db/client";
import { doorScans, eventLiveQr, eventResaleSettings, events, issuedProducts, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import type { DoorAccess } from "./access";
import { getEventLiveQr, liveQrKey, liveQrSettingsOf, liveTicketCredentials, setEventLiveQr } from "./live-qr";
import { doorManifest } from "./manifest";
import { redeemAtDoor, syncDoorScans } from "./redeem";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** A producer's event starting `startsInMs` from now with `qty` paid tickets, its live QR on. */
async function liveNight(qty = 3, options: { startsInMs?: number; revealHours?: number; live?: boolean } = {}) {
  const producer = await createProducer();
  const { event, date } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    startsAt: new Date(Date.now() + (options.startsInMs ?? 0)),
    ticketTypes: [{ name: "General", price: 1_000_000, stock: 1000 }],
  });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const buyer = await ctxAs();
  const { order, billing } = await createOrder(buyer, { eventSlug: event.slug, items: [{ ticketId: general.id, qty }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  await db.update(issuedProducts).set({ createdAt: new Date(Date.now() - 3600_000) }).where(eq(issuedProducts.orderId, order.id));
  const tickets = await ticketsOfOrder(db, order.id);
  if (options.live !== false) await setEventLiveQr(producer.ctx, { eventId: event.id, enabled: true, staticCodeRevealHours: options.revealHours ?? 24 });
  const access: DoorAccess = { event: { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug }, userId: producer.user.id, pinSessionId: null };
  const codeAt = async (ticketId: string, at: number) => {
    const { ticketRef, secretHex } = await liveTicketCredentials(db, event.id, ticketId);
    return liveCodeAt(hexToBytes(secretHex), ticketRef, at);
  };
  return { db, producer, event, date, tickets, access, codeAt };
}

describe("the live QR setting", () => {
  it("is on by default for named tickets, an explicit resale setting or a per-account limit, and off otherwise", async () => {
    const producer = await createProducer();
    const db = await getDb();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id);
    expect(await getEventLiveQr(producer.ctx, event.id)).toEqual({ enabled: false, chosen: false, defaultEnabled: false, staticCodeRevealHours: 24 });
    await db.update(events).set({ oneHolderPerTicket: true }).where(eq(events.id, event.id));
    expect(await liveQrSettingsOf(db, event.id)).toMatchObject({ enabled: true, chosen: false });
    await db.update(events).set({ oneHolderPerTicket: false, maxTicketsPerAccount: 4 }).where(eq(events.id, event.id));
    expect((await liveQrSettingsOf(db, event.id)).enabled).toBe(true);
    await db.update(events).set({ maxTicketsPerAccount: null }).where(eq(events.id, event.id));
    await db.insert(eventResaleSettings).values({ eventId: event.id, enabled: true });
    expect((await liveQrSettingsOf(db, event.id)).enabled).toBe(true);
    await db.update(eventResaleSettings).set({ enabled: false }).where(eq(eventResaleSettings.eventId, event.id));
    expect((await liveQrSettingsOf(db, event.id)).enabled).toBe(false);
    // The organizer's choice wins over the default, both ways.
    await setEventLiveQr(producer.ctx, { eventId: event.id, enabled: true, staticCodeRevealHours: 6 });
    expect(await liveQrSettingsOf(db, event.id)).toEqual({ enabled: true, chosen: true, defaultEnabled: false, staticCodeRevealHours: 6 });
  });

  it("validates the reveal hours and lets only the organization change it", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id);
    await expect(setEventLiveQr(producer.ctx, { eventId: event.id, enabled: true, staticCodeRevealHours: 200 })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { staticCodeRevealHours: ["Las horas van de 0 a 168 (una semana), en números enteros."] },
    });
    await expect(setEventLiveQr(producer.ctx, { eventId: event.id, enabled: true, staticCodeRevealHours: 2.5 })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    const stranger = await createProducer();
    await expect(setEventLiveQr(stranger.ctx, { eventId: event.id, enabled: false, staticCodeRevealHours: 24 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(getEventLiveQr(stranger.ctx, event.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("makes the event's key once, random and encrypted at rest", async () => {
    const { db, event } = await liveNight(1);
    const key = await liveQrKey(db, event.id);
    expect(key).toHaveLength(32);
    expect(Buffer.from(await liveQrKey(db, event.id)).equals(Buffer.from(key))).toBe(true);
    const [row] = await db.select().from(eventLiveQr).where(eq(eventLiveQr.eventId, event.id));
    expect(row.keyEncrypted).toMatch(/^v1\./);
    expect(row.keyEncrypted).not.toContain(Buffer.from(key).toString("base64url"));
    expect(Buffer.from(decryptSecret(row.keyEncrypted!, "live-qr-keys"), "base64url").equals(Buffer.from(key))).toBe(true);
  });
});

describe("redeeming a live code online", () => {
  it("admits a code one step off either side and refuses two steps off as a screenshot", async () => {
    const { producer, tickets, access, codeAt } = await liveNight(3);
    const shownAt = Date.now();
    const at = (ms: number) => ({ ...producer.ctx, now: new Date(ms) });
    // The door's clock a step ahead of the phone's.
    expect(await redeemAtDoor(at(shownAt + LIVE_QR_PERIOD_MS), access, { code: await codeAt(tickets[0].id, shownAt), door: "Puerta 1" })).toMatchObject({
      outcome: "admitted",
      holderName: "Sofía Peña",
    });
    // A step behind.
    expect(await redeemAtDoor(at(shownAt - LIVE_QR_PERIOD_MS), access, { code: await codeAt(tickets[1].id, shownAt) })).toMatchObject({ outcome: "admitted" });
    // Two steps (30 seconds): refused, whose ticket it is not said.
    const stale = await redeemAtDoor(at(shownAt + 2 * LIVE_QR_PERIOD_MS), access, { code: await codeAt(tickets[2].id, shownAt) });
    expect(stale).toEqual({ scanId: stale.scanId, outcome: "expired_code", productKind: "ticket" });
    expect(verdictTitle(stale)).toBe("Código vencido");
    expect(verdictDetail(stale)).toBe("Captura de pantalla o código vencido: pedile que abra la entrada");
    expect(EXPIRED_CODE_DETAIL).toBe(verdictDetail(stale));
    // Nothing was redeemed by it, and the scan is on record.
    const db = await getDb();
    const [ticket] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, tickets[2].id));
    expect(ticket.status).toBe("redeemable");
    const [scan] = await db.select().from(doorScans).where(eq(doorScans.scanId, stale.scanId));
    expect(scan).toMatchObject({ outcome: "expired_code", issuedProductId: tickets[2].id });
    // The same code shown now gets in.
    expect(await redeemAtDoor(at(shownAt), access, { code: await codeAt(tickets[2].id, shownAt) })).toMatchObject({ outcome: "admitted" });
  });

  it("refuses a live code a minute old, made-up digits and another event's live code", async () => {
    const { producer, tickets, access, codeAt } = await liveNight(1);
    const now = Date.now();
    expect(await redeemAtDoor({ ...producer.ctx, now: new Date(now) }, access, { code: await codeAt(tickets[0].id, now - 60_000) })).toMatchObject({ outcome: "expired_code" });
    const ref = ticketRefOf(tickets[0].id)!;
    expect(await redeemAtDoor(producer.ctx, access, { code: `TLQ1.${ref}.00000000` })).toMatchObject({ outcome: "expired_code" });
    const other = await liveNight(1);
    expect(await redeemAtDoor(producer.ctx, access, { code: await other.codeAt(other.tickets[0].id, Date.now()) })).toMatchObject({ outcome: "other_event" });
    expect(await redeemAtDoor(producer.ctx, access, { code: "TLQ1.no-es-una-entrada.12345678" })).toMatchObject({ outcome: "unknown" });
  });

  it("judges an offline queue's live code at the device's scan time", async () => {
    const { producer, tickets, access, codeAt } = await liveNight(2);
    const scannedAt = Date.now() - 10 * 60_000;
    const [ok, stale] = await syncDoorScans(producer.ctx, access, [
      { code: await codeAt(tickets[0].id, scannedAt), scanId: "live-1", scannedAt: new Date(scannedAt).toISOString(), acceptedOffline: true, door: "Puerta 3" },
      { code: await codeAt(tickets[1].id, scannedAt - 60_000), scanId: "live-2", scannedAt: new Date(scannedAt).toISOString() },
    ]);
    expect(ok).toMatchObject({ outcome: "admitted", redeemedDoor: "Puerta 3" });
    expect(stale).toMatchObject({ outcome: "expired_code" });
  });

  it("admits a live ticket's static code only from the reveal time; the search's whole code always", async () => {
    // Starts in 3 hours; the static code counts from 2 hours before.
    const { producer, tickets, access, event } = await liveNight(3, { startsInMs: 3 * 3600_000, revealHours: 2 });
    expect(await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[0].code) })).toMatchObject({ outcome: "expired_code" });
    expect(await redeemAtDoor(producer.ctx, access, { code: tickets[0].code.slice(0, 10) })).toMatchObject({ outcome: "expired_code" });
    // "Dar ingreso" from the door's search sends the whole code: staff decided.
    expect(await redeemAtDoor(producer.ctx, access, { code: tickets[1].code })).toMatchObject({ outcome: "admitted" });
    // An hour later it is within the reveal window.
    const later = { ...producer.ctx, now: new Date(Date.now() + 3600_000 + 60_000) };
    expect(await redeemAtDoor(later, access, { code: qrPayloadFor(tickets[0].code) })).toMatchObject({ outcome: "admitted" });
    // With the live QR off, the static code is as always.
    await setEventLiveQr(producer.ctx, { eventId: event.id, enabled: false, staticCodeRevealHours: 2 });
    expect(await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[2].code) })).toMatchObject({ outcome: "admitted" });
  });
});

describe("the door manifest of a live-QR event", () => {
  it("carries wrapped per-ticket secrets (never the event key nor codes) that verify live codes offline", async () => {
    const { db, producer, event, tickets, access, codeAt } = await liveNight(2, { startsInMs: 3 * 3600_000, revealHours: 2 });
    const signed = await doorManifest(producer.ctx, access);
    const manifest = JSON.parse(signed.payload) as DoorManifest;
    const eventKey = Buffer.from(await liveQrKey(db, event.id));
    expect(signed.payload).not.toContain(eventKey.toString("base64url"));
    expect(signed.payload).not.toContain(eventKey.toString("hex"));
    for (const t of tickets) expect(signed.payload).not.toContain(t.code);
    expect(manifest.entries.every((e) => e.l)).toBe(true);
    expect(Object.values(manifest.staticFrom ?? {})).toHaveLength(1);

    // What the phone does with a scanned live code (app/components/door/door-device.ts runs the same functions).
    const judge = async (code: string, atMs: number) => {
      const ref = code.split(".")[1];
      const lookup = await liveRefLookup(base64urlToBytes(manifest.key), ref);
      const entry = manifest.entries.find((e) => e.l?.r === lookup);
      const secret = entry?.l ? await unwrapLiveSecret(entry.l.x, ref) : new Uint8Array(32);
      return judgeOffline(entry, manifest, undefined, { via: "live", liveValid: (await verifyLiveCode(secret, code, atMs)).valid, at: new Date(atMs) });
    };
    const shownAt = Date.now();
    const code = await codeAt(tickets[0].id, shownAt);
    expect(await judge(code, shownAt + LIVE_QR_PERIOD_MS)).toMatchObject({ outcome: "admitted", holderName: "Sofía Peña" });
    expect(await judge(code, shownAt - LIVE_QR_PERIOD_MS)).toMatchObject({ outcome: "admitted" });
    expect(await judge(code, shownAt + 2 * LIVE_QR_PERIOD_MS)).toEqual({ outcome: "expired_code" });
    expect(await judge(code, shownAt - 2 * LIVE_QR_PERIOD_MS)).toEqual({ outcome: "expired_code" });
    // The unwrapped secret is the ticket's own: the one the buyer's page and the server compute.
    const expected = await liveTicketSecret(await liveQrKey(db, event.id), tickets[0].id);
    const lookup = await liveRefLookup(base64urlToBytes(manifest.key), ticketRefOf(tickets[0].id)!);
    const own = manifest.entries.find((e) => e.l?.r === lookup)!;
    expect(Buffer.from(await unwrapLiveSecret(own.l!.x, ticketRefOf(tickets[0].id)!)).equals(Buffer.from(expected))).toBe(true);

    // Static codes offline: before `staticFrom` refused, after admitted.
    const before = judgeOffline(own, manifest, undefined, { via: "qr", at: new Date() });
    expect(before).toEqual({ outcome: "expired_code" });
    const after = judgeOffline(own, manifest, undefined, { via: "qr", at: new Date(Date.now() + 3600_000 + 60_000) });
    expect(after).toMatchObject({ outcome: "admitted" });
    expect(judgeOffline(own, manifest, undefined, { via: "code", at: new Date() })).toMatchObject({ outcome: "admitted" });
  });

  it("an event without the live QR gets no live fields", async () => {
    const { producer, access } = await liveNight(1, { live: false });
    const manifest = JSON.parse((await doorManifest(producer.ctx, access)).payload) as DoorManifest;
    expect(manifest.staticFrom).toBeUndefined();
    expect(manifest.entries[0].l).toBeUndefined();
  });
});
