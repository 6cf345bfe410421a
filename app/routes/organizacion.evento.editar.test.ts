import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { auditLog, eventDates, ticketTypes } from "#server/db/schema";
import { sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { formRequest, getRequest, run, type RouteResult } from "#tests/support/remix";
import * as editar from "./organizacion.evento.editar.$slug";
import * as entradas from "./organizacion.evento.editar.tickets.$slug";

/**
 * The event's edit pages save dates and ticket types through saveEventSchedule
 * (the same domain function as GraphQL's) and come back, without JavaScript, to
 * the page with the change report the domain's actions and statuses make.
 */

async function scheduleAudits(eventId: string) {
  const db = await getDb();
  return db.select().from(auditLog).where(and(eq(auditLog.action, "event.schedule"), eq(auditLog.targetId, eventId)));
}

async function setup(ticketList?: Record<string, unknown>[]) {
  const made = await createEventWithTickets(ticketList);
  return { ...made, cookies: await sessionCookiesFor(made.user.id), db: await getDb() };
}

/**
 * A save comes back to the page (Post/Redirect/Get): the page's loader then
 * shows the report once, and a reload shows the page without it.
 */
async function reportAfter(saved: RouteResult, page: typeof editar | typeof entradas, url: string, cookies: Record<string, string>, slug: string) {
  expect(saved.status).toBe(302);
  expect(saved.location).toBe(url);
  const report = saved.cookies["cambios-guardados"];
  const shown = await run(page.loader, getRequest(url, { cookies: { ...cookies, "cambios-guardados": report.raw } }), { slug });
  expect(shown.cookies["cambios-guardados"].maxAge).toBe(0);
  return shown.data.schedule;
}

describe("/organizacion/evento/editar/{slug}: the dates", () => {
  it("adds, edits, leaves alone and deletes a date, saying what happened and marking the row, with one audit entry per change", async () => {
    const { event, date, cookies, db } = await setup();
    const url = `/organizacion/evento/editar/${event.slug}`;
    const post = (fields: Record<string, string>) => run(editar.action, formRequest(url, fields, { cookies }), { slug: event.slug });

    const added = await post({ intent: "addDate", startsAt: "10/01/2031 22:00", endsAt: "11/01/2031 03:00", doorsAt: "" });
    const [created] = await db.select().from(eventDates).where(and(eq(eventDates.eventId, event.id), eq(eventDates.startsAt, new Date("2031-01-11T01:00:00.000Z"))));
    expect(await reportAfter(added, editar, url, cookies, event.slug)).toEqual({ message: "Fecha creada", badges: { [created.id]: "Nueva" } });
    expect((await scheduleAudits(event.id)).map((a) => a.data)).toEqual([
      expect.objectContaining({ name: event.name, dates: { create: 1, update: 0, delete: 0, no_update: 0 }, ticketTypes: { create: 0, update: 0, delete: 0, no_update: 0 } }),
    ]);

    const page = await run(editar.loader, getRequest(url, { cookies }), { slug: event.slug });
    const first = page.data.dates.find((d: { id: string }) => d.id === date.id);
    expect(page.data.dates.map((d: { id: string }) => d.id)).toContain(created.id);

    const same = await post({ intent: "updateDate", id: date.id, ...first.values });
    expect(await reportAfter(same, editar, url, cookies, event.slug)).toEqual({ message: "No había cambios para guardar", badges: {} });
    expect(await scheduleAudits(event.id)).toHaveLength(1);

    const moved = await post({ intent: "updateDate", id: date.id, ...first.values, doorsAt: first.values.startsAt.replace(/\d{2}:\d{2}$/, "19:30") });
    expect(await reportAfter(moved, editar, url, cookies, event.slug)).toEqual({ message: "Fecha modificada", badges: { [date.id]: "Modificada" } });
    const [movedRow] = await db.select().from(eventDates).where(eq(eventDates.id, date.id));
    expect(movedRow.doorsAt).not.toBeNull();
    expect(await scheduleAudits(event.id)).toHaveLength(2);

    // Eliminar posts the form as it is: a half-edited date can still be deleted.
    const deleted = await post({ intent: "deleteDate", id: created.id, startsAt: "", endsAt: "ayer", doorsAt: "" });
    expect(await reportAfter(deleted, editar, url, cookies, event.slug)).toEqual({ message: "Fecha eliminada", badges: {} });
    expect((await db.select().from(eventDates).where(eq(eventDates.id, created.id)))[0].status).toBe("deleted");
    const after = await run(editar.loader, getRequest(url, { cookies }), { slug: event.slug });
    expect(after.data.dates.map((d: { id: string }) => d.id)).toEqual([date.id]);
    expect(await scheduleAudits(event.id)).toHaveLength(3);
  });

  it("puts the domain's messages next to the date's own fields and saves nothing", async () => {
    const { event, date, cookies, db } = await setup();
    const url = `/organizacion/evento/editar/${event.slug}`;
    const before = await db.select().from(eventDates).where(eq(eventDates.eventId, event.id));

    const bad = await run(editar.action, formRequest(url, { intent: "updateDate", id: date.id, startsAt: "10/01/2031 22:00", endsAt: "10/01/2031 21:00", doorsAt: "" }, { cookies }), { slug: event.slug });
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ target: `date:${date.id}`, errors: { endsAt: ["El fin tiene que ser después del inicio"] }, formErrors: [] });
    expect(bad.data.schedule).toBeUndefined();

    const badNew = await run(editar.action, formRequest(url, { intent: "addDate", startsAt: "mañana", endsAt: "10/01/2031 21:00", doorsAt: "" }, { cookies }), { slug: event.slug });
    expect(badNew.data).toMatchObject({ target: "newDate", errors: { startsAt: ["Ingresá una fecha y hora válidas"] } });

    // A date of another event is refused above the form.
    const other = await createEventWithTickets();
    const stolen = await run(editar.action, formRequest(url, { intent: "deleteDate", id: other.date.id }, { cookies }), { slug: event.slug });
    expect(stolen.status).toBe(400);
    expect(stolen.data.formErrors).toEqual(["No es de este evento"]);

    expect(await db.select().from(eventDates).where(eq(eventDates.eventId, event.id))).toEqual(before);
    expect((await db.select().from(eventDates).where(eq(eventDates.id, other.date.id)))[0].status).toBe("active");
    expect(await scheduleAudits(event.id)).toHaveLength(0);
  });

  it("pausing and resuming a date stay status changes, with the usual snackbar", async () => {
    const { event, date, cookies, db } = await setup();
    const url = `/organizacion/evento/editar/${event.slug}`;
    const paused = await run(editar.action, formRequest(url, { intent: "pauseDate", id: date.id }, { cookies }), { slug: event.slug });
    expect(paused.status).toBe(302);
    expect((await db.select().from(eventDates).where(eq(eventDates.id, date.id)))[0].status).toBe("paused");
    expect(await scheduleAudits(event.id)).toHaveLength(0);
  });
});

