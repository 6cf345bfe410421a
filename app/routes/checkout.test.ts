import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "#server/db/client";
import { events, ticketTypes } from "#server/db/schema";
import { startSession } from "#server/auth/sessions";
import { tokenCookies } from "#server/auth/cookies";
import { setCustomFields } from "#server/events/events";
import { billingAccessToken } from "#server/auth/billing-access";
import { getBillingForBuyer } from "#server/orders/orders";
import { startCheckout } from "#server/orders/checkout";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ANONYMOUS } from "#server/context";
import { savedCartCookieName } from "#common/saved-cart";
import { createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent, createTransferAccount } from "#tests/support/factories";
import { COUPON_MESSAGES, createCoupon, setCouponStatus } from "#server/coupons/coupons";
import * as saleSnapshot from "#server/orders/sale-snapshot";
import { NO_TRANSFER_ACCOUNT } from "#server/payouts/bank-accounts";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as payerInfo from "./checkout.payer-info.$eventSlug";
import * as summary from "./checkout.$billingId";
import * as statusPage from "./checkout.status.$status";
import * as camposPersonalizados from "./organizacion.eventos.$slug.campos-personalizados";

const PAYER_FORM = {
  firstName: "Ana",
  lastName: "Gómez",
  email: "ana@example.com",
  documentType: "dni",
  documentNumber: "30.123.456",
  phoneNumber: "+54 11 5555-1234",
};

async function eventWithTicket(options: { stock?: number; oneHolderPerTicket?: boolean; fields?: { label: string; kind: string; required?: boolean; options?: string[] }[] } = {}) {
  const producer = await createProducer();
  const { event, date } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    ticketTypes: [{ name: "General", price: 1_000_000, stock: options.stock ?? 20 }],
  });
  const fields = await setCustomFields(producer.ctx, {
    eventId: event.id,
    fields: (options.fields ?? []).map((f) => ({ options: [], required: false, ...f })),
    oneHolderPerTicket: options.oneHolderPerTicket ?? false,
  });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  return { event, date, ticket, fields, producer };
}

function cartCookie(slug: string, items: { ticketId: string; qty: number }[], extra: Record<string, string> = {}) {
  return { [savedCartCookieName(slug)]: encodeURIComponent(JSON.stringify({ items, ...extra })) };
}

const path = (slug: string) => `/checkout/payer-info/${slug}`;

