import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billingTaxDetails, invoices, ticketTypes, type InvoiceRow } from "#server/db/schema";
import { runDueJobs } from "#server/jobs/queue";
import { jobHandlers } from "#server/worker/handlers";
import { createOrder } from "#server/orders/orders";
import { requestRefund } from "#server/refunds/refunds";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { exportReport } from "#server/reports/exports";
import { DAY_FORMAT, fileDate, MONEY_FORMAT } from "#server/csv/cells";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { arcaForThisFile, arcaMock } from "#tests/support/msw/arca";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { ISSUE_INVOICE_JOB } from "./invoices";
import { RECEIVER_IVA } from "./rules";

// ARCA (homologación) for this file, as in invoicing.test.ts: MSW stands in for ARCA only.
arcaForThisFile();

const only = { [ISSUE_INVOICE_JOB]: jobHandlers[ISSUE_INVOICE_JOB] };
async function runInvoiceJobs() {
  return runDueJobs(await getDb(), only, new Date(), 50, { kinds: [ISSUE_INVOICE_JOB] });
}

async function invoicesOf(billingId: string): Promise<InvoiceRow[]> {
  return (await getDb()).select().from(invoices).where(eq(invoices.billingId, billingId)).orderBy(invoices.createdAt);
}

async function text(body: ReadableStream<Uint8Array>) {
  return new Response(body).text();
}

/** "06/12/2026" for a CbteFch "20261206". */
function day(yyyymmdd: string) {
  return `${yyyymmdd.slice(6, 8)}/${yyyymmdd.slice(4, 6)}/${yyyymmdd.slice(0, 4)}`;
}

const money = (centavos: number) => (centavos / 100).toFixed(2).replace(".", ",");
const thisMonth = fileDate(new Date()).slice(0, 7);

let n = 0;
async function salesOf() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 40, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const pay = async (options: { taxDetails?: { cuit: string; ivaCondition: number; legalName: string }; at?: Date } = {}) => {
    n += 1;
    const email = `contador${n}@example.com`;
    const at = options.at ?? new Date();
    const { order, billing } = await createOrder(await ctxAs(ANONYMOUS, at), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    if (options.taxDetails) await db.insert(billingTaxDetails).values({ billingId: billing.id, ...options.taxDetails });
    expect((await payInSandbox(db, billing.id, "approved", at))?.result.outcome).toBe("approved");
    return { order, billing, email };
  };
  return { producer, event, pay };
}

