import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { billings, orders } from "./orders";

/*
 * Electronic invoicing of Tribuna's service charge with ARCA (docs/invoicing.md, decisions 211–213).
 */

export const INVOICE_KINDS = ["invoice", "credit_note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
export const INVOICE_LETTERS = ["A", "B", "C"] as const;
export type InvoiceLetter = (typeof INVOICE_LETTERS)[number];
/**
 * pending: waiting for its job; sending: numbered and sent, ARCA's answer not recorded yet (a timeout, a crash):
 * the next attempt asks ARCA before sending again; authorised: has a CAE; rejected: ARCA said no (its codes kept).
 */
export const INVOICE_STATUSES = ["pending", "sending", "authorised", "rejected"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** One ARCA message: an error (`Errors/Err`), an observation (`Observaciones/Obs`) or an event, as ARCA wrote it. */
export interface ArcaMessage {
  code: number;
  message: string;
}

/** An invoice (factura) or credit note (nota de crédito) of our service charge on one billing. */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<InvoiceKind>().notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    billingId: uuid("billing_id")
      .notNull()
      .references(() => billings.id),
    /** A credit note: the invoice it cancels (CbtesAsoc). */
    invoiceId: uuid("invoice_id"),
    environment: text("environment").notNull(),
    issuerCuit: text("issuer_cuit").notNull(),
    pointOfSale: integer("point_of_sale").notNull(),
    letter: text("letter").$type<InvoiceLetter>().notNull(),
    /** ARCA's CbteTipo: 1 Factura A, 3 NC A, 6 Factura B, 8 NC B, 11 Factura C, 13 NC C. */
    voucherType: integer("voucher_type").notNull(),
    /** Given under the point of sale's lease, once, when first sent; kept across retries. */
    number: integer("number"),
    status: text("status").$type<InvoiceStatus>().notNull().default("pending"),
    /** Integer centavos: total = net + vat (vat 0 for a C). */
    total: integer("total").notNull(),
    net: integer("net").notNull(),
    vat: integer("vat").notNull(),
    /** The receiver as sent: DocTipo (80 CUIT, 96 DNI, 99 final consumer), DocNro, CondicionIVAReceptorId (RG 5616). */
    receiverDocType: integer("receiver_doc_type").notNull(),
    receiverDocNumber: text("receiver_doc_number").notNull(),
    receiverIvaCondition: integer("receiver_iva_condition").notNull(),
    /** CbteFch as sent (yyyymmdd), kept so a retry sends the same voucher. */
    voucherDate: text("voucher_date"),
    cae: text("cae"),
    /** yyyy-mm-dd. */
    caeDueDate: text("cae_due_date"),
    errors: jsonb("errors").$type<ArcaMessage[]>().notNull().default([]),
    observations: jsonb("observations").$type<ArcaMessage[]>().notNull().default([]),
    /** Why the last attempt did not finish (ARCA down, a timeout): the job retries. */
    lastError: text("last_error"),
    attempts: integer("attempts").notNull().default(0),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    authorisedAt: timestamp("authorised_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_billing_kind_key").on(t.billingId, t.kind),
    uniqueIndex("invoices_number_key").on(t.environment, t.issuerCuit, t.pointOfSale, t.voucherType, t.number).where(sql`number is not null`),
    index("invoices_order_idx").on(t.orderId),
    index("invoices_status_idx").on(t.status, t.createdAt),
    check("invoices_kind_check", sql`${t.kind} in ('invoice','credit_note')`),
    check("invoices_letter_check", sql`${t.letter} in ('A','B','C')`),
    check("invoices_status_check", sql`${t.status} in ('pending','sending','authorised','rejected')`),
    check("invoices_amounts_check", sql`${t.total} > 0 and ${t.net} >= 0 and ${t.vat} >= 0 and ${t.net} + ${t.vat} = ${t.total}`),
  ],
);

/**
 * One row per numbering sequence (environment, CUIT, point of sale, voucher type): a lease that lets one
 * process at a time number and send, so numbers go out in order with no duplicate and no gap (decision 212).
 */
export const invoiceSequences = pgTable(
  "invoice_sequences",
  {
    environment: text("environment").notNull(),
    issuerCuit: text("issuer_cuit").notNull(),
    pointOfSale: integer("point_of_sale").notNull(),
    voucherType: integer("voucher_type").notNull(),
    holder: text("holder"),
    heldUntil: timestamp("held_until", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.environment, t.issuerCuit, t.pointOfSale, t.voucherType] })],
);

/** WSAA's access ticket (token and sign) per environment, CUIT and service, shared by every process until it expires. */
export const arcaTickets = pgTable(
  "arca_tickets",
  {
    environment: text("environment").notNull(),
    cuit: text("cuit").notNull(),
    service: text("service").notNull(),
    token: text("token").notNull(),
    sign: text("sign").notNull(),
    generatedAt: timestamp("generated_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.environment, t.cuit, t.service] })],
);

/**
 * What the buyer typed to get a Factura A (CUIT and IVA condition, RG 5616); no row: a final consumer.
 * The payer step's «Necesito factura A» and createOrder's `invoice` fill it (decision 217, docs/invoicing.md).
 */
export const billingTaxDetails = pgTable(
  "billing_tax_details",
  {
    billingId: uuid("billing_id")
      .primaryKey()
      .references(() => billings.id, { onDelete: "cascade" }),
    cuit: text("cuit").notNull(),
    /** CondicionIVAReceptorId: 1 Responsable Inscripto, 4 Exento, 5 Consumidor Final, 6 Monotributo… */
    ivaCondition: integer("iva_condition").notNull(),
    legalName: text("legal_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("billing_tax_details_cuit_check", sql`${t.cuit} ~ '^[0-9]{11}$'`)],
);

export type InvoiceRow = typeof invoices.$inferSelect;
