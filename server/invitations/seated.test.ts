import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { orders, seatClaims, ticketTypes, type IssuedProductRow } from "#server/db/schema";
import { saveSeatMap } from "#server/seating/maps";
import { setEventSeating } from "#server/seating/event-seating";
import { createPromoterGroup, invitePromoter } from "#server/team/promoter-groups";
import { acceptInvitation, TEAM_INVITATION_EMAIL_KIND } from "#server/team/team";
import { ticketsOfOrder } from "#server/tickets/issue";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets } from "#tests/support/factories";
import { lastEmailTo } from "#tests/support/mailbox";
import { randomTag } from "#tests/support/random";
import { GIVEAWAY_MESSAGES, listGiveawayRows, previewGiveaway, runGiveaway, startGiveaway } from "./giveaways";
import { revokeInvitation, sendInvitation } from "./invitations";
import { sellTicketsInHand } from "./sales-in-hand";

/*
 * Reserved seating on the paths that issue tickets without createOrder (docs/seating.md, decision 236):
 * invitations, giveaways and promoters' sales in hand take the best seats together, in the transaction that
 * takes the stock, and a revoked invitation gives its seats back once.
 */

const NOT_TOGETHER = (n: number) => `No quedan ${n} asientos juntos en una misma fila de esa ubicación. Probá con menos o elegilos en el mapa.`;

/** Platea: rows A and B of `perRow` seats (A nearest the stage); RRPP: row R of 4, sold in hand. General is not on the map. */
async function seatedEvent(perRow = 10) {
  const made = await createEventWithTickets([
    { name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 10 },
    { name: "RRPP", price: 700_000, stock: 1, paymentMethod: "PromoterAccount" },
    { name: "General", price: 500_000, stock: 100, maxPerOrder: 10 },
  ]);
  const row = (label: string, count: number, y: number, category: string) => ({
    label,
    seats: Array.from({ length: count }, (_, i) => ({ guid: `${label}${i + 1}`, number: String(i + 1), x: i * 10, y, category })),
  });
  const plan = {
    name: "Sala de prueba",
    size: { width: 200, height: 100 },
    categories: [{ name: "Platea" }, { name: "RRPP" }],
    sections: [{ id: "platea", name: "Platea", kind: "numbered", rows: [row("A", perRow, 10, "Platea"), row("B", perRow, 20, "Platea"), row("R", 4, 40, "RRPP")] }],
    shapes: [],
  };
  const map = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan });
  await setEventSeating(made.ctx, {
    eventId: made.event.id,
    seatMapId: map.id,
    categories: [
      { category: "Platea", ticketTypeId: made.tickets.Platea.id },
      { category: "RRPP", ticketTypeId: made.tickets.RRPP.id },
    ],
  });
  return made;
}

async function tokenOfLastInvitation(email: string): Promise<string> {
  const mail = await lastEmailTo(email, TEAM_INVITATION_EMAIL_KIND);
  return /\/organizacion\/operadores\/aceptar\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
}

type Seated = Awaited<ReturnType<typeof seatedEvent>>;

const invite = (made: Seated, qty: number, ticket: "Platea" | "General" = "Platea") =>
  sendInvitation(made.ctx, { eventId: made.event.id, ticketTypeId: made.tickets[ticket].id, email: `invitada-${randomTag(8)}@example.com`, firstName: "Julieta", lastName: "Venegas", qty });

async function tickets(orderId: string) {
  return ticketsOfOrder(await getDb(), orderId);
}

/** The tickets' seats are N consecutive seats of one row (numbers in a row, no gap). */
function expectTogether(issued: IssuedProductRow[]) {
  const rows = new Set(issued.map((t) => t.seatRow));
  expect(rows.size).toBe(1);
  const numbers = issued.map((t) => Number(t.seatNumber)).sort((a, b) => a - b);
  expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1)).toBe(true);
  expect(issued.every((t) => t.seatGuid && t.seatSection === "Platea")).toBe(true);
}

async function claimsOf(orderId: string) {
  const db = await getDb();
  return db.select().from(seatClaims).where(eq(seatClaims.orderId, orderId));
}

async function soldOf(id: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold, stock: ticketTypes.stock }).from(ticketTypes).where(eq(ticketTypes.id, id));
  return row;
}

