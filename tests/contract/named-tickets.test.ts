import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { issuedProducts, ticketTransfers, ticketTypes } from "#server/db/schema";
import { setCustomFields } from "#server/events/events";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { sendTicketsEmail } from "#server/tickets/email";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { ACCOUNT_LIMIT_REACHED, ACCOUNT_REQUIRED, AccountLimitReached, assertWithinAccountLimit, ticketsHeldByAccount } from "#server/tickets/account-limit";
import { NAMED_TRANSFER_MESSAGES, transferTicket } from "#server/tickets/transfer";
import { TICKETS_EMAIL_KIND } from "#server/tickets/email";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";
import { lastEmailTo } from "#tests/support/mailbox";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as sendTicketPage from "#app/routes/cuenta.mis-tickets_.enviar.$ticketId";
import * as purchasePage from "#app/routes/tickets.$billingId";
import * as namedSettingsPage from "#app/routes/organizacion.eventos.$slug.campos-personalizados";

const rand = () => Math.random().toString(36).slice(2, 8);
const REDEEM = `mutation($input: RedeemProductInput!) { redeemProduct(input: $input) { outcome title detail holderName holderDocument ticketTypeName } }`;
const ROTATE = `mutation($eventId: ID!) { rotateDoorPin(eventId: $eventId) { pin } }`;
const SEARCH = `query($slug: String!, $q: String!, $pin: String) { doorSearch(eventSlug: $slug, query: $q, staffPin: $pin) { code holderName holderDocument } }`;
const TRANSFER = `mutation($input: TransferTicketInput!) { transferTicket(input: $input) { id transferredTo holder { name document } } }`;
const CREATE_ORDER = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { id status } } }`;

type Buyer = Awaited<ReturnType<typeof createTestUser>>;

/**
 * A named event ("Entradas nominativas") starting in three hours (the door
 * admits it tonight, tickets can still be sent), with an optional per-account
 * limit, and the producer's session for the door's PIN.
 */
async function namedEvent(options: { named?: boolean; limit?: number | null } = {}) {
  const producer = await createProducer();
  const startsAt = new Date(Date.now() + 3 * 3600_000);
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { startsAt, name: `Recital Nominativo ${rand()}`, ticketTypes: [{ name: "Campo", price: 1_000_000, stock: 100, maxPerOrder: 10 }] });
  await setCustomFields(producer.ctx, { eventId: event.id, fields: [], oneHolderPerTicket: options.named ?? true, maxTicketsPerAccount: options.limit ?? null });
  const db = await getDb();
  const [campo] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const tokens = await startSession(db, producer.user, new Date());
  return { db, producer, event, campo, tokens };
}

const DOCUMENTS = ["30123456", "28999888", "40111222", "35555666", "33444555"];
const holder = (i: number) => ({ firstName: ["Ana", "Bruno", "Carla", "Diego", "Elena"][i], lastName: "Gómez", documentType: "dni", documentNumber: DOCUMENTS[i] });

function payerOf(email: string) {
  return { firstName: "Sofía", lastName: "Peña", email, documentType: "dni", documentNumber: "27000111", phoneNumber: "+54 11 5555-1234" };
}

/** `buyer` buys `qty` tickets of the event (one holder each when named); paid unless `pay` is false. */
async function buy(s: Awaited<ReturnType<typeof namedEvent>>, buyer: Buyer | null, qty: number, options: { pay?: boolean; named?: boolean } = {}) {
  const ctx = await ctxAs(buyer ? actorFor({ ...buyer, roles: [] }) : undefined);
  const { order, billing } = await createOrder(ctx, {
    eventSlug: s.event.slug,
    items: [{ ticketId: s.campo.id, qty }],
    payer: payerOf(buyer?.email ?? `anon-${rand()}@example.com`),
    paymentMethod: "MERCADO_PAGO",
    attendees: options.named === false ? undefined : Array.from({ length: qty }, (_, i) => holder(i % DOCUMENTS.length)),
  });
  if (options.pay !== false) await payInSandbox(s.db, billing.id, "approved");
  // In the order of their holders (Ana, Bruno…): the tickets of one order share their creation time.
  const tickets = options.pay === false ? [] : (await ticketsOfOrder(s.db, order.id)).sort((a, b) => a.holderName.localeCompare(b.holderName));
  return { order, billing, tickets, ctx };
}

async function doorPin(s: Awaited<ReturnType<typeof namedEvent>>) {
  return (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens: s.tokens, variables: { eventId: s.event.id } })).body.data!.rotateDoorPin.pin;
}

async function cookiesOf(user: Buyer, roles: string[] = []) {
  const tokens = await startSession(await getDb(), { ...user, roles: roles as never }, new Date());
  return { at: tokens.accessToken, rt: tokens.refreshToken };
}

describe("named tickets at the door", () => {
  it("the door's verdict, its search and the tickets email show the holder's name and DNI", async () => {
    const s = await namedEvent();
    const buyer = await createTestUser();
    const { order, billing, tickets } = await buy(s, buyer, 2);
    // The purchase page's cards show each holder's document too.
    const purchase = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}`, { cookies: await cookiesOf(buyer) }), { billingId: billing.id });
    expect(purchase.data.cards.map((c: { holderDocument: string }) => c.holderDocument).sort()).toEqual(["DNI 28.999.888", "DNI 30.123.456"]);
    expect(tickets.map((t) => [t.holderName, t.holderDocumentNumber])).toEqual([
      ["Ana Gómez", "30123456"],
      ["Bruno Gómez", "28999888"],
    ]);

    const pin = await doorPin(s);
    const answer = await gql<{ redeemProduct: { outcome: string; detail: string; holderName: string; holderDocument: string } }>(REDEEM, {
      variables: { input: { eventSlug: s.event.slug, staffPin: pin, code: qrPayloadFor(tickets[0].code), door: "Puerta 1", deviceId: "named-1" } },
      ip: "198.51.100.90",
    });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data!.redeemProduct).toMatchObject({ outcome: "admitted", holderName: "Ana Gómez", holderDocument: "DNI 30.123.456" });
    expect(answer.body.data!.redeemProduct.detail).toBe("Ana Gómez · DNI 30.123.456 · Campo");
    // A second scan says whose it was, document included, so staff can tell the person in front it is not theirs.
    const again = await gql<{ redeemProduct: { outcome: string; detail: string } }>(REDEEM, {
      variables: { input: { eventSlug: s.event.slug, staffPin: pin, code: qrPayloadFor(tickets[0].code), door: "Puerta 2", deviceId: "named-2" } },
      ip: "198.51.100.90",
    });
    expect(again.body.data!.redeemProduct.outcome).toBe("already_in");
    expect(again.body.data!.redeemProduct.detail).toContain("Ana Gómez (DNI 30.123.456)");

    // The manual search finds a holder by their own DNI and shows it.
    const found = await gql<{ doorSearch: { holderName: string; holderDocument: string }[] }>(SEARCH, { variables: { slug: s.event.slug, q: "28.999.888", pin }, ip: "198.51.100.90" });
    expect(found.body.data!.doorSearch).toEqual([expect.objectContaining({ holderName: "Bruno Gómez", holderDocument: "DNI 28.999.888" })]);

    // The tickets email shows each holder's document.
    await sendTicketsEmail(s.db, order.id, { resend: true });
    const email = await lastEmailTo(buyer.email, TICKETS_EMAIL_KIND);
    expect(email?.html).toContain("DNI 30.123.456");
    expect(email?.html).toContain("DNI 28.999.888");
    expect(email?.text).toContain("Ana Gómez (DNI 30.123.456)");
    expect(email?.text).toMatch(/nominativas/);
  });

  it("a ticket of an event that is not named shows no document (the payer's DNI is not the holder's)", async () => {
    const s = await namedEvent({ named: false });
    const { tickets } = await buy(s, await createTestUser(), 1, { named: false });
    const pin = await doorPin(s);
    const answer = await gql<{ redeemProduct: { outcome: string; holderDocument: string | null; detail: string } }>(REDEEM, {
      variables: { input: { eventSlug: s.event.slug, staffPin: pin, code: qrPayloadFor(tickets[0].code), door: "Puerta 1", deviceId: "plain-1" } },
      ip: "198.51.100.91",
    });
    expect(answer.body.data!.redeemProduct).toMatchObject({ outcome: "admitted", holderDocument: null, detail: "Sofía Peña · Campo" });
  });
});

