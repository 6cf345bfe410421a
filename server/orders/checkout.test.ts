import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { orders, ticketTypes } from "#server/db/schema";
import { ANONYMOUS } from "#server/context";
import { setCustomFields } from "#server/events/events";
import { ctxAs, createTestUser } from "#tests/support/context";
import { createProducer, createPublishedEvent, makePromoter } from "#tests/support/factories";
import { billingAccessToken } from "#server/auth/billing-access";
import { startCheckout } from "./checkout";
import { getBillingForBuyer } from "./orders";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
const HOLDER = (firstName: string, documentNumber: string) => ({ firstName, lastName: "Gómez", documentType: "dni", documentNumber });

async function setup(options: { oneHolderPerTicket?: boolean; fields?: { label: string; kind: string; options?: string[]; required?: boolean }[] } = {}) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    ticketTypes: [
      { name: "General", price: 1_000_000, stock: 50 },
      { name: "VIP", price: 2_000_000, stock: 10 },
    ],
  });
  const saved = await setCustomFields(producer.ctx, {
    eventId: event.id,
    fields: (options.fields ?? []).map((f) => ({ options: [], required: false, ...f })),
    oneHolderPerTicket: options.oneHolderPerTicket ?? false,
  });
  const db = await getDb();
  const tickets = Object.fromEntries((await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id))).map((t) => [t.name, t]));
  const fields = Object.fromEntries(saved.map((f) => [f.label, f]));
  return { event, tickets, fields, producer };
}

async function anonymous() {
  return ctxAs(ANONYMOUS);
}

async function fieldErrorsOf(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => null,
    (e) => e,
  )) as { code?: string; fieldErrors?: Record<string, string[]> } | null;
  expect(error?.code).toBe("BAD_USER_INPUT");
  return error!.fieldErrors!;
}

describe("createOrder: one holder per ticket", () => {
  it("requires one holder per ticket unit when the event asks, and stores them in item order with their ticket type", async () => {
    const { event, tickets } = await setup({ oneHolderPerTicket: true });
    const base = {
      eventSlug: event.slug,
      items: [
        { ticketId: tickets.VIP.id, qty: 1 },
        { ticketId: tickets.General.id, qty: 2 },
      ],
      payer: PAYER,
      paymentMethod: "MERCADO_PAGO",
    };
    expect(await fieldErrorsOf(startCheckout(await anonymous(), base))).toEqual({ attendees: ["Completá los datos de quien usa cada una de las 3 entradas."] });
    expect(await fieldErrorsOf(startCheckout(await anonymous(), { ...base, attendees: [HOLDER("Ana", "30111222")] }))).toHaveProperty("attendees");
    // Each holder's data is checked with the same rules as the payer's.
    const bad = await fieldErrorsOf(
      startCheckout(await anonymous(), { ...base, attendees: [HOLDER("Ana", "30111222"), HOLDER("B3rto", "30111223"), { ...HOLDER("Caro", "1"), email: "caro@" }] }),
    );
    expect(bad).toEqual({
      "attendees.1.firstName": ["Ingresá solo letras (se permiten tildes, ñ y espacios entre palabras)"],
      "attendees.2.documentNumber": ["Ingresá un número de documento válido"],
      "attendees.2.email": ["Este campo debe ser un email válido"],
    });
    // Nothing was held by the refused attempts.
    const db = await getDb();
    const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, tickets.General.id));
    expect(general.sold).toBe(0);

    const { order } = await startCheckout(await anonymous(), {
      ...base,
      attendees: [HOLDER("Ana", "30.111.222"), HOLDER("Beto", "30111223"), { ...HOLDER("Caro", "30111224"), email: "Caro@Example.com" }],
    });
    const [stored] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(stored.attendees).toEqual([
      { ticketTypeId: tickets.VIP.id, firstName: "Ana", lastName: "Gómez", documentType: "dni", documentNumber: "30111222" },
      { ticketTypeId: tickets.General.id, firstName: "Beto", lastName: "Gómez", documentType: "dni", documentNumber: "30111223" },
      { ticketTypeId: tickets.General.id, firstName: "Caro", lastName: "Gómez", documentType: "dni", documentNumber: "30111224", email: "caro@example.com" },
    ]);
  });

  it("leaves holders optional otherwise: none means the payer holds them all", async () => {
    const { event, tickets } = await setup();
    const { order } = await startCheckout(await anonymous(), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    expect(order.attendees).toBeNull();
  });
});