describe("an invitation of a seated ticket type", () => {
  it("takes the best seats together, sold, printed on the tickets; revoking frees them once", async () => {
    const made = await seatedEvent();
    const order = await invite(made, 3);
    const issued = await tickets(order.id);
    expect(issued).toHaveLength(3);
    expectTogether(issued);
    // The front row's centre.
    expect(issued.map((t) => t.seatGuid).sort()).toEqual(["A4", "A5", "A6"]);
    expect((await claimsOf(order.id)).map((c) => c.state)).toEqual(["sold", "sold", "sold"]);
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ sold: 3, stock: 20 });

    // The next invitation does not get those seats.
    const next = await invite(made, 2);
    const nextSeats = (await tickets(next.id)).map((t) => t.seatGuid!);
    expect(nextSeats.some((g) => ["A4", "A5", "A6"].includes(g))).toBe(false);

    // Revoked: the seats go back on sale with the stock, once.
    await revokeInvitation(made.ctx, order.id);
    await expect(revokeInvitation(made.ctx, order.id)).rejects.toMatchObject({ code: "CONFLICT" });
    const claims = await claimsOf(order.id);
    expect(claims.map((c) => c.state)).toEqual(["released", "released", "released"]);
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ sold: 2, stock: 20 });
    // Free again: the next invitation of 3 gets the same best seats.
    const again = await invite(made, 3);
    expect((await tickets(again.id)).map((t) => t.seatGuid).sort()).toEqual(["A4", "A5", "A6"]);
  });

  it("refuses more than fit together in one row with bestAvailable's message, writing nothing", async () => {
    const made = await seatedEvent(4);
    await invite(made, 3);
    await invite(made, 3);
    // Rows A and B each have one seat left: 2 together do not exist, 1 does.
    const refused = await invite(made, 2).catch((e) => e);
    expect(refused).toMatchObject({ code: "CONFLICT", message: NOT_TOGETHER(2), fieldErrors: { qty: [NOT_TOGETHER(2)] } });
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ sold: 6, stock: 8 });
    const db = await getDb();
    expect(await db.select().from(orders).where(eq(orders.eventId, made.event.id))).toHaveLength(2);
    const one = await invite(made, 1);
    expect(await tickets(one.id)).toMatchObject([{ seatRow: expect.any(String), seatGuid: expect.any(String) }]);
  });

  it("a general admission ticket type of the same event is issued as before, without a seat", async () => {
    const made = await seatedEvent();
    const order = await invite(made, 2, "General");
    const issued = await tickets(order.id);
    expect(issued).toHaveLength(2);
    expect(issued.every((t) => t.seatGuid === null && t.seatRow === null)).toBe(true);
    expect(await claimsOf(order.id)).toEqual([]);
    expect(await soldOf(made.tickets.General.id)).toMatchObject({ sold: 2 });
  });
});

describe("a giveaway of a seated ticket type", () => {
  it("sends each row its seats together; a row that does not fit together fails with the message and the rest go on", async () => {
    const made = await seatedEvent(4);
    const tag = randomTag(6);
    const csv = [
      "email,nombre,apellido,dni,cantidad,tipo de entrada",
      `ana-${tag}@example.com,Ana,Gómez,,3,Platea`,
      `beto-${tag}@example.com,Beto,Pérez,,3,Platea`,
      `caro-${tag}@example.com,Caro,Díaz,,2,Platea`,
      `dani-${tag}@example.com,Dani,Ruiz,,2,General`,
    ].join("\n");
    const giveaway = await previewGiveaway(made.ctx, { eventId: made.event.id, csv });
    await startGiveaway(made.ctx, giveaway.id);
    await runGiveaway(await getDb(), giveaway.id, new Date());
    const rows = (await listGiveawayRows(made.ctx, { giveawayId: giveaway.id })).items;
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "failed", "sent"]);
    expect(rows[2].error).toBe(NOT_TOGETHER(2));
    expect(rows[2].error).not.toBe(GIVEAWAY_MESSAGES.notEnough("Platea", 2));
    const ana = await tickets(rows[0].orderId!);
    const beto = await tickets(rows[1].orderId!);
    expectTogether(ana);
    expectTogether(beto);
    expect(ana[0].seatRow).not.toBe(beto[0].seatRow);
    expect((await tickets(rows[3].orderId!)).every((t) => t.seatGuid === null)).toBe(true);
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ sold: 6, stock: 8 });
  });
});

