import { and, eq, ne } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { eventDates, eventSeating, memberships, seatClaims, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { saveSeatMap } from "#server/seating/maps";
import { createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { BASE_URL, formRequest, getRequest, run } from "#tests/support/remix";
import * as seatingPage from "./organizacion.eventos.$slug.asientos";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** Row A (Platea, 6 seats), row B (Pullman, 4) and a category without seats (Palco). */
function salaChica() {
  const row = (label: string, count: number, y: number, category: string) => ({
    label,
    seats: Array.from({ length: count }, (_, i) => ({ guid: `${label}${i + 1}`, number: String(i + 1), x: 20 + i * 20, y, category })),
  });
  return {
    name: "Sala chica",
    size: { width: 200, height: 120 },
    categories: [{ name: "Platea", color: "#38bdf8" }, { name: "Pullman", color: "#f472b6" }, { name: "Palco" }],
    sections: [{ id: "sala", name: "Sala", kind: "numbered", rows: [row("A", 6, 40, "Platea"), row("B", 4, 80, "Pullman")] }],
    shapes: [{ text: "Escenario", x: 40, y: 0, width: 120, height: 20 }],
  };
}

async function organizerWithMap() {
  const made = await createEventWithTickets([
    { name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 6 },
    { name: "Pullman", price: 600_000, stock: 1, maxPerOrder: 6 },
  ]);
  const map = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan: salaChica() });
  const cookies = await sessionCookiesFor(made.user.id);
  const url = `/organizacion/eventos/${made.event.slug}/asientos`;
  return { ...made, map, cookies, url };
}

type Organizer = Awaited<ReturnType<typeof organizerWithMap>>;

/** An HTML form post where several checkboxes share the name `seats`, as a browser sends it. */
function seatsForm(made: Organizer, fields: Record<string, string>, seats: string[]) {
  const body = new URLSearchParams({ eventDateId: made.date.id, ...fields });
  for (const guid of seats) body.append("seats", guid);
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", cookie: `at=${made.cookies.at}; rt=${made.cookies.rt}` });
  return new Request(new URL(made.url, BASE_URL), { method: "POST", headers, body: body.toString() });
}

async function assign(made: Organizer) {
  return run(
    seatingPage.action,
    formRequest(
      made.url,
      {
        intent: "assign",
        seatMapId: made.map.id,
        "categories[0].category": "Platea",
        "categories[0].ticketTypeId": made.tickets.Platea.id,
        "categories[1].category": "Pullman",
        "categories[1].ticketTypeId": made.tickets.Pullman.id,
        "categories[2].category": "Palco",
        "categories[2].ticketTypeId": "",
      },
      { cookies: made.cookies },
    ),
    { slug: made.event.slug },
  );
}

const stateOf = (page: { data: { live: { seats: { guid: string; state: string; reason: string | null }[] } } }, guid: string) => page.data.live.seats.find((s) => s.guid === guid);

