import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createCoupon } from "#server/coupons/coupons";
import { getDb } from "#server/db/client";
import { ledgerEntries, orders, ticketTypes } from "#server/db/schema";
import { sendInvitation } from "#server/invitations/invitations";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { createMenuItem } from "#server/menu/menu";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { sellTicketsInHand } from "#server/invitations/sales-in-hand";
import { listOrganizationOrders } from "#server/refunds/sales";
import { refundApprovedBilling } from "#server/refunds/transitions";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithTickets, createPublishedEvent, makePromoter } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { exportReport } from "./exports";
import { eventMetrics } from "./metrics";
import { REVENUE_LEDGER_KINDS } from "./paid";
import { organizationSummary } from "./summary";

const PAYER = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** The sheet of an Excel export as rows of values (header first), read back with exceljs. */
async function sheetOf(body: ReadableStream<Uint8Array>) {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await new Response(body).arrayBuffer()) as never);
  const sheet = workbook.worksheets[0];
  const rows: { values: unknown[]; numFmts: (string | undefined)[] }[] = [];
  sheet.eachRow((row) => {
    const values: unknown[] = [];
    const numFmts: (string | undefined)[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) {
      values.push(row.getCell(c).value);
      numFmts.push(row.getCell(c).numFmt);
    }
    rows.push({ values, numFmts });
  });
  return rows;
}

