import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { eventDates, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const REQUEST_REFUND = /* GraphQL */ `
  mutation RequestRefund($input: RequestRefundInput!) {
    requestRefund(input: $input) {
      outcome
      existing
      request { id code status automatic method orderCode eventName amount amountFormatted createdAt }
    }
  }
`;
const REFUND_REQUEST = /* GraphQL */ `
  query RefundRequest($code: String!, $email: String!) {
    refundRequest(code: $code, email: $email) { code status automatic method amountFormatted rejectionReason transferredAt decidedAt }
  }
`;
const ORDERS = /* GraphQL */ `
  query Orders($filter: OrdersFilter!) {
    orders(filter: $filter) {
      items { id code status billingStatus displayStatus paymentMethod gift eventName buyer { firstName lastName email } units total totalFormatted pendingRefund createdAt }
      total
      page
      limit
    }
  }
`;
const LEDGER = /* GraphQL */ `
  query Ledger($organizationId: ID!) {
    ledger(organizationId: $organizationId, page: 0, limit: 20) {
      balance
      balanceFormatted
      items { id kind amount amountFormatted description orderCode createdAt }
      total
      page
      limit
    }
  }
`;
type LedgerData = { ledger: { balance: number; balanceFormatted: string; items: { kind: string; amount: number; orderCode: string }[]; total: number } };
const APPROVE = /* GraphQL */ `
  mutation ApproveRefund($input: RefundIdInput!) {
    approveRefund(input: $input) { id code status decidedAt }
  }
`;
const REJECT = /* GraphQL */ `
  mutation RejectRefund($input: RejectRefundInput!) {
    rejectRefund(input: $input) { id code status rejectionReason }
  }
`;

const payerEmail = () => `contrato-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A paid order for an event `days` away. */
async function paidOrder(days: number) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days, ticketTypes: [{ name: "General", price: 1_200_000, stock: 10 }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const email = payerEmail();
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: 1 }],
    payer: { firstName: "Joaquín", lastName: "Muñoz", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 9 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  const organizerTokens = await startSession(db, producer.user, new Date());
  return { producer, event, order, billing, email, organizerTokens, db };
}

type RequestRefundData = { requestRefund: { outcome: string; existing: boolean; request: { id: string; code: string; status: string; automatic: boolean; method: string; orderCode: string; amount: number; amountFormatted: string } } | null };

describe("refunds over GraphQL", () => {
  it("requestRefund needs no account: inside the window it refunds at once and refundRequest reads it back", async () => {
    const { order, email } = await paidOrder(30);
    const wrong = await gql<RequestRefundData>(REQUEST_REFUND, { variables: { input: { orderCode: order.code, email: "otra@example.com" } }, ip: "192.0.2.50" });
    expect(errorCode(wrong)).toBe("NOT_FOUND");
    expect(wrong.body.errors?.[0].message).toBe("No encontramos una compra con ese código y email");
    const result = await gql<RequestRefundData>(REQUEST_REFUND, { variables: { input: { orderCode: order.code, email: email.toUpperCase(), reason: "No puedo ir" } } });
    expect(result.body.errors).toBeUndefined();
    const answer = result.body.data!.requestRefund!;
    expect(answer).toMatchObject({ outcome: "refunded", existing: false, request: { status: "refunded", automatic: true, method: "provider", orderCode: order.code, amount: order.total } });
    expect(answer.request.code).toMatch(/^DEV-/);
    const read = await gql<{ refundRequest: { code: string; status: string } }>(REFUND_REQUEST, { variables: { code: answer.request.code, email } });
    expect(read.body.data?.refundRequest).toMatchObject({ code: answer.request.code, status: "refunded" });
  });

  it("orders lists the organization's sales with the spec's defaults; approveRefund and rejectRefund are for the organization's managers", async () => {
    const { order, email, organizerTokens, producer, event, db } = await paidOrder(30);
    // Move the event to 12 hours from now: outside the window, the organizer decides.
    await db.update(eventDates).set({ startsAt: new Date(Date.now() + 12 * 3600_000), endsAt: new Date(Date.now() + 18 * 3600_000) }).where(eq(eventDates.eventId, event.id));
    const pending = await gql<RequestRefundData>(REQUEST_REFUND, { variables: { input: { orderCode: order.code, email } } });
    expect(pending.body.data?.requestRefund?.outcome).toBe("pending");
    const id = pending.body.data!.requestRefund!.request.id;

    const list = await gql<{ orders: { items: { code: string; displayStatus: string; pendingRefund: boolean; buyer: { email: string } }[]; total: number; page: number; limit: number } }>(ORDERS, {
      tokens: organizerTokens,
      variables: { filter: { organizationId: producer.organization.id } },
    });
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data?.orders).toMatchObject({ total: 1, page: 0, limit: 10, items: [{ code: order.code, displayStatus: "approved", pendingRefund: true, buyer: { email } }] });

    const stranger = await createProducer();
    const strangerTokens = await startSession(db, stranger.user, new Date());
    expect(errorCode(await gql(ORDERS, { tokens: strangerTokens, variables: { filter: { organizationId: producer.organization.id } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(APPROVE, { tokens: strangerTokens, variables: { input: { id } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(APPROVE, { variables: { input: { id } } }))).toBe("UNAUTHENTICATED");
    expect(errorCode(await gql(REJECT, { tokens: organizerTokens, variables: { input: { id, reason: "" } } }))).toBe("BAD_USER_INPUT");

    const approved = await gql<{ approveRefund: { status: string } }>(APPROVE, { tokens: organizerTokens, variables: { input: { id } } });
    expect(approved.body.data?.approveRefund.status).toBe("refunded");
    expect(errorCode(await gql(REJECT, { tokens: organizerTokens, variables: { input: { id, reason: "Muy tarde" } } }))).toBe("CONFLICT");
    const after = await gql<{ orders: { items: { displayStatus: string; pendingRefund: boolean }[] } }>(ORDERS, {
      tokens: organizerTokens,
      variables: { filter: { organizationId: producer.organization.id } },
    });
    expect(after.body.data?.orders.items[0]).toMatchObject({ displayStatus: "refunded", pendingRefund: false });

    // The ledger tells the whole story: the sale, our fee, the refund and the fee given back; the balance nets to zero.
    const ledger = await gql<LedgerData>(LEDGER, { tokens: organizerTokens, variables: { organizationId: producer.organization.id } });
    expect(ledger.body.errors).toBeUndefined();
    expect(ledger.body.data?.ledger).toMatchObject({ balance: 0, total: 4 });
    expect(ledger.body.data?.ledger.balanceFormatted).toMatch(/\$\s?0,00/);
    expect(ledger.body.data?.ledger.items.map((e) => e.kind).sort()).toEqual(["payment", "refund", "service_fee", "service_fee_refund"]);
    expect(ledger.body.data?.ledger.items.every((e) => e.orderCode === order.code)).toBe(true);
    expect(errorCode(await gql(LEDGER, { tokens: strangerTokens, variables: { organizationId: producer.organization.id } }))).toBe("FORBIDDEN");
  });
});
