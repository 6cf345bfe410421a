import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { seatClaims, ticketTypes, users, waitlistOffers } from "#server/db/schema";
import { claimWaitlistOffer } from "#server/orders/waitlist-claim";
import { createOrder, expireOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { saveSeatMap } from "#server/seating/maps";
import { setEventSeating } from "#server/seating/event-seating";
import { ticketsOfOrder } from "#server/tickets/issue";
import { actorFor, ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { runReturnedTickets } from "./offers";
import { joinWaitlist, setEventWaitlist } from "./waitlist";

/*
 * The waiting list of a seated ticket type (docs/seating.md, decision 236): claiming an offer gives the
 * claimant the best seats for the quantity offered — together when there are, else the best single ones.
 */

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000);

/** Platea: row A of 4 seats, all held or sold by two orders (`first` takes `firstSeats`); the waiting list on. */
async function soldOutSeated(firstSeats: string[], otherSeats: string[]) {
  const made = await createEventWithTickets([{ name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 10 }]);
  const plan = {
    name: "Sala chica",
    size: { width: 100, height: 40 },
    categories: [{ name: "Platea" }],
    sections: [{ id: "platea", name: "Platea", kind: "numbered", rows: [{ label: "A", seats: [1, 2, 3, 4].map((n, i) => ({ guid: `A${n}`, number: String(n), x: i * 10, y: 10, category: "Platea" })) }] }],
    shapes: [],
  };
  const map = await saveSeatMap(made.ctx, { organizationId: made.organization.id, plan });
  await setEventSeating(made.ctx, { eventId: made.event.id, seatMapId: map.id, categories: [{ category: "Platea", ticketTypeId: made.tickets.Platea.id }] });
  const now = new Date();
  const buy = async (seats: string[]) => createOrder(await ctxAs(undefined, now), { eventSlug: made.event.slug, items: [], seats, payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  const first = await buy(firstSeats);
  const other = await buy(otherSeats);
  const db = await getDb();
  await payInSandbox(db, other.billing.id, "approved");
  await setEventWaitlist({ ...made.ctx, now }, { eventId: made.event.id, enabled: true });
  return { ...made, first, now };
}

async function person(now: Date): Promise<{ ctx: Ctx; email: string }> {
  const db = await getDb();
  const [user] = await db.insert(users).values({ email: `espera-${randomTag(8)}@example.com`, firstName: "Ana", lastName: "Gómez" }).returning();
  return { ctx: await ctxAs(actorFor({ ...user, roles: [] }), now), email: user.email };
}

/** The first order's hold ends; its seats and stock come back and go to the line (an offer of 2). */
async function offerAfterExpiry(made: Awaited<ReturnType<typeof soldOutSeated>>) {
  const db = await getDb();
  const ana = await person(at(made.now, 1));
  const entry = await joinWaitlist(ana.ctx, { eventSlug: made.event.slug, quantity: 2 });
  expect(await expireOrder({ db, actor: { kind: "anonymous" }, now: at(made.now, 20) }, made.first.order.id)).toBe("expired");
  expect(await runReturnedTickets(db, { ticketTypeIds: [made.tickets.Platea.id] }, at(made.now, 20))).toBe(1);
  const [offer] = await db.select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entry.id));
  expect(offer).toMatchObject({ quantity: 2, status: "offered" });
  return { ana: { ...ana, ctx: await ctxAs(ana.ctx.actor.kind === "user" ? ana.ctx.actor : undefined, at(made.now, 21)) }, offer };
}

async function stockOf(id: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold, stock: ticketTypes.stock }).from(ticketTypes).where(eq(ticketTypes.id, id));
  return row;
}

describe("claiming a waiting-list offer of a seated ticket type", () => {
  it("holds the best seats together for the claimant's order, and paying prints them on the tickets", async () => {
    const made = await soldOutSeated(["A2", "A3"], ["A1", "A4"]);
    const { ana, offer } = await offerAfterExpiry(made);
    const claimed = await claimWaitlistOffer(ana.ctx, offer.id, { payer: { ...PAYER, email: ana.email }, paymentMethod: "MERCADO_PAGO" });
    expect(claimed.order.items).toMatchObject([{ ticketTypeId: made.tickets.Platea.id, qty: 2 }]);
    const db = await getDb();
    const claims = await db.select().from(seatClaims).where(eq(seatClaims.orderId, claimed.order.id));
    expect(claims.map((c) => [c.seatGuid, c.state]).sort()).toEqual([["A2", "held"], ["A3", "held"]]);
    expect(await stockOf(made.tickets.Platea.id)).toEqual({ sold: 4, stock: 4 });
    await payInSandbox(db, claimed.billing.id, "approved");
    expect((await ticketsOfOrder(db, claimed.order.id)).map((t) => t.seatGuid).sort()).toEqual(["A2", "A3"]);
  });

  it("with no two seats together left, gives the best single seats rather than leaving the offer unclaimable", async () => {
    const made = await soldOutSeated(["A1", "A3"], ["A2", "A4"]);
    const { ana, offer } = await offerAfterExpiry(made);
    const claimed = await claimWaitlistOffer(ana.ctx, offer.id, { payer: { ...PAYER, email: ana.email }, paymentMethod: "MERCADO_PAGO" });
    const db = await getDb();
    const claims = await db.select().from(seatClaims).where(eq(seatClaims.orderId, claimed.order.id));
    expect(claims.map((c) => c.seatGuid).sort()).toEqual(["A1", "A3"]);
    expect(await stockOf(made.tickets.Platea.id)).toEqual({ sold: 4, stock: 4 });
  });
});
