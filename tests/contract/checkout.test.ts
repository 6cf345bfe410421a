import { describe, expect, it } from "vitest";
import { getEventForOrganizer, setCustomFields } from "#server/events/events";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const CREATE_ORDER = /* GraphQL */ `
  mutation CreateOrder($input: CreateOrderInput!) {
    createOrder(input: $input) {
      billingId
      accessToken
      order {
        id
        attendees { ticketId firstName lastName documentType documentNumber email }
        customFields { fieldId label value }
      }
    }
  }
`;

const BILLING = /* GraphQL */ `
  query Billing($billingId: ID!, $token: String) {
    billing(billingId: $billingId, token: $token) { id status order { id attendees { firstName } } }
  }
`;

const payer = { firstName: "Joaquín", lastName: "Muñoz", email: "joaco@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+5491155551234" };

type Created = {
  createOrder: {
    billingId: string;
    accessToken: string;
    order: { id: string; attendees: Record<string, string | null>[]; customFields: { fieldId: string; label: string; value: string }[] };
  } | null;
};

async function eventAskingHolders() {
  const { ctx, organization } = await createProducer();
  const { event } = await createPublishedEvent(ctx, organization.id, { ticketTypes: [{ name: "General", price: 1_200_000, stock: 10 }] });
  const [talle] = await setCustomFields(ctx, { eventId: event.id, fields: [{ label: "Talle de remera", kind: "select", options: ["S", "M", "L"], required: true }], oneHolderPerTicket: true });
  const { tickets } = await getEventForOrganizer(ctx, event.id);
  return { event, ticket: tickets[0], talle };
}

describe("createOrder attendees and customFields; billing with the access token", () => {
  it("stores one holder per ticket and the answers, and a buyer without an account reads the billing with accessToken", async () => {
    const { event, ticket, talle } = await eventAskingHolders();
    const created = await gql<Created>(CREATE_ORDER, {
      variables: {
        input: {
          eventSlug: event.slug,
          items: [{ ticketId: ticket.id, qty: 2 }],
          payer,
          paymentMethod: "MERCADO_PAGO",
          attendees: [
            { firstName: "Joaquín", lastName: "Muñoz", documentType: "dni", documentNumber: "30123456" },
            { firstName: "Sol", lastName: "Ríos", documentType: "dni", documentNumber: "31.222.333", email: "sol@example.com" },
          ],
          customFields: [{ fieldId: talle.id, value: "M" }],
        },
      },
    });
    expect(created.body.errors).toBeUndefined();
    const result = created.body.data!.createOrder!;
    expect(result.order.attendees).toEqual([
      { ticketId: ticket.id, firstName: "Joaquín", lastName: "Muñoz", documentType: "dni", documentNumber: "30123456", email: null },
      { ticketId: ticket.id, firstName: "Sol", lastName: "Ríos", documentType: "dni", documentNumber: "31222333", email: "sol@example.com" },
    ]);
    expect(result.order.customFields).toEqual([{ fieldId: talle.id, label: "Talle de remera", value: "M" }]);

    const read = await gql<{ billing: { id: string; status: string; order: { id: string } } | null }>(BILLING, { variables: { billingId: result.billingId, token: result.accessToken } });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data!.billing).toMatchObject({ id: result.billingId, status: "pending", order: { id: result.order.id } });

    const wrong = await gql(BILLING, { variables: { billingId: result.billingId, token: "x".repeat(32) } });
    expect(errorCode(wrong)).toBe("UNAUTHENTICATED");
    const none = await gql(BILLING, { variables: { billingId: result.billingId } });
    expect(errorCode(none)).toBe("UNAUTHENTICATED");
  });

  it("refuses missing holders and answers with BAD_USER_INPUT and field keys", async () => {
    const { event, ticket, talle } = await eventAskingHolders();
    const refused = await gql<Created>(CREATE_ORDER, {
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO", customFields: [{ fieldId: talle.id, value: "XXL" }] } },
    });
    expect(errorCode(refused)).toBe("BAD_USER_INPUT");
    const fieldErrors = refused.body.errors![0].extensions?.fieldErrors as Record<string, string[]>;
    expect(fieldErrors).toEqual({ [`customFields.${talle.id}`]: ["Elegí una de las opciones"] });

    const noHolders = await gql<Created>(CREATE_ORDER, {
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO", customFields: [{ fieldId: talle.id, value: "S" }] } },
    });
    expect(errorCode(noHolders)).toBe("BAD_USER_INPUT");
    expect(noHolders.body.errors![0].extensions?.fieldErrors).toEqual({ attendees: ["Completá los datos de quien usa cada una de las 2 entradas."] });
  });
});
