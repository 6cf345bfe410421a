import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { formatMoney } from "#common/money";
import { getDb } from "#server/db/client";
import { billings, orders } from "#server/db/schema";
import { createMenuItem, setMenuItemStatus } from "#server/menu/menu";
import { startSession } from "#server/auth/sessions";
import { billingAccessToken } from "#server/auth/billing-access";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { eq } from "drizzle-orm";
import { createEventWithTickets } from "#tests/support/factories";
import { cookiesAfter, formRequest, getRequest, run } from "#tests/support/remix";
import * as menu from "./menu.$slug";
import * as eventPage from "./eventos.$slug";
import * as summaryPage from "./checkout.$billingId";
import * as statusPage from "./checkout.status.$status";
import * as purchasePage from "./tickets.$billingId";
import * as purchasePdf from "./tickets.$billingId.pdf";
import * as myTickets from "./cuenta.mis-tickets";
import * as refundsPage from "./cuenta.devoluciones";
import * as sendTicket from "./cuenta.mis-tickets_.enviar.$ticketId";

/** What a person reads of server-rendered HTML: the text, spaces collapsed. */
const textOf = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

describe("/menu/{slug}", () => {
  it("picks drinks without JavaScript, keeps them in the menu-order cookie and opens the same checkout as tickets", async () => {
    const made = await createEventWithTickets();
    const fernet = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "3", maxPerOrder: "2" });
    const burger = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Hamburguesa", category: "food", price: "9000", stock: "10" });
    const path = `/menu/${made.event.slug}`;
    const params = { slug: made.event.slug };

    const page = await run(menu.loader, getRequest(path), params);
    expect(page.data.step).toBe("pick");
    expect(page.data.sections.map((s: { title: string; items: { name: string; price: string; max: number }[] }) => [s.title, s.items.map((i) => [i.name, i.max])])).toEqual([
      ["Bebidas", [["Fernet con coca", 2]]],
      ["Comidas", [["Hamburguesa", 10]]],
    ]);

    const nothing = await run(menu.action, formRequest(path, { intent: "pick", [`qty.${fernet.id}`]: "0" }), params);
    expect(nothing.status).toBe(400);
    expect(nothing.data.pickErrors).toEqual(["Elegí al menos una consumición."]);
    const tooMany = await run(menu.action, formRequest(path, { intent: "pick", [`qty.${fernet.id}`]: "3" }), params);
    expect(tooMany.data.pickErrors).toEqual(["De «Fernet con coca» podés pedir hasta 2."]);

    const picked = await run(menu.action, formRequest(path, { intent: "pick", [`qty.${fernet.id}`]: "2", [`qty.${burger.id}`]: "1" }), params);
    expect(picked.status).toBe(302);
    expect(picked.location).toBe(`${path}?paso=datos`);
    const cookie = picked.cookies[`menu-order-${made.event.slug}`];
    expect(JSON.parse(cookie.value)).toEqual({ items: [{ ticketId: fernet.id, qty: 2 }, { ticketId: burger.id, qty: 1 }] });
    const jar = cookiesAfter(picked);

    // The payer step shows the service fee and the total before paying, priced by the domain (the event charges 10 %).
    const payerStep = await run(menu.loader, getRequest(`${path}?paso=datos`, { cookies: jar }), params);
    expect(payerStep.data).toMatchObject({
      step: "payer",
      money: { subtotal: formatMoney(1_800_000), serviceFeeLabel: "10 %", serviceFee: formatMoney(180_000), total: formatMoney(1_980_000) },
      problems: [],
      hold: "15 minutos",
    });
    // And the page a phone without JavaScript gets says it, server-rendered.
    const { html } = await renderInRouter(createElement(menu.default), { url: `${path}?paso=datos`, loader: () => payerStep.data });
    const text = html.replace(/<[^>]+>/g, " ").replace(/&nbsp;|\u00a0/g, " ").replace(/\s+/g, " ");
    expect(text).toContain(`Cargo de servicio (10 %) ${formatMoney(180_000)}`.replace(/\u00a0/g, " "));
    expect(text).toContain(`Total ${formatMoney(1_980_000)}`.replace(/\u00a0/g, " "));
    expect(text).toContain("A este email te mandamos las consumiciones.");
    expect(text).toContain("Te reservamos las consumiciones 15 minutos");

    const badPayer = await run(menu.action, formRequest(`${path}?paso=datos`, { intent: "pay", ...PAYER, email: "sofia@" }, { cookies: jar }), params);
    expect(badPayer.status).toBe(400);

    const paid = await run(menu.action, formRequest(`${path}?paso=datos`, { intent: "pay", ...PAYER }, { cookies: jar }), params);
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/checkout\/[0-9a-f-]{36}\?t=/);
    expect(paid.cookies[`menu-order-${made.event.slug}`].maxAge).toBe(0);
    const billingId = paid.location!.split("/")[2].split("?")[0];
    const db = await getDb();
    const [billing] = await db.select().from(billings).where(eq(billings.id, billingId));
    const [order] = await db.select().from(orders).where(eq(orders.id, billing.orderId));
    // What the payer step said is what the order charges: nothing new appears at the checkout.
    expect(order).toMatchObject({ status: "draft", subtotal: 1_800_000, serviceFee: 180_000, total: 1_980_000, paymentMethod: "MERCADO_PAGO" });

    // An item paused meanwhile drops out of a saved cart, and the buyer is told.
    await setMenuItemStatus(made.ctx, { id: burger.id, status: "paused" });
    const again = await run(menu.loader, getRequest(path, { cookies: { [`menu-order-${made.event.slug}`]: encodeURIComponent(JSON.stringify({ items: [{ ticketId: burger.id, qty: 1 }] })) } }), params);
    expect(again.data.changed).toBe(true);
    expect(await run(menu.loader, getRequest("/menu/no-existe"), { slug: "no-existe" })).toMatchObject({ status: 404 });
  });

  it("the event page links to its menu only while it has something to order", async () => {
    const made = await createEventWithTickets();
    const params = { slug: made.event.slug };
    const before = await run(eventPage.loader, getRequest(`/eventos/${made.event.slug}`), params);
    expect(before.data.menuHref).toBeNull();

    const fernet = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "10" });
    const page = await run(eventPage.loader, getRequest(`/eventos/${made.event.slug}`), params);
    expect(page.data.menuHref).toBe(`/menu/${made.event.slug}`);
    const { html } = await renderInRouter(createElement(eventPage.default), { url: `/eventos/${made.event.slug}`, loader: () => page.data });
    expect(html).toMatch(new RegExp(`<section aria-labelledby="menu-del-evento"[^>]*>.*<h2 id="menu-del-evento"[^>]*>Menú de la barra</h2>.*<a[^>]* href="/menu/${made.event.slug}"[^>]*>Ver el menú</a>`, "s"));

    await setMenuItemStatus(made.ctx, { id: fernet.id, status: "paused" });
    expect((await run(eventPage.loader, getRequest(`/eventos/${made.event.slug}`), params)).data.menuHref).toBeNull();
  });

  it("a drink order's pages speak of consumiciones, and Mis tickets names both when it lists both", async () => {
    const made = await createEventWithTickets();
    const fernet = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "10" });
    const buyer = await createTestUser();
    const buyerCtx = await ctxAs(actorFor(buyer));
    const { order: drinkOrder, billing } = await createOrder(buyerCtx, { eventSlug: made.event.slug, items: [{ ticketId: fernet.id, qty: 2 }], payer: { ...PAYER, email: buyer.email }, paymentMethod: "MERCADO_PAGO" });
    const token = billingAccessToken(billing.id);
    const render = async (route: { default: () => unknown }, data: unknown, url: string) => textOf((await renderInRouter(createElement(route.default as () => null), { url, loader: () => data as {} })).html);

    // Before paying: the hold is for the consumiciones, and choosing again is on the menu.
    const summary = await run(summaryPage.loader, getRequest(`/checkout/${billing.id}?t=${token}`), { billingId: billing.id });
    expect(summary.data).toMatchObject({ kind: "menu", event: { chooseHref: `/menu/${made.event.slug}` } });
    const summaryText = await render(summaryPage, summary.data, `/checkout/${billing.id}`);
    expect(summaryText).toContain("Pasado ese momento las consumiciones vuelven a la venta.");
    expect(summaryText).not.toMatch(/entrada/i);

    await payInSandbox(await getDb(), billing.id, "approved");
    const approved = await run(statusPage.loader, getRequest(`/checkout/status/approved?billingId=${billing.id}&t=${token}`), { status: "approved" });
    const approvedText = await render(statusPage, approved.data, "/checkout/status/approved");
    expect(approvedText).toContain("Te mandamos las consumiciones a");
    expect(approvedText).toContain("mostrarlas en la barra");
    expect(approvedText).toContain("Ver mis consumiciones");
    expect(approvedText).not.toMatch(/entrada/i);

    const purchase = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}?t=${token}`), { billingId: billing.id });
    expect(purchase.data.kind).toBe("menu");
    const purchaseText = await render(purchasePage, purchase.data, `/tickets/${billing.id}`);
    expect(purchaseText).toContain("Tus 2 consumiciones");
    expect(purchaseText).toContain("Mostrá el QR en la barra.");
    expect(purchaseText).toContain("Consumición Fernet con coca · 1 de 2");
    expect(purchaseText).not.toMatch(/entrada/i);
    const pdf = await run(purchasePdf.loader, getRequest(`/tickets/${billing.id}/pdf?t=${token}`), { billingId: billing.id });
    expect(pdf.headers.get("content-disposition")).toMatch(/filename="consumiciones-TRB-[^"]+\.pdf"/);

    // With a ticket of the same night too, Mis tickets says which is which.
    const ticketOrder = await createOrder(buyerCtx, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer: { ...PAYER, email: buyer.email }, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(await getDb(), ticketOrder.billing.id, "approved");
    const tokens = await startSession(await getDb(), buyer, new Date());
    const mine = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies: { at: tokens.accessToken, rt: tokens.refreshToken } }));
    expect(mine.data.upcoming.map((c: { kind: string }) => c.kind).sort()).toEqual(["menu", "menu", "ticket"]);
    const mineText = await render(myTickets, mine.data, "/cuenta/mis-tickets");
    const refunds = await run(refundsPage.loader, getRequest("/cuenta/devoluciones"));
    expect(mineText).toContain("Entrada General");
    expect(mineText).toContain("Consumición Fernet con coca");

    // The refund page's step before confirming names what stops working: consumiciones, at the bar.
    const review = await run(refundsPage.action, formRequest("/cuenta/devoluciones", { intent: "review", orderCode: drinkOrder.code, email: buyer.email, reason: "", cbu: "" }));
    expect(review.data.review).toMatchObject({ tickets: 2, kind: "menu", automatic: true });
    const reviewHtml = (await renderInRouter(createElement(refundsPage.default), { url: "/cuenta/devoluciones", loader: () => refunds.data, action: () => review.data })).html;
    const reviewText = textOf(reviewHtml.slice(reviewHtml.indexOf('id="revision"'), reviewHtml.indexOf("Confirmar devolución")));
    expect(reviewText).toContain("Se anulan 2 consumiciones en el momento: ya no se van a poder retirar en la barra, y no se puede deshacer.");
    expect(reviewText).not.toMatch(/entrada/i);

    // The refund page's answer knows it was a drink order (its words: "Tus consumiciones quedaron anuladas…").
    const done = await run(refundsPage.action, formRequest("/cuenta/devoluciones", { intent: "confirm", orderCode: drinkOrder.code, email: buyer.email, reason: "", cbu: "" }));
    expect(done.data.done).toMatchObject({ outcome: "refunded", request: { kind: "menu" } });
  });

  it("sending a drink to another person speaks of a consumición: the form, the snackbar and the card", async () => {
    const made = await createEventWithTickets();
    const fernet = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "10" });
    const buyer = await createTestUser();
    const { billing } = await createOrder(await ctxAs(actorFor(buyer)), { eventSlug: made.event.slug, items: [{ ticketId: fernet.id, qty: 1 }], payer: { ...PAYER, email: buyer.email }, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(await getDb(), billing.id, "approved");
    const tokens = await startSession(await getDb(), buyer, new Date());
    const cookies = { at: tokens.accessToken, rt: tokens.refreshToken };
    const [drink] = (await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }))).data.upcoming;
    expect(drink).toMatchObject({ kind: "menu", transferPath: `/cuenta/mis-tickets/enviar/${drink.id}` });

    const page = await run(sendTicket.loader, getRequest(drink.transferPath, { cookies }), { ticketId: drink.id });
    expect(page.data.ticket).toMatchObject({ ticketTypeName: "Fernet con coca", one: "consumición" });
    const pageText = textOf((await renderInRouter(createElement(sendTicket.default), { url: drink.transferPath, loader: () => page.data })).html);
    expect(pageText).toContain("La consumición pasa a ser de la persona que elijas");
    expect(pageText).toContain("Enviar consumición");
    expect(pageText).not.toMatch(/entrada/i);
    expect(sendTicket.meta({ data: page.data } as never)).toContainEqual({ title: "Enviar consumición · Tribuna" });

    const email = `amiga-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const sent = await run(sendTicket.action, formRequest(drink.transferPath, { firstName: "Lucía", lastName: "Gómez", email }, { cookies }), { ticketId: drink.id });
    expect(sent.status).toBe(302);
    expect(JSON.parse(sent.cookies.flash.value).message).toMatch(/^Le enviamos la consumición a Lucía Gómez \(/);
    const after = (await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }))).data.upcoming;
    expect(after[0]).toMatchObject({ statusLabel: "Enviada a Lucía Gómez", transferPath: null });
    // Sent once: asking for its form again says what it is.
    const gone = await run(sendTicket.loader, getRequest(drink.transferPath, { cookies }), { ticketId: drink.id });
    expect(gone.status).toBe(404);
    expect(gone.data).toEqual({ message: "Esta consumición no se puede enviar: ya la enviaste, se usó, se anuló o el evento ya empezó." });
  });
});