describe("createOrder: custom fields", () => {
  const FIELDS = [
    { label: "Talle de remera", kind: "select", options: ["S", "M", "L"], required: true },
    { label: "Edad", kind: "number" },
    { label: "Fecha de nacimiento", kind: "date" },
    { label: "Club", kind: "text", required: true },
  ];

  it("enforces required answers, options, numbers and dates with messages per field", async () => {
    const { event, tickets, fields } = await setup({ fields: FIELDS });
    const base = { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" };
    const errors = await fieldErrorsOf(
      startCheckout(await anonymous(), {
        ...base,
        customFields: { [fields["Talle de remera"].id]: "XXL", [fields.Edad.id]: "veinte", [fields["Fecha de nacimiento"].id]: "2000-02-31" },
      }),
    );
    expect(errors).toEqual({
      [`customFields.${fields["Talle de remera"].id}`]: ["Elegí una de las opciones"],
      [`customFields.${fields.Edad.id}`]: ["Ingresá un número"],
      [`customFields.${fields["Fecha de nacimiento"].id}`]: ["Ingresá una fecha válida"],
      [`customFields.${fields.Club.id}`]: ["Este campo es obligatorio"],
    });
  });

  it("stores the answers with the question as asked (GraphQL's list form too), dropping unknown fields and empty optional ones", async () => {
    const { event, tickets, fields } = await setup({ fields: FIELDS });
    const { order } = await startCheckout(await anonymous(), {
      eventSlug: event.slug,
      items: [{ ticketId: tickets.General.id, qty: 1 }],
      payer: PAYER,
      paymentMethod: "MERCADO_PAGO",
      customFields: [
        { fieldId: fields["Talle de remera"].id, value: "M" },
        { fieldId: fields.Club.id, value: " Atlanta " },
        { fieldId: fields.Edad.id, value: "" },
        { fieldId: fields["Fecha de nacimiento"].id, value: "1999-12-31" },
        { fieldId: "00000000-0000-4000-8000-000000000000", value: "otra cosa" },
      ],
    });
    expect(order.customFields).toEqual([
      { fieldId: fields["Talle de remera"].id, label: "Talle de remera", value: "M" },
      { fieldId: fields["Fecha de nacimiento"].id, label: "Fecha de nacimiento", value: "1999-12-31" },
      { fieldId: fields.Club.id, label: "Club", value: "Atlanta" },
    ]);
  });
});

describe("createOrder: referredNick", () => {
  it("keeps a known promoter's nick as they spell it and drops an unknown one without blocking the purchase", async () => {
    const { event, tickets, producer } = await setup();
    const nick = `Rrpp.${Math.random().toString(36).slice(2, 8)}`;
    const promoter = await createTestUser({ nickname: nick });
    await makePromoter(producer.ctx, producer.organization.id, promoter.id);
    const base = { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" };
    const known = await startCheckout(await anonymous(), { ...base, referredNick: nick.toLowerCase() });
    expect(known.order.referredNick).toBe(nick);
    const unknown = await startCheckout(await anonymous(), { ...base, referredNick: "nadie-con-este-nick" });
    expect(unknown.order.referredNick).toBeNull();
    expect(unknown.order.status).toBe("draft");
  });
});

describe("startCheckout", () => {
  it("returns the access token that lets a buyer without an account read the billing, and nobody else", async () => {
    const { event, tickets } = await setup();
    const started = await startCheckout(await anonymous(), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    expect(started.accessToken).toBe(billingAccessToken(started.billing.id));
    const view = await getBillingForBuyer(await anonymous(), started.billing.id, { token: started.accessToken });
    expect(view.order.id).toBe(started.order.id);
    await expect(getBillingForBuyer(await anonymous(), started.billing.id, { token: "x".repeat(32) })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});
