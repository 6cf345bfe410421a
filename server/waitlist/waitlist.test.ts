import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { emailLog, jobs, orders, ticketTypes, users, waitlistEntries, waitlistOffers } from "#server/db/schema";
import { isDomainError } from "#server/errors";
import { addTicketStock } from "#server/events/events";
import { createOrder, expireOrder } from "#server/orders/orders";
import { TICKETS_RETURNED_JOB } from "#server/stock/stock";
import { actorFor, ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { claimWaitlistOffer, getWaitlistOffer } from "#server/orders/waitlist-claim";
import { expireWaitlistOffer, runReturnedTickets } from "./offers";
import { eventWaitlist, joinWaitlist, leaveWaitlist, myWaitlist, setEventWaitlist } from "./waitlist";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000);

async function people(n: number) {
  const db = await getDb();
  return db
    .insert(users)
    .values(Array.from({ length: n }, (_, i) => ({ email: `espera-${i}-${randomTag(8)}@example.com`, firstName: `Persona${i}`, lastName: "Gómez" })))
    .returning();
}

async function as(user: { id: string; email: string }, now: Date): Promise<Ctx> {
  return ctxAs(actorFor({ ...user, roles: [] }), now);
}

/** A sold-out event: `stock` General tickets all held by one unpaid order, the waiting list on. */
async function soldOutEvent(stock: number, options: { maxPerOrder?: number } = {}) {
  const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock, maxPerOrder: options.maxPerOrder ?? 10 }]);
  const now = new Date();
  const { order } = await createOrder(await ctxAs(undefined, now), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: stock }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  await setEventWaitlist({ ...made.ctx, now }, { eventId: made.event.id, enabled: true });
  return { ...made, order, now };
}

async function sold(ticketTypeId: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold, stock: ticketTypes.stock }).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  return row;
}

async function offersOf(entryIds: string[]) {
  const db = await getDb();
  return db.select().from(waitlistOffers).where(inArray(waitlistOffers.entryId, entryIds));
}

async function entry(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(waitlistEntries).where(eq(waitlistEntries.id, id));
  return row;
}

function codeOf(error: unknown) {
  return isDomainError(error) ? error.code : error;
}

