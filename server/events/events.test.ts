import { describe, expect, it } from "vitest";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent, daysFromNow } from "#tests/support/factories";
import { getPublicEvent, listPublicEvents } from "./catalogue";
import {
  addTicketStock,
  createEvent,
  createTicketType,
  getEventForOrganizer,
  listOrganizationEvents,
  publishEvent,
  setEventStatus,
  updateEvent,
  updateTicketType,
} from "./events";

describe("organizer events", () => {
  it("creates a draft that buyers cannot see until it is published", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Recital en borrador", publish: false });
    await expect(getPublicEvent(await ctxAs(), event.slug)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(publishEvent(ctx, { id: event.id })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "Aceptá las condiciones de servicio antes de publicar",
    });
  });

  it("gives each event a unique slug from its name", async () => {
    const { ctx, organization } = await createProducer();
    const first = await createPublishedEvent(ctx, organization.id, { name: "Fiesta Bresh" });
    const second = await createPublishedEvent(ctx, organization.id, { name: "Fiesta Bresh" });
    expect(first.event.slug).toBe("fiesta-bresh");
    expect(second.event.slug).toBe("fiesta-bresh-2");
  });

  it("validates dates, prices and per-order limits with Spanish messages", async () => {
    const { ctx, organization } = await createProducer();
    const start = daysFromNow(5);
    await expect(
      createEvent(ctx, {
        organizationId: organization.id,
        name: "Mal cargado",
        venueName: "Lugar",
        venueAddress: "Calle 1",
        city: "Rosario",
        province: "AR-S",
        dates: [{ startsAt: start.toISOString(), endsAt: new Date(start.getTime() - 1000).toISOString() }],
        ticketTypes: [{ name: "General", price: "mil", stock: 10 }],
      }),
    ).rejects.toMatchObject({
      fieldErrors: {
        "dates.0.endsAt": ["El fin tiene que ser después del inicio"],
        "ticketTypes.0.price": [expect.stringContaining("precio válido")],
      },
    });
    const { event } = await createPublishedEvent(ctx, organization.id, { publish: false });
    await expect(createTicketType(ctx, { eventId: event.id, name: "Combo", price: 100, stock: 10, minPerOrder: 4, maxPerOrder: 2 })).rejects.toMatchObject({
      fieldErrors: { maxPerOrder: ["El máximo por compra no puede ser menor que el mínimo"] },
    });
  });

  it("accepts prices as Argentines write them and reads local times as Buenos Aires time", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createEvent(ctx, {
      organizationId: organization.id,
      name: "Teatro",
      venueName: "Teatro Colón",
      venueAddress: "Cerrito 628",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [{ startsAt: "2030-03-14T20:30", endsAt: "2030-03-14T23:00" }],
      ticketTypes: [{ name: "Platea", price: "12.500,50", stock: "40" }],
    });
    const { dates, tickets } = await getEventForOrganizer(ctx, event.id);
    expect(dates[0].startsAt.toISOString()).toBe("2030-03-14T23:30:00.000Z");
    expect(tickets[0].price).toBe(1_250_050);
  });

  it("never lets stock go below what is sold, and adds stock atomically", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id);
    const { tickets } = await getEventForOrganizer(ctx, event.id);
    const ticket = tickets[0];
    await ctx.db.execute(`update ticket_types set sold = 30 where id = '${ticket.id}'`);
    await expect(updateTicketType(ctx, { ...ticket, id: ticket.id, stock: 20 })).rejects.toMatchObject({
      fieldErrors: { stock: ["El stock no puede ser menor que lo ya vendido"] },
    });
    const after = await addTicketStock(ctx, { id: ticket.id, quantity: 50 });
    expect(after.stock).toBe(150);
  });

  it("a producer of another organization can neither read nor change the event", async () => {
    const owner = await createProducer();
    const { event } = await createPublishedEvent(owner.ctx, owner.organization.id);
    const other = await createProducer();
    await expect(getEventForOrganizer(other.ctx, event.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updateEvent(other.ctx, { id: event.id, name: "Hackeado", venueName: "x", venueAddress: "x", city: "x", province: "AR-B" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createTicketType(other.ctx, { eventId: event.id, name: "Gratis", price: 0, stock: 1000 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listOrganizationEvents(other.ctx, { organizationId: owner.organization.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(setEventStatus(await ctxAs(), { id: event.id, status: "paused" })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("lists the organization's events from seven days ago with sales at a glance", async () => {
    const { ctx, organization } = await createProducer();
    await createPublishedEvent(ctx, organization.id, { name: "Próximo", days: 3 });
    const events = await listOrganizationEvents(ctx, { organizationId: organization.id, fromDate: daysFromNow(-7) });
    expect(events).toEqual([expect.objectContaining({ name: "Próximo", sold: 0, stock: 100 })]);
  });
});

describe("buyer catalogue", () => {
  it("finds published events by name without accents, by province, and hides paused-date-less and deleted ones", async () => {
    const { ctx, organization } = await createProducer();
    await createPublishedEvent(ctx, organization.id, { name: "Peña Folklórica Salteña", province: "AR-A" });
    const { event: deleted } = await createPublishedEvent(ctx, organization.id, { name: "Peña cancelada", province: "AR-A" });
    await setEventStatus(ctx, { id: deleted.id, status: "deleted" });
    const anonymous = await ctxAs();
    const found = await listPublicEvents(anonymous, { search: "pena folklorica" });
    expect(found.items.map((e) => e.name)).toEqual(["Peña Folklórica Salteña"]);
    expect((await listPublicEvents(anonymous, { search: "peña", province: "AR-X" })).items).toEqual([]);
    expect((await listPublicEvents(anonymous, { search: "cancelada" })).items).toEqual([]);
  });

  it("shows hidden tickets only with their access code (any case) and presale only once unlocked", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      ticketTypes: [
        { name: "General", price: 1_000_000, stock: 10 },
        { name: "Invitados", price: 0, stock: 10, hidden: true, accessCode: "AMIGOS" },
        { name: "Preventa", price: 800_000, stock: 10, presale: true },
      ],
    });
    await ctx.db.execute(`update events set presale_code = 'BANCO' where id = '${event.id}'`);
    const anonymous = await ctxAs();
    const names = async (unlock: { accessCode?: string; presaleCode?: string }) =>
      (await getPublicEvent(anonymous, event.slug, unlock)).ticketTypes.map((t) => t.name);
    expect(await names({})).toEqual(["General"]);
    expect(await names({ accessCode: "amigos" })).toEqual(["General", "Invitados"]);
    expect(await names({ presaleCode: "banco" })).toEqual(["General", "Preventa"]);
  });

  it("marks paused events and sold-out tickets clearly", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      ticketTypes: [
        { name: "General", price: 1_000_000, stock: 5 },
        { name: "VIP", price: 3_000_000, stock: 0 },
      ],
    });
    const anonymous = await ctxAs();
    expect((await getPublicEvent(anonymous, event.slug)).ticketTypes.map((t) => t.state)).toEqual(["on_sale", "sold_out"]);
    await setEventStatus(ctx, { id: event.id, status: "paused" });
    expect((await getPublicEvent(anonymous, event.slug)).ticketTypes.map((t) => t.state)).toEqual(["paused", "paused"]);
  });
});
