import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { events, ticketTypes } from "./events";
import { billings, orderItems, orders } from "./orders";

export const ISSUED_PRODUCT_STATUSES = ["redeemable", "redeemed", "voided"] as const;
export type IssuedProductStatus = (typeof ISSUED_PRODUCT_STATUSES)[number];

/** One per ticket unit bought (decision 38). `code` is random and unguessable: the QR carries it. */
export const issuedProducts = pgTable(
  "issued_products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    orderItemId: uuid("order_item_id")
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    code: text("code").notNull(),
    holderName: text("holder_name").notNull(),
    holderEmail: text("holder_email").notNull(),
    /** The holder's document, when the checkout asked for one per ticket or the ticket was sent to someone (decision 202). */
    holderDocumentType: text("holder_document_type"),
    holderDocumentNumber: text("holder_document_number"),
    status: text("status").$type<IssuedProductStatus>().notNull().default("redeemable"),
    redeemedAt: timestamp("redeemed_at", { withTimezone: true }),
    /** Where it got in ("Puerta 2"), for the door's "ya ingresó" answer. */
    redeemedDoor: text("redeemed_door"),
    /** Reserved seating (docs/seating.md): the seat as printed when it was issued; null for general admission. */
    seatGuid: text("seat_guid"),
    seatSection: text("seat_section"),
    seatRow: text("seat_row"),
    seatNumber: text("seat_number"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("issued_products_code_key").on(t.code),
    index("issued_products_order_idx").on(t.orderId),
    index("issued_products_event_idx").on(t.eventId),
    check("issued_products_status_check", sql`${t.status} in ('redeemable','redeemed','voided')`),
  ],
);

export const LEDGER_KINDS = ["payment", "service_fee", "refund", "service_fee_refund", "chargeback", "withdrawal", "withdrawal_reversal", "direct_collection", "direct_refund", "resale_payout", "resale_payout_direct"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * Append-only money ledger per organization (decision 43). Amounts are
 * integer centavos, signed from the ORGANIZATION's point of view: positive
 * adds to what we owe the organizer, negative takes from it. The balance
 * available to withdraw is the sum. UNIQUE (billing, kind): one payment can
 * never be booked twice.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    orderId: uuid("order_id").references(() => orders.id),
    billingId: uuid("billing_id").references(() => billings.id),
    /** Withdrawal entries (docs/payouts.md): the request that took the money out, or gave it back. */
    withdrawalId: uuid("withdrawal_id"),
    kind: text("kind").$type<LedgerKind>().notNull(),
    amount: integer("amount").notNull(),
    description: text("description").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_entries_billing_kind_key").on(t.billingId, t.kind),
    // A withdrawal is taken out once and given back at most once.
    uniqueIndex("ledger_entries_withdrawal_kind_key").on(t.withdrawalId, t.kind),
    index("ledger_entries_organization_idx").on(t.organizationId, t.createdAt),
    index("ledger_entries_order_idx").on(t.orderId),
    check("ledger_entries_kind_check", sql`${t.kind} in ('payment','service_fee','refund','service_fee_refund','chargeback','withdrawal','withdrawal_reversal','direct_collection','direct_refund','resale_payout','resale_payout_direct')`),
  ],
);

/** Every webhook delivery as received, forged ones included. */
export const paymentNotifications = pgTable(
  "payment_notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    provider: text("provider").notNull(),
    requestId: text("request_id"),
    dataId: text("data_id"),
    signatureValid: boolean("signature_valid").notNull(),
    /** The whole body, only for a delivery whose signature holds (at most 64 KB); null for refused ones. */
    body: jsonb("body"),
    /** A refused delivery keeps only the start of its body (enough to recognise it), never the whole. */
    bodyPrefix: text("body_prefix"),
    /** Who sent it (the socket or the trusted proxy's client address): refused deliveries are rate limited per address. */
    remoteAddress: text("remote_address"),
    /** What the handler did with it ("approved", "duplicate", "forged", "stale", …). */
    outcome: text("outcome"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_notifications_data_idx").on(t.provider, t.dataId), index("payment_notifications_refused_idx").on(t.signatureValid, t.receivedAt)],
);

/** The sandbox provider's own payments: what `getPayment` reads back. */
export const sandboxPayments = pgTable(
  "sandbox_payments",
  {
    id: text("id").primaryKey(),
    billingId: uuid("billing_id")
      .notNull()
      .references(() => billings.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    amount: integer("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sandbox_payments_billing_idx").on(t.billingId)],
);

/**
 * A payment we must give back (late approval with no stock left, a second
 * payment for an already paid order). The provider refund call is made later
 * by the provider-refund job (server/payments/refunds.ts, decision 32): `status`
 * stays `pending` until it succeeds.
 */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    billingId: uuid("billing_id")
      .notNull()
      .references(() => billings.id, { onDelete: "cascade" }),
    providerPaymentId: text("provider_payment_id").notNull(),
    amount: integer("amount").notNull(),
    reason: text("reason").notNull(),
    status: text("status").notNull().default("pending"),
    /** The provider's refund id once it accepted the refund (status `done`). */
    providerRefundId: text("provider_refund_id"),
    processedAt: timestamp("processed_at", { withTimezone: true }),
    /** The provider's last error while the job retries (status stays `pending`; `failed` after the last attempt). */
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // One refund per payment: the billing's own (refunds, orphans) and any duplicate payment of it.
  (t) => [uniqueIndex("payment_refunds_billing_payment_key").on(t.billingId, t.providerPaymentId), check("payment_refunds_status_check", sql`${t.status} in ('pending','done','failed')`)],
);

/** Row types: what a select of these tables returns. */
export type IssuedProductRow = typeof issuedProducts.$inferSelect;
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