describe("/organizacion/eventos/{slug}/asientos", () => {
  it("assigns a map from a plain form: a category with seats left unassigned is said next to its field, then the stock is the seats", async () => {
    const made = await organizerWithMap();
    const before = await run(seatingPage.loader, getRequest(made.url, { cookies: made.cookies }), { slug: made.event.slug });
    expect(before.status).toBe(200);
    expect(before.data.live).toBeNull();
    expect(before.data.currentMapName).toBeNull();
    // The form proposes the map and, by name, the ticket type of each category.
    expect(before.data.assignDefaults).toMatchObject({ seatMapId: made.map.id, "categories[0].ticketTypeId": made.tickets.Platea.id, "categories[1].ticketTypeId": made.tickets.Pullman.id, "categories[2].ticketTypeId": "" });

    const unassigned = await run(
      seatingPage.action,
      formRequest(
        made.url,
        { intent: "assign", seatMapId: made.map.id, "categories[0].category": "Platea", "categories[0].ticketTypeId": made.tickets.Platea.id, "categories[1].category": "Pullman", "categories[1].ticketTypeId": "" },
        { cookies: made.cookies },
      ),
      { slug: made.event.slug },
    );
    expect(unassigned.status).toBe(400);
    expect(unassigned.data.target).toBe("assign");
    expect(unassigned.data.errors["categories.1.ticketTypeId"]).toEqual(["Asigná la categoría «Pullman» a un tipo de entrada del evento."]);
    const db = await getDb();
    expect(await db.select().from(eventSeating).where(eq(eventSeating.eventId, made.event.id))).toEqual([]);

    const saved = await assign(made);
    expect(saved.status).toBe(302);
    const [row] = await db.select().from(eventSeating).where(eq(eventSeating.eventId, made.event.id));
    expect(row).toMatchObject({ seatMapId: made.map.id, categories: { Platea: made.tickets.Platea.id, Pullman: made.tickets.Pullman.id } });
    const [platea] = await db.select({ stock: ticketTypes.stock }).from(ticketTypes).where(eq(ticketTypes.id, made.tickets.Platea.id));
    expect(platea.stock).toBe(6);

    const after = await run(seatingPage.loader, getRequest(made.url, { cookies: made.cookies }), { slug: made.event.slug });
    expect(after.data.currentMapName).toBe("Sala chica");
    expect(after.data.seatedTypes).toEqual([
      expect.objectContaining({ name: "Platea", seats: 6, stock: 6, sold: 0 }),
      expect.objectContaining({ name: "Pullman", seats: 4, stock: 4, sold: 0 }),
    ]);
    expect(after.data.live.counts).toEqual({ free: 10, held: 0, sold: 0, blocked: 0 });
    expect(after.data.live.seats).toHaveLength(10);
  });

  it("blocks chosen seats with a reason and releases them; the counts follow", async () => {
    const made = await organizerWithMap();
    await assign(made);

    const none = await run(seatingPage.action, seatsForm(made, { intent: "block" }, []), { slug: made.event.slug });
    expect(none.status).toBe(400);
    expect(none.data.errors.seats).toEqual(["Elegí al menos un asiento"]);

    const blocked = await run(seatingPage.action, seatsForm(made, { intent: "block", reason: "Prensa", reasonDetail: "cámara 2" }, ["A1", "A2", "B4"]), { slug: made.event.slug });
    expect(blocked.status).toBe(302);
    let page = await run(seatingPage.loader, getRequest(made.url, { cookies: made.cookies }), { slug: made.event.slug });
    expect(page.data.live.counts).toEqual({ free: 7, held: 0, sold: 0, blocked: 3 });
    expect(stateOf(page, "A1")).toMatchObject({ state: "blocked", reason: "Prensa: cámara 2" });

    const released = await run(seatingPage.action, seatsForm(made, { intent: "release" }, ["A1", "B4"]), { slug: made.event.slug });
    expect(released.status).toBe(302);
    page = await run(seatingPage.loader, getRequest(made.url, { cookies: made.cookies }), { slug: made.event.slug });
    expect(page.data.live.counts).toEqual({ free: 9, held: 0, sold: 0, blocked: 1 });
    expect(stateOf(page, "A1")).toMatchObject({ state: "free", reason: null });
    expect(stateOf(page, "A2")).toMatchObject({ state: "blocked", reason: "Prensa: cámara 2" });
  });

  it("refuses to block a seat someone is buying, in Spanish, and blocks none of the others (all or nothing)", async () => {
    const made = await organizerWithMap();
    await assign(made);
    await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [], seats: ["A3"], payer: PAYER, paymentMethod: "MERCADO_PAGO" });

    const page = await run(seatingPage.loader, getRequest(made.url, { cookies: made.cookies }), { slug: made.event.slug });
    expect(page.data.live.counts).toEqual({ free: 9, held: 1, sold: 0, blocked: 0 });

    const refused = await run(seatingPage.action, seatsForm(made, { intent: "block", reason: "Producción" }, ["A2", "A3", "A4"]), { slug: made.event.slug });
    expect(refused.status).toBe(400);
    expect(refused.data.errors.seats).toEqual(["Ese asiento ya está vendido, reservado o bloqueado."]);
    expect(refused.data.snackbar.message).toBe("Ese asiento ya está vendido, reservado o bloqueado. (Sala, fila A, asiento 3)");
    // What was chosen comes back, so the organizer can take A3 out and try again.
    expect(refused.data.values.seats).toBe("A2,A3,A4");
    const db = await getDb();
    const live = await db.select().from(seatClaims).where(and(eq(seatClaims.eventDateId, made.date.id), ne(seatClaims.state, "released")));
    expect(live.map((c) => [c.seatGuid, c.state])).toEqual([["A3", "held"]]);

    // Nor is it released from here.
    const release = await run(seatingPage.action, seatsForm(made, { intent: "release" }, ["A3"]), { slug: made.event.slug });
    expect(release.status).toBe(400);
    expect(release.data.errors.seats).toEqual(["Ese asiento está vendido o reservado por una compra: no se puede liberar desde acá."]);
  });

  it("with several dates, shows and blocks the seats of the date chosen; the others stay as they were", async () => {
    const made = await organizerWithMap();
    const db = await getDb();
    const [second] = await db
      .insert(eventDates)
      .values({ eventId: made.event.id, startsAt: new Date(made.date.startsAt.getTime() + 7 * 86_400_000), endsAt: new Date(made.date.endsAt.getTime() + 7 * 86_400_000) })
      .returning();
    await assign(made);
    const first = await run(seatingPage.loader, getRequest(made.url, { cookies: made.cookies }), { slug: made.event.slug });
    expect(first.data.dates.map((d: { value: string }) => d.value)).toEqual([made.date.id, second.id]);
    expect(first.data.eventDateId).toBe(made.date.id);

    const body = new URLSearchParams({ intent: "block", eventDateId: second.id, reason: "Accesibilidad" });
    body.append("seats", "B1");
    const blocked = await run(
      seatingPage.action,
      new Request(new URL(`${made.url}?fecha=${second.id}`, BASE_URL), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: `at=${made.cookies.at}; rt=${made.cookies.rt}` }, body: body.toString() }),
      { slug: made.event.slug },
    );
    expect(blocked.status).toBe(302);
    expect(blocked.location).toContain(`fecha=${second.id}`);
    const onSecond = await run(seatingPage.loader, getRequest(`${made.url}?fecha=${second.id}`, { cookies: made.cookies }), { slug: made.event.slug });
    expect(onSecond.data.eventDateId).toBe(second.id);
    expect(onSecond.data.live.counts).toEqual({ free: 9, held: 0, sold: 0, blocked: 1 });
    expect(stateOf(onSecond, "B1")).toMatchObject({ state: "blocked", reason: "Accesibilidad" });
    const onFirst = await run(seatingPage.loader, getRequest(made.url, { cookies: made.cookies }), { slug: made.event.slug });
    expect(onFirst.data.live.counts).toEqual({ free: 10, held: 0, sold: 0, blocked: 0 });
  });

  it("a member of the organization whose role does not manage events is refused (403)", async () => {
    const made = await organizerWithMap();
    const marketer = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: made.organization.id, userId: marketer.id, role: "marketing" });
    const cookies = await sessionCookiesFor(marketer.id);
    const seen = await run(seatingPage.loader, getRequest(made.url, { cookies }), { slug: made.event.slug });
    expect(seen.status).toBe(403);
  });

  it("another organization's event does not exist for its producer (404), and posting changes nothing", async () => {
    const made = await organizerWithMap();
    await assign(made);
    const other = await createProducer();
    const cookies = await sessionCookiesFor(other.user.id);
    const seen = await run(seatingPage.loader, getRequest(made.url, { cookies }), { slug: made.event.slug });
    expect(seen.status).toBe(404);
    expect(JSON.stringify(seen.data)).not.toContain("Sala chica");
    const body = new URLSearchParams({ intent: "block", eventDateId: made.date.id, seats: "A1" });
    const post = await run(
      seatingPage.action,
      new Request(new URL(made.url, BASE_URL), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: `at=${cookies.at}; rt=${cookies.rt}` }, body: body.toString() }),
      { slug: made.event.slug },
    );
    expect(post.status).toBe(404);
    const db = await getDb();
    expect(await db.select().from(seatClaims).where(eq(seatClaims.eventDateId, made.date.id))).toEqual([]);
  });
});
