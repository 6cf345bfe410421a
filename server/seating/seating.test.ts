import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, seatClaims, ticketTypes } from "#server/db/schema";
import { chargeBack, refund } from "#server/orders/lifecycle";
import { createOrder, expireOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { transferTicket } from "#server/tickets/transfer";
import { startCheckout } from "#server/orders/checkout";
import { listForResale, setEventResale } from "#server/resale/listings";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { blockSeats, getEventSeating, releaseSeats, setEventSeating } from "./event-seating";
import { getSeatMap, listSeatMaps, saveSeatMap } from "./maps";

const SEAT_TAKEN = "Alguien eligió ese asiento recién. Elegí otro.";

/** Platea: rows A and B of 10 seats; VIP: row C of 5. Guids "A1"… */
function venuePlan() {
  const row = (label: string, count: number, y: number, category: string) => ({
    label,
    seats: Array.from({ length: count }, (_, i) => ({ guid: `${label}${i + 1}`, number: String(i + 1), x: i * 10, y, category })),
  });
  return {
    name: "Teatro Colón de prueba",
    size: { width: 200, height: 100 },
    categories: [{ name: "Platea" }, { name: "VIP" }],
    sections: [{ id: "platea", name: "Platea", kind: "numbered", rows: [row("C", 5, 0, "VIP"), row("A", 10, 10, "Platea"), row("B", 10, 20, "Platea")] }],
    shapes: [{ text: "Escenario", x: 0, y: -20, width: 100, height: 10 }],
  };
}

const payer = (i: number) => ({ firstName: "Sofía", lastName: "Peña", email: `comprador${i}@example.com`, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" });

async function seatedEvent() {
  const made = await createEventWithTickets([
    { name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 10 },
    { name: "VIP", price: 2_000_000, stock: 1, maxPerOrder: 10 },
  ]);
  const map = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan: venuePlan() });
  await setEventSeating(made.ctx, {
    eventId: made.event.id,
    seatMapId: map.id,
    categories: [
      { category: "Platea", ticketTypeId: made.tickets.Platea.id },
      { category: "VIP", ticketTypeId: made.tickets.VIP.id },
    ],
  });
  return { ...made, map };
}

type Seated = Awaited<ReturnType<typeof seatedEvent>>;

async function buySeats(made: Seated, seats: string[], i = 0) {
  return createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [], seats, payer: payer(i), paymentMethod: "MERCADO_PAGO" });
}

async function stateOf(made: Seated, guid: string) {
  const view = await getEventSeating(await ctxAs(), made.event.id, made.date.id);
  return view.seats.find((s) => s.guid === guid)?.state;
}

async function soldOf(ticketTypeId: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold, stock: ticketTypes.stock }).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  return row;
}

let made: Seated;
beforeAll(async () => {
  made = await seatedEvent();
});

