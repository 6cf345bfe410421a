import { createElement } from "react";
import { and, eq, inArray } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS, type Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { events, issuedProducts, jobs, ledgerEntries, orders, refundRequests, resaleListings, ticketTypes, waitlistEntries, waitlistOffers } from "#server/db/schema";
import { isDomainError } from "#server/errors";
import { runDueJobs } from "#server/jobs/queue";
import { jobHandlers } from "#server/worker/handlers";
import { startCheckout } from "#server/orders/checkout";
import { expireOrder } from "#server/orders/orders";
import { createResaleOrder } from "#server/orders/resale-order";
import { refund } from "#server/orders/lifecycle";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { transferTicket } from "#server/tickets/transfer";
import { redeemAtDoor } from "#server/door/redeem";
import { doorManifest } from "#server/door/manifest";
import type { DoorAccess } from "#server/door/access";
import { buildSignedNotification } from "#server/payment-notifications/sandbox";
import { handleMercadoPagoNotification } from "#server/payment-notifications/webhook";
import { cancelResaleListing, listForResale, resaleListingsOfEvent, setEventResale } from "#server/resale/listings";
import { runResalePayout } from "#server/resale/settle";
import { RESALE_MESSAGES } from "#server/resale/rules";
import { approveRefund, REFUND_MESSAGES, requestRefund } from "#server/refunds/refunds";
import { claimWaitlistOffer } from "#server/orders/waitlist-claim";
import { expireWaitlistOffer, runReturnedTickets } from "#server/waitlist/offers";
import { TICKETS_RETURNED_JOB } from "#server/stock/stock";
import { joinWaitlist, leaveWaitlist, setEventWaitlist } from "#server/waitlist/waitlist";
import { RESALE_REFUNDED_EMAIL, RESALE_SOLD_EMAIL } from "#server/resale/emails";
import { actorFor, createTestUser, ctxAs, sessionCookiesFor, sessionTokensFor } from "#tests/support/context";
import { createEventWithTickets, createProducer, createTransferAccount } from "#tests/support/factories";
import { approveBankTransfer } from "#server/bank-transfers/bank-transfers";
import { errorCode, gql } from "#tests/support/graphql";
import { emailsTo } from "#tests/support/mailbox";
import { formRequest, getRequest, run } from "#tests/support/remix";
import { MP_APP, MP_PLATFORM, mercadoPagoHandlers, mockPayment, payPreference, requestsTo, resetMercadoPagoMock } from "#tests/support/msw/mercadopago";
import { action as cannotGoAction } from "#app/routes/cuenta.mis-tickets_.no-puedo-ir.$ticketId";
import * as resalePage from "#app/routes/reventa.$listingId";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import * as resaleBackOffice from "#app/routes/organizacion.eventos.$slug.reventa";

// Mercado Pago is configured for this file: MSW stands in for it; our domain, database and webhook run for real.
process.env.MERCADOPAGO_ACCESS_TOKEN = MP_PLATFORM.accessToken;
process.env.MERCADOPAGO_PUBLIC_KEY = MP_PLATFORM.publicKey;
process.env.MERCADOPAGO_WEBHOOK_SECRET = "webhook-secret-for-tests-0123456789abcdef";
process.env.MERCADOPAGO_CLIENT_ID = MP_APP.clientId;
process.env.MERCADOPAGO_CLIENT_SECRET = MP_APP.clientSecret;

const server = setupServer(...mercadoPagoHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => {
  server.close();
  resetMercadoPagoMock();
});

const PRICE = 1_000_000;
const payerOf = (email: string) => ({ firstName: "Lucía", lastName: "Fernández", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" });

/** The notification Mercado Pago sends for a payment, signed. */
function notificationFor(paymentId: number | string) {
  const signed = buildSignedNotification(String(paymentId));
  return { ...signed, body: { ...(signed.body as object), id: 12345678901, user_id: MP_PLATFORM.userId } };
}

/** Pays a started checkout in Mercado Pago (the mock) and delivers its notification. */
async function pay(started: { paymentUrl: string | null }) {
  const db = await getDb();
  const payment = payPreference(new URL(started.paymentUrl!).searchParams.get("pref_id")!);
  await handleMercadoPagoNotification(db, notificationFor(payment.id));
  return payment;
}

async function signedIn() {
  const user = await createTestUser();
  return { user, ctx: await ctxAs(actorFor({ ...user, roles: [] })) };
}

/** An event `days` away, and a signed-in seller who bought `qty` General tickets with Mercado Pago. */
async function sellerWithTickets(options: { qty?: number; days?: number; startsAt?: Date; stock?: number } = {}) {
  const made = await createEventWithTickets([{ name: "General", price: PRICE, stock: options.stock ?? 50 }], { days: options.days ?? 20, startsAt: options.startsAt });
  const seller = await signedIn();
  const started = await startCheckout(seller.ctx, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: options.qty ?? 2 }], payer: payerOf(seller.user.email), paymentMethod: "MERCADO_PAGO" });
  const payment = await pay(started);
  const db = await getDb();
  const tickets = await ticketsOfOrder(db, started.order.id);
  expect(tickets.map((t) => t.status)).toEqual(Array(options.qty ?? 2).fill("redeemable"));
  return { ...made, producer: { user: made.user, ctx: made.ctx }, db, seller, sellerOrder: started.order, sellerBilling: started.billing, sellerPayment: payment, tickets };
}