describe("/checkout/payer-info/{eventSlug}", () => {
  it("prefills the payer from the signed-in account", async () => {
    const { event, ticket } = await eventWithTicket();
    const user = await createTestUser({ firstName: "Lucía", lastName: "Paz", documentType: "dni", documentNumber: "28999888", phoneNumber: "+54 9 351 555-0000" });
    const tokens = await startSession(await getDb(), user, new Date());
    const jar = Object.fromEntries(tokenCookies(tokens).map((c) => c.split(";")[0].split("=") as [string, string]));
    const page = await run(payerInfo.loader, getRequest(path(event.slug), { cookies: { ...jar, ...cartCookie(event.slug, [{ ticketId: ticket.id, qty: 2 }]) } }), {
      eventSlug: event.slug,
    });
    expect(page.status).toBe(200);
    expect(page.data.payer).toMatchObject({ firstName: "Lucía", lastName: "Paz", email: user.email, documentNumber: "28999888", phoneNumber: "+54 9 351 555-0000" });
    expect(page.data.serviceFeeLabel).toBe("10 %");
  });

  it("answers the spec's messages next to each field, without holding anything", async () => {
    const { event, ticket, fields } = await eventWithTicket({ fields: [{ label: "Talle", kind: "select", options: ["S", "M"], required: true }] });
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 1 }]);
    const result = await run(
      payerInfo.action,
      formRequest(path(event.slug), { ...PAYER_FORM, firstName: "", email: "ana@", documentNumber: "12", [`customFields.${fields[0].id}`]: "XL" }, { cookies }),
      { eventSlug: event.slug },
    );
    expect(result.status).toBe(400);
    expect(result.data.result.error).toMatchObject({
      firstName: ["Este campo es obligatorio"],
      email: ["Este campo debe ser un email válido"],
      documentNumber: ["Ingresá un número de documento válido"],
      [`customFields.${fields[0].id}`]: ["Elegí una de las opciones"],
    });
    // What was typed comes back to the form.
    expect(result.data.result.initialValue).toMatchObject({ lastName: "Gómez" });
    const [row] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.id, ticket.id));
    expect(row.sold).toBe(0);
  });

  it("answers everything at once: missing and malformed fields and the coupon that does not exist, each next to its field", async () => {
    const { event, ticket } = await eventWithTicket();
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 1 }]);
    const result = await run(
      payerInfo.action,
      formRequest(path(event.slug), { ...PAYER_FORM, lastName: "", phoneNumber: "12", couponCode: "NOEXISTE" }, { cookies }),
      { eventSlug: event.slug },
    );
    expect(result.status).toBe(400);
    expect(result.data.result.error).toEqual({
      lastName: ["Este campo es obligatorio"],
      phoneNumber: ["Ingresá un número de teléfono válido"],
      couponCode: [COUPON_MESSAGES.unknown],
    });
    // Only the coupon wrong: its own message, still next to it, and nothing held.
    const couponOnly = await run(payerInfo.action, formRequest(path(event.slug), { ...PAYER_FORM, couponCode: "NOEXISTE" }, { cookies }), { eventSlug: event.slug });
    expect(couponOnly.status).toBe(400);
    expect(couponOnly.data.result.error).toEqual({ couponCode: [COUPON_MESSAGES.unknown] });
    const [row] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.id, ticket.id));
    expect(row.sold).toBe(0);
  });

  it("prices the selection once per submit (the hold's own check), not once more before it", async () => {
    const { event, ticket } = await eventWithTicket();
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 1 }]);
    // Every preview reads the ticket types fresh (their stock and price): one read is one preview.
    const reads = vi.spyOn(saleSnapshot, "currentTicketTypes");
    try {
      const done = await run(payerInfo.action, formRequest(path(event.slug), PAYER_FORM, { cookies }), { eventSlug: event.slug });
      expect(done.status).toBe(302);
      expect(reads).toHaveBeenCalledTimes(1);
      reads.mockClear();
      const refused = await run(payerInfo.action, formRequest(path(event.slug), { ...PAYER_FORM, firstName: "" }, { cookies }), { eventSlug: event.slug });
      expect(refused.status).toBe(400);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it("asks one holder per ticket when the event says so", async () => {
    const { event, ticket } = await eventWithTicket({ oneHolderPerTicket: true });
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 2 }]);
    const page = await run(payerInfo.loader, getRequest(path(event.slug), { cookies }), { eventSlug: event.slug });
    expect(page.data.holders).toBe(2);
    expect(page.data.holderLabels).toEqual(["General", "General"]);

    const missing = await run(
      payerInfo.action,
      formRequest(path(event.slug), { ...PAYER_FORM, "attendees[0].firstName": "Beto", "attendees[0].lastName": "Sosa", "attendees[0].documentType": "dni", "attendees[0].documentNumber": "31222333" }, { cookies }),
      { eventSlug: event.slug },
    );
    expect(missing.status).toBe(400);
    expect(missing.data.result.error).toMatchObject({ "attendees[1].firstName": ["Este campo es obligatorio"], "attendees[1].documentNumber": ["Este campo es obligatorio"] });

    const done = await run(
      payerInfo.action,
      formRequest(
        path(event.slug),
        {
          ...PAYER_FORM,
          "attendees[0].firstName": "Beto",
          "attendees[0].lastName": "Sosa",
          "attendees[0].documentType": "dni",
          "attendees[0].documentNumber": "31222333",
          "attendees[1].firstName": "Caro",
          "attendees[1].lastName": "Díaz",
          "attendees[1].documentType": "passport",
          "attendees[1].documentNumber": "AB123456",
          "attendees[1].email": "caro@example.com",
        },
        { cookies },
      ),
      { eventSlug: event.slug },
    );
    expect(done.status).toBe(302);
    const billingId = new URL(done.location!, "http://x").pathname.split("/").at(-1)!;
    const view = await getBillingForBuyer(await ctxAs(ANONYMOUS), billingId, { token: billingAccessToken(billingId) });
    expect(view.order.attendees?.map((a) => [a.firstName, a.documentNumber, a.email])).toEqual([
      ["Beto", "31222333", undefined],
      ["Caro", "AB123456", "caro@example.com"],
    ]);
  });

  it("holds the tickets, clears the saved cart and goes to the summary with the access token", async () => {
    const { event, ticket } = await eventWithTicket();
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 2 }]);
    const result = await run(payerInfo.action, formRequest(path(event.slug), PAYER_FORM, { cookies }), { eventSlug: event.slug });
    expect(result.status).toBe(302);
    const match = /^\/checkout\/([0-9a-f-]{36})\?t=(.+)$/.exec(result.location!);
    expect(match).not.toBeNull();
    expect(match![2]).toBe(billingAccessToken(match![1]));
    expect(result.cookies[savedCartCookieName(event.slug)].maxAge).toBe(0);
    const [row] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.id, ticket.id));
    expect(row.sold).toBe(2);
  });

  it("out of stock: a visible message, and the cart is kept", async () => {
    const { event, ticket } = await eventWithTicket({ stock: 3 });
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 2 }]);
    // Someone else buys two while this buyer types (the cart was restored when there were three).
    await (await getDb()).update(ticketTypes).set({ sold: 2 }).where(eq(ticketTypes.id, ticket.id));
    const result = await run(payerInfo.action, formRequest(path(event.slug), PAYER_FORM, { cookies }), { eventSlug: event.slug });
    expect(result.status).toBe(409);
    expect(result.data.result.error[""]).toEqual(["Sacamos «General» de tu compra porque no quedan suficientes entradas", payerInfo.CHANGED_CART_MESSAGE]);
    expect(result.cookies[savedCartCookieName(event.slug)]).toBeUndefined();
  });
});

