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
    // Money destinations ask for the second factor (decision 144).
    const { withSecondFactor } = await import("#tests/support/context");
    const verified = await withSecondFactor(made.ctx);
    const account = await createBankAccount(verified, { organizationId: made.organization.id, cbu: "2850590940090418135201", alias: "noche.renovada.mp", holderName: "Producciones SA", holderCuit: "30-71234567-1" });
    await deleteBankAccount(verified, { id: account.id });
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

describe("/organizacion/registro-de-cambios, money leaving: withdrawals and refund decisions", () => {
  it("shows who asked for a withdrawal and who approved or rejected a refund, with the amount, the code and the reason", async () => {
    const { eq } = await import("drizzle-orm");
    const { ANONYMOUS } = await import("#server/context");
    const { eventDates } = await import("#server/db/schema");
    const { createOrder } = await import("#server/orders/orders");
    const { payInSandbox } = await import("#server/payment-notifications/sandbox");
    const { approveRefund, rejectRefund, requestRefund } = await import("#server/refunds/refunds");
    const { requestWithdrawal, RELEASE_HOURS } = await import("#server/payouts/withdrawals");
    const { ctxAs, withSecondFactor } = await import("#tests/support/context");
    const { createTransferAccount } = await import("#tests/support/factories");
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const db = await getDb();

    // Three paid orders, delivered twelve days ago: past the legal window, so a refund request waits for the organizer.
    const delivered = new Date(Date.now() - 12 * 86_400_000);
    const paid = [];
    for (let i = 0; i < 3; i++) {
      const email = `registro-${i}-${Math.random().toString(36).slice(2, 7)}@example.com`;
      const payer = { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
      const { order, billing } = await createOrder(await ctxAs(ANONYMOUS, delivered), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" });
      await payInSandbox(db, billing.id, "approved", delivered);
      paid.push({ order, email });
    }
    const asked = [];
    for (const { order, email } of paid.slice(0, 2)) asked.push((await requestRefund(await ctxAs(), { orderCode: order.code, email })).request);
    expect(asked.map((r) => r.status)).toEqual(["pending", "pending"]);
    await approveRefund(made.ctx, { id: asked[0].id });
    await rejectRefund(made.ctx, { id: asked[1].id, reason: "Faltan dos días para el evento." });

    // The event ended long ago, so its money is available; the owner proves the second factor and withdraws part of it.
    const endsAt = new Date(Date.now() - (RELEASE_HOURS + 5) * 3600_000);
    await db.update(eventDates).set({ startsAt: new Date(endsAt.getTime() - 5 * 3600_000), endsAt }).where(eq(eventDates.eventId, made.event.id));
    const account = await createTransferAccount(made.ctx, made.organization.id);
    await requestWithdrawal(await withSecondFactor(made.ctx), { organizationId: made.organization.id, bankAccountId: account.id, amount: "5.000" });

    const page = await run(audit.loader, getRequest(PATH, { cookies: await sessionCookiesFor(made.user.id) }));
    expect(page.status).toBe(200);
    const lines = page.data.items.map((i: { label: string; detail: string; actor: string }) => [i.label, i.detail, i.actor]);
    const owner = expect.stringMatching(/\S/);
    expect(lines).toEqual(
      expect.arrayContaining([
        ["Aprobó una devolución", asked[0].code, owner],
        ["Rechazó una devolución", `${asked[1].code} · motivo: Faltan dos días para el evento.`, owner],
        ["Pidió una extracción", expect.stringMatching(/^\$\s5\.000,00$/), owner],
      ]),
    );
    expect(lines.filter(([, , actor]: string[]) => actor === "Sistema")).toEqual([]);
  });
});
