import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { getEventForOrganizer } from "#server/events/events";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { createTestUser } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const CREATE_ORDER = /* GraphQL */ `
  mutation CreateOrder($input: CreateOrderInput!) {
    createOrder(input: $input) {
      billingId
      paymentUrl
      order { id code status subtotal serviceFee total totalFormatted items { ticketId qty unitPrice } }
    }
  }
`;

const BILLING = /* GraphQL */ `
  query Billing($billingId: ID!) {
    billing(billingId: $billingId) { id status displayStatus amount order { id status total items { ticketId qty unitPrice } } }
  }
`;

const payer = { firstName: "Joaquín", lastName: "Muñoz", email: "joaco@example.com", documentType: "dni", documentNumber: "30.123.456", phoneNumber: "+54 9 11 5555-1234" };

type CreateOrderData = {
  createOrder: {
    billingId: string;
    paymentUrl: string | null;
    order: { id: string; code: string; status: string; subtotal: number; serviceFee: number; total: number; totalFormatted: string; items: { ticketId: string; qty: number; unitPrice: number }[] };
  } | null;
};

async function eventWithStock(stock: number) {
  const { ctx, organization } = await createProducer();
  const { event } = await createPublishedEvent(ctx, organization.id, { ticketTypes: [{ name: "General", price: 1_200_000, stock }] });
  const { tickets } = await getEventForOrganizer(ctx, event.id);
  return { event, ticket: tickets[0], organizerCtx: ctx };
}

describe("createOrder and billing over GraphQL", () => {
  it("holds the tickets, answers the totals with the 10 % fee and a sandbox payment URL, and billing follows the payment", async () => {
    const { event, ticket } = await eventWithStock(10);
    const buyer = await createTestUser();
    const tokens = await startSession(await getDb(), buyer, new Date());
    const created = await gql<CreateOrderData>(CREATE_ORDER, {
      tokens,
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO" } },
    });
    expect(created.body.errors).toBeUndefined();
    const result = created.body.data!.createOrder!;
    expect(result.order).toMatchObject({ status: "draft", subtotal: 2_400_000, serviceFee: 240_000, total: 2_640_000, totalFormatted: "$\u00a026.400,00" });
    expect(result.order.code).toMatch(/^TRB-[A-Z0-9]{6}$/);
    expect(result.paymentUrl).toBe(`http://localhost:3000/sandbox/mercadopago/${result.billingId}`);
    const [held] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.id, ticket.id));
    expect(held.sold).toBe(2);

    const pending = await gql<{ billing: { status: string; displayStatus: string } }>(BILLING, { tokens, variables: { billingId: result.billingId } });
    expect(pending.body.data?.billing).toMatchObject({ status: "pending", displayStatus: "pending" });

    await payInSandbox(await getDb(), result.billingId, "approved");
    const approved = await gql<{ billing: { status: string; displayStatus: string; order: { status: string } } }>(BILLING, { tokens, variables: { billingId: result.billingId } });
    expect(approved.body.data?.billing).toMatchObject({ status: "approved", displayStatus: "approved", order: { status: "billed" } });
  });

  it("answers CONFLICT in Spanish when the stock ran out, and BAD_USER_INPUT with payer fieldErrors", async () => {
    const { event, ticket } = await eventWithStock(1);
    const tooMany = await gql<CreateOrderData>(CREATE_ORDER, {
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" } },
    });
    expect(tooMany.body.errors).toBeUndefined();
    const soldOut = await gql<CreateOrderData>(CREATE_ORDER, {
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" } },
    });
    expect(errorCode(soldOut)).toBe("CONFLICT");
    expect(soldOut.body.errors?.[0].message).toContain("No quedan suficientes entradas de «General»");

    const badPayer = await gql<CreateOrderData>(CREATE_ORDER, {
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 }], payer: { ...payer, documentNumber: "12" }, paymentMethod: "MERCADO_PAGO" } },
    });
    expect(errorCode(badPayer)).toBe("BAD_USER_INPUT");
    expect(badPayer.body.errors?.[0].extensions?.fieldErrors).toMatchObject({ "payer.documentNumber": ["Ingresá un número de documento válido"] });
  });

  it("lets the organization read a billing and hides it from anyone else", async () => {
    const { event, ticket, organizerCtx } = await eventWithStock(5);
    const created = await gql<CreateOrderData>(CREATE_ORDER, {
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" } },
    });
    const billingId = created.body.data!.createOrder!.billingId;
    const db = await getDb();
    const organizerId = organizerCtx.actor.kind === "user" ? organizerCtx.actor.userId : "";
    const organizer = await startSession(db, { id: organizerId, email: "x@example.com", roles: ["producer"] }, new Date());
    const asOrganizer = await gql<{ billing: { status: string } }>(BILLING, { tokens: organizer, variables: { billingId } });
    expect(asOrganizer.body.data?.billing.status).toBe("pending");

    const stranger = await createTestUser();
    const asStranger = await gql(BILLING, { tokens: await startSession(db, stranger, new Date()), variables: { billingId } });
    expect(errorCode(asStranger)).toBe("NOT_FOUND");
    expect(errorCode(await gql(BILLING, { variables: { billingId } }))).toBe("UNAUTHENTICATED");
  });
});

