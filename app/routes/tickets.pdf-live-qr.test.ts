import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { drawnText } from "#tests/support/pdf-text";
import { formatLongDay, formatTime } from "#common/dates";
import { staticCodeAdmittedFrom } from "#common/live-qr";
import { billingAccessToken } from "#server/auth/billing-access";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { setEventLiveQr } from "#server/door/live-qr";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { getRequest } from "#tests/support/remix";
import * as purchasePdf from "./tickets.$billingId.pdf";


async function pdfText(liveQr: boolean) {
  const producer = await createProducer();
  const { event, date } = await createPublishedEvent(producer.ctx, producer.organization.id);
  if (liveQr) await setEventLiveQr(producer.ctx, { eventId: event.id, enabled: true, staticCodeRevealHours: 3 });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const buyer = await createTestUser();
  const { billing } = await createOrder(await ctxAs(actorFor({ ...buyer, roles: [] })), {
    eventSlug: event.slug,
    items: [{ ticketId: general.id, qty: 2 }],
    payer: { firstName: "Lucía", lastName: "Ríos", email: buyer.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  const response = (await purchasePdf.loader({ request: getRequest(`/tickets/${billing.id}/pdf?t=${billingAccessToken(billing.id)}`), params: { billingId: billing.id }, context: {} } as never)) as Response;
  expect(response.status).toBe(200);
  return { text: (await drawnText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, " "), from: staticCodeAdmittedFrom(date.doorsAt ?? date.startsAt, 3) };
}

describe("/tickets/{billingId}/pdf with the live QR", () => {
  it("each entrada's page says from when its printed QR counts; without live QR, nothing", async () => {
    const live = await pdfText(true);
    const note = `El QR de este PDF vale desde el ${formatLongDay(live.from)} a las ${formatTime(live.from)} h; antes, mostrá la entrada en vivo desde Mis tickets`;
    expect(live.text.split(note).length - 1).toBe(2);
    expect((await pdfText(false)).text).not.toContain("vale desde");
  });
});
