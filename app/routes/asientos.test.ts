import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { formatMoney } from "#common/money";
import { getDb } from "#server/db/client";
import { orders, seatClaims } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { saveSeatMap } from "#server/seating/maps";
import { setEventSeating } from "#server/seating/event-seating";
import { ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { BASE_URL, cookiesAfter, formRequest, getRequest, run } from "#tests/support/remix";
import * as seatsPage from "./asientos.$slug";
import * as payerInfo from "./checkout.payer-info.$eventSlug";
import * as eventPage from "./eventos.$slug";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** A small room: row A (Platea, 6 seats, A1 and A2 nearest the stage's middle… the rule decides) and row B (Pullman, 4). */
async function seatedNight() {
  const made = await createEventWithTickets([
    { name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 6 },
    { name: "Pullman", price: 600_000, stock: 1, maxPerOrder: 6 },
  ]);
  const row = (label: string, count: number, y: number, category: string) => ({
    label,
    seats: Array.from({ length: count }, (_, i) => ({ guid: `${label}${i + 1}`, number: String(i + 1), x: 20 + i * 20, y, category })),
  });
  const plan = {
    name: "Sala chica",
    size: { width: 200, height: 120 },
    categories: [{ name: "Platea", color: "#38bdf8" }, { name: "Pullman", color: "#f472b6" }],
    sections: [{ id: "sala", name: "Sala", kind: "numbered", rows: [row("A", 6, 40, "Platea"), row("B", 4, 80, "Pullman")] }],
    shapes: [{ text: "Escenario", x: 40, y: 0, width: 120, height: 20 }],
  };
  const map = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan });
  await setEventSeating(made.ctx, {
    eventId: made.event.id,
    seatMapId: map.id,
    categories: [
      { category: "Platea", ticketTypeId: made.tickets.Platea.id },
      { category: "Pullman", ticketTypeId: made.tickets.Pullman.id },
    ],
  });
  return made;
}

function seatsRequest(path: string, seats: string[], eventDateId: string, cookies: Record<string, string> = {}) {
  const body = new URLSearchParams({ eventDateId });
  for (const guid of seats) body.append("seats", guid);
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "198.51.100.10" });
  const cookie = Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join("; ");
  if (cookie) headers.set("cookie", cookie);
  return new Request(new URL(path, BASE_URL), { method: "POST", headers, body: body.toString() });
}