describe("seat maps and an event's seating (organizer)", () => {
  it("only members of the owning organization read and write a map; bad plans get Spanish messages", async () => {
    const other = await createProducer();
    await expect(getSeatMap(other.ctx, made.map.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(saveSeatMap(other.ctx, { id: made.map.id, organizationId: made.organization.id, plan: venuePlan() })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(saveSeatMap(await ctxAs(ANONYMOUS), { organizationId: made.organization.id, plan: venuePlan() })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    // Saving "its" map under another organization finds nothing to save.
    await expect(saveSeatMap(other.ctx, { id: made.map.id, organizationId: other.organization.id, plan: venuePlan() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await getSeatMap(made.ctx, made.map.id)).plan.sections[0].rows).toHaveLength(3);
    expect((await listSeatMaps(made.ctx, made.organization.id)).map((m) => m.id)).toEqual([made.map.id]);

    const twice = venuePlan();
    twice.sections[0].rows[1].seats[1].guid = "A1";
    await expect(saveSeatMap(made.ctx, { organizationId: made.organization.id, plan: twice })).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { plan: ["El asiento «A1» aparece más de una vez en el mapa."] } });
    await expect(saveSeatMap(made.ctx, { organizationId: made.organization.id, plan: { name: "" } })).rejects.toMatchObject({ code: "BAD_USER_INPUT", message: "El mapa de asientos tiene datos inválidos." });
  });

  it("every category with seats maps to a ticket type of the event, and a seated type's stock is its seats", async () => {
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ sold: 0, stock: 20 });
    expect(await soldOf(made.tickets.VIP.id)).toEqual({ sold: 0, stock: 5 });
    await expect(setEventSeating(made.ctx, { eventId: made.event.id, seatMapId: made.map.id, categories: [{ category: "Platea", ticketTypeId: made.tickets.Platea.id }] })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "Asigná la categoría «VIP» a un tipo de entrada del evento.",
    });
    const otherEvent = await createEventWithTickets();
    await expect(
      setEventSeating(made.ctx, {
        eventId: made.event.id,
        seatMapId: made.map.id,
        categories: [
          { category: "Platea", ticketTypeId: otherEvent.tickets.General.id },
          { category: "VIP", ticketTypeId: made.tickets.VIP.id },
        ],
      }),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { "categories.0.ticketTypeId": ["Ese tipo de entrada no es de este evento."] } });
    // Another organization's member may not seat this event, nor seat theirs with this map.
    await expect(setEventSeating(otherEvent.ctx, { eventId: made.event.id, seatMapId: made.map.id, categories: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(setEventSeating(otherEvent.ctx, { eventId: otherEvent.event.id, seatMapId: made.map.id, categories: [] })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a type that already sold general admission cannot sell a category (decision 237); re-saving a mapping whose units have seats is fine", async () => {
    const before = await createEventWithTickets([
      { name: "General", price: 500_000, stock: 50, maxPerOrder: 10 },
      { name: "Nueva", price: 500_000, stock: 1, maxPerOrder: 10 },
    ]);
    // Rows A and B only (Platea, 20 seats).
    const venue = venuePlan();
    const plateaOnly = { ...venue, categories: [{ name: "Platea" }], sections: [{ ...venue.sections[0], rows: venue.sections[0].rows.filter((r) => r.label !== "C") }] };
    const map = await saveSeatMap(before.ctx, { organizationId: before.organization.id, plan: plateaOnly });
    // Two paid and one held, sold as general admission before the map: no seat claimed for any of them.
    const paid = await createOrder(await ctxAs(), { eventSlug: before.event.slug, items: [{ ticketId: before.tickets.General.id, qty: 2 }], payer: payer(301), paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(await getDb(), paid.billing.id, "approved");
    await createOrder(await ctxAs(), { eventSlug: before.event.slug, items: [{ ticketId: before.tickets.General.id, qty: 1 }], payer: payer(302), paymentMethod: "MERCADO_PAGO" });
    const refused = setEventSeating(before.ctx, { eventId: before.event.id, seatMapId: map.id, categories: [{ category: "Platea", ticketTypeId: before.tickets.General.id }] });
    await expect(refused).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "El tipo «General» ya tiene 3 entradas vendidas o reservadas sin asiento: asigná el mapa a un tipo de entrada sin ventas.",
      fieldErrors: { "categories.0.ticketTypeId": ["El tipo «General» ya tiene 3 entradas vendidas o reservadas sin asiento: asigná el mapa a un tipo de entrada sin ventas."] },
    });
    // Nothing changed: no seating, the general stock as it was.
    await expect(getEventSeating(before.ctx, before.event.id, before.date.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await soldOf(before.tickets.General.id)).toEqual({ sold: 3, stock: 50 });
    // A type without sales takes the category.
    await setEventSeating(before.ctx, { eventId: before.event.id, seatMapId: map.id, categories: [{ category: "Platea", ticketTypeId: before.tickets.Nueva.id }] });
    expect(await soldOf(before.tickets.Nueva.id)).toEqual({ sold: 0, stock: 20 });

    // Re-saving the same mapping after seats were bought (one paid, one held): every unit has its seat.
    const fresh = await seatedEvent();
    const bought = await buySeats(fresh, ["A1", "A2"], 303);
    await payInSandbox(await getDb(), bought.billing.id, "approved");
    await buySeats(fresh, ["C1"], 304);
    const same = [
      { category: "Platea", ticketTypeId: fresh.tickets.Platea.id },
      { category: "VIP", ticketTypeId: fresh.tickets.VIP.id },
    ];
    await expect(setEventSeating(fresh.ctx, { eventId: fresh.event.id, seatMapId: fresh.map.id, categories: same })).resolves.toMatchObject({ seatMapId: fresh.map.id });
    expect(await soldOf(fresh.tickets.Platea.id)).toEqual({ sold: 2, stock: 20 });
    expect(await soldOf(fresh.tickets.VIP.id)).toEqual({ sold: 1, stock: 5 });
  });

  it("a seated ticket type is not sold without a seat", async () => {
    await expect(
      createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.Platea.id, qty: 1 }], payer: payer(1), paymentMethod: "MERCADO_PAGO" }),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { seats: ["Este evento tiene asientos numerados: elegilos en el mapa o pedí los mejores disponibles."] } });
    await expect(buySeats(made, ["Z9"])).rejects.toMatchObject({ code: "BAD_USER_INPUT", message: "Ese asiento no existe en el mapa de este evento. Elegí otro." });
  });
});