describe("/organizacion/evento/editar/tickets/{slug}: the ticket types", () => {
  const NEW = { intent: "create", name: "Campo", description: "", eventDateId: "", price: "9.000", stock: "300", minPerOrder: "1", maxPerOrder: "10", salesStartAt: "", salesEndAt: "", accessCode: "", paymentMethod: "MercadoPagoAccount" };

  it("creates, edits, leaves alone and deletes a ticket type, saying what happened and marking the row", async () => {
    const { event, cookies, db } = await setup();
    const url = `/organizacion/evento/editar/tickets/${event.slug}`;
    const post = (fields: Record<string, string>) => run(entradas.action, formRequest(url, fields, { cookies }), { slug: event.slug });

    const created = await post(NEW);
    const [campo] = await db.select().from(ticketTypes).where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.name, "Campo")));
    expect(campo).toMatchObject({ price: 900_000, stock: 300, status: "active" });
    expect(await reportAfter(created, entradas, url, cookies, event.slug)).toEqual({ message: "Tipo de entrada creado", badges: { [campo.id]: "Nueva" } });

    const page = await run(entradas.loader, getRequest(url, { cookies }), { slug: event.slug });
    const values = page.data.tickets.find((t: { id: string }) => t.id === campo.id).values;

    const same = await post({ ...values, intent: "update", id: campo.id });
    expect(await reportAfter(same, entradas, url, cookies, event.slug)).toEqual({ message: "No había cambios para guardar", badges: {} });

    const edited = await post({ ...values, intent: "update", id: campo.id, price: "9.500", stock: "350" });
    expect(await reportAfter(edited, entradas, url, cookies, event.slug)).toEqual({ message: "Tipo de entrada modificado", badges: { [campo.id]: "Modificada" } });
    expect((await db.select().from(ticketTypes).where(eq(ticketTypes.id, campo.id)))[0]).toMatchObject({ price: 950_000, stock: 350 });

    const deleted = await post({ ...values, intent: "delete", id: campo.id, price: "" });
    expect(await reportAfter(deleted, entradas, url, cookies, event.slug)).toEqual({ message: "Tipo de entrada eliminado", badges: {} });
    expect((await db.select().from(ticketTypes).where(eq(ticketTypes.id, campo.id)))[0].status).toBe("deleted");

    const audits = await scheduleAudits(event.id);
    expect(audits).toHaveLength(3);
    expect(audits.map((a) => (a.data as { ticketTypes: Record<string, number> }).ticketTypes)).toEqual(
      expect.arrayContaining([
        { create: 1, update: 0, delete: 0, no_update: 0 },
        { create: 0, update: 1, delete: 0, no_update: 0 },
        { create: 0, update: 0, delete: 1, no_update: 0 },
      ]),
    );
    expect(audits.find((a) => (a.data as { repriced: unknown[] }).repriced.length)?.data).toMatchObject({
      repriced: [{ ticketType: "Campo", price: { from: 900_000, to: 950_000 }, stock: { from: 300, to: 350 } }],
    });
  });

  it("refuses stock below what is sold next to the stock field, and other errors next to theirs, saving nothing", async () => {
    const { event, tickets, cookies, db } = await setup([{ name: "General", price: 1_000_000, stock: 100 }]);
    const general = tickets.General;
    await db.update(ticketTypes).set({ sold: 30 }).where(eq(ticketTypes.id, general.id));
    const url = `/organizacion/evento/editar/tickets/${event.slug}`;
    const page = await run(entradas.loader, getRequest(url, { cookies }), { slug: event.slug });
    const values = page.data.tickets[0].values;

    const below = await run(entradas.action, formRequest(url, { ...values, intent: "update", id: general.id, stock: "20" }, { cookies }), { slug: event.slug });
    expect(below.status).toBe(400);
    expect(below.data).toMatchObject({ target: `ticket:${general.id}`, errors: { stock: ["El stock no puede ser menor que lo ya vendido"] }, snackbar: { type: "error" } });

    const limits = await run(entradas.action, formRequest(url, { ...NEW, minPerOrder: "5", maxPerOrder: "2" }, { cookies }), { slug: event.slug });
    expect(limits.data).toMatchObject({ target: "new", errors: { maxPerOrder: ["El máximo por compra no puede ser menor que el mínimo"] } });

    expect((await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id))).map((t) => [t.name, t.stock])).toEqual([["General", 100]]);
    expect(await scheduleAudits(event.id)).toHaveLength(0);
  });
});