describe("sending a named ticket", () => {
  it("asks the new holder's document (form and GraphQL alike), changes the holder, and the door refuses the old QR", async () => {
    const s = await namedEvent();
    const buyer = await createTestUser();
    const { tickets } = await buy(s, buyer, 2);
    const [ticket, other] = tickets;
    const path = `/cuenta/mis-tickets/enviar/${ticket.id}`;
    const cookies = await cookiesOf(buyer);

    // The page asks for the document, and says why.
    const page = await run(sendTicketPage.loader, getRequest(path, { cookies }), { ticketId: ticket.id });
    expect(page.data.ticket.named).toBe(true);

    // Without a document, or with one that is not one: Spanish messages next to the fields, nothing changes.
    const to = { firstName: "Lucía", lastName: "Martínez", email: `lucia.${rand()}@example.com` };
    const missing = await run(sendTicketPage.action, formRequest(path, { ...to, documentType: "dni", documentNumber: "" }, { cookies }), { ticketId: ticket.id });
    expect(missing.status).toBe(400);
    expect(missing.data.result.error.documentNumber).toEqual(["Este campo es obligatorio"]);
    const bad = await run(sendTicketPage.action, formRequest(path, { ...to, documentType: "dni", documentNumber: "12" }, { cookies }), { ticketId: ticket.id });
    expect(bad.data.result.error.documentNumber).toEqual(["Ingresá un número de documento válido"]);

    // GraphQL: the same rule.
    const apiTokens = await startSession(s.db, { ...buyer, roles: [] }, new Date());
    const noDocument = await gql(TRANSFER, { tokens: apiTokens, variables: { input: { ticketId: ticket.id, ...to } } });
    expect(errorCode(noDocument)).toBe("BAD_USER_INPUT");
    expect(noDocument.body.errors![0].extensions!.fieldErrors).toEqual({ documentNumber: [NAMED_TRANSFER_MESSAGES.documentNumber] });
    const badDocument = await gql(TRANSFER, { tokens: apiTokens, variables: { input: { ticketId: ticket.id, ...to, documentNumber: "12" } } });
    expect(badDocument.body.errors![0].extensions!.fieldErrors).toEqual({ documentNumber: ["Ingresá un número de documento válido"] });
    const [unchanged] = await s.db.select().from(issuedProducts).where(eq(issuedProducts.id, ticket.id));
    expect(unchanged).toMatchObject({ code: ticket.code, holderName: "Ana Gómez", holderDocumentNumber: "30123456" });

    // Sent through the page, with the document (dots and all, as people type it).
    const sent = await run(sendTicketPage.action, formRequest(path, { ...to, documentType: "dni", documentNumber: "31.222.333" }, { cookies }), { ticketId: ticket.id });
    expect(sent.status).toBe(302);
    const [after] = await s.db.select().from(issuedProducts).where(eq(issuedProducts.id, ticket.id));
    expect(after).toMatchObject({ holderName: "Lucía Martínez", holderDocumentType: "dni", holderDocumentNumber: "31222333", status: "redeemable" });
    expect(after.code).not.toBe(ticket.code);
    const [record] = await s.db.select().from(ticketTransfers).where(eq(ticketTransfers.issuedProductId, ticket.id));
    expect(record).toMatchObject({ fromName: "Ana Gómez", fromDocument: "DNI 30.123.456", toName: "Lucía Martínez", toDocument: "DNI 31.222.333" });
    // The new holder's email carries their document.
    expect((await lastEmailTo(to.email))?.html).toContain("DNI 31.222.333");

    // The door: the old QR is no ticket any more; the new one lets the new holder in, with her DNI on screen.
    const pin = await doorPin(s);
    const scan = (code: string, scanId: string) =>
      gql<{ redeemProduct: { outcome: string; title: string; holderName: string | null; holderDocument: string | null } }>(REDEEM, {
        variables: { input: { eventSlug: s.event.slug, staffPin: pin, code: qrPayloadFor(code), door: "Puerta 1", deviceId: scanId } },
        ip: "198.51.100.92",
      });
    const old = await scan(ticket.code, "old-qr");
    expect(old.body.data!.redeemProduct).toMatchObject({ outcome: "unknown", title: "Código no válido", holderName: null, holderDocument: null });
    const fresh = await scan(after.code, "new-qr");
    expect(fresh.body.data!.redeemProduct).toMatchObject({ outcome: "admitted", holderName: "Lucía Martínez", holderDocument: "DNI 31.222.333" });

    // GraphQL sends the other one with a passport.
    const viaApi = await gql<{ transferTicket: { transferredTo: string; holder: { name: string; document: string } } }>(TRANSFER, {
      tokens: apiTokens,
      variables: { input: { ticketId: other.id, firstName: "Marie", lastName: "Dupont", email: `marie.${rand()}@example.com`, documentType: "passport", documentNumber: "19FR12345" } },
    });
    expect(viaApi.body.errors).toBeUndefined();
    expect(viaApi.body.data!.transferTicket).toMatchObject({ transferredTo: "Marie Dupont", holder: { name: "Marie Dupont", document: "Pasaporte 19FR12345" } });
    expect((await scan(other.code, "old-qr-2")).body.data!.redeemProduct.outcome).toBe("unknown");
  });
});

