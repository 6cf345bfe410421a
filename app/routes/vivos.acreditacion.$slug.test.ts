import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shortTicketCode } from "#common/door";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { ticketTypes, users } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { cookiesAfter, formRequest, getRequest, run } from "#tests/support/remix";
import * as door from "./vivos.acreditacion.$slug";
import * as staffPin from "./organizacion.staff-pin";
import * as liveView from "./vivos.$slug";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30.123.456", phoneNumber: "+54 11 5555-1234" };

async function tonight() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: general.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  const tickets = await ticketsOfOrder(db, order.id);
  const [user] = await db.select().from(users).where(eq(users.id, producer.user.id));
  const session = await startSession(db, user, new Date());
  return { producer, event, order, tickets, owner: { at: session.accessToken, rt: session.refreshToken } };
}

describe("/organizacion/staff-pin and /vivos/acreditacion/{slug} without JavaScript", () => {
  it("the owner generates a PIN; staff unlock the door with it, type a ticket's short code, see Adelante, then 'ya ingresó' with time and door", async () => {
    const { event, order, tickets, owner } = await tonight();
    const generated = await run(staffPin.action, formRequest("/organizacion/staff-pin", { intent: "rotate", eventId: event.id }, { cookies: owner }));
    expect(generated.status).toBe(302);
    // The first PIN of the event replaces none: nothing "stopped working".
    expect(JSON.parse(generated.cookies.flash!.value).message).toBe(staffPin.DOOR_PIN_MESSAGES.first);
    expect(staffPin.DOOR_PIN_MESSAGES.first).not.toContain("anterior");
    const pins = await run(staffPin.loader, getRequest("/organizacion/staff-pin", { cookies: owner }));
    const pin = pins.data.events.find((e: { id: string }) => e.id === event.id).pin as string;
    expect(pin).toMatch(/^\d{8}$/);

    const path = `/vivos/acreditacion/${event.slug}`;
    const locked = await run(door.loader, getRequest(path), { slug: event.slug });
    expect(locked.data).toMatchObject({ locked: true, event: { name: event.name } });
    expect(locked.headers.get("Cache-Control")).toContain("no-store");

    const wrong = await run(door.action, formRequest(path, { intent: "unlock", pin: "0000 0000", doorName: "Puerta 2" }), { slug: event.slug });
    expect(wrong.status).toBe(400);
    expect(wrong.data.error).toBe("El PIN no es correcto. Pedíselo a quien organiza el evento.");

    const unlocked = await run(door.action, formRequest(path, { intent: "unlock", pin, doorName: "  Puerta   2 " }), { slug: event.slug });
    expect(unlocked.status).toBe(302);
    const staff = cookiesAfter(unlocked);
    expect(Object.keys(staff).sort()).toEqual([`door-${event.slug}`, "door-device", "door-name"].sort());

    const open = await run(door.loader, getRequest(path, { cookies: staff }), { slug: event.slug });
    expect(open.data).toMatchObject({ locked: false, doorName: "Puerta 2", entries: 0, byPin: true });

    const typed = shortTicketCode(tickets[0].code).toLowerCase();
    const admitted = await run(door.action, formRequest(path, { intent: "redeem", code: typed, scanId: open.data.scanId }, { cookies: staff }), { slug: event.slug });
    expect(admitted.data).toMatchObject({ outcome: "admitted", title: "Adelante", holderName: "Sofía Peña", ticketTypeName: "General", when: expect.stringMatching(/^\d{2}:\d{2} - \d{2}\/\d{2}\/\d{4}$/) });
    // The same form sent again (a reload) answers the same and admits nobody else.
    const resent = await run(door.action, formRequest(path, { intent: "redeem", code: typed, scanId: open.data.scanId }, { cookies: staff }), { slug: event.slug });
    expect(resent.data).toEqual(admitted.data);

    const again = await run(door.action, formRequest(path, { intent: "redeem", code: qrPayloadFor(tickets[0].code) }, { cookies: staff }), { slug: event.slug });
    expect(again.data).toMatchObject({ outcome: "already_in", title: "Ya ingresó" });
    expect(again.data.detail).toMatch(/^Ya ingresó a las \d{2}:\d{2} por Puerta 2: Sofía Peña\.$/);

    const forged = await run(door.action, formRequest(path, { intent: "redeem", code: "TRB1.AAAAAAAAAAAAAAAAAAAAAA.x" }, { cookies: staff }), { slug: event.slug });
    expect(forged.data).toMatchObject({ outcome: "unknown", title: "Código no válido" });

    const byDni = await run(door.loader, getRequest(`${path}?buscar=30.123.456`, { cookies: staff }), { slug: event.slug });
    expect(byDni.data.entries).toBe(1);
    expect(byDni.data.hits.map((h: { status: string }) => h.status).sort()).toEqual(["redeemable", "redeemed"]);
    const byOrder = await run(door.loader, getRequest(`${path}?buscar=${order.code.toLowerCase()}`, { cookies: staff }), { slug: event.slug });
    expect(byOrder.data.hits).toHaveLength(2);
    expect(byOrder.data.hits[0]).not.toHaveProperty("holderEmail");

    // The team's live view counts it; a PIN does not open the live view.
    const live = await run(liveView.loader, getRequest(`/vivos/${event.slug}`, { cookies: owner }), { slug: event.slug });
    expect(live.data.night).toMatchObject({ sold: 2, entered: 1, doors: [{ door: "Puerta 2", entered: 1 }] });
    expect(live.data.night.latestScans.map((s: { outcome: string }) => s.outcome)).toEqual(["unknown", "already_in", "admitted"]);
    const byPin = await run(liveView.loader, getRequest(`/vivos/${event.slug}`, { cookies: staff }), { slug: event.slug });
    expect(byPin.status).toBe(302);
    expect(byPin.location).toBe("/cuenta/iniciar-sesion/email?forcedLogin=true");

    // Rotating the PIN closes this phone's door, and the page says the previous one stopped working.
    const rotated = await run(staffPin.action, formRequest("/organizacion/staff-pin", { intent: "rotate", eventId: event.id }, { cookies: owner }));
    expect(JSON.parse(rotated.cookies.flash!.value).message).toBe("Listo: este es el PIN nuevo. El anterior dejó de funcionar.");
    const closed = await run(door.loader, getRequest(path, { cookies: staff }), { slug: event.slug });
    expect(closed.data.locked).toBe(true);
  });

  it("another organization's member cannot open the door, and PIN pages are for owners and admins only", async () => {
    const { event } = await tonight();
    const stranger = await tonight();
    const page = await run(door.loader, getRequest(`/vivos/acreditacion/${event.slug}`, { cookies: stranger.owner }), { slug: event.slug });
    expect(page.status).toBe(403);
    const rotate = await run(staffPin.action, formRequest("/organizacion/staff-pin", { intent: "rotate", eventId: event.id }, { cookies: stranger.owner }));
    expect(rotate.status).not.toBe(302);
    const missing = await run(door.loader, getRequest("/vivos/acreditacion/no-existe"), { slug: "no-existe" });
    expect(missing.status).toBe(404);
  });
});

