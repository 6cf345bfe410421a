import { createElement } from "react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { eventCustomFields, events, orders, waitlistOffers } from "#server/db/schema";
import { createOrder, expireOrder } from "#server/orders/orders";
import { runReturnedTickets } from "#server/waitlist/offers";
import { joinWaitlist, setEventWaitlist } from "#server/waitlist/waitlist";
import { actorFor, createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import * as eventPage from "./eventos.$slug";
import * as joinPage from "./lista-de-espera.$slug";
import * as offerPage from "./lista-de-espera.oferta.$offerId";
import * as minePage from "./cuenta.lista-de-espera";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

describe("la lista de espera sin JavaScript", () => {
  it("a sold-out event page offers the list; a buyer joins with a form, gets an offer, fixes a payer error and claims into the checkout", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 1, maxPerOrder: 4 }]);
    const slug = made.event.slug;
    const { order } = await createOrder(await ctxAs(), { eventSlug: slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });

    // Off: the event page says nothing about it.
    expect((await run(eventPage.loader, getRequest(`/eventos/${slug}`), { slug })).data.waitlistHref).toBeNull();
    await setEventWaitlist(made.ctx, { eventId: made.event.id, enabled: true });
    const page = await run(eventPage.loader, getRequest(`/eventos/${slug}`), { slug });
    expect(page.data.waitlistHref).toBe(`/lista-de-espera/${slug}`);

    // Signed out, the form page asks to sign in; posting goes to sign in.
    const anonymous = await run(joinPage.loader, getRequest(`/lista-de-espera/${slug}`), { slug });
    expect(anonymous.data).toMatchObject({ enabled: true, signedIn: false });
    expect((await run(joinPage.action, formRequest(`/lista-de-espera/${slug}`, { quantity: "1" }), { slug })).location).toMatch(/^\/cuenta\/iniciar-sesion/);

    const buyer = await createTestUser();
    const jar = await sessionCookiesFor(buyer.id);
    const form = await run(joinPage.loader, getRequest(`/lista-de-espera/${slug}`, { cookies: jar }), { slug });
    expect(form.data.dates).toHaveLength(1);
    const choice = `${form.data.dates[0].id}:${made.tickets.General.id}`;
    // Too many: the message comes back next to the field.
    const tooMany = await run(joinPage.action, formRequest(`/lista-de-espera/${slug}`, { choice, quantity: "9" }, { cookies: jar }), { slug });
    expect(tooMany.status).toBe(400);
    expect(tooMany.data.quantityError).toBe("Elegí entre 1 y 4 entradas.");
    const joined = await run(joinPage.action, formRequest(`/lista-de-espera/${slug}`, { choice, quantity: "1" }, { cookies: jar }), { slug });
    expect(joined.location).toBe("/cuenta/lista-de-espera");

    // The held ticket comes back: "Mis listas de espera" shows the claim link.
    const db = await getDb();
    await expireOrder({ db, actor: { kind: "anonymous" }, now: new Date(Date.now() + 20 * 60_000) }, order.id);
    await runReturnedTickets(db, { ticketTypeIds: [made.tickets.General.id] }, new Date());
    const mine = await run(minePage.loader, getRequest("/cuenta/lista-de-espera", { cookies: jar }));
    const claimPath = mine.data.entries[0].claimPath as string;
    expect(claimPath).toMatch(/^\/lista-de-espera\/oferta\//);
    const offerId = claimPath.split("/").at(-1)!;

    // Only its person sees the offer.
    const other = await sessionCookiesFor((await createTestUser()).id);
    expect((await run(offerPage.loader, getRequest(claimPath, { cookies: other }), { offerId })).status).toBe(404);
    const offer = await run(offerPage.loader, getRequest(claimPath, { cookies: jar }), { offerId });
    expect(offer.data.offer).toMatchObject({ open: true, quantity: 1, ticket: "General" });
    // The final price first, service fee included, and "Precio sin impuestos nacionales" beside it (docs/prices.md):
    // $ 10.000 + the 10 % fee = $ 11.000, less the fee's 21 % IVA ($ 173,55).
    const rendered = await renderInRouter(createElement(offerPage.default), { url: claimPath, loader: () => offer.data });
    const text = rendered.html.replace(/<[^>]+>/g, " ").replace(/&nbsp;|\u00a0/g, " ").replace(/\s+/g, " ");
    expect([...text.matchAll(/\$ [\d.]+,\d{2}/g)].map((m) => m[0]).slice(0, 2)).toEqual(["$ 11.000,00", "$ 10.826,45"]);
    expect(text).toContain("Precio sin impuestos nacionales: $ 10.826,45");

    // A payer error is shown next to its field and keeps the offer; then the claim goes to the normal checkout.
    const bad = await run(offerPage.action, formRequest(claimPath, { ...PAYER, documentNumber: "" }, { cookies: jar }), { offerId });
    expect(bad.status).toBe(400);
    expect(bad.data.result.error?.documentNumber?.length).toBeGreaterThan(0);
    const claimed = await run(offerPage.action, formRequest(claimPath, PAYER, { cookies: jar }), { offerId });
    expect(claimed.location).toMatch(/^\/checkout\/[0-9a-f-]{36}/);
    const [row] = await db.select().from(waitlistOffers).where(eq(waitlistOffers.id, offerId));
    expect(row.status).toBe("claimed");
  });

  it("the offer page asks the event's custom fields and, on a named event, the holder, like the checkout; the per-account limit before the form", async () => {
    const made = await createEventWithTickets([{ name: "Campo", price: 500_000, stock: 1, maxPerOrder: 4 }]);
    const db = await getDb();
    await db.update(events).set({ oneHolderPerTicket: true }).where(eq(events.id, made.event.id));
    const [field] = await db.insert(eventCustomFields).values({ eventId: made.event.id, label: "Ciudad", kind: "text", required: true }).returning();
    const { order } = await createOrder(await ctxAs(), {
      eventSlug: made.event.slug,
      items: [{ ticketId: made.tickets.Campo.id, qty: 1 }],
      payer: PAYER,
      paymentMethod: "MERCADO_PAGO",
      attendees: [{ firstName: "Ana", lastName: "Paz", documentType: "dni", documentNumber: "30111222" }],
      customFields: { [field.id]: "Rosario" },
    });
    await setEventWaitlist(made.ctx, { eventId: made.event.id, enabled: true });
    const user = await createTestUser();
    await joinWaitlist(await ctxAs(actorFor({ ...user, roles: [] })), { eventSlug: made.event.slug, quantity: 1 });
    await expireOrder({ db, actor: { kind: "anonymous" }, now: new Date(Date.now() + 60 * 60_000) }, order.id);
    await runReturnedTickets(db, { ticketTypeIds: [made.tickets.Campo.id] }, new Date());
    const jar = await sessionCookiesFor(user.id);
    const mine = await run(minePage.loader, getRequest("/cuenta/lista-de-espera", { cookies: jar }));
    const claimPath = mine.data.entries[0].claimPath as string;
    const offerId = claimPath.split("/").at(-1)!;

    const shown = await run(offerPage.loader, getRequest(claimPath, { cookies: jar }), { offerId });
    expect(shown.data).toMatchObject({ holders: 1, holderLabels: ["Campo"], customFields: [{ id: field.id, label: "Ciudad", required: true }] });
    expect(shown.data.offer.limitRefusal).toBeNull();

    // Without the holder and the answer: both said next to their inputs, nothing claimed.
    const bad = await run(offerPage.action, formRequest(claimPath, PAYER, { cookies: jar }), { offerId });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.data.result.error ?? {})).toEqual(expect.arrayContaining([`customFields.${field.id}`, "attendees[0].firstName"]));
    const holder = { "attendees[0].firstName": "Martina", "attendees[0].lastName": "Quiroga", "attendees[0].documentType": "dni", "attendees[0].documentNumber": "40111222" };
    const claimed = await run(offerPage.action, formRequest(claimPath, { ...PAYER, ...holder, [`customFields.${field.id}`]: "Córdoba" }, { cookies: jar }), { offerId });
    expect(claimed.location).toMatch(/^\/checkout\//);
    const [row] = await db.select().from(waitlistOffers).where(eq(waitlistOffers.id, offerId));
    const [placed] = await db.select().from(orders).where(eq(orders.id, row.orderId!));
    expect(placed.attendees).toMatchObject([{ firstName: "Martina", documentNumber: "40111222" }]);
    expect(placed.customFields).toMatchObject([{ fieldId: field.id, value: "Córdoba" }]);
  });

  it("an event with a per-account limit: the join is refused with the Spanish message when the account already has enough", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 500_000, stock: 2, maxPerOrder: 4 }]);
    const db = await getDb();
    await db.update(events).set({ maxTicketsPerAccount: 2 }).where(eq(events.id, made.event.id));
    const user = await createTestUser();
    const ctx = await ctxAs(actorFor({ ...user, roles: [] }));
    await createOrder(ctx, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 2 }], payer: { ...PAYER, email: user.email }, paymentMethod: "MERCADO_PAGO" });
    await setEventWaitlist(made.ctx, { eventId: made.event.id, enabled: true });
    const jar = await sessionCookiesFor(user.id);
    const slug = made.event.slug;
    const refused = await run(joinPage.action, formRequest(`/lista-de-espera/${slug}`, { quantity: "1" }, { cookies: jar }), { slug });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.data)).toContain("Este evento permite hasta 2 entradas por cuenta y ya tenés 2: no podés sumar más.");
  });
});