async function buyListing(listingId: string, email = `comprador-${Math.random().toString(36).slice(2, 8)}@example.com`, ctx?: Ctx) {
  const started = await startCheckout(ctx ?? (await ctxAs(ANONYMOUS)), { eventSlug: "", items: [], payer: payerOf(email), resaleListingId: listingId, paymentMethod: "MERCADO_PAGO" });
  return { started, email };
}

/** Tonight, still ahead at any hour the suite runs ("today at 21" has passed after 21 in Buenos Aires). */
const soon = () => new Date(Date.now() + 3 * 60 * 60_000);

const conflict = (error: unknown) => isDomainError(error) && error.code === "CONFLICT";

describe("listing: the face-value cap at every door", () => {
  it("the domain, GraphQL and the form refuse a price above what the seller paid; at the face value it lists", async () => {
    const { seller, tickets } = await sellerWithTickets();
    const above = PRICE + 100;

    await expect(listForResale(seller.ctx, { ticketId: tickets[0].id, price: above })).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { price: [expect.stringContaining("no puede superar")] } });

    const tokens = await sessionTokensFor(seller.user.id);
    const LIST = /* GraphQL */ `mutation L($input: ListForResaleInput!) { listForResale(input: $input) { id status price faceValue payout } }`;
    const refused = await gql(LIST, { tokens, variables: { input: { ticketId: tickets[0].id, price: above } } });
    expect(errorCode(refused)).toBe("BAD_USER_INPUT");
    expect(refused.body.errors?.[0].extensions?.fieldErrors?.price?.[0]).toMatch(/no puede superar \$\s?10\.000,00/);

    const cookies = await sessionCookiesFor(seller.user.id);
    const path = `/cuenta/mis-tickets/no-puedo-ir/${tickets[0].id}`;
    const form = await run(cannotGoAction, formRequest(path, { intent: "list", price: "10.001" }, { cookies }), { ticketId: tickets[0].id });
    expect(form.status).toBe(400);
    expect(JSON.stringify(form.data)).toMatch(/no puede superar/);

    const db = await getDb();
    expect(await db.select().from(resaleListings).where(eq(resaleListings.issuedProductId, tickets[0].id))).toHaveLength(0);

    // At the face value: listed (over the form, without JavaScript), and a second listing of the same ticket is refused.
    const listed = await run(cannotGoAction, formRequest(path, { intent: "list", price: "10.000" }, { cookies }), { ticketId: tickets[0].id });
    expect(listed.status).toBe(302);
    const [row] = await db.select().from(resaleListings).where(eq(resaleListings.issuedProductId, tickets[0].id));
    expect(row).toMatchObject({ status: "active", price: PRICE, faceValue: PRICE, payout: PRICE });
    const twice = await gql(LIST, { tokens, variables: { input: { ticketId: tickets[0].id, price: PRICE } } });
    expect(errorCode(twice)).toBe("CONFLICT");

    // The database refuses it too, whoever writes.
    await expect(db.update(resaleListings).set({ price: PRICE + 1, payout: PRICE + 1 }).where(eq(resaleListings.id, row.id))).rejects.toThrow();
  });

  it("the organizer's lower cap and resale fee: above the cap refused, the fee comes out of the seller's money", async () => {
    const { producer, event, seller, tickets } = await sellerWithTickets();
    await setEventResale(producer.ctx, { eventId: event.id, enabled: true, capPercent: 80, feePercent: 10 });
    await expect(listForResale(seller.ctx, { ticketId: tickets[0].id, price: 800_100 })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: 800_000 });
    expect(listing).toMatchObject({ price: 800_000, fee: 80_000, payout: 720_000 });
    // Someone else's ticket: not found, nothing learnt.
    const stranger = await signedIn();
    await expect(listForResale(stranger.ctx, { ticketId: tickets[1].id, price: 100 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("buying a listing", () => {
  it("20 buyers at once for one listing: exactly one holds it, the rest get CONFLICT", async () => {
    const { seller, tickets } = await sellerWithTickets();
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => ctxAs(ANONYMOUS)));
    const results = await Promise.allSettled(buyers.map((ctx, i) => createResaleOrder(ctx, { resaleListingId: listing.id, payer: payerOf(`carrera-${i}@example.com`) })));
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").every((r) => conflict((r as PromiseRejectedResult).reason))).toBe(true);
    const db = await getDb();
    const [row] = await db.select().from(resaleListings).where(eq(resaleListings.id, listing.id));
    expect(row).toMatchObject({ status: "held", heldByOrderId: (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof createResaleOrder>>>).value.order.id });
    // Only one draft order exists for it (the losers' rolled back).
    const drafts = await db.select().from(orders).where(and(eq(orders.eventId, listing.eventId), eq(orders.status, "draft")));
    expect(drafts).toHaveLength(1);
  });

  it("once paid: the old QR is refused at the door at once (and in the next manifest), the buyer's new one gets in, the seller is told", async () => {
    const { db, seller, tickets, event, producer, sellerBilling } = await sellerWithTickets({ startsAt: soon() });
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    const access: DoorAccess = { event: { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug }, userId: producer.user.id, pinSessionId: null };
    const before = new Date();
    const { started, email } = await buyListing(listing.id);
    expect(started.order.subtotal).toBe(PRICE);
    await pay(started);

    // An offline door's next manifest (only what changed since its last one) carries the old ticket as voided.
    const manifest = JSON.parse((await doorManifest(producer.ctx, access, { since: before.toISOString() })).payload) as { entries: { st: string }[] };
    expect(manifest.entries.map((e) => e.st).sort()).toEqual(["redeemable", "voided"]);

    const old = await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[0].code) });
    expect(old.outcome).toBe("voided");
    const [fresh] = await ticketsOfOrder(db, started.order.id);
    expect(fresh.code).not.toBe(tickets[0].code);
    expect(fresh.holderEmail).toBe(email);
    expect((await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(fresh.code) })).outcome).toBe("admitted");
    // The seller's other ticket still gets in.
    expect((await redeemAtDoor(producer.ctx, access, { code: qrPayloadFor(tickets[1].code) })).outcome).toBe("admitted");

    expect(await emailsTo(seller.user.email, RESALE_SOLD_EMAIL)).toHaveLength(1);
    const [sold] = await db.select().from(resaleListings).where(eq(resaleListings.id, listing.id));
    expect(sold).toMatchObject({ status: "sold", buyerOrderId: started.order.id, payoutMethod: "provider", payoutStatus: "pending" });
    await assertLedgerMatches(db, started.order.id);
    await assertLedgerMatches(db, sellerBilling.orderId);
  });

  it("the seller is refunded once through Mercado Pago, even when the provider's notification arrives twice", async () => {
    const { db, seller, tickets, sellerPayment, sellerOrder } = await sellerWithTickets();
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: 900_000 });
    const { started } = await buyListing(listing.id);
    await pay(started);

    await runDueJobs(db, jobHandlers, new Date(Date.now() + 1000));
    const refunds = requestsTo("POST", `/v1/payments/${sellerPayment.id}/refunds`);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].body).toEqual({ amount: 9000 });
    expect(refunds[0].idempotencyKey).toBe(`resale-${listing.id}`);

    // Mercado Pago tells us about the (partial) refund of the seller's payment, twice.
    expect(mockPayment(sellerPayment.id)!.refunds).toHaveLength(1);
    for (let i = 0; i < 2; i++) expect((await handleMercadoPagoNotification(db, notificationFor(sellerPayment.id))).status).toBe(200);
    // A retried job finds it done.
    expect(await runResalePayout(db, listing.id)).toBe("already-done");

    expect(requestsTo("POST", `/v1/payments/${sellerPayment.id}/refunds`)).toHaveLength(1);
    expect(await emailsTo(seller.user.email, RESALE_REFUNDED_EMAIL)).toHaveLength(1);
    const payouts = await db.select().from(ledgerEntries).where(and(eq(ledgerEntries.orderId, started.order.id), eq(ledgerEntries.kind, "resale_payout")));
    expect(payouts.map((e) => e.amount)).toEqual([-900_000]);
    const [row] = await db.select().from(resaleListings).where(eq(resaleListings.id, listing.id));
    expect(row.payoutStatus).toBe("done");
    // The seller's purchase is still paid, with its other ticket live.
    await assertLedgerMatches(db, sellerOrder.id);
    const left = await ticketsOfOrder(db, sellerOrder.id);
    expect(left.map((t) => t.status).sort()).toEqual(["redeemable", "voided"]);
  });

  it("a cancelled listing cannot be bought (domain and GraphQL), and a held one cannot be cancelled", async () => {
    const { seller, tickets, event } = await sellerWithTickets();
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    await cancelResaleListing(seller.ctx, { listingId: listing.id });
    await expect(createResaleOrder(await ctxAs(), { resaleListingId: listing.id, payer: payerOf("tarde@example.com") })).rejects.toMatchObject({ code: "CONFLICT" });
    const CREATE = /* GraphQL */ `mutation C($input: CreateOrderInput!) { createOrder(input: $input) { billingId } }`;
    const viaApi = await gql(CREATE, { variables: { input: { eventSlug: "x", items: [], payer: payerOf("api@example.com"), paymentMethod: "MERCADO_PAGO", resaleListingId: listing.id } } });
    expect(errorCode(viaApi)).toBe("CONFLICT");
    const RESALE = /* GraphQL */ `query R($slug: String!) { resaleListings(eventSlug: $slug) { id priceFormatted } }`;
    const offer = await gql<{ resaleListings: { id: string }[] }>(RESALE, { variables: { slug: event.slug } });
    expect(offer.body.data?.resaleListings).toEqual([]);

    const again = await listForResale(seller.ctx, { ticketId: tickets[1].id, price: PRICE });
    await createResaleOrder(await ctxAs(), { resaleListingId: again.id, payer: payerOf("reserva@example.com") });
    await expect(cancelResaleListing(seller.ctx, { listingId: again.id })).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("resale and the per-account limit", () => {
  it("a resale counts like a purchase: over the event's limit refused, signed out refused, within it held", async () => {
    const { db, event, tickets, seller } = await sellerWithTickets();
    await db.update(events).set({ maxTicketsPerAccount: 2 }).where(eq(events.id, event.id));
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });

    // Someone who already has two tickets of this event (unpaid ones count while they are held).
    const hoarder = await signedIn();
    await startCheckout(hoarder.ctx, { eventSlug: event.slug, items: [{ ticketId: tickets[0].ticketTypeId!, qty: 2 }], payer: payerOf(hoarder.user.email), paymentMethod: "MERCADO_PAGO" });
    await expect(buyListing(listing.id, hoarder.user.email, hoarder.ctx)).rejects.toMatchObject({ code: "CONFLICT", reason: "ACCOUNT_LIMIT_REACHED" });
    // The listing's page says it before the payer form (and shows no form).
    const page = await run(resalePage.loader, getRequest(`/reventa/${listing.id}`, { cookies: await sessionCookiesFor(hoarder.user.id) }), { listingId: listing.id });
    expect(page.data.offer.limitRefusal).toBe("Este evento permite hasta 2 entradas por cuenta y ya tenés 2: no podés sumar más.");
    const anonymousPage = await run(resalePage.loader, getRequest(`/reventa/${listing.id}`), { listingId: listing.id });
    expect(anonymousPage.data.offer.limitRefusal).toBe("Este evento permite hasta 2 entradas por cuenta: iniciá sesión para comprar.");
    await expect(buyListing(listing.id)).rejects.toMatchObject({ code: "UNAUTHENTICATED", reason: "ACCOUNT_REQUIRED" });
    const [still] = await db.select().from(resaleListings).where(eq(resaleListings.id, listing.id));
    expect(still.status).toBe("active");

    const fan = await signedIn();
    const { started } = await buyListing(listing.id, fan.user.email, fan.ctx);
    expect(started.order.buyerUserId).toBe(fan.user.id);
  });
});

