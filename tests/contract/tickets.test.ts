import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { billingAccessToken } from "#server/auth/billing-access";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { verifyQrPayload } from "#server/tickets/qr";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const MY_TICKETS = /* GraphQL */ `
  query MyTickets($when: TicketWhen, $page: Int, $limit: Int) {
    myTickets(when: $when, page: $page, limit: $limit) {
      total page limit
      items {
        id code status statusLabel qrPayload upcoming orderCode billingId
        holder { name email }
        ticketType { id name }
        event { slug name startsAt endsAt doorsAt venue { name address city province } }
      }
    }
  }
`;

const BILLING_TICKETS = /* GraphQL */ `
  query BillingTickets($billingId: ID!, $token: String) {
    billing(billingId: $billingId, token: $token) { id status tickets { id code status qrPayload holder { name } ticketType { name } } }
  }
`;

type Item = { id: string; code: string; status: string; statusLabel: string; qrPayload: string; upcoming: boolean; orderCode: string; billingId: string; holder: { name: string; email: string }; ticketType: { id: string; name: string }; event: { slug: string; name: string; startsAt: string; venue: { name: string; province: string } } };
type MyTicketsData = { myTickets: { total: number; page: number; limit: number; items: Item[] } | null };

async function paidOrderFor(user: { id: string; email: string; roles: string[] }, qty: number) {
  const { ctx, organization } = await createProducer();
  const { event } = await createPublishedEvent(ctx, organization.id, { name: "Fiesta Contrato", ticketTypes: [{ name: "Campo", price: 900_000, stock: 50 }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const payer = { firstName: "Joaquín", lastName: "Muñoz", email: user.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 9 11 5555-1234" };
  const { order, billing } = await createOrder(await ctxAs(actorFor(user)), { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty }], payer, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  return { event, order, billing };
}

describe("myTickets", () => {
  it("lists the signed-in person's tickets with event, date, type, holder, status and the signed QR payload, paged", async () => {
    const buyer = await createTestUser();
    const { event, order, billing } = await paidOrderFor(buyer, 3);
    const tokens = await startSession(await getDb(), buyer, new Date());

    const all = await gql<MyTicketsData>(MY_TICKETS, { tokens });
    expect(all.body.errors).toBeUndefined();
    const list = all.body.data!.myTickets!;
    expect(list).toMatchObject({ total: 3, page: 0, limit: 50 });
    expect(list.items[0]).toMatchObject({
      status: "redeemable",
      statusLabel: "Válida",
      upcoming: true,
      orderCode: order.code,
      billingId: billing.id,
      holder: { name: "Joaquín Muñoz", email: buyer.email },
      ticketType: { name: "Campo" },
      event: { slug: event.slug, name: "Fiesta Contrato", venue: { name: "Club Atlético Fernández Fierro", province: "AR-CF" } },
    });
    expect(list.items[0].event.startsAt).toMatch(/-03:00$/);
    for (const item of list.items) expect(verifyQrPayload(item.qrPayload)).toBe(item.code);

    const page = await gql<MyTicketsData>(MY_TICKETS, { tokens, variables: { page: 1, limit: 2 } });
    expect(page.body.data!.myTickets!.items.map((i) => i.id)).toEqual([list.items[2].id]);
    const past = await gql<MyTicketsData>(MY_TICKETS, { tokens, variables: { when: "PAST" } });
    expect(past.body.data!.myTickets).toMatchObject({ total: 0, items: [] });

    const bad = await gql<MyTicketsData>(MY_TICKETS, { tokens, variables: { limit: 500 } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    const anonymous = await gql<MyTicketsData>(MY_TICKETS);
    expect(errorCode(anonymous)).toBe("UNAUTHENTICATED");
  });

  it("billing answers the order's tickets to whoever may read it", async () => {
    const buyer = await createTestUser();
    const { billing } = await paidOrderFor(buyer, 2);
    const result = await gql<{ billing: { status: string; tickets: { code: string; status: string; qrPayload: string; holder: { name: string }; ticketType: { name: string } }[] } }>(BILLING_TICKETS, {
      variables: { billingId: billing.id, token: billingAccessToken(billing.id) },
    });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data!.billing.status).toBe("approved");
    expect(result.body.data!.billing.tickets).toHaveLength(2);
    expect(result.body.data!.billing.tickets[0]).toMatchObject({ status: "redeemable", holder: { name: "Joaquín Muñoz" }, ticketType: { name: "Campo" } });
  });
});

const TRANSFER_TICKET = /* GraphQL */ `
  mutation TransferTicket($input: TransferTicketInput!) {
    transferTicket(input: $input) {
      id status statusLabel transferredTo code qrPayload
      holder { name email }
      event { slug name startsAt }
    }
  }
`;

type TransferData = { transferTicket: { id: string; status: string; statusLabel: string; transferredTo: string | null; code: string; qrPayload: string; holder: { name: string; email: string } } | null };

describe("transferTicket", () => {
  it("sends the buyer's ticket to another person: new holder, the old code stops working, the buyer no longer gets its QR; errors as codes", async () => {
    const buyer = await createTestUser();
    await paidOrderFor(buyer, 2);
    const tokens = await startSession(await getDb(), buyer, new Date());
    const before = (await gql<MyTicketsData>(MY_TICKETS, { tokens })).body.data!.myTickets!.items;
    const [ticket] = before;
    const email = `martina-${Math.random().toString(36).slice(2, 8)}@example.com`;

    const anonymous = await gql<TransferData>(TRANSFER_TICKET, { variables: { input: { ticketId: ticket.id, firstName: "Martina", lastName: "Sosa", email } } });
    expect(errorCode(anonymous)).toBe("UNAUTHENTICATED");

    const bad = await gql<TransferData>(TRANSFER_TICKET, { tokens, variables: { input: { ticketId: ticket.id, firstName: "Martina", lastName: "Sosa", email: "martina@" } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors?.[0].extensions?.fieldErrors).toMatchObject({ email: ["Este campo debe ser un email válido"] });

    const stranger = await createTestUser();
    const strangerTokens = await startSession(await getDb(), stranger, new Date());
    const notYours = await gql<TransferData>(TRANSFER_TICKET, { tokens: strangerTokens, variables: { input: { ticketId: ticket.id, firstName: "Martina", lastName: "Sosa", email } } });
    expect(errorCode(notYours)).toBe("NOT_FOUND");

    const sent = await gql<TransferData>(TRANSFER_TICKET, { tokens, variables: { input: { ticketId: ticket.id, firstName: "Martina", lastName: "Sosa", email } } });
    expect(sent.body.errors).toBeUndefined();
    expect(sent.body.data!.transferTicket).toEqual({
      id: ticket.id,
      status: "redeemable",
      statusLabel: "Enviada a Martina Sosa",
      transferredTo: "Martina Sosa",
      code: "",
      qrPayload: "",
      holder: { name: "Martina Sosa", email },
      event: expect.objectContaining({ name: "Fiesta Contrato" }),
    });
    // The old QR still verifies as ours, but its code is no longer any ticket's.
    expect(verifyQrPayload(ticket.qrPayload)).toBe(ticket.code);
    const after = (await gql<MyTicketsData>(MY_TICKETS, { tokens })).body.data!.myTickets!.items;
    expect(after.find((t) => t.id === ticket.id)).toMatchObject({ statusLabel: "Enviada a Martina Sosa", code: "", qrPayload: "" });
    expect(after.map((t) => t.code)).not.toContain(ticket.code);

    const again = await gql<TransferData>(TRANSFER_TICKET, { tokens, variables: { input: { ticketId: ticket.id, firstName: "Otra", lastName: "Persona", email: "otra@example.com" } } });
    expect(errorCode(again)).toBe("CONFLICT");
    expect(again.body.errors?.[0].message).toBe("Ya le enviaste esta entrada a Martina Sosa.");
  });
});

describe("Ticket.seat (reserved seating, docs/seating.md)", () => {
  it("a seated ticket says its section, row, number and label; a general-admission ticket's seat is null", async () => {
    const { createSeatedEvent, buyPaid } = await import("#tests/support/seating");
    const buyer = await createTestUser();
    const made = await createSeatedEvent();
    await buyPaid(made, { seats: ["F12"], ctx: await ctxAs(actorFor(buyer)), email: buyer.email });
    await buyPaid(made, { general: 1, ctx: await ctxAs(actorFor(buyer)), email: buyer.email });
    const tokens = await startSession(await getDb(), buyer, new Date());
    const res = await gql<{ myTickets: { items: { ticketType: { name: string }; seat: { section: string; row: string; number: string; label: string } | null }[] } }>(
      `{ myTickets { items { ticketType { name } seat { section row number label } } } }`,
      { tokens },
    );
    expect(res.body.errors).toBeUndefined();
    const items = res.body.data!.myTickets.items;
    expect(items.find((i) => i.ticketType.name === "Platea")?.seat).toEqual({ section: "Platea", row: "F", number: "12", label: "Platea · Fila F · Asiento 12" });
    expect(items.find((i) => i.ticketType.name === "General")?.seat).toBeNull();
  }, 60_000);
});
