import { LEDGER_KIND_NAMES as SHARED_LEDGER_KIND_NAMES } from "#common/ledger";
import { seatLabel } from "#common/seating";
import { once } from "node:events";
import { PassThrough, Readable, type Writable } from "node:stream";
import { setTimeout } from "node:timers/promises";
import { and, asc, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { couponRedemptions, coupons, eventDates, events, issuedProducts, ledgerEntries, orders, organizations, ticketTypes, type LedgerKind, type OrderPaymentMethod } from "#server/db/schema";
import { requireCapability, type Capability } from "#server/organizations/permissions";
import { displayStatus } from "#server/orders/status";
import { parseInput } from "#server/validation";
import { accreditationCells, accreditationsPage, ACCREDITATION_COLUMNS } from "#server/door/accreditations";
import { csvRow, DATE_FORMAT, DAY_FORMAT, fileDate, MONEY_FORMAT, xlsxValue, type CellKind, type CellValue, type Column } from "#server/csv/cells";
import { INVOICE_EXPORT_COLUMNS, INVOICE_EXPORT_MESSAGES, invoiceExportPage, PERIOD_PATTERN, requireInvoiceExport } from "#server/invoicing/export";

/*
 * `/organizacion/informes`: the organization's data as CSV or XLSX (the sales columns: decision 153).
 * Every export is streamed: rows are read in pages of PAGE_ROWS by keyset
 * (created_at, id) and written out as they come, so 100,000 rows never sit in
 * memory at once (bench: `npm run bench:exports`).
 */

const PAGE_ROWS = 1000;

export const EXPORT_KINDS = ["ventas", "asistentes", "acreditaciones", "cupones", "rrpp", "libro-mayor", "facturas"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const EXPORT_FORMATS = ["csv", "xlsx"] as const;

const PAYMENT_METHOD_NAMES: Record<OrderPaymentMethod, string> = { MERCADO_PAGO: "Mercado Pago", BANK_TRANSFER: "Transferencia", FREE: "Sin cargo", PROMOTER: "En mano (RRPP)" };

/** The sales list's names of an order's state (docs/wording.md). */
const ORDER_STATE_NAMES: Record<string, string> = { approved: "Aprobada", refunded: "Devuelta", charged_back: "Contracargo", pending: "Pendiente" };

/** Every kind the database may hold has its Spanish name (common/ledger.ts). */
export const LEDGER_KIND_NAMES: Record<LedgerKind, string> = SHARED_LEDGER_KIND_NAMES;

const col = (name: string, kind: CellKind = "text"): Column => ({ name, kind });

/** Which rows an export reads: one organization's, or only those of one of its events; a platform export, the month's. */
interface ExportScope {
  organizationId: string;
  eventId: string | null;
  /** yyyy-MM: only `facturas` reads it (decision 234). */
  period: string | null;
}

interface Exporter {
  /** The sheet's name in the XLSX. */
  title: string;
  /** What the actor needs in the organization to take it; "platform": only the platform team, and it covers every organization. */
  capability: Capability | "platform";
  columns: Column[];
  /** One page of rows after `after` (the last row's keyset), already as cell values (see ./cells.ts). */
  page(db: DbOrTx, scope: ExportScope, after: Cursor | null): Promise<{ rows: CellValue[][]; last: Cursor | null }>;
}

/**
 * Where a page ended: the time as PostgreSQL prints it (microseconds kept: a
 * JS Date would round them away and re-read or skip rows) and the row's id.
 */
export interface Cursor {
  at: string;
  id: string;
}

/** Rows strictly after (at, id): a row comparison the (…, created_at) indexes serve in order, page after page. */
export function after(atColumn: AnyPgColumn, idColumn: AnyPgColumn, cursor: Cursor | null) {
  if (!cursor) return undefined;
  // The first condition is the one an index on (…, created_at) can start from; the second breaks ties.
  return sql`${atColumn} >= ${cursor.at}::timestamptz and (${atColumn}, ${idColumn}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
}

/** The column as the cursor keeps it. */
export function cursorText(column: AnyPgColumn) {
  return sql<string>`${column}::text`;
}

/** Every export, by the kind a page or an integrator asks for: adding one is adding an entry here. */
const EXPORTERS: Record<ExportKind, Exporter> = {
  ventas: {
    title: "Ventas",
    capability: "sales:read",
    columns: [
      col("Fecha", "date"),
      col("Compra"),
      col("Evento"),
      col("Nombre"),
      col("Apellido"),
      col("Email"),
      col("Documento"),
      col("Teléfono"),
      col("Medio de pago"),
      col("Estado"),
      col("Subtotal", "money"),
      col("Descuento", "money"),
      col("Cargo por servicio", "money"),
      col("Total", "money"),
      col("Recaudación", "money"),
      col("RRPP"),
      col("Datos extra"),
    ],
    async page(db, { organizationId, eventId }, cursor) {
      // Every billed order that is not an invitation, however it was paid (a promoter's cash, a free ticket
      // too), with its state: the "Aprobada" rows' Recaudación adds up to the summary's (decision 153).
      const rows = await db
        .select({
          order: orders,
          eventName: events.name,
          keyAt: cursorText(orders.createdAt),
          billingStatus: sql<string | null>`(select b.status from billings b where b.order_id = ${orders.id} order by case b.status when 'approved' then 0 when 'charged_back' then 1 when 'refunded' then 2 else 3 end, b.created_at desc limit 1)`,
        })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(
          and(
            eq(orders.organizationId, organizationId),
            eq(orders.status, "billed"),
            eq(orders.gift, false),
            eventId ? eq(orders.eventId, eventId) : undefined,
            after(orders.createdAt, orders.id, cursor),
          ),
        )
        .orderBy(asc(orders.createdAt), asc(orders.id))
        .limit(PAGE_ROWS);
      return {
        rows: rows.map(({ order: o, eventName, billingStatus }) => {
          const state = displayStatus(o.status, billingStatus);
          return [
          o.createdAt,
          o.code,
          eventName,
          o.payer.firstName,
          o.payer.lastName,
          o.payer.email,
          o.payer.documentNumber,
          o.payer.phoneNumber,
          PAYMENT_METHOD_NAMES[o.paymentMethod],
          state ? (ORDER_STATE_NAMES[state] ?? "") : "",
          o.subtotal,
          o.discount,
          o.serviceFee,
          o.total,
          // What the sale brings the organization while it stands (server/reports/paid.ts); 0 once undone.
          state === "approved" ? o.subtotal - o.discount : 0,
          o.referredNick ?? "",
          (o.customFields ?? []).map((f) => `${f.label}: ${f.value}`).join(" · "),
          ];
        }),
        last: rows.length ? { at: rows.at(-1)!.keyAt, id: rows.at(-1)!.order.id } : null,
      };
    },
  },
  asistentes: {
    title: "Asistentes",
    capability: "sales:read",
    columns: [col("Titular"), col("Email"), col("Tipo de entrada"), col("Compra"), col("Evento"), col("Fecha del evento", "date"), col("Estado"), col("Ingresó", "date"), col("Puerta"), col("Datos extra"), col("Ubicación")],
    async page(db, { organizationId, eventId }, cursor) {
      const rows = await db
        .select({ ticket: issuedProducts, keyAt: cursorText(issuedProducts.createdAt), orderCode: orders.code, customFields: orders.customFields, eventName: events.name, startsAt: eventDates.startsAt, typeName: ticketTypes.name })
        .from(issuedProducts)
        .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
        .innerJoin(events, eq(events.id, issuedProducts.eventId))
        .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
        .innerJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
        .where(
          and(
            eq(events.organizationId, organizationId),
            eq(ticketTypes.kind, "ticket"),
            eventId ? eq(issuedProducts.eventId, eventId) : undefined,
            after(issuedProducts.createdAt, issuedProducts.id, cursor),
          ),
        )
        .orderBy(asc(issuedProducts.createdAt), asc(issuedProducts.id))
        .limit(PAGE_ROWS);
      return {
        rows: rows.map((r) => [
          r.ticket.holderName,
          r.ticket.holderEmail,
          r.typeName,
          r.orderCode,
          r.eventName,
          r.startsAt,
          r.ticket.status === "redeemed" ? "Ingresó" : r.ticket.status === "voided" ? "Anulada" : "Válida",
          r.ticket.redeemedAt,
          r.ticket.redeemedDoor ?? "",
          (r.customFields ?? []).map((f) => `${f.label}: ${f.value}`).join(" · "),
          // Reserved seating (docs/seating.md): empty for general admission; last, so no column read by position moves (decision 232).
          seatLabel({ section: r.ticket.seatSection, row: r.ticket.seatRow, number: r.ticket.seatNumber }) ?? "",
        ]),
        last: rows.length ? { at: rows.at(-1)!.keyAt, id: rows.at(-1)!.ticket.id } : null,
      };
    },
  },
  acreditaciones: {
    title: "Acreditaciones",
    capability: "sales:read",
    columns: ACCREDITATION_COLUMNS,
    async page(db, { organizationId, eventId }, cursor) {
      const rows = await accreditationsPage(db, { organizationId, eventId }, cursor, PAGE_ROWS);
      return { rows: rows.map(accreditationCells), last: rows.length ? { at: rows.at(-1)!.keyAt, id: rows.at(-1)!.issuedProductId } : null };
    },
  },
  cupones: {
    title: "Usos de cupones",
    capability: "sales:read",
    columns: [col("Fecha", "date"), col("Cupón"), col("Compra"), col("Evento"), col("Descuento", "money"), col("Devuelto (compra sin pagar)")],
    async page(db, { organizationId, eventId }, cursor) {
      const rows = await db
        .select({ use: couponRedemptions, keyAt: cursorText(couponRedemptions.createdAt), code: coupons.code, orderCode: orders.code, eventName: events.name })
        .from(couponRedemptions)
        .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
        .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(and(eq(orders.organizationId, organizationId), eventId ? eq(orders.eventId, eventId) : undefined, after(couponRedemptions.createdAt, couponRedemptions.orderId, cursor)))
        .orderBy(asc(couponRedemptions.createdAt), asc(couponRedemptions.orderId))
        .limit(PAGE_ROWS);
      return {
        rows: rows.map((r) => [r.use.createdAt, r.code, r.orderCode, r.eventName, r.use.discount, r.use.releasedAt ? "Sí" : "No"]),
        last: rows.length ? { at: rows.at(-1)!.keyAt, id: rows.at(-1)!.use.orderId } : null,
      };
    },
  },
  rrpp: {
    title: "Ventas de RRPP",
    capability: "sales:read",
    columns: [col("Fecha", "date"), col("Compra"), col("Evento"), col("RRPP"), col("Medio de pago"), col("Entradas", "int"), col("Ingresaron", "int"), col("Anuladas", "int"), col("Total", "money"), col("Estado")],
    async page(db, { organizationId, eventId }, cursor) {
      // Every paid order attributed to a promoter (docs/promoters.md): through their link or sold in hand.
      const rows = await db
        .select({
          order: orders,
          keyAt: cursorText(orders.createdAt),
          eventName: events.name,
          tickets: sql<number>`(select count(*)::int from issued_products p where p.order_id = ${orders.id})`,
          entered: sql<number>`(select count(*)::int from issued_products p where p.order_id = ${orders.id} and p.status = 'redeemed')`,
          voided: sql<number>`(select count(*)::int from issued_products p where p.order_id = ${orders.id} and p.status = 'voided')`,
        })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(
          and(
            eq(orders.organizationId, organizationId),
            isNotNull(orders.promoterUserId),
            eq(orders.gift, false),
            sql`exists (select 1 from issued_products p where p.order_id = ${orders.id})`,
            eventId ? eq(orders.eventId, eventId) : undefined,
            after(orders.createdAt, orders.id, cursor),
          ),
        )
        .orderBy(asc(orders.createdAt), asc(orders.id))
        .limit(PAGE_ROWS);
      return {
        rows: rows.map(({ order: o, eventName, tickets, entered, voided }) => [
          o.createdAt,
          o.code,
          eventName,
          o.referredNick ?? "",
          PAYMENT_METHOD_NAMES[o.paymentMethod],
          tickets,
          entered,
          voided,
          o.total,
          voided === tickets ? "Anulada" : "Pagada",
        ]),
        last: rows.length ? { at: rows.at(-1)!.keyAt, id: rows.at(-1)!.order.id } : null,
      };
    },
  },
  "libro-mayor": {
    title: "Libro mayor",
    capability: "money:manage",
    columns: [col("Fecha", "date"), col("Tipo"), col("Descripción"), col("Compra"), col("Monto", "money")],
    async page(db, { organizationId, eventId }, cursor) {
      const rows = await db
        .select({ entry: ledgerEntries, orderCode: orders.code })
        .from(ledgerEntries)
        .leftJoin(orders, eq(orders.id, ledgerEntries.orderId))
        .where(
          and(
            eq(ledgerEntries.organizationId, organizationId),
            eventId ? or(eq(orders.eventId, eventId), isNull(ledgerEntries.orderId)) : undefined,
            // The ledger is append-only with a growing id: the id alone is the keyset.
            cursor ? gt(ledgerEntries.id, Number(cursor.id)) : undefined,
          ),
        )
        .orderBy(asc(ledgerEntries.id))
        .limit(PAGE_ROWS);
      return {
        rows: rows.map((r) => [r.entry.createdAt, LEDGER_KIND_NAMES[r.entry.kind] ?? r.entry.kind, r.entry.description, r.orderCode ?? "", r.entry.amount]),
        last: rows.length ? { at: "", id: String(rows.at(-1)!.entry.id) } : null,
      };
    },
  },
  // Tribuna's own vouchers for its accountant: the whole platform, by month of emission (decision 234).
  facturas: {
    title: "Facturas y notas de crédito",
    capability: "platform",
    columns: INVOICE_EXPORT_COLUMNS,
    page: (db, { period }, cursor) => invoiceExportPage(db, period, cursor, PAGE_ROWS),
  },
};

const MAX_PENDING_XML_BYTES = 1024 * 1024;

/**
 * exceljs writes a sheet's XML into the zip's input without waiting (it
 * ignores `write()`'s answer), so on a big sheet the XML piles up in memory
 * while it is deflated (bench:exports: +212 MB at 300,000 rows). Between
 * pages, wait until the zip's input stream has taken all but 1 MB. That
 * stream is archiver's PassThrough (readable-stream 2, hence `_writableState`).
 */
async function zipCaughtUp(sheetStream: { pipes?: NodeJS.WritableStream[] }) {
  const pending = (pipe: NodeJS.WritableStream) => (pipe as { _writableState?: { length: number } })._writableState?.length ?? (pipe as Writable).writableLength ?? 0;
  for (;;) {
    const full = (sheetStream.pipes ?? []).find((pipe) => pending(pipe) > MAX_PENDING_XML_BYTES);
    if (!full) return;
    // The timeout re-checks in case a drain came before we listened; the abort removes the losing listener.
    const done = new AbortController();
    await Promise.race([once(full as Writable, "drain", { signal: done.signal }), setTimeout(50, undefined, { signal: done.signal })]).catch(() => undefined);
    done.abort();
  }
}

/** Every page of an export, one after the other (never all at once). */
async function* pagesOf(db: DbOrTx, exporter: Exporter, scope: ExportScope): AsyncGenerator<CellValue[][]> {
  let cursor: Cursor | null = null;
  for (;;) {
    const { rows, last } = await exporter.page(db, scope, cursor);
    if (rows.length) yield rows;
    if (rows.length < PAGE_ROWS || !last) return;
    cursor = last;
  }
}

const exportSchema = z.object({
  organizationId: z.uuid({ error: "Identificador inválido." }),
  kind: z.enum(EXPORT_KINDS, { error: "Elegí qué querés exportar." }),
  format: z.enum(EXPORT_FORMATS, { error: "Elegí CSV o Excel." }).default("csv"),
  eventId: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.uuid({ error: "Identificador inválido." }).optional()),
  /** yyyy-MM, the month of emission: only `facturas` reads it. */
  period: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().regex(PERIOD_PATTERN, { error: INVOICE_EXPORT_MESSAGES.period }).optional()),
});

export interface ExportFile {
  filename: string;
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

/** What a page or an integrator asks for: the kind and format as typed (checked here, BAD_USER_INPUT when unknown). */
export type ExportInput = Omit<z.input<typeof exportSchema>, "kind" | "format"> & { kind: string; format?: string };

async function authorizedExport(ctx: Ctx, rawInput: ExportInput) {
  const input = parseInput(exportSchema, rawInput);
  const capability = EXPORTERS[input.kind].capability;
  if (capability === "platform") {
    // The platform's own books: the team only, every organization, the event filter does not apply (decision 234).
    requireInvoiceExport(ctx);
    const period = input.period ?? null;
    const filename = `${[input.kind, period && `periodo-${period}`, fileDate(ctx.now)].filter(Boolean).join("-")}.${input.format}`;
    return { ...input, eventId: undefined, period: period ?? undefined, filename };
  }
  await requireCapability(ctx, input.organizationId, capability);
  let eventSlug: string | null = null;
  if (input.eventId) {
    const [event] = await ctx.db.select({ organizationId: events.organizationId, slug: events.slug }).from(events).where(eq(events.id, input.eventId));
    if (!event || event.organizationId !== input.organizationId) await requireCapability(ctx, event?.organizationId ?? "", capability);
    eventSlug = event?.slug ?? null;
  }
  // "ventas-fiesta-bresh-2026-11-28.xlsx": which event (when one is picked) and the Buenos Aires day it was taken.
  const filename = `${[input.kind, eventSlug, fileDate(ctx.now)].filter(Boolean).join("-")}.${input.format}`;
  return { ...input, period: undefined, filename };
}

/**
 * `reportDownload` (GraphQL): where to download an export the actor may take,
 * checked as the download itself is. Integrators GET the path with their
 * `x-access-token` header; the file streams like the page's (a GraphQL
 * answer would have to hold it whole in memory).
 */
export async function exportDownloadPath(ctx: Ctx, rawInput: ExportInput): Promise<{ path: string; filename: string }> {
  const input = await authorizedExport(ctx, rawInput);
  const query = new URLSearchParams({ tipo: input.kind, formato: input.format, organizationId: input.organizationId, ...(input.eventId ? { eventId: input.eventId } : {}), ...(input.period ? { mes: input.period } : {}) });
  return { path: `/organizacion/informes/descargar?${query}`, filename: input.filename };
}

/**
 * The day the spreadsheets' "Orden" column became "Compra" (docs/wording.md). Only an organization that
 * existed before it can have sheets that look the old name up, so only those see the notice, and for 90
 * days (decision 154): downloads are not recorded, the organization's age is what we know.
 */
export const ORDER_COLUMN_RENAMED_AT = new Date("2026-11-27T03:54:12Z");
const RENAME_NOTICE_DAYS = 90;

/** `/organizacion/informes`' notices: whether to tell this organization about the renamed column. Needs sales:read. */
export async function exportNotices(ctx: Ctx, organizationId: string): Promise<{ orderColumnRenamed: boolean }> {
  await requireCapability(ctx, organizationId, "sales:read");
  const [organization] = await ctx.db.select({ createdAt: organizations.createdAt }).from(organizations).where(eq(organizations.id, organizationId));
  const stillNews = ctx.now.getTime() < ORDER_COLUMN_RENAMED_AT.getTime() + RENAME_NOTICE_DAYS * 24 * 3600_000;
  return { orderColumnRenamed: Boolean(organization && organization.createdAt < ORDER_COLUMN_RENAMED_AT && stillNews) };
}

/**
 * `exportReport`: the export as a stream. CSV in UTF-8 with BOM (Excel reads
 * the accents), XLSX written by exceljs' streaming writer. Sales, attendees
 * and coupons need sales:read; the ledger money:manage; the invoices the platform team.
 */
export async function exportReport(ctx: Ctx, rawInput: ExportInput): Promise<ExportFile> {
  const input = await authorizedExport(ctx, rawInput);
  const exporter = EXPORTERS[input.kind];
  const scope: ExportScope = { organizationId: input.organizationId, eventId: input.eventId ?? null, period: input.period ?? null };
  const { columns } = exporter;
  if (input.format === "csv") {
    const encoder = new TextEncoder();
    const header = columns.map((c) => ({ name: c.name, kind: "text" as const }));
    async function* lines() {
      yield encoder.encode(`\uFEFF${csvRow(header, columns.map((c) => c.name))}`);
      // One chunk per page: a chunk per line would cost a trip through the stream machinery each (bench:exports).
      for await (const rows of pagesOf(ctx.db, exporter, scope)) yield encoder.encode(rows.map((row) => csvRow(columns, row)).join(""));
    }
    return { filename: input.filename, contentType: "text/csv; charset=utf-8", body: Readable.toWeb(Readable.from(lines())) as ReadableStream<Uint8Array> };
  }
  const { default: ExcelJS } = await import("exceljs");
  const out = new PassThrough();
  // Styles on: amounts and dates carry their number format (pesos, dd/mm/aaaa hh:mm).
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(exporter.title, { views: [{ state: "frozen", ySplit: 1 }] });
  // One style object per column, given to each of its cells: exceljs recognises a style object it has seen
  // (a WeakMap) instead of working the style out again for every cell (3× the time on bench:exports).
  const styles = columns.map((c) => (c.kind === "money" ? { numFmt: MONEY_FORMAT } : c.kind === "date" ? { numFmt: DATE_FORMAT } : c.kind === "day" ? { numFmt: DAY_FORMAT } : {}));
  sheet.columns = columns.map((c, i) => ({ key: `c${i}`, width: c.kind === "date" ? 17 : c.kind === "money" ? 14 : Math.max(12, c.name.length + 2) }));
  const header = columns.map((c) => c.name);
  void (async () => {
    try {
      const top = sheet.addRow(header);
      top.eachCell((cell) => void (cell.style = {}));
      top.commit();
      for await (const rows of pagesOf(ctx.db, exporter, scope)) {
        for (const values of rows) {
          const row = sheet.addRow(values.map((value, i) => xlsxValue(columns[i].kind, value)));
          for (let i = 0; i < styles.length; i++) row.getCell(i + 1).style = styles[i];
          row.commit();
        }
        await zipCaughtUp((sheet as unknown as { stream: { pipes?: NodeJS.WritableStream[] } }).stream);
      }
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return {
    filename: input.filename,
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    body: Readable.toWeb(out) as ReadableStream<Uint8Array>,
  };
}