describe("/vivos/acreditacion/{slug}?modo=barra without JavaScript", () => {
  it("the bar serves a paid drink once by its short code and sends tickets to the door", async () => {
    const { event, producer, tickets, owner } = await tonight();
    const { createMenuItem } = await import("#server/menu/menu");
    const drink = await createMenuItem(producer.ctx, { eventId: event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "10" });
    const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: drink.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    const db = await getDb();
    await payInSandbox(db, billing.id, "approved");
    const [served] = await ticketsOfOrder(db, order.id);

    const path = `/vivos/acreditacion/${event.slug}?modo=barra`;
    const screen = await run(door.loader, getRequest(path, { cookies: owner }), { slug: event.slug });
    expect(screen.data).toMatchObject({ locked: false, mode: "bar", entries: 0 });
    const first = await run(door.action, formRequest(path, { intent: "redeem", mode: "bar", code: shortTicketCode(served.code), scanId: crypto.randomUUID() }, { cookies: owner }), { slug: event.slug });
    expect(first.data).toMatchObject({ outcome: "admitted", title: "Entregala", ticketTypeName: "Fernet con coca" });
    const again = await run(door.action, formRequest(path, { intent: "redeem", mode: "bar", code: qrPayloadFor(served.code), scanId: crypto.randomUUID() }, { cookies: owner }), { slug: event.slug });
    expect(again.data).toMatchObject({ outcome: "already_in", title: "Ya se canjeó" });
    // What was served, and where: the bar, not the door.
    expect(first.data.detail).toBe("Fernet con coca · Sofía Peña");
    expect(again.data.detail).toMatch(/^Ya se canjeó a las \d{2}:\d{2} en Barra: Fernet con coca de Sofía Peña\.$/);
    const ticketAtBar = await run(door.action, formRequest(path, { intent: "redeem", mode: "bar", code: qrPayloadFor(tickets[0].code), scanId: crypto.randomUUID() }, { cookies: owner }), { slug: event.slug });
    expect(ticketAtBar.data).toMatchObject({ outcome: "wrong_place", title: "Es una entrada", detail: "Se valida en la puerta, no en la barra." });
    const drinkAtDoor = await run(door.action, formRequest(`/vivos/acreditacion/${event.slug}`, { intent: "redeem", code: qrPayloadFor(served.code), scanId: crypto.randomUUID() }, { cookies: owner }), { slug: event.slug });
    expect(drinkAtDoor.data).toMatchObject({ outcome: "wrong_place", title: "Es una consumición" });
    const after = await run(door.loader, getRequest(path, { cookies: owner }), { slug: event.slug });
    expect(after.data.entries).toBe(1);
  });
});