describe("la lista de espera: orden, reserva y vencimiento", () => {
  it("offers returned tickets first joined first, holds them, and passes an unclaimed offer to the next person", async () => {
    const { event, tickets, order, now, ctx: organizer } = await soldOutEvent(2);
    const db = await getDb();
    const [ana, beto, caro] = await people(3);
    const a = await joinWaitlist(await as(ana, at(now, 1)), { eventSlug: event.slug, quantity: 1 });
    const b = await joinWaitlist(await as(beto, at(now, 2)), { eventSlug: event.slug, ticketTypeId: tickets.General.id, quantity: 2 });
    const c = await joinWaitlist(await as(caro, at(now, 3)), { eventSlug: event.slug, quantity: 1 });
    expect([a.ahead, b.ahead, c.ahead]).toEqual([0, 1, 2]);

    // The unpaid order's hold ends: its two tickets come back and a job is queued for the waiting list.
    expect(await expireOrder({ db, actor: { kind: "anonymous" }, now: at(now, 20) }, order.id)).toBe("expired");
    const queued = await db.select().from(jobs).where(eq(jobs.kind, TICKETS_RETURNED_JOB));
    expect(queued.some((j) => (j.payload as { ticketTypeIds: string[] }).ticketTypeIds.includes(tickets.General.id))).toBe(true);
    expect(await runReturnedTickets(db, { ticketTypeIds: [tickets.General.id] }, at(now, 20))).toBe(2);

    // Ana (first) gets her 1; Beto asked for 2 and gets the 1 left; Caro still waits. The offers hold them.
    const [offerA] = await offersOf([a.id]);
    const [offerB] = await offersOf([b.id]);
    expect(offerA).toMatchObject({ quantity: 1, status: "offered" });
    expect(offerB).toMatchObject({ quantity: 1, status: "offered" });
    expect(offerA.expiresAt.getTime() - at(now, 20).getTime()).toBe(30 * 60_000);
    expect(await offersOf([c.id])).toEqual([]);
    expect(await sold(tickets.General.id)).toEqual({ sold: 2, stock: 2 });
    // Nobody else can buy them meanwhile.
    const refused = await createOrder(await ctxAs(undefined, at(now, 21)), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" }).catch((e) => e);
    expect(codeOf(refused)).toBe("CONFLICT");
    // Each got an email with the claim link.
    const mails = await db.select().from(emailLog).where(and(eq(emailLog.kind, "waitlist-offer"), inArray(emailLog.to, [ana.email, beto.email, caro.email])));
    expect(mails.map((m) => m.to).sort()).toEqual([ana.email, beto.email].sort());
    expect(mails.find((m) => m.to === ana.email)!.text).toContain(`/lista-de-espera/oferta/${offerA.id}`);

    // Ana's offer is nobody else's; before its time it does not expire.
    expect(codeOf(await getWaitlistOffer(await as(caro, at(now, 22)), offerA.id).catch((e) => e))).toBe("NOT_FOUND");
    expect(await expireWaitlistOffer(db, offerA.id, at(now, 40))).toBe("not-due");

    // Ana never claims: at 30 minutes her ticket passes to Caro, the next one waiting.
    expect(await expireWaitlistOffer(db, offerA.id, at(now, 51))).toBe("expired");
    expect(await expireWaitlistOffer(db, offerA.id, at(now, 52))).toBe("skipped");
    expect((await entry(a.id)).status).toBe("missed");
    const [offerC] = await offersOf([c.id]);
    expect(offerC).toMatchObject({ quantity: 1, status: "offered" });
    expect(await sold(tickets.General.id)).toEqual({ sold: 2, stock: 2 });
    expect(codeOf(await claimWaitlistOffer(await as(ana, at(now, 53)), offerA.id, { payer: PAYER }).catch((e) => e))).toBe("CONFLICT");

    // Beto claims: his held ticket becomes a normal unpaid order; he still waits for the other one, in his place.
    const claimed = await claimWaitlistOffer(await as(beto, at(now, 30)), offerB.id, { payer: { ...PAYER, email: beto.email }, paymentMethod: "MERCADO_PAGO" });
    expect(claimed.order).toMatchObject({ status: "draft", buyerUserId: beto.id });
    expect(claimed.order.items).toMatchObject([{ ticketTypeId: tickets.General.id, qty: 1 }]);
    expect(claimed.billing.status).toBe("pending");
    expect(await sold(tickets.General.id)).toEqual({ sold: 2, stock: 2 });
    expect(await entry(b.id)).toMatchObject({ status: "waiting", quantity: 1 });
    const mine = await myWaitlist(await as(beto, at(now, 31)));
    expect(mine[0]).toMatchObject({ id: b.id, status: "waiting", quantity: 1, ahead: 0, offer: { status: "claimed" } });

    // The organizer sees the line and what happened.
    const view = await eventWaitlist({ ...organizer, now: at(now, 31) }, event.id);
    expect(view).toMatchObject({ enabled: true, offerMinutes: 30, waiting: 1, waitingTickets: 1, offered: 1 });
    expect(view.entries.map((e) => e.status)).toEqual(["missed", "waiting", "offered"]);
  });

  it("a person who leaves while offered passes the tickets on at once; leaving twice is a conflict; more stock goes to the line", async () => {
    const { event, tickets, order, now, ctx: organizer } = await soldOutEvent(1);
    const db = await getDb();
    const [ana, beto] = await people(2);
    const a = await joinWaitlist(await as(ana, now), { eventSlug: event.slug, quantity: 1 });
    const b = await joinWaitlist(await as(beto, now), { eventSlug: event.slug, quantity: 1 });
    expect(codeOf(await joinWaitlist(await as(ana, now), { eventSlug: event.slug, quantity: 1 }).catch((e) => e))).toBe("CONFLICT");
    expect(codeOf(await joinWaitlist(await as(ana, now), { eventSlug: event.slug, ticketTypeId: tickets.General.id, quantity: 11 }).catch((e) => e))).toBe("BAD_USER_INPUT");
    expect(codeOf(await leaveWaitlist(await as(beto, now), a.id).catch((e) => e))).toBe("NOT_FOUND");

    await expireOrder({ db, actor: { kind: "anonymous" }, now: at(now, 20) }, order.id);
    await runReturnedTickets(db, { ticketTypeIds: [tickets.General.id] }, at(now, 20));
    expect((await entry(a.id)).status).toBe("offered");
    await leaveWaitlist(await as(ana, at(now, 21)), a.id);
    expect((await entry(a.id)).status).toBe("left");
    expect(await offersOf([b.id])).toMatchObject([{ status: "offered", quantity: 1 }]);
    expect(codeOf(await leaveWaitlist(await as(ana, at(now, 22)), a.id).catch((e) => e))).toBe("CONFLICT");

    // The organizer adds 2 tickets: a third person waiting is offered them through the same job.
    const [caro] = await people(1);
    const c = await joinWaitlist(await as(caro, at(now, 23)), { eventSlug: event.slug, quantity: 2 });
    await addTicketStock({ ...organizer, now: at(now, 24) }, { id: tickets.General.id, quantity: 2 });
    await runReturnedTickets(db, { ticketTypeIds: [tickets.General.id] }, at(now, 24));
    expect(await offersOf([c.id])).toMatchObject([{ status: "offered", quantity: 2 }]);
    expect(await sold(tickets.General.id)).toEqual({ sold: 3, stock: 3 });
  });

  it("joining needs a sign-in, the list on, and the tickets sold out", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 5 }]);
    const [ana] = await people(1);
    expect(codeOf(await joinWaitlist(await ctxAs(), { eventSlug: made.event.slug, quantity: 1 }).catch((e) => e))).toBe("UNAUTHENTICATED");
    expect(codeOf(await joinWaitlist(await as(ana, new Date()), { eventSlug: made.event.slug, quantity: 1 }).catch((e) => e))).toBe("CONFLICT");
    await setEventWaitlist(made.ctx, { eventId: made.event.id, enabled: true });
    const stillOnSale = await joinWaitlist(await as(ana, new Date()), { eventSlug: made.event.slug, quantity: 1 }).catch((e) => e);
    expect(codeOf(stillOnSale)).toBe("CONFLICT");
    expect((stillOnSale as Error).message).toBe("Todavía quedan entradas: comprálas en la página del evento.");
  });
});