describe("withdrawal and resale never pay twice", () => {
  it("a listed or resold ticket blocks the withdrawal of its purchase; a withdrawal waiting for the organizer blocks listing", async () => {
    const { db, seller, tickets, sellerOrder } = await sellerWithTickets();
    const withdrawal = { orderCode: sellerOrder.code, email: seller.user.email };
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    await expect(requestRefund(seller.ctx, withdrawal)).rejects.toMatchObject({ code: "CONFLICT", message: REFUND_MESSAGES.listed });

    const { started } = await buyListing(listing.id);
    await pay(started);
    // The resold ticket's money goes back through the resale: the whole purchase cannot be given back on top of it.
    await expect(requestRefund(seller.ctx, withdrawal)).rejects.toMatchObject({ code: "CONFLICT", message: REFUND_MESSAGES.resold });
    expect(await db.select().from(refundRequests).where(eq(refundRequests.orderId, sellerOrder.id))).toHaveLength(0);
    await assertLedgerMatches(db, sellerOrder.id);

    // Outside the legal window (the event is today) a withdrawal waits for the organizer; meanwhile nothing of it is listed.
    const later = await sellerWithTickets({ startsAt: soon() });
    const pending = await requestRefund(later.seller.ctx, { orderCode: later.sellerOrder.code, email: later.seller.user.email });
    expect(pending.outcome).toBe("pending");
    await expect(listForResale(later.seller.ctx, { ticketId: later.tickets[0].id, price: PRICE })).rejects.toMatchObject({ code: "CONFLICT", message: RESALE_MESSAGES.refundPending });
  });
});

