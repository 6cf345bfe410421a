import type { Ctx } from "#server/context";
import { ctxAs } from "./context";
import { createEventWithTickets } from "./factories";

/**
 * A published event with reserved seating for the outputs' tests (docs/seating.md): "Platea" sells row F of
 * the Platea section, seats 11 to 14 (guids "F11"…); "General" is not on the map (general admission).
 */
export async function createSeatedEvent(options: { name?: string; days?: number; startsAt?: Date; oneHolderPerTicket?: boolean } = {}) {
  const { saveSeatMap } = await import("#server/seating/maps");
  const { setEventSeating } = await import("#server/seating/event-seating");
  const made = await createEventWithTickets(
    [
      { name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 10 },
      { name: "General", price: 500_000, stock: 100, maxPerOrder: 10 },
    ],
    options,
  );
  const plan = {
    name: "Teatro de prueba",
    size: { width: 100, height: 40 },
    categories: [{ name: "Platea" }],
    sections: [
      {
        id: "platea",
        name: "Platea",
        kind: "numbered",
        rows: [{ label: "F", seats: [11, 12, 13, 14].map((n, i) => ({ guid: `F${n}`, number: String(n), x: i * 10, y: 10, category: "Platea" })) }],
      },
    ],
    shapes: [],
  };
  const map = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan });
  await setEventSeating(made.ctx, { eventId: made.event.id, seatMapId: map.id, categories: [{ category: "Platea", ticketTypeId: made.tickets.Platea.id }] });
  return { ...made, map };
}

export type SeatedEvent = Awaited<ReturnType<typeof createSeatedEvent>>;

export const seatPayer = (email = "sofia.pena@example.com") => ({ firstName: "Sofía", lastName: "Peña", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" });

/**
 * A paid order of the event: `seats` (guids of row F) or `general` general-admission tickets. Returns the
 * order, its approved billing and its issued tickets in issue order.
 */
export async function buyPaid(made: SeatedEvent, what: { seats?: string[]; general?: number; ctx?: Ctx; email?: string }) {
  const { createOrder } = await import("#server/orders/orders");
  const { payInSandbox } = await import("#server/payment-notifications/sandbox");
  const { ticketsOfOrder } = await import("#server/tickets/issue");
  const ctx = what.ctx ?? (await ctxAs());
  const { order, billing } = await createOrder(ctx, {
    eventSlug: made.event.slug,
    items: what.general ? [{ ticketId: made.tickets.General.id, qty: what.general }] : [],
    ...(what.seats ? { seats: what.seats } : {}),
    payer: seatPayer(what.email),
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(ctx.db, billing.id, "approved");
  return { order, billing, tickets: await ticketsOfOrder(ctx.db, order.id) };
}