describe("a promoter's sale in hand of a seated ticket type", () => {
  it("takes the best seats together at the ticket type's price", async () => {
    const made = await seatedEvent();
    const group = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Calle" });
    const user = await createTestUser();
    await invitePromoter(made.ctx, { groupId: group.id, who: user.email, lead: false });
    const promoterCtx = await ctxAs(actorFor({ ...user, roles: [] }));
    await acceptInvitation(promoterCtx, await tokenOfLastInvitation(user.email), { nickname: `rrpp.${randomTag(6)}` });
    const sale = { organizationId: made.organization.id, ticketTypeId: made.tickets.RRPP.id, email: "efectivo@example.com", firstName: "Lola", lastName: "Mora" };
    const order = await sellTicketsInHand(promoterCtx, { ...sale, qty: 2 });
    expect(order).toMatchObject({ paymentMethod: "PROMOTER", subtotal: 1_400_000, status: "billed" });
    const issued = await tickets(order.id);
    // Not R2 and R3: that would leave R1 and R4 alone.
    expect(issued.map((t) => t.seatGuid).sort()).toEqual(["R1", "R2"]);
    expect(await soldOf(made.tickets.RRPP.id)).toEqual({ sold: 2, stock: 4 });
    // R3 and R4 are left: three together are refused, two are sold.
    await expect(sellTicketsInHand(promoterCtx, { ...sale, qty: 3 })).rejects.toMatchObject({ code: "CONFLICT", fieldErrors: { qty: [NOT_TOGETHER(3)] } });
    const two = await sellTicketsInHand(promoterCtx, { ...sale, qty: 2 });
    expect((await tickets(two.id)).map((t) => t.seatGuid).sort()).toEqual(["R3", "R4"]);
    expect(await soldOf(made.tickets.RRPP.id)).toEqual({ sold: 4, stock: 4 });
  });
});

describe.runIf(hasPostgresServer)("seated invitations at once", () => {
  it("never give one seat to two invitations, and each gets its seats together", async () => {
    const made = await seatedEvent();
    // 9 invitations of 2 for 20 seats in two rows of 10: each row fits 5 pairs.
    const sent = await Promise.allSettled(Array.from({ length: 9 }, () => invite(made, 2)));
    const ok = sent.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failures = sent.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
    expect(failures).toEqual([]);
    const seats: string[] = [];
    for (const order of ok) {
      const issued = await tickets(order.id);
      expectTogether(issued);
      seats.push(...issued.map((t) => t.seatGuid!));
    }
    expect(seats).toHaveLength(18);
    expect(new Set(seats).size).toBe(18);
    const db = await getDb();
    const live = await db.select().from(seatClaims).where(and(eq(seatClaims.eventDateId, made.date.id), eq(seatClaims.state, "sold")));
    expect(live).toHaveLength(18);
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ sold: 18, stock: 20 });

    // Two revokes of one invitation at once: its seats are released once and its stock comes back once.
    const [first] = ok;
    const revokes = await Promise.allSettled([revokeInvitation(made.ctx, first.id), revokeInvitation(made.ctx, first.id)]);
    expect(revokes.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await claimsOf(first.id)).map((c) => c.state)).toEqual(["released", "released"]);
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ sold: 16, stock: 20 });
  });

  it("invitations and buyers (best available or their own seats) at once: no seat twice, no deadlock, only CONFLICTs", async () => {
    const made = await seatedEvent();
    const { createOrder } = await import("#server/orders/orders");
    const payer = (i: number) => ({ firstName: "Sofía", lastName: "Peña", email: `comprador${i}@example.com`, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" });
    const buyer = async (i: number, what: { seats?: string[]; best?: number }) =>
      createOrder(await ctxAs(), {
        eventSlug: made.event.slug,
        items: [],
        ...(what.seats ? { seats: what.seats } : { bestAvailable: { ticketTypeId: made.tickets.Platea.id, quantity: what.best! } }),
        payer: payer(i),
        paymentMethod: "MERCADO_PAGO",
      });
    const work: Promise<{ id: string }>[] = [];
    for (let i = 0; i < 5; i++) {
      work.push(invite(made, 2));
      work.push(buyer(i, { best: 2 }).then((r) => r.order));
      // Buyers who chose the front row's centre on the map: they race the best-available pickers.
      work.push(buyer(100 + i, { seats: [`A${4 + (i % 3)}`, `A${5 + (i % 3)}`] }).then((r) => r.order));
    }
    const settled = await Promise.allSettled(work);
    const unexpected = settled.flatMap((s) => (s.status === "rejected" && (s.reason as { code?: string }).code !== "CONFLICT" ? [s.reason] : []));
    expect(unexpected).toEqual([]);
    const db = await getDb();
    const live = await db.select().from(seatClaims).where(and(eq(seatClaims.eventDateId, made.date.id), eq(seatClaims.state, "sold")));
    const held = await db.select().from(seatClaims).where(and(eq(seatClaims.eventDateId, made.date.id), eq(seatClaims.state, "held")));
    const guids = [...live, ...held].map((c) => c.seatGuid);
    expect(new Set(guids).size).toBe(guids.length);
    // Every order that got through has its 2 seats; the stock counts exactly the live seats.
    const placed = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.id] : []));
    for (const id of placed) expect(await claimsOf(id)).toHaveLength(2);
    expect(guids).toHaveLength(placed.length * 2);
    expect(await soldOf(made.tickets.Platea.id)).toEqual({ sold: guids.length, stock: 20 });
  });
});