describe("per-account limits per event", () => {
  it("hold across purchases: tickets held and orders waiting for payment count; beyond it a typed CONFLICT; without an account, sign in", async () => {
    const s = await namedEvent({ limit: 4 });
    const buyer = await createTestUser();
    await buy(s, buyer, 3);
    const tokens = await startSession(s.db, { ...buyer, roles: [] }, new Date());
    const input = (qty: number) => ({
      eventSlug: s.event.slug,
      items: [{ ticketId: s.campo.id, qty }],
      payer: payerOf(buyer.email),
      paymentMethod: "MERCADO_PAGO",
      attendees: Array.from({ length: qty }, (_, i) => holder(i)),
    });
    const over = await gql(CREATE_ORDER, { tokens, variables: { input: input(2) } });
    expect(errorCode(over)).toBe("CONFLICT");
    expect(over.body.errors![0].extensions!.reason).toBe(ACCOUNT_LIMIT_REACHED);
    expect(over.body.errors![0].message).toBe("Este evento permite hasta 4 entradas por cuenta y ya tenés 3: podés sumar 1 más.");

    // One more fits; while it waits for payment it counts, so the next one does not.
    const last = await gql<{ createOrder: { order: { status: string } } }>(CREATE_ORDER, { tokens, variables: { input: input(1) } });
    expect(last.body.errors).toBeUndefined();
    const full = await gql(CREATE_ORDER, { tokens, variables: { input: input(1) } });
    expect(full.body.errors![0]).toMatchObject({ message: "Este evento permite hasta 4 entradas por cuenta y ya tenés 4: no podés sumar más.", extensions: { code: "CONFLICT", reason: ACCOUNT_LIMIT_REACHED } });

    // Without an account the limit cannot be counted: sign in first.
    const anonymous = await gql(CREATE_ORDER, { variables: { input: { ...input(1), payer: payerOf(`anon-${rand()}@example.com`) } } });
    expect(anonymous.body.errors![0]).toMatchObject({ extensions: { code: "UNAUTHENTICATED", reason: ACCOUNT_REQUIRED } });
  });

  it("ten orders of one account at once: only as many tickets as the limit", async () => {
    const s = await namedEvent({ limit: 3 });
    const buyer = await createTestUser();
    const settled = await Promise.allSettled(Array.from({ length: 10 }, () => buy(s, buyer, 1, { pay: false })));
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const refused = settled.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.every((r) => r.reason instanceof AccountLimitReached)).toBe(true);
    expect(await ticketsHeldByAccount(s.db, { eventId: s.event.id, accountId: buyer.id })).toBe(3);
  });

  it("hold across transfers received, and the resale's check is the same function", async () => {
    const s = await namedEvent({ limit: 2 });
    const [full, sender, empty] = [await createTestUser(), await createTestUser(), await createTestUser()];
    await buy(s, full, 2);
    const { tickets, ctx: senderCtx } = await buy(s, sender, 2);

    // Someone who already holds the maximum cannot receive one more: the message is on the email field.
    const refused = transferTicket(senderCtx, { ticketId: tickets[0].id, firstName: "Fede", lastName: "Ruiz", email: full.email, documentNumber: "30999888" });
    await expect(refused).rejects.toBeInstanceOf(AccountLimitReached);
    await expect(refused).rejects.toMatchObject({ reason: ACCOUNT_LIMIT_REACHED, fieldErrors: { email: ["Esa persona ya tiene 2 entradas de este evento, el máximo por cuenta: no puede recibir más."] } });
    const apiTokens = await startSession(s.db, { ...sender, roles: [] }, new Date());
    const overApi = await gql(TRANSFER, { tokens: apiTokens, variables: { input: { ticketId: tickets[0].id, firstName: "Fede", lastName: "Ruiz", email: full.email.toUpperCase(), documentNumber: "30999888" } } });
    expect(overApi.body.errors![0].extensions).toMatchObject({ code: "CONFLICT", reason: ACCOUNT_LIMIT_REACHED });

    // Someone with room receives it; what they received counts when they buy, and the sender has room again.
    await transferTicket(senderCtx, { ticketId: tickets[0].id, firstName: "Eva", lastName: "Luna", email: empty.email, documentNumber: "30999888" });
    expect(await ticketsHeldByAccount(s.db, { eventId: s.event.id, accountId: empty.id })).toBe(1);
    expect(await ticketsHeldByAccount(s.db, { eventId: s.event.id, accountId: sender.id })).toBe(1);
    await expect(buy(s, empty, 2, { pay: false })).rejects.toMatchObject({ reason: ACCOUNT_LIMIT_REACHED, message: "Este evento permite hasta 2 entradas por cuenta y ya tenés 1: podés sumar 1 más." });
    await buy(s, empty, 1, { pay: false });
    await buy(s, sender, 1, { pay: false });

    // A resale bought goes through the same check inside its own transaction.
    await expect(s.db.transaction((tx) => assertWithinAccountLimit(tx, { eventId: s.event.id, accountId: full.id, adding: 1 }))).rejects.toBeInstanceOf(AccountLimitReached);
    const outsider = await createTestUser();
    await expect(s.db.transaction((tx) => assertWithinAccountLimit(tx, { eventId: s.event.id, accountId: outsider.id, adding: 2 }))).resolves.toEqual({ limit: 2, held: 0 });
    // An event without a limit never refuses.
    const open = await namedEvent({ limit: null });
    await expect(assertWithinAccountLimit(s.db, { eventId: open.event.id, accountId: full.id, adding: 500 })).resolves.toEqual({ limit: null, held: 0 });
  });

  it("the organizer sets it under 'Entradas nominativas', with Spanish messages next to the field", async () => {
    const s = await namedEvent({ named: false });
    const cookies = await cookiesOf(s.producer.user, ["producer"]);
    const url = `/organizacion/eventos/${s.event.slug}/campos-personalizados`;
    const bad = await run(namedSettingsPage.action, formRequest(url, { intent: "save", oneHolderPerTicket: "on", maxTicketsPerAccount: "0" }, { cookies }), { slug: s.event.slug });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.data)).toContain("El máximo por cuenta tiene que ser al menos 1.");
    const saved = await run(namedSettingsPage.action, formRequest(url, { intent: "save", oneHolderPerTicket: "on", maxTicketsPerAccount: "6" }, { cookies }), { slug: s.event.slug });
    expect(saved.status).toBe(302);
    const page = await run(namedSettingsPage.loader, getRequest(url, { cookies }), { slug: s.event.slug });
    expect(page.data.defaults).toMatchObject({ oneHolderPerTicket: "on", maxTicketsPerAccount: "6" });
    const EVENT = `query($slug: String!) { event(slug: $slug) { namedTickets maxTicketsPerAccount } }`;
    expect((await gql<{ event: { namedTickets: boolean; maxTicketsPerAccount: number } }>(EVENT, { variables: { slug: s.event.slug } })).body.data!.event).toEqual({ namedTickets: true, maxTicketsPerAccount: 6 });
  });
});
