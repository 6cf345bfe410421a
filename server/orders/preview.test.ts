import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { orders, ticketTypes } from "#server/db/schema";
import { addEventDate, setEventStatus, setPresaleCode } from "#server/events/events";
import { createCoupon, setCouponStatus } from "#server/coupons/coupons";
import { NO_TRANSFER_ACCOUNT } from "#server/payouts/bank-accounts";
import { ctxAs } from "#tests/support/context";
import { createEventWithTickets, createTransferAccount, daysFromNow } from "#tests/support/factories";
import { previewOrder } from "./preview";
import { createOrder } from "./orders";
import { SEATING_MESSAGES } from "#common/seating";
import { serviceFeeOf } from "#common/pricing";
import { createSeatedEvent } from "#tests/support/seating";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

async function soldOf(id: string) {
  const [row] = await (await getDb()).select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, id));
  return row.sold;
}

describe("previewOrder", () => {
  it("prices the selection as createOrder charges it, with the fee on the discounted amount, holding nothing", async () => {
    const { ctx: producer, event, date, tickets } = await createEventWithTickets([
      { name: "General", price: 1_500_000, stock: 100 },
      { name: "VIP", price: 3_333_333, stock: 10 },
    ]);
    await createCoupon(producer, { eventId: event.id, code: "VERANO20", kind: "percent", percent: 20 });
    const ctx = await ctxAs();
    const input = {
      eventSlug: event.slug,
      items: [
        { ticketId: tickets.General.id, qty: 1 },
        { ticketId: tickets.VIP.id, qty: 1 },
        { ticketId: tickets.General.id, qty: 1 },
      ],
      couponCode: "verano20",
    };
    const preview = await previewOrder(ctx, input);
    const subtotal = 2 * 1_500_000 + 3_333_333;
    const discount = Math.round(subtotal * 0.2);
    const serviceFee = Math.round(((subtotal - discount) * 1000) / 10_000);
    expect(preview.lines).toEqual([
      { ticketTypeId: tickets.General.id, name: "General", qty: 2, unitPrice: 1_500_000, subtotal: 3_000_000, paymentMethod: "MERCADO_PAGO" },
      { ticketTypeId: tickets.VIP.id, name: "VIP", qty: 1, unitPrice: 3_333_333, subtotal: 3_333_333, paymentMethod: "MERCADO_PAGO" },
    ]);
    expect(preview).toMatchObject({
      subtotal,
      discount,
      coupon: { code: "VERANO20", label: "20 % de descuento", discount },
      serviceFeeBps: 1000,
      serviceFee,
      total: subtotal - discount + serviceFee,
      free: false,
      requiredPaymentMethod: "MERCADO_PAGO",
      paymentMethod: "MERCADO_PAGO",
      hold: { minutes: 15, label: "15 minutos" },
    });
    expect(preview.date.id).toBe(date.id);
    // Nothing taken: no stock, no order.
    expect(await soldOf(tickets.General.id)).toBe(0);
    const db = await getDb();
    expect(await db.select().from(orders).where(eq(orders.eventId, event.id))).toHaveLength(0);

    // createOrder charges exactly what the preview said.
    const { order } = await createOrder(ctx, { ...input, payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    expect(order).toMatchObject({ subtotal, discount, serviceFee, total: preview.total, eventDateId: date.id });
  });

  it("says the method each ticket is paid with and its hold: 48 horas for a bank transfer, none when free", async () => {
    const { ctx: producer, organization, event, tickets } = await createEventWithTickets([
      { name: "Transferencia", price: 1_000_000, stock: 10, paymentMethod: "BankAccount" },
      { name: "Gratis", price: 0, stock: 10 },
    ]);
    const ctx = await ctxAs();
    const bank = { eventSlug: event.slug, items: [{ ticketId: tickets.Transferencia.id, qty: 1 }] };
    // Nowhere to receive the transfer: refused before the buyer is told to pay.
    await expect(previewOrder(ctx, bank)).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { paymentMethod: [NO_TRANSFER_ACCOUNT] } });
    await createTransferAccount(producer, organization.id);
    expect(await previewOrder(ctx, bank)).toMatchObject({
      requiredPaymentMethod: "BANK_TRANSFER",
      paymentMethod: "BANK_TRANSFER",
      lines: [{ paymentMethod: "BANK_TRANSFER" }],
      hold: { minutes: 48 * 60, label: "48 horas" },
    });
    await expect(previewOrder(ctx, { ...bank, paymentMethod: "MERCADO_PAGO" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "«Transferencia» se paga con transferencia bancaria.",
    });

    const free = await previewOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.Gratis.id, qty: 2 }] });
    expect(free).toMatchObject({ total: 0, serviceFee: 0, free: true, paymentMethod: "FREE", requiredPaymentMethod: "MERCADO_PAGO", hold: null });

    await expect(
      previewOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.Transferencia.id, qty: 1 }, { ticketId: tickets.Gratis.id, qty: 1 }] }),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { paymentMethod: [expect.stringContaining("No podés combinar")] } });
  });

  it("refuses with createOrder's messages: per ticket, stock as advisory, hidden and presale tickets without their code", async () => {
    const { ctx: producer, event, tickets } = await createEventWithTickets([
      { name: "VIP", price: 3_000_000, stock: 20, maxPerOrder: 4 },
      { name: "Mesa", price: 5_000_000, stock: 20, minPerOrder: 2, maxPerOrder: 6 },
      { name: "Últimas", price: 1_000_000, stock: 3 },
      { name: "Campo", price: 1_000_000, stock: 0 },
      { name: "Secreta", price: 1_000_000, stock: 10, hidden: true, accessCode: "AMIGOS" },
      { name: "Preventa", price: 800_000, stock: 10, presale: true },
      { name: "RRPP", price: 1_000_000, stock: 10, paymentMethod: "PromoterAccount" },
    ]);
    await setPresaleCode(producer, { eventId: event.id, presaleCode: "TEMPRANO" });
    const ctx = await ctxAs();
    const preview = (items: { ticketId: string; qty: number }[], extra: Record<string, string> = {}) => previewOrder(ctx, { eventSlug: event.slug, items, ...extra });

    // Every ticket's problem under its id; the stock ones too (advisory), the message is the first rule broken.
    await expect(
      preview([
        { ticketId: tickets.VIP.id, qty: 5 },
        { ticketId: tickets.Mesa.id, qty: 1 },
        { ticketId: tickets.Últimas.id, qty: 4 },
        { ticketId: tickets.Campo.id, qty: 1 },
        { ticketId: tickets.RRPP.id, qty: 1 },
      ]),
    ).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "Máximo 4 entradas «VIP» por compra",
      fieldErrors: {
        [tickets.VIP.id]: ["Máximo 4 entradas «VIP» por compra"],
        [tickets.Mesa.id]: ["Mínimo 2 entradas «Mesa» por compra"],
        [tickets.Últimas.id]: ["Quedan solo 3 entradas «Últimas»"],
        [tickets.Campo.id]: ["No quedan entradas «Campo»"],
        [tickets.RRPP.id]: ["Por ahora «RRPP» no se vende online."],
      },
    });
    // Only the stock falls short: a Conflict, as createOrder's, saying how many are left.
    await expect(preview([{ ticketId: tickets.Últimas.id, qty: 4 }])).rejects.toMatchObject({
      code: "CONFLICT",
      message: "No quedan suficientes entradas de «Últimas». Elegí menos o probá otra.",
      fieldErrors: { [tickets.Últimas.id]: ["Quedan solo 3 entradas «Últimas»"] },
    });

    // Hidden without its code, presale without the presale code: as if they did not exist.
    const unknown = { code: "BAD_USER_INPUT", message: "Una de las entradas que elegiste ya no está a la venta. Revisá tu elección." };
    await expect(preview([{ ticketId: tickets.Secreta.id, qty: 1 }])).rejects.toMatchObject(unknown);
    await expect(preview([{ ticketId: tickets.Secreta.id, qty: 1 }], { accessCode: "OTRO" })).rejects.toMatchObject(unknown);
    await expect(preview([{ ticketId: tickets.Preventa.id, qty: 1 }])).rejects.toMatchObject(unknown);
    await expect(preview([{ ticketId: tickets.Secreta.id, qty: 1 }], { accessCode: "amigos" })).resolves.toMatchObject({ lines: [{ name: "Secreta" }] });
    await expect(preview([{ ticketId: tickets.Preventa.id, qty: 1 }], { presaleCode: "temprano" })).resolves.toMatchObject({ lines: [{ name: "Preventa" }] });

    await expect(preview([])).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { items: ["Elegí al menos una entrada"] } });
    await expect(previewOrder(ctx, { eventSlug: "no-existe-este-evento", items: [{ ticketId: tickets.VIP.id, qty: 1 }] })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No encontramos el evento.",
    });

    await setEventStatus(producer, { id: event.id, status: "paused" });
    await expect(preview([{ ticketId: tickets.VIP.id, qty: 1 }])).rejects.toMatchObject({ code: "BAD_USER_INPUT", message: "La venta está pausada" });
  });

  it("checks the date: asked for when there are several, pinned by the ticket, of another date, not on sale", async () => {
    const { ctx: producer, event, date, tickets } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 10 }], { days: 5 });
    const second = await addEventDate(producer, { eventId: event.id, startsAt: daysFromNow(12).toISOString(), endsAt: daysFromNow(12, 23).toISOString() });
    const [friday] = await (await getDb())
      .update(ticketTypes)
      .set({ eventDateId: second.id })
      .where(eq(ticketTypes.id, tickets.General.id))
      .returning();
    const ctx = await ctxAs();
    const items = [{ ticketId: friday.id, qty: 1 }];
    // The ticket pins its date: no need to ask.
    expect((await previewOrder(ctx, { eventSlug: event.slug, items })).date.id).toBe(second.id);
    await expect(previewOrder(ctx, { eventSlug: event.slug, eventDateId: date.id, items })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { [friday.id]: ["«General» es para otra fecha del evento"] },
    });
    await (await getDb()).update(ticketTypes).set({ eventDateId: null }).where(eq(ticketTypes.id, friday.id));
    await expect(previewOrder(ctx, { eventSlug: event.slug, items })).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { eventDateId: ["Elegí una fecha"] } });
    await expect(previewOrder(ctx, { eventSlug: event.slug, eventDateId: "00000000-0000-0000-0000-000000000000", items })).rejects.toMatchObject({
      fieldErrors: { eventDateId: ["Esa fecha no está a la venta, elegí otra"] },
    });
  });

  it("checks the coupon: unknown, paused, not for these tickets", async () => {
    const { ctx: producer, event, tickets } = await createEventWithTickets([
      { name: "General", price: 1_000_000, stock: 10 },
      { name: "VIP", price: 2_000_000, stock: 10 },
    ]);
    await createCoupon(producer, { eventId: event.id, code: "SOLOVIP", kind: "percent", percent: 50, ticketTypeIds: [tickets.VIP.id] });
    const paused = await createCoupon(producer, { eventId: event.id, code: "PAUSADO", kind: "percent", percent: 50 });
    await setCouponStatus(producer, { id: paused.id, status: "paused" });
    const ctx = await ctxAs();
    const preview = (couponCode: string) => previewOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], couponCode });
    await expect(preview("NOEXISTE")).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { couponCode: ["Ese cupón no existe para este evento. Revisá cómo lo escribiste."] } });
    await expect(preview("pausado")).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { couponCode: ["Ese cupón está pausado por ahora."] } });
    await expect(preview("SOLOVIP")).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { couponCode: [expect.any(String)] } });
    // On the VIP it halves the price, and the fee is on what is left.
    const vip = await previewOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.VIP.id, qty: 1 }], couponCode: "solovip" });
    expect(vip).toMatchObject({ subtotal: 2_000_000, discount: 1_000_000, serviceFee: 100_000, total: 1_100_000 });
  });

  it("prices a seated selection from its seats or a best-available request, as createOrder turns them into items (docs/seating.md)", async () => {
    const made = await createSeatedEvent();
    const ctx = await ctxAs();
    // Each chosen seat is a ticket of the type its category sells, at that price.
    const bySeats = await previewOrder(ctx, { eventSlug: made.event.slug, items: [], seats: ["F11", "F12"] });
    expect(bySeats.lines).toMatchObject([{ ticketTypeId: made.tickets.Platea.id, qty: 2, unitPrice: 1_000_000, subtotal: 2_000_000 }]);
    expect(bySeats.subtotal).toBe(2_000_000);
    // Best available: N of that type, priced the same, holding nothing.
    const byBest = await previewOrder(ctx, { eventSlug: made.event.slug, items: [], bestAvailable: { ticketTypeId: made.tickets.Platea.id, quantity: 3 } });
    expect(byBest.lines).toMatchObject([{ ticketTypeId: made.tickets.Platea.id, qty: 3, subtotal: 3_000_000 }]);
    expect(byBest.total).toBe(3_000_000 + serviceFeeOf(3_000_000, byBest.serviceFeeBps));
    expect(await soldOf(made.tickets.Platea.id)).toBe(0);
    // The same refusals as createOrder: a seat the map does not have; seats and best available together; seats on a general admission event.
    await expect(previewOrder(ctx, { eventSlug: made.event.slug, items: [], seats: ["Z99"] })).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { seats: [SEATING_MESSAGES.seatUnknown] } });
    await expect(previewOrder(ctx, { eventSlug: made.event.slug, items: [], seats: ["F11"], bestAvailable: { ticketTypeId: made.tickets.Platea.id, quantity: 1 } })).rejects.toMatchObject({
      fieldErrors: { seats: [SEATING_MESSAGES.seatsOrBest] },
    });
    const general = await createEventWithTickets();
    await expect(previewOrder(ctx, { eventSlug: general.event.slug, items: [], seats: ["F11"] })).rejects.toMatchObject({ fieldErrors: { seats: [SEATING_MESSAGES.notSeated] } });
    // A general admission type of the seated event previews from its items as before.
    const plain = await previewOrder(ctx, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 2 }] });
    expect(plain.lines).toMatchObject([{ ticketTypeId: made.tickets.General.id, qty: 2, subtotal: 1_000_000 }]);
  });
});

