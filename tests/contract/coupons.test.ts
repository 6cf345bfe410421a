import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { getEventForOrganizer } from "#server/events/events";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const COUPON_FIELDS = "id eventId code kind percent amount amountFormatted discountLabel ticketTypeIds maxUses uses validFrom validUntil status redeemUrl";

const CREATE = /* GraphQL */ `
  mutation CreateCoupon($input: CreateCouponInput!) { createCoupon(input: $input) { ${COUPON_FIELDS} } }
`;
const UPDATE = /* GraphQL */ `
  mutation UpdateCoupon($input: UpdateCouponInput!) { updateCoupon(input: $input) { ${COUPON_FIELDS} } }
`;
const SET_STATUS = /* GraphQL */ `
  mutation SetCouponStatus($input: SetCouponStatusInput!) { setCouponStatus(input: $input) { id status } }
`;
const LIST = /* GraphQL */ `
  query Coupons($organizationId: ID, $eventId: ID) {
    coupons(organizationId: $organizationId, eventId: $eventId) { total page limit items { ${COUPON_FIELDS} } }
  }
`;
const CREATE_ORDER = /* GraphQL */ `
  mutation CreateOrder($input: CreateOrderInput!) {
    createOrder(input: $input) { billingId paymentUrl order { id status subtotal discount serviceFee total } }
  }
`;

type CouponData = {
  id: string;
  eventId: string;
  code: string;
  kind: string;
  percent: number | null;
  amount: number | null;
  amountFormatted: string | null;
  discountLabel: string;
  ticketTypeIds: string[];
  maxUses: number | null;
  uses: number;
  validFrom: string | null;
  validUntil: string | null;
  status: string;
  redeemUrl: string;
};

const payer = { firstName: "Joaquín", lastName: "Muñoz", email: "joaco@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 9 11 5555-1234" };

async function organizer() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
  const { tickets } = await getEventForOrganizer(producer.ctx, event.id);
  const tokens = await startSession(await getDb(), producer.user, new Date());
  return { ...producer, event, ticket: tickets[0], tokens };
}

describe("coupons over GraphQL", () => {
  it("createCoupon, coupons, updateCoupon and setCouponStatus with the documented fields", async () => {
    const { event, organization, ticket, tokens } = await organizer();
    const created = await gql<{ createCoupon: CouponData }>(CREATE, {
      tokens,
      variables: { input: { eventId: event.id, code: "VERANO20", kind: "percent", percent: 20, maxUses: 100, validUntil: "2099-12-31T23:59:00-03:00" } },
    });
    expect(created.body.errors).toBeUndefined();
    const coupon = created.body.data!.createCoupon;
    expect(coupon).toMatchObject({
      eventId: event.id,
      code: "VERANO20",
      kind: "percent",
      percent: 20,
      amount: null,
      discountLabel: "20 % de descuento",
      ticketTypeIds: [],
      maxUses: 100,
      uses: 0,
      validFrom: null,
      validUntil: "2099-12-31T23:59:00.000-03:00",
      status: "active",
      redeemUrl: `http://localhost:3000/canjear/${coupon.id}`,
    });

    const list = await gql<{ coupons: { total: number; page: number; limit: number; items: CouponData[] } }>(LIST, { tokens, variables: { organizationId: organization.id } });
    expect(list.body.data?.coupons).toMatchObject({ total: 1, page: 0, limit: 50, items: [{ id: coupon.id, code: "VERANO20" }] });
    const byEvent = await gql<{ coupons: { total: number } }>(LIST, { tokens, variables: { eventId: event.id } });
    expect(byEvent.body.data?.coupons.total).toBe(1);

    const updated = await gql<{ updateCoupon: CouponData }>(UPDATE, {
      tokens,
      variables: { input: { id: coupon.id, kind: "fixed", amount: 250_000, maxUses: null, ticketTypeIds: [ticket.id] } },
    });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data?.updateCoupon).toMatchObject({ code: "VERANO20", kind: "fixed", percent: null, amount: 250_000, amountFormatted: "$\u00a02.500,00", maxUses: null, ticketTypeIds: [ticket.id] });

    const paused = await gql<{ setCouponStatus: { status: string } }>(SET_STATUS, { tokens, variables: { input: { id: coupon.id, status: "paused" } } });
    expect(paused.body.data?.setCouponStatus.status).toBe("paused");
  });

  it("answers BAD_USER_INPUT with fieldErrors, FORBIDDEN to other organizations, UNAUTHENTICATED without a session", async () => {
    const { event, organization, tokens } = await organizer();
    const bad = await gql(CREATE, { tokens, variables: { input: { eventId: event.id, code: "CON ESPACIO", kind: "percent", percent: 120 } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors?.[0].extensions?.fieldErrors).toMatchObject({ code: ["El código no puede tener espacios"], percent: ["Ingresá un porcentaje entre 1 y 100"] });

    const stranger = await organizer();
    const forbidden = await gql(CREATE, { tokens: stranger.tokens, variables: { input: { eventId: event.id, code: "INTRUSO", kind: "percent", percent: 10 } } });
    expect(errorCode(forbidden)).toBe("FORBIDDEN");
    expect(errorCode(await gql(LIST, { tokens: stranger.tokens, variables: { organizationId: organization.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(LIST, { variables: { organizationId: organization.id } }))).toBe("UNAUTHENTICATED");
  });

  it("createOrder applies couponCode: discount, fee on what is paid; unknown code on couponCode; no uses left is CONFLICT", async () => {
    const { event, ticket, tokens } = await organizer();
    await gql(CREATE, { tokens, variables: { input: { eventId: event.id, code: "MITAD", kind: "percent", percent: 50, maxUses: 1 } } });
    const input = { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO" };
    const ok = await gql<{ createOrder: { order: { subtotal: number; discount: number; serviceFee: number; total: number } } }>(CREATE_ORDER, {
      variables: { input: { ...input, couponCode: "mitad" } },
    });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data?.createOrder.order).toMatchObject({ subtotal: 2_000_000, discount: 1_000_000, serviceFee: 100_000, total: 1_100_000 });

    const again = await gql(CREATE_ORDER, { variables: { input: { ...input, couponCode: "MITAD" } } });
    expect(errorCode(again)).toBe("CONFLICT");
    expect(again.body.errors?.[0].message).toBe("Se agotaron los usos del cupón «MITAD». Podés comprar sin el cupón.");

    const unknown = await gql(CREATE_ORDER, { variables: { input: { ...input, couponCode: "NOEXISTE" } } });
    expect(errorCode(unknown)).toBe("BAD_USER_INPUT");
    expect(unknown.body.errors?.[0].extensions?.fieldErrors).toEqual({ couponCode: ["Ese cupón no existe para este evento. Revisá cómo lo escribiste."] });
  });
});