describe("/asientos/{slug}", () => {
  it("shows each seat's state and each location's final price; a general admission event has no map", async () => {
    const made = await seatedNight();
    await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [], seats: ["A3"], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    const page = await run(seatsPage.loader, getRequest(`/asientos/${made.event.slug}`), { slug: made.event.slug });
    expect(page.status).toBe(200);
    const states = Object.fromEntries(page.data.seats.map((s: { guid: string; state: string }) => [s.guid, s.state]));
    expect(states).toMatchObject({ A1: "free", A3: "held", B1: "free" });
    // The event charges a 10 % service fee: the final price is the first figure.
    expect(page.data.categories.map((c: { name: string; priceLabel: string; free: number }) => [c.name, c.priceLabel, c.free])).toEqual([
      ["Platea", formatMoney(1_100_000), 5],
      ["Pullman", formatMoney(660_000), 4],
    ]);

    const plain = await createEventWithTickets();
    const none = await run(seatsPage.loader, getRequest(`/asientos/${plain.event.slug}`), { slug: plain.event.slug }).catch((e: unknown) => e);
    expect((none as { init?: { status: number } }).init?.status ?? (none as { status: number }).status).toBe(404);
  });

  it("without JavaScript: best available proposes adjacent seats, then the payer form shows and holds them", async () => {
    const made = await seatedNight();
    const path = `/asientos/${made.event.slug}`;
    const params = { slug: made.event.slug };
    const proposal = await run(seatsPage.action, formRequest(path, { intent: "best", eventDateId: made.date.id, category: "Platea", quantity: "2" }), params);
    expect(proposal.status).toBe(200);
    const guids = proposal.data.proposal.map((s: { guid: string }) => s.guid);
    expect(guids).toHaveLength(2);
    expect(proposal.data.proposal[0].label).toMatch(/^Sala · Fila A · Asiento \d$/);
    const [a, b] = guids.map((g: string) => Number(g.slice(1)));
    expect(Math.abs(a - b)).toBe(1);

    const tooMany = await run(seatsPage.action, formRequest(path, { intent: "best", eventDateId: made.date.id, category: "Pullman", quantity: "5" }), params);
    expect(tooMany.status).toBe(400);
    expect(tooMany.data.errors.best[0]).toMatch(/No quedan 5 asientos juntos|Elegí entre 1 y/);

    const chosen = await run(seatsPage.action, seatsRequest(path, guids, made.date.id), params);
    expect(chosen.status).toBe(302);
    expect(chosen.location).toBe(`/checkout/payer-info/${made.event.slug}`);
    const jar = cookiesAfter(chosen);
    const payerPage = await run(payerInfo.loader, getRequest(chosen.location!, { cookies: jar }), { eventSlug: made.event.slug });
    expect(payerPage.data.seats).toEqual(guids.map((g: string) => `Sala · Fila A · Asiento ${g.slice(1)}`));
    expect(payerPage.data.items).toMatchObject([{ name: "Platea", qty: 2 }]);
    expect(payerPage.data.backTo).toBe(path);

    const sent = await run(payerInfo.action, formRequest(chosen.location!, PAYER, { cookies: jar }), { eventSlug: made.event.slug });
    expect(sent.status).toBe(302);
    const db = await getDb();
    const claims = await db.select().from(seatClaims).where(eq(seatClaims.eventDateId, made.date.id));
    expect(claims.map((c) => c.seatGuid).sort()).toEqual([...guids].sort());
    const [order] = await db.select().from(orders).where(eq(orders.id, claims[0].orderId!));
    expect(order.eventId).toBe(made.event.id);
  });

  it("a seat someone took meanwhile is refused at the payer form with the seat message, and nothing is held", async () => {
    const made = await seatedNight();
    const path = `/asientos/${made.event.slug}`;
    const chosen = await run(seatsPage.action, seatsRequest(path, ["B1", "B2"], made.date.id), { slug: made.event.slug });
    const jar = cookiesAfter(chosen);
    await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [], seats: ["B2"], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    const sent = await run(payerInfo.action, formRequest(chosen.location!, PAYER, { cookies: jar }), { eventSlug: made.event.slug });
    expect(sent.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(sent.data)).toContain("Alguien eligió ese asiento recién. Elegí otro.");
    const db = await getDb();
    const claims = await db.select().from(seatClaims).where(eq(seatClaims.eventDateId, made.date.id));
    expect(claims.map((c) => c.seatGuid)).toEqual(["B2"]);

    const unknown = await run(seatsPage.action, seatsRequest(path, ["Z9"], made.date.id), { slug: made.event.slug });
    expect(unknown.status).toBe(400);
    expect(unknown.data.errors.seats).toEqual(["Ese asiento no existe en el mapa de este evento. Elegí otro."]);
  });

  it("the event page sends to the map: the seated tickets show their price but no quantity, and the link goes to /asientos", async () => {
    const made = await seatedNight();
    const page = await run(eventPage.loader, getRequest(`/eventos/${made.event.slug}`), { slug: made.event.slug });
    expect(page.data.seatsHref).toBe(`/asientos/${made.event.slug}`);
    const platea = page.data.tickets.find((t: { name: string }) => t.name === "Platea");
    expect(platea).toMatchObject({ selectable: false, options: [], priceLabel: formatMoney(1_100_000), note: "Con asiento numerado: elegilo en el mapa." });

    const plain = await createEventWithTickets();
    const general = await run(eventPage.loader, getRequest(`/eventos/${plain.event.slug}`), { slug: plain.event.slug });
    expect(general.data.seatsHref).toBeUndefined();
    expect(general.data.tickets.every((t: { selectable: boolean }) => t.selectable)).toBe(true);
  });
});
