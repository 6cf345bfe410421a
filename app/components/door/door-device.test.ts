import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shortTicketCode } from "#common/door";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import type { DoorAccess } from "#server/door/access";
import { doorManifest, manifestPublicKey, signManifestPayload } from "#server/door/manifest";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payments/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { DoorBook } from "./door-device";

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