const PREVIEW_ORDER = /* GraphQL */ `
  query PreviewOrder($input: PreviewOrderInput!) {
    previewOrder(input: $input) {
      eventSlug eventDateId
      lines { ticketId name qty unitPrice subtotal paymentMethod }
      subtotal discount serviceFeeBps serviceFee total totalFormatted free
      requiredPaymentMethod paymentMethod holdMinutes holdLabel
    }
  }
`;

describe("previewOrder over GraphQL", () => {
  it("prices the selection as createOrder would, anonymously and holding nothing", async () => {
    const { event, ticket } = await eventWithStock(10);
    const previewed = await gql<{ previewOrder: Record<string, unknown> }>(PREVIEW_ORDER, {
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }] } },
    });
    expect(previewed.body.errors).toBeUndefined();
    expect(previewed.body.data!.previewOrder).toMatchObject({
      eventSlug: event.slug,
      lines: [{ ticketId: ticket.id, name: "General", qty: 2, unitPrice: 1_200_000, subtotal: 2_400_000, paymentMethod: "MERCADO_PAGO" }],
      subtotal: 2_400_000,
      discount: 0,
      serviceFeeBps: 1000,
      serviceFee: 240_000,
      total: 2_640_000,
      totalFormatted: "$\u00a026.400,00",
      free: false,
      requiredPaymentMethod: "MERCADO_PAGO",
      paymentMethod: "MERCADO_PAGO",
      holdMinutes: 15,
      holdLabel: "15 minutos",
    });
    const [row] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.id, ticket.id));
    expect(row.sold).toBe(0);
  });

  it("answers BAD_USER_INPUT with the ticket's message under its id, and CONFLICT when only the stock falls short", async () => {
    const { event, ticket } = await eventWithStock(3);
    const tooMany = await gql(PREVIEW_ORDER, { variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 11 }] } } });
    expect(errorCode(tooMany)).toBe("BAD_USER_INPUT");
    expect(tooMany.body.errors?.[0].message).toBe("Máximo 10 entradas «General» por compra");
    expect(tooMany.body.errors?.[0].extensions?.fieldErrors).toMatchObject({ [ticket.id]: ["Máximo 10 entradas «General» por compra"] });

    const short = await gql(PREVIEW_ORDER, { variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 4 }] } } });
    expect(errorCode(short)).toBe("CONFLICT");
    expect(short.body.errors?.[0].message).toBe("No quedan suficientes entradas de «General». Elegí menos o probá otra.");
    expect(short.body.errors?.[0].extensions?.fieldErrors).toEqual({ [ticket.id]: ["Quedan solo 3 entradas «General»"] });

    const unknownEvent = await gql(PREVIEW_ORDER, { variables: { input: { eventSlug: "no-existe", items: [{ ticketId: ticket.id, qty: 1 }] } } });
    expect(errorCode(unknownEvent)).toBe("NOT_FOUND");
  });
});
