import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { createCoupon } from "#server/coupons/coupons";
import { saveEventSchedule } from "#server/events/schedule";
import { addTicketStock, setEventStatus, updateTicketType } from "#server/events/events";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import * as audit from "./organizacion.registro-de-cambios";

const PATH = "/organizacion/registro-de-cambios";

describe("/organizacion/registro-de-cambios", () => {
  it("shows the owners who changed prices, stock, coupons and an event's status; admins and other organizations are refused", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const ticket = made.tickets.General;
    await updateTicketType(made.ctx, { id: ticket.id, name: "General", price: "12.000", stock: 100, minPerOrder: 1, maxPerOrder: 10 });
    await addTicketStock(made.ctx, { id: ticket.id, quantity: 50 });
    await createCoupon(made.ctx, { eventId: made.event.id, code: "AMIGOS", kind: "percent", percent: 10 });
    await setEventStatus(made.ctx, { id: made.event.id, status: "paused" });
    await saveEventSchedule(made.ctx, { eventId: made.event.id, ticketTypes: [{ id: ticket.id, name: "General", price: 1_300_000, stock: 150 }, { name: "VIP", price: 3_000_000, stock: 20 }] });

    const page = await run(audit.loader, getRequest(PATH, { cookies: await sessionCookiesFor(made.user.id) }));
    expect(page.status).toBe(200);
    // (The changes share the context's clock, so their order on the page is not checked.)
    const lines = page.data.items.map((i: { label: string; detail: string }) => [i.label, i.detail]);
    expect(lines).toHaveLength(6);
    expect(lines).toEqual(
      expect.arrayContaining([
        ["Publicó un evento", made.event.name],
        ["Cambió el estado de un evento", `${made.event.name} · activo → pausado`],
        ["Creó un cupón", "AMIGOS"],
        ["Agregó entradas", "General · +50"],
        // updateTicketType is one row of saveEventSchedule: the record says it as the schedule's save.
        ["Editó las fechas y entradas de un evento", expect.stringMatching(/^.+ · Tipo de entrada modificado · General: precio \$\s10\.000,00 → \$\s12\.000,00$/)],
        [
          "Editó las fechas y entradas de un evento",
          // (Stock 150 stayed 150, so only the price is said.)
          expect.stringMatching(/^.+ · Tipo de entrada creado y tipo de entrada modificado · General: precio \$\s12\.000,00 → \$\s13\.000,00$/),
        ],
      ]),
    );

    const admin = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: made.organization.id, userId: admin.id, role: "admin" });
    expect((await run(audit.loader, getRequest(PATH, { cookies: await sessionCookiesFor(admin.id) }))).status).toBe(403);
    const stranger = await createEventWithTickets();
    expect((await run(audit.loader, getRequest(`${PATH}?organizationId=${made.organization.id}`, { cookies: await sessionCookiesFor(stranger.user.id) }))).status).toBe(403);
  });
});

describe("/organizacion/registro-de-cambios, the rest of what moves money or the event", () => {
  it("records event and date edits, custom fields, bank accounts, door PINs and webhooks, without whole CBUs or presale codes", async () => {
    const { updateEvent, addEventDate, setCustomFields, setPresaleCode, getEventForOrganizer } = await import("#server/events/events");
    const { createBankAccount, deleteBankAccount } = await import("#server/payouts/bank-accounts");
    const { rotateDoorPin } = await import("#server/door/access");
    const { createWebhookEndpoint } = await import("#server/webhooks/endpoints");
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const full = await getEventForOrganizer(made.ctx, made.event.id);
    await updateEvent(made.ctx, {
      id: made.event.id,
      name: "Noche renovada",
      description: full.event.description,
      category: full.event.category,
      venueName: full.event.venueName,
      venueAddress: full.event.venueAddress,
      city: full.event.city,
      province: full.event.province,
      minAge: full.event.minAge,
    });
    const startsAt = new Date(Date.now() + 40 * 86_400_000);
    await addEventDate(made.ctx, { eventId: made.event.id, startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 3 * 3_600_000).toISOString() });
    await setCustomFields(made.ctx, { eventId: made.event.id, fields: [{ label: "Talle de remera", kind: "text", required: false }] });
    await setPresaleCode(made.ctx, { eventId: made.event.id, presaleCode: "SECRETO2026" });
    const account = await createBankAccount(made.ctx, { organizationId: made.organization.id, cbu: "2850590940090418135201", alias: "noche.renovada.mp", holderName: "Producciones SA", holderCuit: "30-71234567-1" });
    await deleteBankAccount(made.ctx, { id: account.id });
    await rotateDoorPin(made.ctx, made.event.id);
    await createWebhookEndpoint(made.ctx, { organizationId: made.organization.id, url: "https://integrador.example.com/tribuna", events: ["order.paid"] });

    const page = await run(audit.loader, getRequest(PATH, { cookies: await sessionCookiesFor(made.user.id) }));
    expect(page.status).toBe(200);
    const lines = page.data.items.map((i: { label: string; detail: string }) => [i.label, i.detail]);
    expect(lines).toEqual(
      expect.arrayContaining([
        ["Editó los datos de un evento", "Noche renovada"],
        ["Editó las fechas y entradas de un evento", "Noche renovada · Fecha creada"],
        ["Cambió los datos que se piden a quien compra", "Noche renovada · campos: Talle de remera"],
        ["Cambió el código de preventa", "Noche renovada"],
        ["Agregó una cuenta bancaria", expect.stringMatching(/terminada en 5201$/)],
        ["Borró una cuenta bancaria", expect.stringMatching(/terminada en 5201$/)],
        ["Generó un PIN de puerta", "Noche renovada"],
        ["Creó un webhook", "https://integrador.example.com/tribuna"],
      ]),
    );
    const everything = JSON.stringify(page.data);
    expect(everything).not.toContain("2850590940090418135201");
    expect(everything).not.toContain("SECRETO2026");
  });
});
