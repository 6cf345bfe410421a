import { and, asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { DateTime } from "luxon";
import { TIME_ZONE } from "#common/dates";
import { hasRole, type Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { billingTaxDetails, events, invoices, orders, organizations, type InvoiceKind, type InvoiceStatus } from "#server/db/schema";
import type { CellValue, Column } from "#server/csv/cells";
import { requirePlatformAdmin } from "#server/organizations/permissions";
import { RECEIVER_IVA_LABEL } from "./pdf";
import { DOC_TYPE } from "./rules";

/*
 * The accountant's export of our own vouchers (docs/invoicing.md, decision 234): every invoice and credit
 * note of Tribuna's service charge, one row each, for the platform team only. `/organizacion/informes` lists
 * it as the report kind `facturas` (server/reports/exports.ts streams and writes it like every other kind);
 * this module says who may take it, which rows and what each cell holds.
 */

export const INVOICE_EXPORT_MESSAGES = {
  onlyPlatform: "Solo el equipo de Tribuna puede bajar las facturas y notas de crédito.",
  period: "Elegí un mes de la lista.",
} as const;

/** The months the page offers: "2026-11" (yyyy-MM, Buenos Aires). */
export const PERIOD_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
const MONTHS_OFFERED = 24;

/** Whether the actor is on the platform team, the only one who takes this export (the page lists it only then). */
export function mayExportInvoices(ctx: Ctx): boolean {
  return ctx.actor.kind === "user" && hasRole(ctx.actor, "admin");
}

/** The rule itself: FORBIDDEN for anyone but the platform team (UNAUTHENTICATED without a session). */
export function requireInvoiceExport(ctx: Ctx): void {
  requirePlatformAdmin(ctx, INVOICE_EXPORT_MESSAGES.onlyPlatform);
}

/** The page's month select: this month and the 23 before it, newest first ("noviembre de 2026"). */
export function invoiceExportMonths(now: Date): { value: string; label: string }[] {
  const start = DateTime.fromJSDate(now).setZone(TIME_ZONE).setLocale("es-AR").startOf("month");
  return Array.from({ length: MONTHS_OFFERED }, (_, i) => {
    const month = start.minus({ months: i });
    return { value: month.toFormat("yyyy-MM"), label: month.toFormat("LLLL 'de' yyyy") };
  });
}

const col = (name: string, kind: Column["kind"] = "text"): Column => ({ name, kind });

export const INVOICE_EXPORT_COLUMNS: Column[] = [
  col("Fecha de emisión", "day"),
  col("Tipo de comprobante"),
  col("Punto de venta", "int"),
  col("Número"),
  col("CAE"),
  col("Vencimiento del CAE", "day"),
  col("Tipo de documento del receptor"),
  col("Documento del receptor"),
  col("Receptor (nombre o razón social)"),
  col("Condición frente al IVA del receptor"),
  col("Importe neto gravado", "money"),
  col("IVA 21 %", "money"),
  col("Importe total", "money"),
  col("Comprobante asociado"),
  col("Estado"),
  col("Motivo del rechazo"),
  col("Compra"),
  col("Evento"),
  col("Organización"),
  col("Ambiente"),
];

const KIND_NAMES: Record<InvoiceKind, string> = { invoice: "Factura", credit_note: "Nota de crédito" };
/** `sending` is numbered but has no CAE yet: for the accountant, still pending. */
const STATUS_NAMES: Record<InvoiceStatus, string> = { pending: "Pendiente", sending: "Pendiente", authorised: "Autorizado", rejected: "Rechazado" };
const DOC_TYPE_NAMES: Record<number, string> = { [DOC_TYPE.CUIT]: "CUIT", [DOC_TYPE.DNI]: "DNI", [DOC_TYPE.NONE]: "Sin identificar" };

/** "00007-00000042": point of sale (5 digits, as ARCA's books write it) and number; "" before it is numbered. */
export function exportVoucherNumber(pointOfSale: number, number: number | null): string {
  return number ? `${String(pointOfSale).padStart(5, "0")}-${String(number).padStart(8, "0")}` : "";
}

/** Where a page ended: the row's created_at as PostgreSQL prints it (microseconds kept) and its id. */
export interface InvoiceCursor {
  at: string;
  id: string;
}

/**
 * One page of rows after `cursor`, oldest request first, of the whole platform (decision 234): `period`
 * (yyyy-MM) keeps the vouchers of that month in Buenos Aires — by the CbteFch sent to ARCA, or by the day
 * they were requested while never sent (pending, or a credit note rejected without sending).
 */
export async function invoiceExportPage(db: DbOrTx, period: string | null, cursor: InvoiceCursor | null, limit: number): Promise<{ rows: CellValue[][]; last: InvoiceCursor | null }> {
  const associated = alias(invoices, "associated");
  const day = sql`coalesce(${invoices.voucherDate}, to_char(${invoices.createdAt} at time zone ${TIME_ZONE}, 'YYYYMMDD'))`;
  const rows = await db
    .select({
      invoice: invoices,
      keyAt: sql<string>`${invoices.createdAt}::text`,
      orderCode: orders.code,
      payer: orders.payer,
      eventName: events.name,
      organizationName: organizations.name,
      legalName: billingTaxDetails.legalName,
      associated: { kind: associated.kind, letter: associated.letter, pointOfSale: associated.pointOfSale, number: associated.number },
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(organizations, eq(organizations.id, orders.organizationId))
    .leftJoin(billingTaxDetails, eq(billingTaxDetails.billingId, invoices.billingId))
    .leftJoin(associated, eq(associated.id, invoices.invoiceId))
    .where(
      and(
        period ? sql`${day} like ${`${period.replace("-", "")}%`}` : undefined,
        cursor ? sql`${invoices.createdAt} >= ${cursor.at}::timestamptz and (${invoices.createdAt}, ${invoices.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(invoices.createdAt), asc(invoices.id))
    .limit(limit);
  return {
    rows: rows.map(({ invoice: v, orderCode, payer, eventName, organizationName, legalName, associated: a }) => {
      const payerName = `${payer.firstName} ${payer.lastName}`.trim();
      return [
        // Emitted once numbered: a rejected voucher keeps the day it was tried, but ARCA never emitted it.
        v.number ? v.voucherDate : null,
        `${KIND_NAMES[v.kind]} ${v.letter}`,
        v.pointOfSale,
        exportVoucherNumber(v.pointOfSale, v.number),
        v.cae,
        v.caeDueDate,
        DOC_TYPE_NAMES[v.receiverDocType] ?? String(v.receiverDocType),
        v.receiverDocType === DOC_TYPE.NONE ? "" : v.receiverDocNumber,
        // The name the PDF prints: the razón social given with the CUIT, else the payer.
        (v.receiverDocType === DOC_TYPE.CUIT ? legalName : null) || payerName || "Consumidor final",
        RECEIVER_IVA_LABEL[v.receiverIvaCondition] ?? String(v.receiverIvaCondition),
        v.net,
        v.vat,
        v.total,
        a?.kind ? `${KIND_NAMES[a.kind]} ${a.letter} ${exportVoucherNumber(a.pointOfSale, a.number) || "(sin número)"}` : "",
        STATUS_NAMES[v.status],
        v.status === "rejected" ? [...v.errors, ...v.observations].map((m) => `${m.code}: ${m.message}`).join(" · ") : "",
        orderCode,
        eventName,
        organizationName,
        v.environment === "produccion" ? "Producción" : "Homologación (sin validez fiscal)",
      ];
    }),
    last: rows.length ? { at: rows.at(-1)!.keyAt, id: rows.at(-1)!.invoice.id } : null,
  };
}