describe("the ledger with resale", () => {
  it("every order of a scripted mix of sales, refunds, transfers and resales matches its ledger, and the stock counts stay true", async () => {
    const { db, event, tickets: sellerTickets, seller, sellerOrder, producer } = await sellerWithTickets({ qty: 3 });
    await setEventResale(producer.ctx, { eventId: event.id, enabled: true, capPercent: 100, feePercent: 5 });
    const general = (await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id)))[0];

    // A plain sale, refunded by the organizer through the provider.
    const other = await signedIn();
    const plain = await startCheckout(other.ctx, { eventSlug: event.slug, items: [{ ticketId: general.id, qty: 1 }], payer: payerOf(other.user.email), paymentMethod: "MERCADO_PAGO" });
    await pay(plain);
    await db.transaction((tx) => refund(tx, plain.billing.id, { reason: "prueba", now: new Date(), providerRefund: "queue" }));

    // A resale whose buyer never pays: the hold ends, the listing is back on sale.
    const first = await listForResale(seller.ctx, { ticketId: sellerTickets[0].id, price: PRICE });
    const unpaid = await buyListing(first.id);
    expect(await expireOrder(await ctxAs(ANONYMOUS, new Date(Date.now() + 60 * 60_000)), unpaid.started.order.id)).toBe("expired");
    expect((await db.select().from(resaleListings).where(eq(resaleListings.id, first.id)))[0].status).toBe("active");

    // Then sold to a signed-in buyer, who sends it on to a friend.
    const buyer = await signedIn();
    const bought = await buyListing(first.id, buyer.user.email, buyer.ctx);
    await pay(bought.started);
    const [boughtTicket] = await ticketsOfOrder(db, bought.started.order.id);
    await transferTicket(buyer.ctx, { ticketId: boughtTicket.id, firstName: "Martina", lastName: "Ríos", email: "martina@example.com" });

    // A second resale of the seller's, cheaper, then refunded to its buyer by the organizer.
    const second = await listForResale(seller.ctx, { ticketId: sellerTickets[1].id, price: 700_000 });
    const refunded = await buyListing(second.id);
    await pay(refunded.started);
    await db.transaction((tx) => refund(tx, refunded.started.billing.id, { reason: "prueba", now: new Date(), providerRefund: "none" }));

    // A listing cancelled by its seller.
    const third = await listForResale(seller.ctx, { ticketId: sellerTickets[2].id, price: PRICE });
    await cancelResaleListing(seller.ctx, { listingId: third.id });

    await runDueJobs(db, jobHandlers, new Date(Date.now() + 1000));
    const all = await db.select({ id: orders.id }).from(orders).where(eq(orders.eventId, event.id));
    expect(all.length).toBe(5);
    for (const o of all) await assertLedgerMatches(db, o.id);

    // The stock: what is counted sold is exactly the live tickets (none held now).
    const live = await db.select({ id: issuedProducts.id }).from(issuedProducts).where(and(eq(issuedProducts.eventId, event.id), inArray(issuedProducts.status, ["redeemable", "redeemed"])));
    const [type] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, general.id));
    expect(type.sold).toBe(live.length);
    // Seller: one ticket resold (voided), one resold then refunded to its buyer (voided), one still theirs.
    expect((await ticketsOfOrder(db, sellerOrder.id)).map((t) => t.status).sort()).toEqual(["redeemable", "voided", "voided"]);
  });
});