describe("la lista de espera: un reclamo contra compradores por la última entrada", () => {
  it("never oversells: the claimant keeps the held ticket while regular buyers race for it", async () => {
    for (let round = 0; round < 3; round++) {
      const { event, tickets, order, now } = await soldOutEvent(1);
      const db = await getDb();
      const [wanda] = await people(1);
      const w = await joinWaitlist(await as(wanda, now), { eventSlug: event.slug, quantity: 1 });
      await expireOrder({ db, actor: { kind: "anonymous" }, now: at(now, 20) }, order.id);
      await runReturnedTickets(db, { ticketTypeIds: [tickets.General.id] }, at(now, 20));
      const [offer] = await offersOf([w.id]);

      const later = at(now, 21);
      const buyer = async () => createOrder(await ctxAs(undefined, later), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
      const results = await Promise.allSettled([
        ...Array.from({ length: 6 }, buyer),
        claimWaitlistOffer(await as(wanda, later), offer.id, { payer: PAYER, paymentMethod: "MERCADO_PAGO" }),
        ...Array.from({ length: 6 }, buyer),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      expect(won).toHaveLength(1);
      expect(results[6].status).toBe("fulfilled");
      for (const r of results) if (r.status === "rejected") expect(codeOf(r.reason)).toBe("CONFLICT");
      expect(await sold(tickets.General.id)).toEqual({ sold: 1, stock: 1 });
      const drafts = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(and(eq(orders.eventId, event.id), eq(orders.status, "draft")));
      expect(drafts[0].n).toBe(1);
    }
  });

  it("a claim racing the offer's expiry: exactly one wins, and the ticket is held once", async () => {
    const { event, tickets, order, now } = await soldOutEvent(1);
    const db = await getDb();
    const [wanda, xavi] = await people(2);
    const w = await joinWaitlist(await as(wanda, now), { eventSlug: event.slug, quantity: 1 });
    await joinWaitlist(await as(xavi, now), { eventSlug: event.slug, quantity: 1 });
    await expireOrder({ db, actor: { kind: "anonymous" }, now: at(now, 20) }, order.id);
    await runReturnedTickets(db, { ticketTypeIds: [tickets.General.id] }, at(now, 20));
    const [offer] = await offersOf([w.id]);
    // The claim comes one second before the end, the expiry job runs one second after it.
    const claimAt = new Date(offer.expiresAt.getTime() - 1000);
    const expireAt = new Date(offer.expiresAt.getTime() + 1000);
    const [claim, expiry] = await Promise.allSettled([
      claimWaitlistOffer(await as(wanda, claimAt), offer.id, { payer: PAYER, paymentMethod: "MERCADO_PAGO" }),
      expireWaitlistOffer(db, offer.id, expireAt),
    ]);
    const [after] = await offersOf([w.id]);
    if (claim.status === "fulfilled") {
      expect(after.status).toBe("claimed");
      expect(expiry).toMatchObject({ status: "fulfilled", value: "skipped" });
    } else {
      expect(after.status).toBe("expired");
      expect(codeOf(claim.reason)).toBe("CONFLICT");
    }
    expect(await sold(tickets.General.id)).toEqual({ sold: 1, stock: 1 });
  });
});
