import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { sendInvitation } from "#server/invitations/invitations";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { redeemAtDoor } from "#server/door/redeem";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { exportReport } from "./exports";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

async function text(body: ReadableStream<Uint8Array>) {
  return new Response(body).text();
}

describe("exportReport", () => {
  it("exports the sales list's orders as CSV (gifts and unpaid left out) and attendees as a real XLSX", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const db = await getDb();
    const { order, billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await sendInvitation(made.ctx, { eventId: made.event.id, ticketTypeId: made.tickets.General.id, email: "invitada@example.com", firstName: "=HYPERLINK", lastName: "Venegas", qty: 1 });

    const csv = await exportReport(made.ctx, { organizationId: made.organization.id, kind: "ventas", format: "csv" });
    expect(csv).toMatchObject({ contentType: "text/csv; charset=utf-8", filename: expect.stringMatching(/^ventas-\d{4}-\d{2}-\d{2}\.csv$/) });
    // For one event, the name says which.
    expect((await exportReport(made.ctx, { organizationId: made.organization.id, kind: "ventas", eventId: made.event.id })).filename).toMatch(new RegExp(`^ventas-${made.event.slug}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const lines = (await text(csv.body)).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(2);
    // (Response.text() drops the BOM; the bytes carry it, checked below.)
    expect(lines[0]).toBe('"Fecha","Compra","Evento","Nombre","Apellido","Email","Documento","Teléfono","Medio de pago","Estado","Subtotal","Descuento","Cargo por servicio","Total","Recaudación","RRPP","Datos extra"');
    expect(lines[1]).toContain(`"${order.code}"`);
    expect(lines[1]).toContain('"Mercado Pago","Aprobada","20000,00"');
    expect(lines[1]).toMatch(/^"\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}"/);
    const raw = new Uint8Array(await new Response((await exportReport(made.ctx, { organizationId: made.organization.id, kind: "ventas" })).body).arrayBuffer());
    expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // A cell that would be a formula in a spreadsheet is neutralised.
    const attendees = await text((await exportReport(made.ctx, { organizationId: made.organization.id, kind: "asistentes" })).body);
    expect(attendees).toContain(`"'=HYPERLINK Venegas"`);

    const xlsx = await exportReport(made.ctx, { organizationId: made.organization.id, kind: "asistentes", format: "xlsx" });
    const bytes = Buffer.from(await new Response(xlsx.body).arrayBuffer());
    const { default: ExcelJS } = await import("exceljs");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as never);
    const sheet = workbook.getWorksheet("Asistentes")!;
    const rows = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1, 4));
    expect(rows[0]).toEqual(["Titular", "Email", "Tipo de entrada"]);
    // Two tickets of the sale and the invitation (an attendee too).
    expect(rows.slice(1).map((r) => r[0]).sort()).toEqual(["=HYPERLINK Venegas", "Sofía Peña", "Sofía Peña"]);
  });

  it("exports the door's accreditations in the order they happened, with door and device, and only those", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 0 });
    const db = await getDb();
    const { order, billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 3 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    const tickets = await ticketsOfOrder(db, order.id);
    const access = { event: { id: made.event.id, organizationId: made.organization.id, name: made.event.name, slug: made.event.slug }, userId: made.user.id, pinSessionId: null };
    for (const [n, [i, door]] of ([[1, "Puerta 2"], [0, "Puerta 1"]] as const).entries()) {
      const later = { ...made.ctx, now: new Date(made.ctx.now.getTime() + n * 60_000) };
      expect(await redeemAtDoor(later, access, { code: qrPayloadFor(tickets[i].code), door, deviceId: `celu-${i}` })).toMatchObject({ outcome: "admitted" });
    }
    const lines = (await text((await exportReport(made.ctx, { organizationId: made.organization.id, kind: "acreditaciones" })).body)).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe('"Ingreso","Titular","Tipo de entrada","Compra","Evento","Fecha del evento","Puerta","Dispositivo","Acreditó","Sin conexión","Ubicación"');
    expect(lines).toHaveLength(3);
    // The device as a short label of its own (the same for every scan of it), never its raw id.
    expect(lines[1]).toMatch(/"Puerta 2","Dispositivo [0-9A-F]{4}"/);
    expect(lines[2]).toMatch(/"Puerta 1","Dispositivo [0-9A-F]{4}"/);
    expect(lines.join("")).not.toContain("celu-");
    expect(lines[1]).toContain(`"${order.code}"`);
  });

  it("attendees and accreditations have the seat of a seated ticket (Ubicación) and leave it empty for general admission", async () => {
    const { createSeatedEvent, buyPaid } = await import("#tests/support/seating");
    const made = await createSeatedEvent({ days: 0 });
    const seated = await buyPaid(made, { seats: ["F12"] });
    const general = await buyPaid(made, { general: 1 });
    const scope = { organizationId: made.organization.id, eventId: made.event.id };

    const attendees = (await text((await exportReport(made.ctx, { ...scope, kind: "asistentes" })).body)).split("\r\n").filter(Boolean);
    // Last: the columns sheets read by position stay where they were (decision 232).
    expect(attendees[0]).toMatch(/^"Titular","Email","Tipo de entrada","Compra",.*,"Datos extra","Ubicación"$/);
    expect(attendees.find((l) => l.includes(seated.order.code))).toMatch(/"Platea · Fila F · Asiento 12"$/);
    expect(attendees.find((l) => l.includes(general.order.code))).toMatch(/,""$/);

    const access = { event: { id: made.event.id, organizationId: made.organization.id, name: made.event.name, slug: made.event.slug }, userId: made.user.id, pinSessionId: null };
    for (const ticket of [seated.tickets[0], general.tickets[0]]) expect(await redeemAtDoor(made.ctx, access, { code: qrPayloadFor(ticket.code) })).toMatchObject({ outcome: "admitted" });
    const accreditations = (await text((await exportReport(made.ctx, { ...scope, kind: "acreditaciones" })).body)).split("\r\n").filter(Boolean);
    expect(accreditations.find((l) => l.includes(seated.order.code))).toMatch(new RegExp(`"Platea","${seated.order.code}",.*"Platea · Fila F · Asiento 12"$`));
    expect(accreditations.find((l) => l.includes(general.order.code))).toMatch(new RegExp(`"General","${general.order.code}",.*,""$`));
  }, 60_000);

  it("the ledger is for owners and admins; strangers get nothing", async () => {
    const made = await createEventWithTickets();
    const stranger = await createEventWithTickets();
    await expect(exportReport(stranger.ctx, { organizationId: made.organization.id, kind: "ventas" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(exportReport(made.ctx, { organizationId: made.organization.id, kind: "ventas", eventId: stranger.event.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(exportReport(made.ctx, { organizationId: made.organization.id, kind: "nada" })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("streams 100,000 ledger rows page by page, every row once", async () => {
    const made = await createEventWithTickets();
    const db = await getDb();
    await db.execute(
      sql`insert into ledger_entries (organization_id, kind, amount, description, created_at) select ${made.organization.id}, 'payment', g, 'Fila ' || g, now() from generate_series(1, 100000) g`,
    );
    const started = performance.now();
    const file = await exportReport(made.ctx, { organizationId: made.organization.id, kind: "libro-mayor", format: "csv" });
    const reader = file.body.getReader();
    const decoder = new TextDecoder();
    let lines = 0;
    let sum = 0;
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const chunk = rest + decoder.decode(value);
      const parts = chunk.split("\r\n");
      rest = parts.pop()!;
      for (const line of parts) {
        lines++;
        const amount = /"(\d+),(\d\d)"$/.exec(line);
        if (amount) sum += Number(amount[1]) * 100 + Number(amount[2]);
      }
    }
    console.log(`libro mayor de 100.000 filas en CSV: ${Math.round(performance.now() - started)} ms`);
    expect(lines).toBe(100_001);
    expect(sum).toBe((100_000 * 100_001) / 2);
  }, 120_000);
});