describe("a listing goes to the waiting list first", () => {
  const minutesLater = (n: number) => new Date(Date.now() + n * 60_000);
  const listingRow = async (id: string) => (await (await getDb()).select().from(resaleListings).where(eq(resaleListings.id, id)))[0];
  const offersOfEntry = async (entryId: string) => (await getDb()).select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entryId));

  /** A sold-out event (the seller bought both tickets), its waiting list on, and people in line. */
  async function soldOutWithLine(n: number) {
    const made = await sellerWithTickets({ stock: 2 });
    await setEventWaitlist(made.producer.ctx, { eventId: made.event.id, enabled: true });
    const line = [];
    for (let i = 0; i < n; i++) {
      const person = await signedIn();
      const entry = await joinWaitlist(person.ctx, { eventSlug: made.event.slug, ticketTypeId: i % 2 ? made.tickets[0].ticketTypeId : null, quantity: 1 });
      line.push({ ...person, entry });
    }
    return { ...made, line };
  }

  it("held for the first person (email with the claim link), hidden from the event page; unclaimed to the next; nobody left: public", async () => {
    const { seller, tickets, event, line, db } = await soldOutWithLine(2);
    const [ana, beto] = line;
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    expect(listing).toMatchObject({ status: "held", heldByOrderId: null });
    const [offerA] = await offersOfEntry(ana.entry.id);
    expect(offerA).toMatchObject({ listingId: listing.id, quantity: 1, status: "offered" });
    const mail = await emailsTo(ana.user.email, "waitlist-offer");
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain(`/lista-de-espera/oferta/${offerA.id}`);
    expect(mail[0].text).toContain("reventa oficial");
    expect(await emailsTo(beto.user.email, "waitlist-offer")).toHaveLength(0);

    // Meanwhile nobody else buys it: not on the event page, and buying it is a CONFLICT.
    expect(await resaleListingsOfEvent({ db, now: new Date() }, event.slug)).toEqual([]);
    await expect(buyListing(listing.id)).rejects.toMatchObject({ code: "CONFLICT" });

    // Ana lets the offer run out: Beto (waiting for this ticket type) gets it next.
    expect(await expireWaitlistOffer(db, offerA.id, minutesLater(31))).toBe("expired");
    const [offerB] = await offersOfEntry(beto.entry.id);
    expect(offerB).toMatchObject({ listingId: listing.id, status: "offered" });
    expect((await listingRow(listing.id)).status).toBe("held");
    expect(await emailsTo(beto.user.email, "waitlist-offer")).toHaveLength(1);

    // Beto leaves the line: nobody else waits, so the listing shows as "Reventa oficial" and anyone can buy it.
    await leaveWaitlist(beto.ctx, beto.entry.id);
    expect((await listingRow(listing.id)).status).toBe("active");
    expect((await resaleListingsOfEvent({ db, now: new Date() }, event.slug)).map((l) => l.id)).toEqual([listing.id]);
    const { started } = await buyListing(listing.id);
    expect((await listingRow(listing.id)).heldByOrderId).toBe(started.order.id);
  });

  it("a claim racing 10 public buyers: the claimant's resale order holds it, nobody else", async () => {
    const { seller, tickets, line, db } = await soldOutWithLine(1);
    const [ana] = line;
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    const [offer] = await offersOfEntry(ana.entry.id);
    const buyers = await Promise.all(Array.from({ length: 10 }, () => ctxAs(ANONYMOUS)));
    const results = await Promise.allSettled([
      claimWaitlistOffer(ana.ctx, offer.id, { payer: payerOf(ana.user.email) }),
      ...buyers.map((ctx, i) => createResaleOrder(ctx, { resaleListingId: listing.id, payer: payerOf(`apurado-${i}@example.com`) })),
    ]);
    expect(results[0].status).toBe("fulfilled");
    expect(results.slice(1).every((r) => r.status === "rejected" && conflict(r.reason))).toBe(true);
    const claimed = (results[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof claimWaitlistOffer>>>).value;
    expect(await listingRow(listing.id)).toMatchObject({ status: "held", heldByOrderId: claimed.order.id });
    expect(claimed.order).toMatchObject({ buyerUserId: ana.user.id, subtotal: PRICE });
    const [after] = await db.select().from(waitlistOffers).where(eq(waitlistOffers.id, offer.id));
    expect(after).toMatchObject({ status: "claimed", orderId: claimed.order.id });
    const [entry] = await db.select().from(waitlistEntries).where(eq(waitlistEntries.id, ana.entry.id));
    expect(entry.status).toBe("claimed");
    // Only the claim's draft exists for the event (the seller's order is paid).
    const drafts = await db.select().from(orders).where(and(eq(orders.eventId, listing.eventId), eq(orders.status, "draft")));
    expect(drafts.map((d) => d.id)).toEqual([claimed.order.id]);
  });

  it("the claimant's unpaid resale order ends: the listing goes back to the line (the job), to the next person", async () => {
    const { seller, tickets, line, db } = await soldOutWithLine(2);
    const [ana, beto] = line;
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    const [offer] = await offersOfEntry(ana.entry.id);
    const { order } = await claimWaitlistOffer(ana.ctx, offer.id, { payer: payerOf(ana.user.email) });
    expect(await expireOrder({ db, actor: ANONYMOUS, now: minutesLater(60) }, order.id)).toBe("expired");
    expect((await listingRow(listing.id)).status).toBe("active");
    // The hold's end queued the waiting list's job for this ticket type; it runs.
    const queued = (await db.select().from(jobs).where(eq(jobs.kind, TICKETS_RETURNED_JOB))).filter((j) => (j.payload as { ticketTypeIds: string[] }).ticketTypeIds.includes(listing.ticketTypeId));
    expect(queued).toHaveLength(1);
    expect(await runReturnedTickets(db, queued[0].payload as { ticketTypeIds: string[] }, minutesLater(61))).toBe(1);
    expect(await offersOfEntry(beto.entry.id)).toMatchObject([{ listingId: listing.id, status: "offered" }]);
    expect((await listingRow(listing.id)).status).toBe("held");
  });
});