describe("/checkout/payer-info/{eventSlug}: the selection as previewOrder prices and checks it", () => {
  it("shows the domain's lines, fee on the discounted amount, total, method and hold in words", async () => {
    const { event, ticket, producer } = await eventWithTicket();
    await createCoupon(producer.ctx, { eventId: event.id, code: "MITAD", kind: "percent", percent: 50 });
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 2 }], { couponCode: "mitad" });
    const page = await run(payerInfo.loader, getRequest(path(event.slug), { cookies }), { eventSlug: event.slug });
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      items: [{ ticketId: ticket.id, name: "General", qty: 2, unitPrice: "$\u00a010.000,00", subtotal: "$\u00a020.000,00" }],
      subtotal: "$\u00a020.000,00",
      discount: "$\u00a010.000,00",
      couponCode: "MITAD",
      serviceFeeLabel: "10 %",
      serviceFee: "$\u00a01.000,00",
      total: "$\u00a011.000,00",
      paymentMethod: "MERCADO_PAGO",
      holdLabel: "15 minutos",
      problems: [],
    });
    expect(page.data.payer.couponCode).toBe("mitad");
  });

  it("leaves out a saved coupon that no longer applies, and says why", async () => {
    const { event, ticket, producer } = await eventWithTicket();
    const coupon = await createCoupon(producer.ctx, { eventId: event.id, code: "PAUSADO", kind: "percent", percent: 50 });
    await setCouponStatus(producer.ctx, { id: coupon.id, status: "paused" });
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 1 }], { couponCode: "PAUSADO" });
    const page = await run(payerInfo.loader, getRequest(path(event.slug), { cookies }), { eventSlug: event.slug });
    expect(page.data).toMatchObject({ discount: null, couponCode: null, total: "$\u00a011.000,00", problems: ["Sacamos el cupón PAUSADO: Ese cupón está pausado por ahora."] });
    expect(page.data.payer.couponCode).toBe("");
  });

  it("bank-transfer tickets: the 48-hour hold, or, with nowhere to receive the transfer, the reason and no form", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
      ticketTypes: [{ name: "Por transferencia", price: 1_650_000, stock: 10, paymentMethod: "BankAccount" }],
    });
    const [ticket] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 1 }]);
    const refused = await run(payerInfo.loader, getRequest(path(event.slug), { cookies }), { eventSlug: event.slug });
    expect(refused.data).toMatchObject({ paymentMethod: null, total: null, problems: [NO_TRANSFER_ACCOUNT], items: [{ name: "Por transferencia", qty: 1 }] });
    const posted = await run(payerInfo.action, formRequest(path(event.slug), PAYER_FORM, { cookies }), { eventSlug: event.slug });
    expect(posted.status).toBe(400);
    expect(posted.data.result.error[""]).toEqual([NO_TRANSFER_ACCOUNT]);

    await createTransferAccount(producer.ctx, producer.organization.id);
    const page = await run(payerInfo.loader, getRequest(path(event.slug), { cookies }), { eventSlug: event.slug });
    expect(page.data).toMatchObject({ paymentMethod: "BANK_TRANSFER", holdLabel: "48 horas", problems: [] });
    const started = await run(payerInfo.action, formRequest(path(event.slug), PAYER_FORM, { cookies }), { eventSlug: event.slug });
    expect(started.status).toBe(302);
    expect(started.location).toMatch(/^\/checkout\/[0-9a-f-]{36}\?t=/);
  });
});

