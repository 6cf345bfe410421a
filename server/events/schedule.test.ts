import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { and, desc, sql } from "drizzle-orm";
import { auditLog, eventDates, ticketTypes } from "#server/db/schema";
import { addEventDate, createTicketType, updateEventDate, updateTicketType } from "./events";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { saveEventSchedule } from "./schedule";

async function rowsOf(eventId: string) {
  const db = await getDb();
  return {
    dates: await db.select().from(eventDates).where(eq(eventDates.eventId, eventId)),
    tickets: await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId)),
  };
}

describe("saveEventSchedule: dates and ticket types as one list, with the spec's change actions", () => {
  it("creates, updates, deletes and leaves alone, and says which happened to each row", async () => {
    const { ctx, event, date, tickets } = await createEventWithTickets([
      { name: "General", price: 1_000_000, stock: 100 },
      { name: "VIP", price: 3_000_000, stock: 20 },
    ]);
    const later = new Date(date.startsAt.getTime() + 7 * 24 * 3600_000);
    const changes = await saveEventSchedule(ctx, {
      eventId: event.id,
      dates: [
        { id: date.id, startsAt: date.startsAt, endsAt: date.endsAt },
        { startsAt: later.toISOString(), endsAt: new Date(later.getTime() + 4 * 3600_000).toISOString() },
      ],
      ticketTypes: [
        { id: tickets.General.id, name: "General", price: 1_000_000, stock: 100 },
        { id: tickets.VIP.id, name: "VIP", price: 3_500_000, stock: 20 },
        { name: "Preventa", price: 800_000, stock: 50 },
      ],
    });
    expect(changes.dates).toEqual([
      { id: date.id, action: "no_update", status: "active" },
      { id: expect.any(String), action: "create", status: "created" },
    ]);
    expect(changes.ticketTypes.map((c) => c.action)).toEqual(["no_update", "update", "create"]);

    const moved = new Date(date.startsAt.getTime() + 3600_000);
    const second = await saveEventSchedule(ctx, {
      eventId: event.id,
      dates: [{ id: date.id, startsAt: moved, endsAt: date.endsAt }, { id: changes.dates[1].id, remove: true, startsAt: later, endsAt: new Date(later.getTime() + 4 * 3600_000) }],
      ticketTypes: [{ id: changes.ticketTypes[2].id, remove: true, name: "Preventa", price: 800_000, stock: 50 }],
    });
    expect(second.dates).toEqual([
      { id: date.id, action: "update", status: "modified" },
      { id: changes.dates[1].id, action: "delete", status: "deleted" },
    ]);
    expect(second.ticketTypes).toEqual([{ id: changes.ticketTypes[2].id, action: "delete", status: "deleted" }]);

    const rows = await rowsOf(event.id);
    expect(rows.dates.find((d) => d.id === date.id)!.startsAt).toEqual(moved);
    expect(rows.dates.find((d) => d.id === changes.dates[1].id)!.status).toBe("deleted");
    expect(rows.tickets.find((t) => t.id === tickets.VIP.id)!.price).toBe(3_500_000);
    expect(rows.tickets.find((t) => t.name === "Preventa")!.status).toBe("deleted");
  });

  it("refuses the whole save when one row is wrong, keeping everything as it was", async () => {
    const { ctx, event, date, tickets } = await createEventWithTickets();
    const before = await rowsOf(event.id);
    const attempt = saveEventSchedule(ctx, {
      eventId: event.id,
      dates: [{ startsAt: "2030-01-02T21:00", endsAt: "2030-01-03T02:00" }],
      ticketTypes: [
        { name: "Nueva", price: 100, stock: 10 },
        { id: tickets.General.id, name: "General", price: 1_500_000, stock: 100, minPerOrder: 5, maxPerOrder: 2 },
      ],
    });
    await expect(attempt).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { "ticketTypes.1.maxPerOrder": [expect.any(String)] } });
    expect(await rowsOf(event.id)).toEqual(before);
    expect(before.dates.map((d) => d.id)).toEqual([date.id]);
  });

  it("deletes a row from its id alone, whatever else the row carries", async () => {
    const { ctx, event, date, tickets } = await createEventWithTickets();
    const changes = await saveEventSchedule(ctx, {
      eventId: event.id,
      dates: [{ id: date.id, remove: true, startsAt: "", endsAt: "ayer" }],
      ticketTypes: [{ id: tickets.General.id, remove: true }],
    });
    expect(changes).toEqual({ dates: [{ id: date.id, action: "delete", status: "deleted" }], ticketTypes: [{ id: tickets.General.id, action: "delete", status: "deleted" }] });
    const again = await saveEventSchedule(ctx, { eventId: event.id, ticketTypes: [{ id: tickets.General.id, remove: true }] });
    expect(again.ticketTypes).toEqual([{ id: tickets.General.id, action: "no_update", status: "deleted" }]);
    await expect(saveEventSchedule(ctx, { eventId: event.id, dates: [{ remove: true }] })).rejects.toMatchObject({ fieldErrors: { "dates.0.id": [expect.any(String)] } });
  });

  it("never touches another organization's event or rows of another event", async () => {
    const mine = await createEventWithTickets();
    const other = await createEventWithTickets();
    await expect(saveEventSchedule(mine.ctx, { eventId: other.event.id, dates: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      saveEventSchedule(mine.ctx, { eventId: mine.event.id, ticketTypes: [{ id: other.tickets.General.id, name: "Robada", price: 1, stock: 1 }] }),
    ).rejects.toMatchObject({ fieldErrors: { "ticketTypes.0.id": ["No es de este evento"] } });
    const stranger = await createProducer();
    await expect(saveEventSchedule(stranger.ctx, { eventId: mine.event.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("the per-row calls GraphQL keeps are one row of it: the same rules, the row back, errors on the row's own keys", async () => {
    const { ctx, event, date, tickets } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const db = await getDb();
    const audits = async () => db.select().from(auditLog).where(and(eq(auditLog.action, "event.schedule"), eq(auditLog.targetId, event.id))).orderBy(desc(auditLog.id));

    const added = await addEventDate(ctx, { eventId: event.id, startsAt: "2030-05-02T18:00", endsAt: "2030-05-02T20:00" });
    expect(added).toMatchObject({ eventId: event.id, status: "active", doorsAt: null });
    await expect(updateEventDate(ctx, { id: added.id, startsAt: "2030-05-02T18:00", endsAt: "2030-05-02T17:00" })).rejects.toMatchObject({ fieldErrors: { endsAt: [expect.any(String)] } });
    expect((await updateEventDate(ctx, { id: date.id, startsAt: date.startsAt, endsAt: date.endsAt, doorsAt: new Date(date.startsAt.getTime() - 3600_000) })).doorsAt).not.toBeNull();

    const vip = await createTicketType(ctx, { eventId: event.id, name: "VIP", price: 3_000_000, stock: 20, eventDateId: added.id });
    expect(vip).toMatchObject({ name: "VIP", eventDateId: added.id, status: "active" });
    await expect(createTicketType(ctx, { eventId: event.id, name: "Otra", price: 1, stock: 1, eventDateId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      fieldErrors: { eventDateId: ["Esa fecha no es de este evento"] },
    });
    const paused = await updateTicketType(ctx, { id: tickets.General.id, name: "General", price: 1_200_000, stock: 100, status: "paused" });
    expect(paused).toMatchObject({ price: 1_200_000, status: "paused" });
    await expect(updateTicketType(ctx, { id: tickets.General.id, name: "General", price: 1, stock: 100, status: "borrado" })).rejects.toMatchObject({ fieldErrors: { status: [expect.any(String)] } });
    expect((await rowsOf(event.id)).tickets.find((t) => t.id === tickets.General.id)!.price).toBe(1_200_000);

    // One event.schedule entry per call that changed something (the two refused saved nothing).
    expect(await audits()).toHaveLength(4);
  });
});

describe("moving a date that already sold tickets (decision 145)", () => {
  it("refuses the past and bringing it forward more than 24 hours, next to the field; postponing is recorded from → to with who", async () => {
    const { createOrder } = await import("#server/orders/orders");
    const { payInSandbox } = await import("#server/payment-notifications/sandbox");
    const { ctxAs } = await import("#tests/support/context");
    const { EVENT_MESSAGES } = await import("#common/events");
    const { ctx, event, date, tickets, organization, user } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 7 });
    const db = await getDb();
    const payer = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    const { billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    const hours = (n: number) => n * 3600_000;

    // Into the past: refused on the field, with a typed reason, and nothing saved.
    const past = new Date(Date.now() - hours(48));
    const inPast = await updateEventDate(ctx, { id: date.id, startsAt: new Date(past.getTime() - hours(5)), endsAt: past }).catch((e) => e);
    expect(inPast).toMatchObject({ code: "BAD_USER_INPUT", reason: "SOLD_DATE_IN_PAST", fieldErrors: { startsAt: [EVENT_MESSAGES.soldDateInPast] } });
    const viaSchedule = await saveEventSchedule(ctx, { eventId: event.id, dates: [{ id: date.id, startsAt: new Date(past.getTime() - hours(5)), endsAt: past }] }).catch((e) => e);
    expect(viaSchedule).toMatchObject({ code: "BAD_USER_INPUT", reason: "SOLD_DATE_IN_PAST", fieldErrors: { "dates.0.startsAt": [EVENT_MESSAGES.soldDateInPast] } });
    // Three days earlier: more than the 24-hour bound.
    const earlier = await updateEventDate(ctx, { id: date.id, startsAt: new Date(date.startsAt.getTime() - hours(72)), endsAt: new Date(date.endsAt.getTime() - hours(72)) }).catch((e) => e);
    expect(earlier).toMatchObject({ code: "BAD_USER_INPUT", reason: "SOLD_DATE_TOO_EARLY", fieldErrors: { startsAt: [EVENT_MESSAGES.soldDateTooEarly] } });
    const [unchanged] = await db.select().from(eventDates).where(eq(eventDates.id, date.id));
    expect([unchanged.startsAt, unchanged.endsAt]).toEqual([date.startsAt, date.endsAt]);

    // Two hours earlier and a week later are fine; each move is in the record with who did it.
    await updateEventDate(ctx, { id: date.id, startsAt: new Date(date.startsAt.getTime() - hours(2)), endsAt: new Date(date.endsAt.getTime() - hours(2)) });
    const postponed = { startsAt: new Date(date.startsAt.getTime() + hours(24 * 7)), endsAt: new Date(date.endsAt.getTime() + hours(24 * 7)) };
    await updateEventDate(ctx, { id: date.id, ...postponed });
    const moves = await db
      .select()
      .from(auditLog)
      .where(and(sql`${auditLog.data}->>'organizationId' = ${organization.id}`, eq(auditLog.action, "event-date.update")))
      .orderBy(desc(auditLog.createdAt));
    expect(moves).toHaveLength(2);
    const last = moves.find((m) => (m.data as { startsAt: { to: string } }).startsAt.to === postponed.startsAt.toISOString());
    expect(last).toMatchObject({ actorId: user.id, targetId: date.id });
    expect(last?.data).toMatchObject({
      sold: true,
      startsAt: { from: new Date(date.startsAt.getTime() - hours(2)).toISOString(), to: postponed.startsAt.toISOString() },
      endsAt: { from: new Date(date.endsAt.getTime() - hours(2)).toISOString(), to: postponed.endsAt.toISOString() },
    });
  });

  it("a date without sales can still be set in the past (a past event loaded afterwards)", async () => {
    const { ctx, date } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 7 });
    const past = new Date(Date.now() - 48 * 3600_000);
    const row = await updateEventDate(ctx, { id: date.id, startsAt: new Date(past.getTime() - 5 * 3600_000), endsAt: past });
    expect(row?.endsAt).toEqual(past);
  });
});