describe("holding, paying, expiring and refunding seats", () => {
  it("an order holds its seats at the seats' prices; paying sells them and each ticket carries its section, row and number", async () => {
    const { order, billing } = await buySeats(made, ["C2", "A5", "A6"]);
    expect(order.items.map((i) => [i.name, i.qty, i.unitPrice]).sort()).toEqual([
      ["Platea", 2, 1_000_000],
      ["VIP", 1, 2_000_000],
    ]);
    expect(await stateOf(made, "A5")).toBe("held");
    const db = await getDb();
    await payInSandbox(db, billing.id, "approved");
    expect(await stateOf(made, "A5")).toBe("sold");
    const tickets = await ticketsOfOrder(db, order.id);
    expect(tickets.map((t) => [t.ticketTypeId === made.tickets.VIP.id ? "VIP" : "Platea", t.seatSection, t.seatRow, t.seatNumber, t.seatGuid]).sort()).toEqual([
      ["Platea", "Platea", "A", "5", "A5"],
      ["Platea", "Platea", "A", "6", "A6"],
      ["VIP", "Platea", "C", "2", "C2"],
    ]);
  });

  it("sending a ticket to someone keeps its seat (the same ticket row)", async () => {
    const buyer = await createTestUser();
    const ctx = await ctxAs(actorFor({ ...buyer, roles: [] }));
    const { order, billing } = await createOrder(ctx, { eventSlug: made.event.slug, items: [], seats: ["B10"], payer: { ...payer(2), email: buyer.email }, paymentMethod: "MERCADO_PAGO" });
    const db = await getDb();
    await payInSandbox(db, billing.id, "approved");
    const [ticket] = await ticketsOfOrder(db, order.id);
    await transferTicket(ctx, { ticketId: ticket.id, firstName: "Juan", lastName: "Pérez", email: "juan@example.com" });
    const [after] = await ticketsOfOrder(db, order.id);
    expect(after).toMatchObject({ id: ticket.id, holderName: "Juan Pérez", seatGuid: "B10", seatSection: "Platea", seatRow: "B", seatNumber: "10" });
  });

  it("hold expiry frees the seats (and the stock) for the next buyer", async () => {
    const before = await soldOf(made.tickets.Platea.id);
    const { order } = await buySeats(made, ["B1", "B2"]);
    expect(await stateOf(made, "B1")).toBe("held");
    await expect(buySeats(made, ["B2"], 3)).rejects.toMatchObject({ code: "CONFLICT", reason: "SEAT_TAKEN", message: SEAT_TAKEN });
    expect(await expireOrder(await ctxAs(ANONYMOUS, new Date(Date.now() + 3600_000)), order.id)).toBe("expired");
    expect(await stateOf(made, "B1")).toBe("free");
    expect(await soldOf(made.tickets.Platea.id)).toEqual(before);
    const again = await buySeats(made, ["B2"], 4);
    expect(again.order.status).toBe("draft");
  });

  it("a blocked seat cannot be bought; released, it can", async () => {
    expect(await blockSeats(made.ctx, { eventId: made.event.id, eventDateId: made.date.id, seats: ["B7", "B8"], reason: "Cámara" })).toEqual(["B7", "B8"]);
    expect(await stateOf(made, "B7")).toBe("blocked");
    // The public map does not say why; the organizer's does.
    const organizerView = await getEventSeating(made.ctx, made.event.id, made.date.id);
    expect(organizerView.seats.find((s) => s.guid === "B7")).toEqual({ guid: "B7", state: "blocked", reason: "Cámara" });
    expect((await getEventSeating(await ctxAs(), made.event.id, made.date.id)).seats.find((s) => s.guid === "B7")?.reason).toBeNull();
    await expect(buySeats(made, ["B7"], 5)).rejects.toMatchObject({ code: "CONFLICT", reason: "SEAT_TAKEN", message: "Ese asiento no está a la venta. Elegí otro." });
    // A seat an order holds is not the organizer's to block or release.
    await expect(blockSeats(made.ctx, { eventId: made.event.id, eventDateId: made.date.id, seats: ["A5"] })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(releaseSeats(made.ctx, { eventId: made.event.id, eventDateId: made.date.id, seats: ["A5"] })).rejects.toMatchObject({ code: "CONFLICT" });
    const other = await createProducer();
    await expect(blockSeats(other.ctx, { eventId: made.event.id, eventDateId: made.date.id, seats: ["B9"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await releaseSeats(made.ctx, { eventId: made.event.id, eventDateId: made.date.id, seats: ["B7"] })).toEqual(["B7"]);
    expect((await buySeats(made, ["B7"], 6)).order.status).toBe("draft");
  });

  it.runIf(hasPostgresServer)("two refunds of the same order at once free its seat exactly once", async () => {
    const { order, billing } = await buySeats(made, ["A10"]);
    const db = await getDb();
    await payInSandbox(db, billing.id, "approved");
    const sold = await soldOf(made.tickets.Platea.id);
    const results = await Promise.all(
      [0, 1].map(() => db.transaction((tx) => refund(tx, billing.id, { reason: "prueba", now: new Date(), providerRefund: "none" }))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await stateOf(made, "A10")).toBe("free");
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ ...sold, sold: sold.sold - 1 });
    const claims = await db.select({ state: seatClaims.state }).from(seatClaims).where(eq(seatClaims.orderId, order.id));
    expect(claims).toEqual([{ state: "released" }]);
    const [ticket] = await ticketsOfOrder(db, order.id);
    expect(ticket).toMatchObject({ status: "voided", seatNumber: "10" });
    // The seat sells again.
    expect((await buySeats(made, ["A10"], 7)).order.status).toBe("draft");
  });

  it.runIf(hasPostgresServer)("a refund and a chargeback of the same payment at once free its seat exactly once", async () => {
    const { order, billing } = await buySeats(made, ["A9"], 13);
    const db = await getDb();
    await payInSandbox(db, billing.id, "approved");
    const sold = await soldOf(made.tickets.Platea.id);
    const results = await Promise.all([
      db.transaction((tx) => refund(tx, billing.id, { reason: "prueba", now: new Date(), providerRefund: "none" })),
      db.transaction((tx) => chargeBack(tx, billing.id, new Date())),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await stateOf(made, "A9")).toBe("free");
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ ...sold, sold: sold.sold - 1 });
    expect(await db.select({ state: seatClaims.state }).from(seatClaims).where(eq(seatClaims.orderId, order.id))).toEqual([{ state: "released" }]);
  });

  it("a payment that arrives after the hold expired gets the same seat back, or goes back when someone else has it", async () => {
    const db = await getDb();
    const late = new Date(Date.now() + 3600_000);
    const first = await buySeats(made, ["B3"], 8);
    expect(await expireOrder(await ctxAs(ANONYMOUS, late), first.order.id)).toBe("expired");
    await payInSandbox(db, first.billing.id, "approved", late);
    expect(await stateOf(made, "B3")).toBe("sold");
    expect((await ticketsOfOrder(db, first.order.id))[0]).toMatchObject({ seatRow: "B", seatNumber: "3" });

    const second = await buySeats(made, ["B4"], 9);
    expect(await expireOrder(await ctxAs(ANONYMOUS, late), second.order.id)).toBe("expired");
    const other = await buySeats(made, ["B4"], 10);
    await payInSandbox(db, second.billing.id, "approved", late);
    const [billing] = await db.select({ status: billings.status }).from(billings).where(eq(billings.id, second.billing.id));
    expect(billing.status).toBe("refunded");
    expect(await ticketsOfOrder(db, second.order.id)).toEqual([]);
    // The seat stays with the buyer who has it now.
    const claims = await db.select({ orderId: seatClaims.orderId }).from(seatClaims).where(and(eq(seatClaims.eventDateId, made.date.id), eq(seatClaims.seatGuid, "B4"), sql`${seatClaims.state} <> 'released'`));
    expect(claims).toEqual([{ orderId: other.order.id }]);
  });

  it("a resold ticket keeps its seat: the buyer's new ticket carries it, and refunding the buyer frees it", async () => {
    const db = await getDb();
    await setEventResale(made.ctx, { eventId: made.event.id, enabled: true, capPercent: 100, feePercent: 10 });
    const seller = await createTestUser();
    const sellerCtx = await ctxAs(actorFor({ ...seller, roles: [] }));
    const bought = await createOrder(sellerCtx, { eventSlug: made.event.slug, items: [], seats: ["C5"], payer: { ...payer(11), email: seller.email }, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, bought.billing.id, "approved");
    const [sellerTicket] = await ticketsOfOrder(db, bought.order.id);
    const listing = await listForResale(sellerCtx, { ticketId: sellerTicket.id, price: 2_000_000 });
    const started = await startCheckout(await ctxAs(), { eventSlug: "", items: [], payer: payer(12), resaleListingId: listing.id, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, started.billing.id, "approved");
    const [fresh] = await ticketsOfOrder(db, started.order.id);
    expect(fresh).toMatchObject({ status: "redeemable", seatGuid: "C5", seatSection: "Platea", seatRow: "C", seatNumber: "5" });
    expect(await stateOf(made, "C5")).toBe("sold");
    await db.transaction((tx) => refund(tx, started.billing.id, { reason: "prueba", now: new Date(), providerRefund: "none" }));
    expect(await stateOf(made, "C5")).toBe("free");
  });
});

describe.runIf(hasPostgresServer)("concurrency (PostgreSQL)", () => {
  it("200 buyers at once for the same 10 seats: each seat held once, everyone else SEAT_TAKEN, no faults", async () => {
    const rush = await seatedEvent();
    const seats = Array.from({ length: 10 }, (_, i) => `A${i + 1}`);
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => buySeats(rush, [seats[i % 10]], i)));
    const held = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(held).toHaveLength(10);
    for (const reason of refused) expect(reason).toMatchObject({ code: "CONFLICT", reason: "SEAT_TAKEN", message: SEAT_TAKEN });
    const db = await getDb();
    const claims = await db
      .select({ guid: seatClaims.seatGuid, orderId: seatClaims.orderId })
      .from(seatClaims)
      .where(and(eq(seatClaims.eventDateId, rush.date.id), sql`${seatClaims.state} <> 'released'`));
    expect(claims.map((c) => c.guid).sort()).toEqual([...seats].sort());
    expect(new Set(claims.map((c) => c.orderId)).size).toBe(10);
    expect(await soldOf(rush.tickets.Platea.id)).toEqual({ sold: 10, stock: 20 });
  }, 120_000);

  it("best available under a rush never hands out a taken or blocked seat, and keeps each order's seats together", async () => {
    const rush = await seatedEvent();
    await blockSeats(rush.ctx, { eventId: rush.event.id, eventDateId: rush.date.id, seats: ["A5", "A6"] });
    const buyers = await Promise.allSettled(
      Array.from({ length: 30 }, async (_, i) =>
        createOrder(await ctxAs(), { eventSlug: rush.event.slug, items: [], bestAvailable: { ticketTypeId: rush.tickets.Platea.id, quantity: 2 }, payer: payer(i), paymentMethod: "MERCADO_PAGO" }),
      ),
    );
    const held = buyers.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    // Best-available buyers wait for each other on the date's lock: nobody loses a race, they only run out.
    for (const r of buyers) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CONFLICT", message: "No quedan 2 asientos juntos en una misma fila de esa ubicación. Probá con menos o elegilos en el mapa." });
    const db = await getDb();
    const claims = await db
      .select({ guid: seatClaims.seatGuid, orderId: seatClaims.orderId, row: seatClaims.row, number: seatClaims.number })
      .from(seatClaims)
      .where(and(eq(seatClaims.eventDateId, rush.date.id), eq(seatClaims.state, "held")));
    // 18 free Platea seats: A1–A4 and A7–A10 (the blocked A5–A6 between them) and B1–B10, nine pairs, none left alone.
    expect(held).toHaveLength(9);
    expect(claims).toHaveLength(held.length * 2);
    expect(new Set(claims.map((c) => c.guid)).size).toBe(claims.length);
    expect(claims.some((c) => c.guid === "A5" || c.guid === "A6")).toBe(false);
    for (const { order } of held) {
      const mine = claims.filter((c) => c.orderId === order.id);
      expect(mine).toHaveLength(2);
      expect(mine[0].row).toBe(mine[1].row);
      expect(Math.abs(Number(mine[0].number) - Number(mine[1].number))).toBe(1);
    }
  }, 120_000);
});