describe("the accountant's export of invoices and credit notes (facturas)", () => {
  it("the platform team downloads every voucher as CSV and Excel: an authorised invoice and its credit note with their numbers, CAE and amounts; pending and rejected ones with their state", async () => {
    const sales = await salesOf();
    // An authorised Factura B, then the buyer's withdrawal: its Nota de crédito B, authorised too.
    const refunded = await sales.pay({ at: new Date(Date.now() - 60_000) });
    await runInvoiceJobs();
    expect((await requestRefund(await ctxAs(ANONYMOUS), { orderCode: refunded.order.code, email: refunded.email, reason: "Me arrepentí" })).outcome).toBe("refunded");
    await runInvoiceJobs();
    const [invoice, note] = await invoicesOf(refunded.billing.id);
    expect(invoice).toMatchObject({ kind: "invoice", letter: "B", status: "authorised" });
    expect(note).toMatchObject({ kind: "credit_note", letter: "B", status: "authorised", invoiceId: invoice.id });
    // A Factura A to a company that gave its CUIT.
    const company = await sales.pay({ taxDetails: { cuit: "20301234565", ivaCondition: RECEIVER_IVA.RESPONSABLE_INSCRIPTO, legalName: "Gómez Producciones S.R.L." } });
    await runInvoiceJobs();
    const [facturaA] = await invoicesOf(company.billing.id);
    expect(facturaA).toMatchObject({ letter: "A", status: "authorised" });
    // One ARCA rejects, one still waiting for its job.
    const refused = await sales.pay();
    arcaMock.next.push({ kind: "reject", obs: [{ code: 10013, msg: "Para comprobantes clase A y M el campo DocTipo debe ser igual a 80 (CUIT)." }] });
    await runInvoiceJobs();
    expect((await invoicesOf(refused.billing.id))[0].status).toBe("rejected");
    const waiting = await sales.pay();
    expect((await invoicesOf(waiting.billing.id))[0].status).toBe("pending");

    const admin = await createTestUser({ roles: ["admin"] });
    const ctx = await ctxAs(actorFor(admin));
    // The admin is no member of the organization: the export is the platform's, whichever organization the page is on.
    const csv = await exportReport(ctx, { organizationId: sales.producer.organization.id, kind: "facturas", format: "csv", period: thisMonth });
    expect(csv).toMatchObject({ contentType: "text/csv; charset=utf-8", filename: `facturas-periodo-${thisMonth}-${fileDate(new Date())}.csv` });
    const lines = (await text(csv.body)).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(
      '"Fecha de emisión","Tipo de comprobante","Punto de venta","Número","CAE","Vencimiento del CAE","Tipo de documento del receptor","Documento del receptor","Receptor (nombre o razón social)","Condición frente al IVA del receptor","Importe neto gravado","IVA 21 %","Importe total","Comprobante asociado","Estado","Motivo del rechazo","Compra","Evento","Organización","Ambiente"',
    );
    expect(lines).toHaveLength(1 + 5);
    const lineOf = (code: string, type: string) => lines.find((l) => l.includes(`"${code}"`) && l.includes(`"${type}"`));
    const invoiceNumber = `00007-${String(invoice.number).padStart(8, "0")}`;
    const organizationName = sales.producer.organization.name;
    expect(lineOf(refunded.order.code, "Factura B")).toBe(
      `"${day(invoice.voucherDate!)}","Factura B","7","${invoiceNumber}","${invoice.cae}","08/12/2026","DNI","30123456","Ana Gómez","Consumidor Final","${money(invoice.net)}","${money(invoice.vat)}","${money(invoice.total)}","","Autorizado","","${refunded.order.code}","${sales.event.name}","${organizationName}","Homologación (sin validez fiscal)"`,
    );
    expect(invoice.net + invoice.vat).toBe(refunded.order.serviceFee);
    expect(lineOf(refunded.order.code, "Nota de crédito B")).toBe(
      `"${day(note.voucherDate!)}","Nota de crédito B","7","00007-${String(note.number).padStart(8, "0")}","${note.cae}","08/12/2026","DNI","30123456","Ana Gómez","Consumidor Final","${money(note.net)}","${money(note.vat)}","${money(note.total)}","Factura B ${invoiceNumber}","Autorizado","","${refunded.order.code}","${sales.event.name}","${organizationName}","Homologación (sin validez fiscal)"`,
    );
    expect(lineOf(company.order.code, "Factura A")).toContain(`"CUIT","20301234565","Gómez Producciones S.R.L.","IVA Responsable Inscripto","${money(facturaA.net)}","${money(facturaA.vat)}","${money(facturaA.total)}","","Autorizado"`);
    // Neither the rejected one nor the pending one was emitted: no date, number nor CAE; the rejected one says why.
    expect(lineOf(refused.order.code, "Factura B")).toMatch(/^"","Factura B","7","","","",.*"Rechazado","10013: Para comprobantes clase A y M el campo DocTipo debe ser igual a 80 \(CUIT\)\."/);
    expect(lineOf(waiting.order.code, "Factura B")).toMatch(/^"","Factura B","7","","","",.*"Pendiente",""/);

    // Excel: the same rows, amounts as numbers in pesos with the ARS format, days as dates.
    const xlsx = await exportReport(ctx, { organizationId: sales.producer.organization.id, kind: "facturas", format: "xlsx", period: thisMonth });
    expect(xlsx.filename).toBe(`facturas-periodo-${thisMonth}-${fileDate(new Date())}.xlsx`);
    const { default: ExcelJS } = await import("exceljs");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await new Response(xlsx.body).arrayBuffer()) as never);
    const sheet = workbook.getWorksheet("Facturas y notas de crédito")!;
    expect(sheet.rowCount).toBe(1 + 5);
    const rowOf = (code: string, type: string) => {
      for (let i = 2; i <= sheet.rowCount; i++) {
        const row = sheet.getRow(i);
        if (row.getCell(17).value === code && row.getCell(2).value === type) return row;
      }
      throw new Error(`no row for ${code} ${type}`);
    };
    const noteRow = rowOf(refunded.order.code, "Nota de crédito B");
    expect(noteRow.getCell(4).value).toBe(`00007-${String(note.number).padStart(8, "0")}`);
    expect(noteRow.getCell(5).value).toBe(note.cae);
    expect(noteRow.getCell(13).value).toBe(note.total / 100);
    expect(noteRow.getCell(13).numFmt).toBe(MONEY_FORMAT);
    expect(noteRow.getCell(11).value).toBe(note.net / 100);
    expect(noteRow.getCell(12).value).toBe(note.vat / 100);
    expect(noteRow.getCell(14).value).toBe(`Factura B ${invoiceNumber}`);
    expect(noteRow.getCell(15).value).toBe("Autorizado");
    // The emission day (Buenos Aires) as a date cell; the CAE's due day too.
    const v = note.voucherDate!;
    expect(noteRow.getCell(1).value).toEqual(new Date(Date.UTC(Number(v.slice(0, 4)), Number(v.slice(4, 6)) - 1, Number(v.slice(6, 8)))));
    expect(noteRow.getCell(1).numFmt).toBe(DAY_FORMAT);
    expect(noteRow.getCell(6).value).toEqual(new Date(Date.UTC(2026, 11, 8)));
    expect(rowOf(refused.order.code, "Factura B").getCell(15).value).toBe("Rechazado");
    expect(rowOf(waiting.order.code, "Factura B").getCell(15).value).toBe("Pendiente");
    expect(rowOf(waiting.order.code, "Factura B").getCell(4).value).toBeNull();

    // Another month has none of them; without a month, every voucher of the platform.
    const lastYear = `${Number(thisMonth.slice(0, 4)) - 1}${thisMonth.slice(4)}`;
    expect((await text((await exportReport(ctx, { organizationId: sales.producer.organization.id, kind: "facturas", period: lastYear })).body)).split("\r\n").filter(Boolean)).toHaveLength(1);
    const all = await exportReport(ctx, { organizationId: sales.producer.organization.id, kind: "facturas", eventId: sales.event.id });
    // The event filter does not apply to the platform's books, nor name the file.
    expect(all.filename).toBe(`facturas-${fileDate(new Date())}.csv`);
    expect((await text(all.body)).split("\r\n").filter(Boolean)).toHaveLength(1 + 5);
    await expect(exportReport(ctx, { organizationId: sales.producer.organization.id, kind: "facturas", period: "2026-13" })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("an organizer, even of the organization the vouchers are from, is refused; without a session, UNAUTHENTICATED", async () => {
    const sales = await salesOf();
    await sales.pay();
    await runInvoiceJobs();
    for (const format of ["csv", "xlsx"]) {
      await expect(exportReport(sales.producer.ctx, { organizationId: sales.producer.organization.id, kind: "facturas", format })).rejects.toMatchObject({ code: "FORBIDDEN", message: "Solo el equipo de Tribuna puede bajar las facturas y notas de crédito." });
    }
    // Their own reports still download.
    expect((await exportReport(sales.producer.ctx, { organizationId: sales.producer.organization.id, kind: "ventas" })).filename).toMatch(/^ventas-/);
    await expect(exportReport(await ctxAs(ANONYMOUS), { organizationId: sales.producer.organization.id, kind: "facturas" })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});