describe("named tickets bought in the resale", () => {
  it("the buyer names the new holder (name and DNI): refused without it; the new ticket carries it", async () => {
    const { db, event, seller, tickets } = await sellerWithTickets();
    await db.update(events).set({ oneHolderPerTicket: true }).where(eq(events.id, event.id));
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    await expect(buyListing(listing.id)).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    // The page asks for the holder with the checkout's form (one row, for this ticket).
    const page = await run(resalePage.loader, getRequest(`/reventa/${listing.id}`), { listingId: listing.id });
    expect(page.data).toMatchObject({ holders: 1, holderLabels: ["General"] });
    const refused = await run(resalePage.action, formRequest(`/reventa/${listing.id}`, payerOf("sin-titular@example.com")), { listingId: listing.id });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.data.result.error ?? {})).toContain("attendees[0].documentNumber");
    const holder = { firstName: "Martina", lastName: "Quiroga", documentType: "dni", documentNumber: "40111222" };
    const started = await startCheckout(await ctxAs(ANONYMOUS), { eventSlug: "", items: [], payer: payerOf("paga@example.com"), attendees: [holder], resaleListingId: listing.id, paymentMethod: "MERCADO_PAGO" });
    await pay(started);
    const [fresh] = await ticketsOfOrder(db, started.order.id);
    expect(fresh).toMatchObject({ holderName: "Martina Quiroga", holderDocumentNumber: "40111222", status: "redeemable" });
  });
});

