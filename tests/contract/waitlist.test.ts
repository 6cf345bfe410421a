import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { createOrder, expireOrder } from "#server/orders/orders";
import { runReturnedTickets } from "#server/waitlist/offers";
import { setEventWaitlist } from "#server/waitlist/waitlist";
import { createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const ENTRY = "id eventSlug eventName ticketTypeId ticketTypeName quantity status ahead offer { id quantity status claimPath expiresAt }";
const JOIN = `mutation($input: JoinWaitlistInput!) { joinWaitlist(input: $input) { ${ENTRY} } }`;
const LEAVE = `mutation($id: ID!) { leaveWaitlist(entryId: $id) { ${ENTRY} } }`;
const MINE = `query { myWaitlist { ${ENTRY} } }`;
const EVENT = `query($id: ID!) { eventWaitlist(eventId: $id) { eventId enabled offerMinutes waiting waitingTickets offered byTicketType { ticketTypeName people tickets } entries { position name email quantity status ticketTypeName offer { quantity status } } } }`;
const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

type Entry = { id: string; status: string; quantity: number; ahead: number; ticketTypeName: string | null; offer: { id: string; quantity: number; status: string; claimPath: string } | null };

async function tokensOf(user: Awaited<ReturnType<typeof createTestUser>>) {
  return startSession(await getDb(), user, new Date());
}

describe("waiting list over GraphQL", () => {
  it("a buyer joins a sold-out event, sees the offer when tickets come back, and leaves; the organizer sees the line; others cannot", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 1, maxPerOrder: 4 }]);
    const { event, tickets } = made;
    const organizer = await tokensOf(made.user);
    const { order } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });

    const ana = await createTestUser();
    const anaTokens = await tokensOf(ana);
    // The list is off: a typed conflict.
    const off = await gql(JOIN, { tokens: anaTokens, variables: { input: { eventSlug: event.slug, quantity: 1 } } });
    expect(errorCode(off)).toBe("CONFLICT");
    expect(off.body.errors?.[0].message).toBe("Este evento no tiene lista de espera.");
    await setEventWaitlist(made.ctx, { eventId: event.id, enabled: true });

    // Signed out, bad quantity, unknown event.
    expect(errorCode(await gql(JOIN, { variables: { input: { eventSlug: event.slug, quantity: 1 } } }))).toBe("UNAUTHENTICATED");
    const tooMany = await gql(JOIN, { tokens: anaTokens, variables: { input: { eventSlug: event.slug, ticketTypeId: tickets.General.id, quantity: 5 } } });
    expect(errorCode(tooMany)).toBe("BAD_USER_INPUT");
    expect(tooMany.body.errors?.[0].extensions).toMatchObject({ fieldErrors: { quantity: ["Elegí entre 1 y 4 entradas."] } });
    expect(errorCode(await gql(JOIN, { tokens: anaTokens, variables: { input: { eventSlug: "no-existe", quantity: 1 } } }))).toBe("NOT_FOUND");

    const joined = await gql<{ joinWaitlist: Entry }>(JOIN, { tokens: anaTokens, variables: { input: { eventSlug: event.slug, ticketTypeId: tickets.General.id, quantity: 2 } } });
    expect(joined.body.errors).toBeUndefined();
    expect(joined.body.data!.joinWaitlist).toMatchObject({ status: "WAITING", quantity: 2, ahead: 0, ticketTypeName: "General", offer: null });
    expect(errorCode(await gql(JOIN, { tokens: anaTokens, variables: { input: { eventSlug: event.slug, ticketTypeId: tickets.General.id, quantity: 1 } } }))).toBe("CONFLICT");

    // The organizer reads the line; an organizer of another organization and a buyer cannot.
    const line = await gql<{ eventWaitlist: Record<string, unknown> }>(EVENT, { tokens: organizer, variables: { id: event.id } });
    expect(line.body.errors).toBeUndefined();
    expect(line.body.data!.eventWaitlist).toMatchObject({ enabled: true, offerMinutes: 30, waiting: 1, waitingTickets: 2, offered: 0, byTicketType: [{ ticketTypeName: "General", people: 1, tickets: 2 }] });
    expect((line.body.data!.eventWaitlist.entries as { email: string }[])[0].email).toBe(ana.email);
    const stranger = await createProducer();
    expect(errorCode(await gql(EVENT, { tokens: await tokensOf(stranger.user), variables: { id: event.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(EVENT, { tokens: anaTokens, variables: { id: event.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(EVENT, { variables: { id: event.id } }))).toBe("UNAUTHENTICATED");
    expect(errorCode(await gql(EVENT, { tokens: organizer, variables: { id: "nada" } }))).toBe("NOT_FOUND");

    // The held ticket comes back: Ana's entry shows the offer (1 of the 2 she asked for) and its claim page.
    const db = await getDb();
    const later = new Date(Date.now() + 20 * 60_000);
    await expireOrder({ db, actor: { kind: "anonymous" }, now: later }, order.id);
    await runReturnedTickets(db, { ticketTypeIds: [tickets.General.id] }, new Date());
    const mine = await gql<{ myWaitlist: Entry[] }>(MINE, { tokens: anaTokens });
    expect(mine.body.errors).toBeUndefined();
    const [entry] = mine.body.data!.myWaitlist;
    expect(entry).toMatchObject({ status: "OFFERED", offer: { quantity: 1, status: "OFFERED" } });
    expect(entry.offer!.claimPath).toBe(`/lista-de-espera/oferta/${entry.offer!.id}`);
    expect(errorCode(await gql(MINE, {}))).toBe("UNAUTHENTICATED");

    // Someone else cannot take Ana out; she leaves, and the offer is withdrawn.
    const beto = await tokensOf(await createTestUser());
    expect(errorCode(await gql(LEAVE, { tokens: beto, variables: { id: entry.id } }))).toBe("NOT_FOUND");
    expect((await gql<{ myWaitlist: Entry[] }>(MINE, { tokens: beto })).body.data!.myWaitlist).toEqual([]);
    const left = await gql<{ leaveWaitlist: Entry }>(LEAVE, { tokens: anaTokens, variables: { id: entry.id } });
    expect(left.body.errors).toBeUndefined();
    expect(left.body.data!.leaveWaitlist).toMatchObject({ status: "LEFT", offer: { status: "WITHDRAWN" } });
    expect(errorCode(await gql(LEAVE, { tokens: anaTokens, variables: { id: entry.id } }))).toBe("CONFLICT");
    expect(errorCode(await gql(LEAVE, { tokens: anaTokens, variables: { id: "nada" } }))).toBe("NOT_FOUND");
  });
});
