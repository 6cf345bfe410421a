import { and, eq, inArray } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS, type Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { events, issuedProducts, ledgerEntries, orders, refundRequests, resaleListings, ticketTypes } from "#server/db/schema";
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
import { cancelResaleListing, listForResale, setEventResale } from "#server/resale/listings";
import { runResalePayout } from "#server/resale/settle";
import { RESALE_MESSAGES } from "#server/resale/rules";
import { REFUND_MESSAGES, requestRefund } from "#server/refunds/refunds";
import { RESALE_REFUNDED_EMAIL, RESALE_SOLD_EMAIL } from "#server/resale/emails";
import { actorFor, createTestUser, ctxAs, sessionCookiesFor, sessionTokensFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";
import { emailsTo } from "#tests/support/mailbox";
import { formRequest, run } from "#tests/support/remix";
import { MP_APP, MP_PLATFORM, mercadoPagoHandlers, mockPayment, payPreference, requestsTo, resetMercadoPagoMock } from "#tests/support/msw/mercadopago";
import { action as cannotGoAction } from "#app/routes/cuenta.mis-tickets_.no-puedo-ir.$ticketId";

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
async function sellerWithTickets(options: { qty?: number; days?: number } = {}) {
  const made = await createEventWithTickets([{ name: "General", price: PRICE, stock: 50 }], { days: options.days ?? 20 });
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
    const { db, seller, tickets, event, producer, sellerBilling } = await sellerWithTickets({ days: 0 });
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
    const later = await sellerWithTickets({ days: 0 });
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
