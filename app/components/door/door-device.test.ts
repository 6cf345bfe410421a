import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { action as graphqlAction } from "#app/routes/api.graphql";
import { shortTicketCode } from "#common/door";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { doorSessionCookieName, rotateDoorPin, unlockDoor, type DoorAccess } from "#server/door/access";
import { doorManifest, manifestPublicKey, signManifestPayload } from "#server/door/manifest";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { GRAPHQL_URL } from "#tests/support/graphql";
import { DoorBook, syncQueue, type QueuedScan } from "./door-device";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

async function nightWithTickets(qty: number) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: general.id, qty }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  const access: DoorAccess = { event: { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug }, userId: producer.user.id, pinSessionId: null };
  return { producer, access, tickets: await ticketsOfOrder(db, order.id) };
}

describe("the door phone without the network (DoorBook, decision 150)", () => {
  it("judges a typed short code (PBKDF2 with the manifest's salt) and a QR against the signed manifest", async () => {
    const { producer, tickets, access } = await nightWithTickets(2);
    const book = new DoorBook(access.event.id, manifestPublicKey());
    expect(await book.add(await doorManifest(producer.ctx, access))).toBe(true);
    expect((await book.judge(shortTicketCode(tickets[1].code).toLowerCase(), [])).verdict).toMatchObject({ outcome: "admitted", holderName: "Sofía Peña" });
    expect((await book.judge(qrPayloadFor(tickets[0].code), [])).verdict).toMatchObject({ outcome: "admitted", holderName: "Sofía Peña" });
    expect((await book.judge("ZZZZZ ZZZZZ", [])).verdict).toEqual({ outcome: "unknown" });
    // A manifest of the old version (fast short-code hashes), even signed, is not taken.
    const { payload } = await doorManifest(producer.ctx, access);
    const old = payload.replace('"v":2', '"v":1');
    expect(await new DoorBook(access.event.id, manifestPublicKey()).add({ payload: old, signature: signManifestPayload(old) })).toBe(false);
  });
});

describe("the door phone's queue (syncQueue, decision 149)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("settles a scan the server refuses for its time, with the rest of the queue judged, and keeps the queue when the whole sync fails", async () => {
    const { producer, tickets, access } = await nightWithTickets(2);
    const { pin } = await rotateDoorPin(producer.ctx, access.event.id);
    const { token } = await unlockDoor(await ctxAs(undefined, new Date(), "198.51.100.90"), { slug: access.event.slug, pin });
    // The browser's fetch, reaching the real /api/graphql with the door screen's cookie.
    let cookie = `${doorSessionCookieName(access.event.slug)}=${token}`;
    vi.stubGlobal("fetch", (_url: string, init: RequestInit) => graphqlAction({ request: new Request(GRAPHQL_URL, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } }), params: {}, context: {} }));

    const queue: QueuedScan[] = [
      { scanId: "q-1970", code: qrPayloadFor(tickets[0].code), scannedAt: "1970-01-01T00:00:00.000Z", acceptedOffline: true, door: "Puerta 1", hash: null },
      { scanId: "q-ok", code: qrPayloadFor(tickets[1].code), scannedAt: new Date().toISOString(), acceptedOffline: true, door: "Puerta 1", hash: null },
    ];
    const answers = await syncQueue(access.event.slug, "phone-1", queue);
    expect(answers.map((a) => [a.scanId, a.outcome])).toEqual([["q-1970", "unknown"], ["q-ok", "admitted"]]);

    // No door session: nothing is settled, the queue stays for the next try.
    cookie = "";
    await expect(syncQueue(access.event.slug, "phone-1", queue)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});
