import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { auditLog, issuedProducts, memberships, ticketTypes } from "#server/db/schema";
import type { DoorAccess } from "#server/door/access";
import { redeemAtDoor } from "#server/door/redeem";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import { deviceLabel } from "#server/csv/cells";
import * as list from "./organizacion.acreditaciones";
import * as csv from "./organizacion.acreditaciones_.exportar";

const cookiesFor = sessionCookiesFor;

/** An event tonight with three paid tickets (one holder with a name a spreadsheet would run), two already in. */
async function nightWithEntries() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const payer = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
  const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: general.id, qty: 3 }], payer, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  const tickets = await ticketsOfOrder(db, order.id);
  await db.update(issuedProducts).set({ holderName: "=HYPERLINK(\"http://x\")" }).where(eq(issuedProducts.id, tickets[1].id));
  const byPin: DoorAccess = { event: { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug }, userId: null, pinSessionId: "pin-session-1" };
  await redeemAtDoor(await ctxAs(), byPin, { code: qrPayloadFor(tickets[0].code), door: "Puerta 1", deviceId: "telefono-1" });
  await redeemAtDoor(producer.ctx, { ...byPin, userId: producer.user.id, pinSessionId: null }, { code: qrPayloadFor(tickets[1].code), door: "Puerta 2", deviceId: "telefono-2" });
  return { db, producer, event, order, tickets, owner: await cookiesFor(producer.user.id) };
}

describe("/organizacion/acreditaciones", () => {
  it("lists who entered with door, device and who scanned; searches; exports CSV safe for spreadsheets", async () => {
    const { event, order, owner } = await nightWithEntries();
    const page = await run(list.loader, getRequest(`/organizacion/acreditaciones?eventId=${event.id}`, { cookies: owner }));
    expect(page.data.total).toBe(2);
    const rows = page.data.items as { holderName: string; door: string; deviceLabel: string; scannedBy: string; orderCode: string }[];
    // The device by the same label as the CSV, never its raw id.
    expect(rows.map((r) => [r.door, r.deviceLabel, r.scannedBy]).sort()).toEqual([
      ["Puerta 1", deviceLabel("telefono-1"), "PIN de puerta"],
      ["Puerta 2", deviceLabel("telefono-2"), "Sofía Peña"],
    ]);
    expect(rows[0].deviceLabel).toMatch(/^Dispositivo [0-9A-F]{4}$/);
    expect(JSON.stringify(page.data)).not.toContain("telefono-");
    expect(rows[0].orderCode).toBe(order.code);

    const searched = await run(list.loader, getRequest(`/organizacion/acreditaciones?eventId=${event.id}&buscar=puerta 2`, { cookies: owner }));
    expect(searched.data.items.map((r: { door: string }) => r.door)).toEqual(["Puerta 2"]);

    const response = (await csv.loader({ request: getRequest(`/organizacion/acreditaciones/exportar?eventId=${event.id}`, { cookies: owner }), params: {}, context: {} } as never)) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    // The file says which event and which day (Buenos Aires) it is of.
    expect(response.headers.get("Content-Disposition")).toMatch(new RegExp(`filename="acreditaciones-${event.slug}-\\d{4}-\\d{2}-\\d{2}\\.csv"`));
    const bytes = new Uint8Array(await response.arrayBuffer());
    // The BOM first, so Excel reads the accents as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe('"Ingreso","Titular","Tipo de entrada","Compra","Evento","Fecha del evento","Puerta","Dispositivo","Acreditó","Sin conexión","Ubicación"');
    expect(lines).toHaveLength(3);
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    // A device reads as a short label, never its raw id; the times as dd/mm/aaaa hh:mm.
    expect(text).not.toContain("telefono-1");
    expect(text).toMatch(/"Dispositivo [0-9A-F]{4}"/);
    expect(lines[1]).toMatch(/^"\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}"/);
  });

  it("an owner undoes an entry (the ticket can enter again, audited); an operator cannot; another organization sees nothing", async () => {
    const { db, producer, event, tickets, owner } = await nightWithEntries();
    const operator = await createTestUser();
    await db.insert(memberships).values({ organizationId: producer.organization.id, userId: operator.id, role: "operator" });
    const operatorCookies = await cookiesFor(operator.id);
    const path = `/organizacion/acreditaciones?eventId=${event.id}&organizationId=${producer.organization.id}`;

    const refused = await run(list.action, formRequest(path, { issuedProductId: tickets[0].id }, { cookies: operatorCookies }));
    expect(refused.status).toBe(403);
    const visible = await run(list.loader, getRequest(path, { cookies: operatorCookies }));
    expect(visible.data).toMatchObject({ total: 2, canUndo: false });

    const undone = await run(list.action, formRequest(path, { issuedProductId: tickets[0].id, reason: "Se equivocó de QR" }, { cookies: owner }));
    expect(undone.status).toBe(302);
    const [ticket] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, tickets[0].id));
    expect(ticket).toMatchObject({ status: "redeemable", redeemedAt: null, redeemedDoor: null });
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.targetId, tickets[0].id));
    expect(audit).toMatchObject({ actorId: producer.user.id, action: "door.undo-redemption", data: expect.objectContaining({ door: "Puerta 1", reason: "Se equivocó de QR" }) });
    const again = await run(list.action, formRequest(path, { issuedProductId: tickets[0].id }, { cookies: owner }));
    expect(again.status).toBe(400);

    const stranger = await createProducer();
    const foreign = await run(list.loader, getRequest(`/organizacion/acreditaciones?organizationId=${producer.organization.id}`, { cookies: await cookiesFor(stranger.user.id) }));
    expect(foreign.status).toBe(403);
  });
});
