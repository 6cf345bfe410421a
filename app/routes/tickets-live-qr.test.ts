import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hexToBytes, liveCodeAt, verifyLiveCode } from "#common/live-qr";
import { billingAccessToken } from "#server/auth/billing-access";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { liveTicketCredentials, setEventLiveQr } from "#server/door/live-qr";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import * as myTickets from "./cuenta.mis-tickets";
import * as purchasePage from "./tickets.$billingId";

describe("ticket pages with the live QR", () => {
  it("hand each ticket its reference and secret only while the event's live QR is on, the same the door verifies", async () => {
    const buyer = await createTestUser();
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { days: 3 });
    const db = await getDb();
    const [type] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const payer = { firstName: "Lucía", lastName: "Ríos", email: buyer.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    const { billing } = await createOrder(await ctxAs(actorFor(buyer)), { eventSlug: event.slug, items: [{ ticketId: type.id, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    const url = `/tickets/${billing.id}?t=${billingAccessToken(billing.id)}`;

    const off = await run(purchasePage.loader, getRequest(url), { billingId: billing.id });
    expect(off.data.cards.map((c: { live: unknown }) => c.live)).toEqual([null, null]);

    await setEventLiveQr(ctx, { eventId: event.id, enabled: true, staticCodeRevealHours: 24 });
    const on = await run(purchasePage.loader, getRequest(url), { billingId: billing.id });
    for (const card of on.data.cards as { id: string; live: { ticketRef: string; secretHex: string; staticFrom: string } }[]) {
      expect(card.live.ticketRef).toHaveLength(22);
      expect(card.live.staticFrom).toMatch(/^el \d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2}$/);
      // What the browser computes from the page's data is what the server verifies.
      const now = Date.now();
      const code = await liveCodeAt(hexToBytes(card.live.secretHex), card.live.ticketRef, now);
      const server = await liveTicketCredentials(db, event.id, card.id);
      expect(server).toEqual({ ticketRef: card.live.ticketRef, secretHex: card.live.secretHex });
      expect((await verifyLiveCode(hexToBytes(server.secretHex), code, now)).valid).toBe(true);
    }
    expect(new Set(on.data.cards.map((c: { live: { secretHex: string } }) => c.live.secretHex)).size).toBe(2);

    const tokens = await startSession(db, buyer, new Date());
    const mine = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies: { at: tokens.accessToken, rt: tokens.refreshToken } }), {});
    expect(mine.data.upcoming.map((c: { live: { secretHex: string } | null }) => c.live?.secretHex).sort()).toEqual(on.data.cards.map((c: { live: { secretHex: string } }) => c.live.secretHex).sort());
  });
});
