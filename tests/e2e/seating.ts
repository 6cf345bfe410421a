import type { Factory } from "./fixtures";

type MadeEvent = Awaited<ReturnType<Factory["event"]>>;

/**
 * Seats the event's "Platea" (row A, 8 seats) and, when it has one, its "Pullman" (row B, 6) on a small room with
 * the stage on top, through the domain; returns the map's id.
 */
export async function seatTheEvent(event: MadeEvent): Promise<string> {
  const [{ actorFor, ctxAs }, { saveSeatMap }, { setEventSeating }] = await Promise.all([
    import("#tests/support/context"),
    import("#server/seating/maps"),
    import("#server/seating/event-seating"),
  ]);
  const ctx = await ctxAs(actorFor(event.owner));
  const row = (label: string, count: number, y: number, category: string) => ({
    label,
    seats: Array.from({ length: count }, (_, i) => ({ guid: `${label}${i + 1}`, number: String(i + 1), x: 20 + i * 24, y, category })),
  });
  const withPullman = Boolean(event.tickets.Pullman);
  const map = await saveSeatMap(ctx, {
    organizationId: event.organizationId,
    plan: {
      name: "Sala chica",
      size: { width: 220, height: 130 },
      categories: [{ name: "Platea", color: "#38bdf8" }, ...(withPullman ? [{ name: "Pullman", color: "#f472b6" }] : [])],
      sections: [{ id: "sala", name: "Sala", kind: "numbered", rows: [row("A", 8, 50, "Platea"), ...(withPullman ? [row("B", 6, 95, "Pullman")] : [])] }],
      shapes: [{ text: "Escenario", x: 50, y: 0, width: 120, height: 24 }],
    },
  });
  await setEventSeating(ctx, {
    eventId: event.eventId,
    seatMapId: map.id,
    categories: [
      { category: "Platea", ticketTypeId: event.tickets.Platea.id },
      ...(withPullman ? [{ category: "Pullman", ticketTypeId: event.tickets.Pullman.id }] : []),
    ],
  });
  return map.id;
}

/** An event of its own with Platea and Pullman sold by seat. */
export async function seatedEvent(factory: Factory) {
  const event = await factory.event({
    name: `Función con asientos ${factory.uniqueWord()}`,
    ticketTypes: [
      { name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 6 },
      { name: "Pullman", price: 600_000, stock: 1, maxPerOrder: 6 },
    ],
  });
  await seatTheEvent(event);
  return event;
}