describe("payment methods decided by the tickets", () => {
  it("bank-transfer tickets: a 48-hour hold and only the transfer is offered", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
      ticketTypes: [{ name: "Por transferencia", price: 1_650_000, stock: 10, paymentMethod: "BankAccount" }],
    });
    await createTransferAccount(producer.ctx, producer.organization.id);
    const [ticket] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    // Straight from the domain: the saved cart drops bank-transfer tickets on restore (decision 37), the picker posts them directly.
    const started = await startCheckout(await ctxAs(ANONYMOUS), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { ...PAYER_FORM, documentNumber: "30123456" },
      paymentMethod: "BANK_TRANSFER",
    });
    const billingId = started.billing.id;
    const url = new URL(`/checkout/${billingId}?t=${started.accessToken}`, "http://x");
    const page = await run(summary.loader, getRequest(`${url.pathname}${url.search}`), { billingId });
    expect(page.data.allows).toEqual({ MERCADO_PAGO: false, BANK_TRANSFER: true });
    expect(page.data.bankTransferHref).toBe(`/checkout/bank-transfer/${billingId}?t=${billingAccessToken(billingId)}`);
    expect(page.data.hold.timeLabel).toMatch(/^\d{2}:\d{2} del \d{2}\/\d{2}$/);
    // Mercado Pago cannot be forced on it.
    const forced = await run(summary.action, formRequest(`${url.pathname}${url.search}`, { intent: "mercadopago" }), { billingId });
    expect(forced.status).toBe(400);
    expect(forced.data.errors).toEqual(["Esta compra se paga por transferencia bancaria."]);
  });

  it("a free order skips the payment and lands on the approved page", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "Libre", price: 0, stock: 10 }] });
    const [ticket] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const done = await run(payerInfo.action, formRequest(path(event.slug), PAYER_FORM, { cookies: cartCookie(event.slug, [{ ticketId: ticket.id, qty: 2 }]) }), {
      eventSlug: event.slug,
    });
    expect(done.location).toMatch(/^\/checkout\/status\/approved\?billingId=[0-9a-f-]{36}&t=/);
    const url = new URL(done.location!, "http://x");
    const landing = await run(statusPage.loader, getRequest(`${url.pathname}${url.search}`), { status: "approved" });
    expect(landing.data.outcome).toBe("approved");
  });
});

async function startedCheckout() {
  const { event, ticket } = await eventWithTicket();
  const cookies = cartCookie(event.slug, [{ ticketId: ticket.id, qty: 1 }]);
  const result = await run(payerInfo.action, formRequest(path(event.slug), PAYER_FORM, { cookies }), { eventSlug: event.slug });
  const url = new URL(result.location!, "http://x");
  return { event, billingId: url.pathname.split("/").at(-1)!, token: url.searchParams.get("t")! };
}