describe("money agrees everywhere", () => {
  it("summary, metrics per type and per day, sales list, exports and ledger add up to the same pesos for a night of coupons, invitations, a refund, drinks and cash sales", async () => {
    const made = await createEventWithTickets(
      [
        { name: "General", price: 1_000_000, stock: 100 },
        { name: "VIP", price: 3_000_000, stock: 20 },
        { name: "Anticipada RRPP", price: 800_000, stock: 10, paymentMethod: "PromoterAccount" },
      ],
      { days: 3 },
    );
    const db = await getDb();
    const organizationId = made.organization.id;
    const eventId = made.event.id;
    const buy = async (items: { ticketId: string; qty: number }[], couponCode?: string) => {
      const { order, billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items, payer: PAYER, paymentMethod: "MERCADO_PAGO", couponCode });
      await payInSandbox(db, billing.id, "approved");
      return { order, billing };
    };
    const { General, VIP } = made.tickets;
    // 15 % only on VIP; $ 1.500 off anything.
    await createCoupon(made.ctx, { eventId, code: "VIP15", kind: "percent", percent: 15, ticketTypeIds: [VIP.id] });
    await createCoupon(made.ctx, { eventId, code: "MIL5", kind: "fixed", amount: "1.500" });

    // A: 2 General + 1 VIP with VIP15 → the $ 4.500 discount is all VIP's.
    await buy([{ ticketId: General.id, qty: 2 }, { ticketId: VIP.id, qty: 1 }], "VIP15");
    // B: 3 General with MIL5 → $ 1.500 off General.
    await buy([{ ticketId: General.id, qty: 3 }], "MIL5");
    // C: 1 VIP paid and then refunded: no longer a sale anywhere.
    const refunded = await buy([{ ticketId: VIP.id, qty: 1 }]);
    await db.transaction((tx) => refundApprovedBilling(tx, refunded.billing.id, { reason: "Arrepentimiento", now: new Date(), providerRefund: "none" }));
    // D: an invitation (no money) and E: an order never paid.
    await sendInvitation(made.ctx, { eventId, ticketTypeId: General.id, email: "prensa@example.com", firstName: "Prensa", lastName: "Radio", qty: 2 });
    await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    // F: two drinks from the menu.
    const fernet = await createMenuItem(made.ctx, { eventId, name: "Fernet", category: "drink", price: "5000", stock: "50" });
    await buy([{ ticketId: fernet.id, qty: 2 }]);
    // G: a promoter sells 2 in hand (cash).
    const promoterUser = await createTestUser({ nickname: `rrpp.${randomTag(6)}` });
    await makePromoter(made.ctx, organizationId, promoterUser.id);
    const promoter = await ctxAs(actorFor({ ...promoterUser, roles: [] }));
    await sellTicketsInHand(promoter, { organizationId, ticketTypeId: made.tickets["Anticipada RRPP"].id, qty: 2, email: "efectivo@example.com", firstName: "Lola", lastName: "Mora" });
    // Another event of the same organization sells too: nothing of it may leak into this event's figures.
    const other = await createPublishedEvent(made.ctx, organizationId, { name: "Otra noche", ticketTypes: [{ name: "General", price: 2_000_000, stock: 10 }] });
    const [otherType] = await db.select({ id: ticketTypes.id }).from(ticketTypes).where(eq(ticketTypes.eventId, other.event.id));
    const { billing: otherBilling } = await createOrder(await ctxAs(), { eventSlug: other.event.slug, items: [{ ticketId: otherType.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, otherBilling.id, "approved");

    for (const o of await db.select({ id: orders.id }).from(orders).where(eq(orders.eventId, eventId))) await assertLedgerMatches(db, o.id);

    // The pesos, worked out by hand (centavos): General 5 × 10.000 − 1.500, VIP 30.000 − 4.500, RRPP 2 × 8.000, Fernet 2 × 5.000.
    const expected = { General: 4_850_000, VIP: 2_550_000, RRPP: 1_600_000, Fernet: 1_000_000 };
    const revenue = expected.General + expected.VIP + expected.RRPP + expected.Fernet;
    const tickets = 5 + 1 + 2;

    // Summary, filtered by the event.
    const summary = await organizationSummary(made.ctx, organizationId, eventId);
    expect(summary.total).toEqual({ orders: 4, tickets, menuItems: 2, revenue });
    // Without the filter, the other event's sale is there too.
    expect((await organizationSummary(made.ctx, organizationId)).total.revenue).toBe(revenue + 2_000_000);

    // Metrics: per type (after each type's part of the discount), per menu item and per day.
    const metrics = await eventMetrics(made.ctx, eventId);
    expect(metrics.ticketTypes.map((t) => [t.name, t.sold, t.revenue])).toEqual([
      ["General", 5, expected.General],
      ["VIP", 1, expected.VIP],
      ["Anticipada RRPP", 2, expected.RRPP],
    ]);
    expect(metrics.menuItems.map((m) => [m.name, m.sold, m.revenue])).toEqual([["Fernet", 2, expected.Fernet]]);
    const byDay = metrics.salesPerDay.reduce((sum, d) => ({ orders: sum.orders + d.orders, tickets: sum.tickets + d.tickets, revenue: sum.revenue + d.revenue }), { orders: 0, tickets: 0, revenue: 0 });
    expect(byDay).toEqual({ orders: 4, tickets, revenue });
    const byType = [...metrics.ticketTypes, ...metrics.menuItems].reduce((sum, t) => sum + t.revenue, 0);
    expect(byType).toBe(revenue);

    // The sales list (every payment method): its approved rows, price after discount.
    const list = await listOrganizationOrders(made.ctx, { organizationId, eventId, paymentMethods: ["MERCADO_PAGO", "BANK_TRANSFER", "FREE", "PROMOTER"], limit: 100 });
    const approved = list.items.filter((o) => o.displayStatus === "approved");
    expect(approved).toHaveLength(4);
    expect(approved.reduce((sum, o) => sum + o.subtotal - o.discount, 0)).toBe(revenue);
    expect(list.items.find((o) => o.id === refunded.order.id)?.displayStatus).toBe("refunded");

    // The ledger: what the sales brought (leaving aside where the cash sits).
    const [booked] = await db
      .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
      .from(ledgerEntries)
      .innerJoin(orders, eq(orders.id, ledgerEntries.orderId))
      .where(and(eq(orders.eventId, eventId), inArray(ledgerEntries.kind, [...REVENUE_LEDGER_KINDS])));
    expect(Number(booked.total)).toBe(revenue);

    // The sales export, CSV and Excel: the "Aprobada" rows' Recaudación.
    const csv = (await new Response((await exportReport(made.ctx, { organizationId, kind: "ventas", eventId })).body).text()).split("\r\n").filter(Boolean);
    const header = csv[0].split('","').map((h) => h.replace(/"/g, ""));
    const csvRows = csv.slice(1).map((line) => line.slice(1, -1).split('","'));
    const at = (name: string) => header.indexOf(name);
    expect(csvRows).toHaveLength(5); // A, B, C (refunded), F, G
    const csvRevenue = csvRows.reduce((sum, r) => sum + Math.round(Number(r[at("Recaudación")].replace(",", ".")) * 100), 0);
    expect(csvRevenue).toBe(revenue);
    expect(csvRows.filter((r) => r[at("Estado")] === "Aprobada")).toHaveLength(4);
    expect(csvRows.filter((r) => r[at("Estado")] === "Devuelta")).toHaveLength(1);

    const sheet = await sheetOf((await exportReport(made.ctx, { organizationId, kind: "ventas", format: "xlsx", eventId })).body);
    const xHeader = sheet[0].values as string[];
    const xAt = (name: string) => xHeader.indexOf(name);
    const xRevenue = sheet.slice(1).reduce((sum, r) => sum + Math.round((r.values[xAt("Recaudación")] as number) * 100), 0);
    expect(xRevenue).toBe(revenue);

    // The ledger export (Excel): the same kinds, by their Spanish names, add up to the same.
    const ledgerSheet = await sheetOf((await exportReport(made.ctx, { organizationId, kind: "libro-mayor", format: "xlsx", eventId })).body);
    const revenueKinds = ["Pago", "Cargo por servicio", "Devolución", "Cargo por servicio devuelto", "Contracargo"];
    const ledgerRows = ledgerSheet.slice(1).map((r) => r.values);
    const ledgerRevenue = ledgerRows.filter((r) => revenueKinds.includes(r[1] as string)).reduce((sum, r) => sum + Math.round((r[4] as number) * 100), 0);
    expect(ledgerRevenue).toBe(revenue);
    expect(new Set(ledgerRows.map((r) => r[1]))).toEqual(new Set(["Pago", "Cargo por servicio", "Devolución", "Cargo por servicio devuelto", "Cobrado fuera de Tribuna"]));
  });
});

describe("Excel exports", () => {
  it("write amounts as numbers in pesos and dates as dates (Buenos Aires time), with Spanish headers and values", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_600_000, stock: 100 }]);
    const db = await getDb();
    const { order, billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    const [paid] = await db.select().from(orders).where(eq(orders.id, order.id));

    const sales = await sheetOf((await exportReport(made.ctx, { organizationId: made.organization.id, kind: "ventas", format: "xlsx" })).body);
    expect(sales[0].values).toEqual(["Fecha", "Compra", "Evento", "Nombre", "Apellido", "Email", "Documento", "Teléfono", "Medio de pago", "Estado", "Subtotal", "Descuento", "Cargo por servicio", "Total", "Recaudación", "RRPP", "Datos extra"]);
    const row = sales[1];
    const [date] = row.values as [Date];
    expect(date).toBeInstanceOf(Date);
    // Buenos Aires wall-clock time (UTC−3), as a zone-less Excel date.
    expect(date.getTime()).toBe(Math.floor(paid.createdAt.getTime() / 1000) * 1000 - 3 * 3600_000);
    expect(row.numFmts[0]).toBe("dd/mm/yyyy hh:mm");
    expect(row.values.slice(8, 10)).toEqual(["Mercado Pago", "Aprobada"]);
    expect(row.values[10]).toBe(16_000);
    expect(typeof row.values[13]).toBe("number");
    expect(row.values[13]).toBe(paid.total / 100);
    expect(row.values[14]).toBe(16_000);
    expect(row.numFmts[10]).toBe('"$ "#,##0.00');

    const ledger = await sheetOf((await exportReport(made.ctx, { organizationId: made.organization.id, kind: "libro-mayor", format: "xlsx" })).body);
    expect(ledger[0].values).toEqual(["Fecha", "Tipo", "Descripción", "Compra", "Monto"]);
    expect(ledger.slice(1).map((r) => [r.values[1], r.values[4]])).toEqual([
      ["Pago", paid.total / 100],
      ["Cargo por servicio", -paid.serviceFee / 100],
    ]);
    expect(ledger[1].values[0]).toBeInstanceOf(Date);
  });
});
