import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { createEventWithTickets } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

/** Reserved seating over GraphQL, as an integrator uses it (docs/api.md, docs/seating.md). */

const PLAN = {
  name: "Sala Chica",
  size: { width: 100, height: 50 },
  categories: [{ name: "Platea", color: "#1d4ed8" }],
  sections: [
    {
      id: "s1",
      name: "Platea",
      kind: "numbered",
      rows: [{ label: "A", seats: Array.from({ length: 6 }, (_, i) => ({ guid: `a-${i + 1}`, number: String(i + 1), x: i * 10, y: 10, category: "Platea" })) }],
    },
  ],
};

const payer = { firstName: "Joaquín", lastName: "Muñoz", email: "joaco@example.com", documentType: "dni", documentNumber: "30.123.456", phoneNumber: "+54 9 11 5555-1234" };

const SAVE = `mutation($input: SaveSeatMapInput!) { saveSeatMap(input: $input) { id name version plan } }`;
const SET = `mutation($input: SetEventSeatingInput!) { setEventSeating(input: $input) { eventId categories { category ticketTypeId } seats { guid state } } }`;
const SEATING = `query($eventId: ID!, $dateId: ID!) { eventSeating(eventId: $eventId, dateId: $dateId) { map { name plan } seats { guid state reason } } }`;
const CREATE = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { id items { ticketId qty } } } }`;
const BLOCK = `mutation($input: SeatsOfDateInput!) { blockSeats(input: $input) }`;

describe("reserved seating over GraphQL", () => {
  it("an organizer saves a map and seats an event; buyers pick seats or the best ones, and a taken seat is SEAT_TAKEN", async () => {
    const made = await createEventWithTickets([{ name: "Platea", price: 1_000_000, stock: 1 }]);
    const tokens = await startSession(await getDb(), { ...made.user, roles: ["producer"] }, new Date());

    const saved = await gql<{ saveSeatMap: { id: string; version: number; plan: typeof PLAN } }>(SAVE, { tokens, variables: { input: { organizationId: made.organization.id, plan: PLAN } } });
    expect(saved.body.errors).toBeUndefined();
    const map = saved.body.data!.saveSeatMap;
    expect(map).toMatchObject({ version: 1, plan: { name: "Sala Chica" } });

    const bad = await gql(SAVE, { tokens, variables: { input: { organizationId: made.organization.id, plan: { ...PLAN, categories: [] } } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors?.[0].message).toBe("La categoría «Platea» no está en el mapa.");
    // Without a session nothing is saved.
    expect(errorCode(await gql(SAVE, { variables: { input: { organizationId: made.organization.id, plan: PLAN } } }))).toBe("UNAUTHENTICATED");

    const set = await gql<{ setEventSeating: { seats: { guid: string; state: string }[] } }>(SET, {
      tokens,
      variables: { input: { eventId: made.event.id, seatMapId: map.id, categories: [{ category: "Platea", ticketTypeId: made.tickets.Platea.id }] } },
    });
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data!.setEventSeating.seats).toHaveLength(6);

    const blocked = await gql<{ blockSeats: string[] }>(BLOCK, { tokens, variables: { input: { eventId: made.event.id, eventDateId: made.date.id, seats: ["a-6"], reason: "Consola de sonido" } } });
    expect(blocked.body.data?.blockSeats).toEqual(["a-6"]);

    const mine = await gql<{ createOrder: { billingId: string; order: { id: string; items: { qty: number }[] } } }>(CREATE, {
      variables: { input: { eventSlug: made.event.slug, items: [], seats: ["a-3"], payer, paymentMethod: "MERCADO_PAGO" } },
    });
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data!.createOrder.order.items).toEqual([{ ticketId: made.tickets.Platea.id, qty: 1 }]);

    const again = await gql(CREATE, { variables: { input: { eventSlug: made.event.slug, items: [], seats: ["a-3"], payer, paymentMethod: "MERCADO_PAGO" } } });
    expect(again.body.errors?.[0]).toMatchObject({ message: "Alguien eligió ese asiento recién. Elegí otro.", extensions: { code: "CONFLICT", reason: "SEAT_TAKEN" } });
    const blockedSeat = await gql(CREATE, { variables: { input: { eventSlug: made.event.slug, items: [], seats: ["a-6"], payer, paymentMethod: "MERCADO_PAGO" } } });
    expect(blockedSeat.body.errors?.[0]).toMatchObject({ message: "Ese asiento no está a la venta. Elegí otro.", extensions: { code: "CONFLICT", reason: "SEAT_TAKEN" } });

    // Best available: a-3 held and a-6 blocked leave a-1, a-2 and a-4, a-5: two together, never a-3.
    const best = await gql<{ createOrder: { order: { id: string } } }>(CREATE, {
      variables: { input: { eventSlug: made.event.slug, items: [], bestAvailable: { ticketTypeId: made.tickets.Platea.id, quantity: 2 }, payer, paymentMethod: "MERCADO_PAGO" } },
    });
    expect(best.body.errors).toBeUndefined();
    const three = await gql(CREATE, { variables: { input: { eventSlug: made.event.slug, items: [], bestAvailable: { ticketTypeId: made.tickets.Platea.id, quantity: 3 }, payer, paymentMethod: "MERCADO_PAGO" } } });
    expect(three.body.errors?.[0]).toMatchObject({ message: "No quedan 3 asientos juntos en una misma fila de esa ubicación. Probá con menos o elegilos en el mapa.", extensions: { code: "CONFLICT" } });

    // The public map: states, no organizer reasons.
    const view = await gql<{ eventSeating: { seats: { guid: string; state: string; reason: string | null }[] } }>(SEATING, { variables: { eventId: made.event.id, dateId: made.date.id } });
    const states = Object.fromEntries(view.body.data!.eventSeating.seats.map((s) => [s.guid, s.state]));
    expect(states["a-3"]).toBe("held");
    expect(states["a-6"]).toBe("blocked");
    expect(Object.values(states).filter((s) => s === "held")).toHaveLength(3);
    expect(view.body.data!.eventSeating.seats.every((s) => s.reason === null)).toBe(true);

    // Paid: the ticket carries the seat.
    await payInSandbox(await getDb(), mine.body.data!.createOrder.billingId, "approved");
    const [ticket] = await ticketsOfOrder(await getDb(), mine.body.data!.createOrder.order.id);
    expect(ticket).toMatchObject({ seatSection: "Platea", seatRow: "A", seatNumber: "3" });
  });
});