describe("/checkout/{billingId}", () => {
  it("shows the summary with the token; a wrong or missing token is 404", async () => {
    const { billingId, token, event } = await startedCheckout();
    const page = await run(summary.loader, getRequest(`/checkout/${billingId}?t=${token}`), { billingId });
    expect(page.status).toBe(200);
    expect(page.data.order).toMatchObject({ subtotal: "$\u00a010.000,00", serviceFee: "$\u00a01.000,00", serviceFeeLabel: "10 %", total: "$\u00a011.000,00", discount: null });
    expect(page.data.event.name).toBe(event.name);
    // "22:05", or "00:05 del 27/11" when the hold ends after midnight in Buenos Aires.
    expect(page.data.hold.timeLabel).toMatch(/^\d{2}:\d{2}( del \d{2}\/\d{2})?$/);
    expect(page.data.allows).toEqual({ MERCADO_PAGO: true, BANK_TRANSFER: false });

    expect((await run(summary.loader, getRequest(`/checkout/${billingId}?t=${"x".repeat(32)}`), { billingId })).status).toBe(404);
    expect((await run(summary.loader, getRequest(`/checkout/${billingId}`), { billingId })).status).toBe(404);
    expect((await run(summary.action, formRequest(`/checkout/${billingId}?t=wrong`, {}), { billingId })).status).toBe(404);
  });

  it("Pagar con Mercado Pago sends the buyer to the provider; once paid, the summary goes to the tickets", async () => {
    const { billingId, token } = await startedCheckout();
    const pay = await run(summary.action, formRequest(`/checkout/${billingId}?t=${token}`, { intent: "mercadopago" }), { billingId });
    expect(pay.status).toBe(302);
    expect(pay.location).toBe(`http://localhost:3000/sandbox/mercadopago/${billingId}`);
    await payInSandbox(await getDb(), billingId, "approved");
    const paid = await run(summary.loader, getRequest(`/checkout/${billingId}?t=${token}`), { billingId });
    expect(paid.location).toBe(`/tickets/${billingId}?t=${token}`);
  });
});

describe("/checkout/status/{status}", () => {
  const status = (s: string, billingId: string, token: string) => run(statusPage.loader, getRequest(`/checkout/status/${s}?billingId=${billingId}&t=${token}&collection_status=approved`), { status: s });

  it("says what happens next from our billing, not from the query", async () => {
    const { billingId, token } = await startedCheckout();
    // The provider says approved but its notification has not arrived: confirming, and the page reloads itself.
    const early = await status("approved", billingId, token);
    expect(early.data).toMatchObject({ outcome: "confirming", refresh: true });
    const rejected = await status("rejected", billingId, token);
    expect(rejected.data).toMatchObject({ outcome: "rejected", retryHref: `/checkout/${billingId}?t=${token}` });
    expect((await status("pending", billingId, token)).data.outcome).toBe("pending");

    await payInSandbox(await getDb(), billingId, "approved");
    // Whatever the URL says, an approved billing is approved.
    const done = await status("failure", billingId, token);
    expect(done.data).toMatchObject({ outcome: "approved", refresh: false, ticketsHref: `/tickets/${billingId}?t=${token}` });
  });

  it("is 404 for an unknown status, an unknown billing or a wrong token", async () => {
    const { billingId, token } = await startedCheckout();
    expect((await status("ok", billingId, token)).status).toBe(404);
    expect((await status("approved", billingId, "nope")).status).toBe(404);
    expect((await status("approved", "00000000-0000-4000-8000-000000000000", token)).status).toBe(404);
  });
});

describe("back office: one holder per ticket", () => {
  it("the custom fields page turns the event's holder question on and off", async () => {
    const { event, producer } = await eventWithTicket();
    const tokens = await startSession(await getDb(), producer.user, new Date());
    const cookies = { at: tokens.accessToken, rt: tokens.refreshToken };
    const url = `/organizacion/eventos/${event.slug}/campos-personalizados`;
    const flag = async () => (await (await getDb()).select({ v: events.oneHolderPerTicket }).from(events).where(eq(events.id, event.id)))[0].v;

    await run(camposPersonalizados.action, formRequest(url, { intent: "save", oneHolderPerTicket: "on" }, { cookies }), { slug: event.slug });
    expect(await flag()).toBe(true);
    const page = await run(camposPersonalizados.loader, getRequest(url, { cookies }), { slug: event.slug });
    expect(page.data.defaults.oneHolderPerTicket).toBe("on");

    await run(camposPersonalizados.action, formRequest(url, { intent: "save" }, { cookies }), { slug: event.slug });
    expect(await flag()).toBe(false);
  });
});