describe("withdrawal and resale listing at the same moment", () => {
  it("a withdrawal and a listing of the same purchase at once: exactly one wins, the other gets a Spanish CONFLICT", async () => {
    for (let round = 0; round < 3; round++) {
      const { db, seller, tickets, sellerOrder } = await sellerWithTickets();
      const results = await Promise.allSettled([
        requestRefund(seller.ctx, { orderCode: sellerOrder.code, email: seller.user.email }),
        listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(lost.reason).toMatchObject({ code: "CONFLICT" });
      expect([REFUND_MESSAGES.listed, RESALE_MESSAGES.refundPending, RESALE_MESSAGES.voided]).toContain(lost.reason.message);
      const listings = await db.select().from(resaleListings).where(eq(resaleListings.sellerOrderId, sellerOrder.id));
      const requests = await db.select().from(refundRequests).where(eq(refundRequests.orderId, sellerOrder.id));
      expect(listings.length + requests.length).toBe(1);
    }
  });

  it("the organizer cannot approve a whole refund of a purchase with a ticket sold in the resale (decision 216)", async () => {
    const { db, seller, tickets, sellerOrder, producer } = await sellerWithTickets({ startsAt: soon() });
    const pending = await requestRefund(seller.ctx, { orderCode: sellerOrder.code, email: seller.user.email });
    expect(pending.outcome).toBe("pending");
    // A listing from before the lock existed (or another way in): the approval checks again under the lock.
    const listing = await db
      .insert(resaleListings)
      .values({ organizationId: sellerOrder.organizationId, eventId: sellerOrder.eventId, eventDateId: sellerOrder.eventDateId, ticketTypeId: tickets[0].ticketTypeId!, issuedProductId: tickets[0].id, sellerUserId: seller.user.id, sellerOrderId: sellerOrder.id, sellerBillingId: pending.request.billingId, faceValue: PRICE, price: PRICE, fee: 0, payout: PRICE, createdAt: new Date(), updatedAt: new Date() })
      .returning();
    await db.update(resaleListings).set({ status: "sold", soldAt: new Date() }).where(eq(resaleListings.id, listing[0].id));
    await expect(approveRefund(producer.ctx, { id: pending.request.id })).rejects.toMatchObject({ code: "CONFLICT", message: REFUND_MESSAGES.resoldOrganizer });
    const [request] = await db.select().from(refundRequests).where(eq(refundRequests.id, pending.request.id));
    expect(request.status).toBe("pending");
    expect((await ticketsOfOrder(db, sellerOrder.id)).map((t) => t.status)).toEqual(["redeemable", "redeemable"]);
  });
});

describe("the organizer's side of the seller's money, and resale settings over GraphQL", () => {
  const MARK = `mutation ($id: ID!) { markResalePayoutDone(listingId: $id) { id payoutStatus } }`;
  const RETRY = `mutation ($id: ID!) { retryResalePayout(listingId: $id) { id payoutStatus } }`;

  it("a seller who paid by bank transfer is paid back by the organizer, who marks it done once; strangers cannot", async () => {
    const made = await createEventWithTickets([{ name: "Transferencia", price: PRICE, stock: 10, paymentMethod: "BankAccount" }], { days: 20 });
    const db = await getDb();
    await createTransferAccount(made.ctx, made.organization.id);
    const seller = await signedIn();
    const placed = await startCheckout(seller.ctx, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.Transferencia.id, qty: 1 }], payer: payerOf(seller.user.email), paymentMethod: "BANK_TRANSFER" });
    expect((await approveBankTransfer(made.ctx, { billingId: placed.billing.id })).outcome).toBe("approved");
    const [ticket] = await ticketsOfOrder(db, placed.order.id);
    const listing = await listForResale(seller.ctx, { ticketId: ticket.id, price: PRICE });
    const { started } = await buyListing(listing.id);
    await pay(started);
    const [sold] = await db.select().from(resaleListings).where(eq(resaleListings.id, listing.id));
    expect(sold).toMatchObject({ status: "sold", payoutMethod: "organizer", payoutStatus: "pending" });

    const stranger = await createProducer();
    expect(errorCode(await gql(MARK, { tokens: await sessionTokensFor(stranger.user.id), variables: { id: listing.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(MARK, { variables: { id: listing.id } }))).toBe("UNAUTHENTICATED");
    expect(errorCode(await gql(MARK, { tokens: await sessionTokensFor(seller.user.id), variables: { id: listing.id } }))).toBe("FORBIDDEN");
    // A Mercado Pago payout cannot be "marked": retrying a transfer payout is refused too.
    const tokens = await sessionTokensFor(made.user.id);
    expect(errorCode(await gql(RETRY, { tokens, variables: { id: listing.id } }))).toBe("CONFLICT");

    const marked = await gql<{ markResalePayoutDone: { payoutStatus: string } }>(MARK, { tokens, variables: { id: listing.id } });
    expect(marked.body.errors).toBeUndefined();
    expect(marked.body.data!.markResalePayoutDone.payoutStatus).toBe("DONE");
    const again = await gql(MARK, { tokens, variables: { id: listing.id } });
    expect(errorCode(again)).toBe("CONFLICT");
    expect(again.body.errors![0].message).toBe(RESALE_MESSAGES.payoutNotManual);
    // The ledger booked the organizer's payment at the sale; marking it changes no money.
    await assertLedgerMatches(db, started.order.id);
    await assertLedgerMatches(db, placed.order.id);
  });

  it("a Mercado Pago payout that failed for good is retried by the organizer from the back office, and pays once", async () => {
    const { db, seller, tickets, sellerPayment, event, producer } = await sellerWithTickets();
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    const { started } = await buyListing(listing.id);
    await pay(started);
    server.use(http.post("https://api.mercadopago.com/v1/payments/:id/refunds", () => HttpResponse.json({ message: "internal_error", error: "internal_error", status: 500, cause: [] }, { status: 500 })));
    await expect(runResalePayout(db, listing.id, { finalAttempt: true })).rejects.toThrow();
    server.resetHandlers();
    expect((await db.select().from(resaleListings).where(eq(resaleListings.id, listing.id)))[0].payoutStatus).toBe("failed");

    // The back office shows the failure with a retry button, which queues the payout again.
    const page = await run(resaleBackOffice.loader, getRequest(`/organizacion/eventos/${event.slug}/reventa`, { cookies: await sessionCookiesFor(producer.user.id) }), { slug: event.slug });
    expect(JSON.stringify(page.data)).toContain("payout-retry");
    const retried = await run(
      resaleBackOffice.action,
      formRequest(`/organizacion/eventos/${event.slug}/reventa`, { intent: "payout-retry", listingId: listing.id }, { cookies: await sessionCookiesFor(producer.user.id) }),
      { slug: event.slug },
    );
    expect(retried.status).toBe(302);
    expect((await db.select().from(resaleListings).where(eq(resaleListings.id, listing.id)))[0].payoutStatus).toBe("pending");
    const tokens = await sessionTokensFor(producer.user.id);
    expect(errorCode(await gql(RETRY, { tokens, variables: { id: listing.id } }))).toBe("CONFLICT");

    await runDueJobs(db, jobHandlers, new Date(Date.now() + 1000));
    const row = (await db.select().from(resaleListings).where(eq(resaleListings.id, listing.id)))[0];
    expect(row.payoutStatus).toBe("done");
    // Mercado Pago paid once: the failed attempt never reached it, the retry used the same idempotency key.
    expect(mockPayment(sellerPayment.id)!.refunds).toHaveLength(1);
    expect(await emailsTo(seller.user.email, RESALE_REFUNDED_EMAIL)).toHaveLength(1);
  });

  it("integrators read and set an event's resale rules, named tickets and per-account limit", async () => {
    const { event, producer, seller, tickets } = await sellerWithTickets({ qty: 1 });
    const tokens = await sessionTokensFor(producer.user.id);
    const SET = `mutation ($input: SetEventResaleInput!) { setEventResale(input: $input) { enabled capPercent feePercent } }`;
    const bad = await gql(SET, { tokens, variables: { input: { eventId: event.id, enabled: true, capPercent: 0, feePercent: 0 } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    const set = await gql<{ setEventResale: unknown }>(SET, { tokens, variables: { input: { eventId: event.id, enabled: true, capPercent: 80, feePercent: 2.5 } } });
    expect(set.body.data!.setEventResale).toEqual({ enabled: true, capPercent: 80, feePercent: 2.5 });
    await listForResale(seller.ctx, { ticketId: tickets[0].id, price: 800_000 });
    const READ = `query ($id: ID!) { eventResale(eventId: $id) { capPercent listings { price fee payout status } } }`;
    const read = await gql<{ eventResale: { capPercent: number; listings: unknown[] } }>(READ, { tokens, variables: { id: event.id } });
    expect(read.body.data!.eventResale).toEqual({ capPercent: 80, listings: [{ price: 800_000, fee: 20_000, payout: 780_000, status: "ACTIVE" }] });
    expect(errorCode(await gql(READ, { tokens: await sessionTokensFor(seller.user.id), variables: { id: event.id } }))).toBe("FORBIDDEN");

    const FIELDS = `mutation ($input: SetEventCustomFieldsInput!) { setEventCustomFields(input: $input) { oneHolderPerTicket maxTicketsPerAccount } }`;
    expect(errorCode(await gql(FIELDS, { tokens, variables: { input: { id: event.id, fields: [], maxTicketsPerAccount: 0 } } }))).toBe("BAD_USER_INPUT");
    const named = await gql<{ setEventCustomFields: unknown }>(FIELDS, { tokens, variables: { input: { id: event.id, fields: [], oneHolderPerTicket: true, maxTicketsPerAccount: 4 } } });
    expect(named.body.data!.setEventCustomFields).toEqual({ oneHolderPerTicket: true, maxTicketsPerAccount: 4 });
    // Absent leaves them as they are; null removes the limit.
    const kept = await gql<{ setEventCustomFields: unknown }>(FIELDS, { tokens, variables: { input: { id: event.id, fields: [] } } });
    expect(kept.body.data!.setEventCustomFields).toEqual({ oneHolderPerTicket: true, maxTicketsPerAccount: 4 });
    const cleared = await gql<{ setEventCustomFields: unknown }>(FIELDS, { tokens, variables: { input: { id: event.id, fields: [], maxTicketsPerAccount: null } } });
    expect(cleared.body.data!.setEventCustomFields).toEqual({ oneHolderPerTicket: true, maxTicketsPerAccount: null });
  });
});

describe("the listing's page: the final price first (docs/prices.md)", () => {
  it("shows the price with the service fee as the first figure, the price without national taxes beside it, then the breakdown", async () => {
    const { seller, tickets } = await sellerWithTickets({ qty: 1 });
    const listing = await listForResale(seller.ctx, { ticketId: tickets[0].id, price: PRICE });
    const page = await run(resalePage.loader, getRequest(`/reventa/${listing.id}`), { listingId: listing.id });
    expect(page.status).toBe(200);
    const { html } = await renderInRouter(createElement(resalePage.default), { url: `/reventa/${listing.id}`, loader: () => page.data });
    const text = html.replace(/<[^>]+>/g, " ").replace(/&nbsp;|\u00a0/g, " ").replace(/\s+/g, " ");
    // $ 10.000 + the 10 % fee = $ 11.000; the fee's 21 % IVA (1000 × 21/121 = $ 173,55) comes out of the second.
    expect([...text.matchAll(/\$ [\d.]+,\d{2}/g)].map((m) => m[0])).toEqual(["$ 11.000,00", "$ 10.826,45", "$ 10.000,00", "$ 1.000,00"]);
    expect(text).toContain("Precio sin impuestos nacionales $ 10.826,45");
  });
});
