import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { billings, orders } from "./orders";

/**
 * An organization's bank accounts (decisions 34 and 144): where buyers transfer for
 * BankAccount tickets (the one marked `forTicketTransfers`) and, later, where
 * withdrawals are paid. Deleting one only sets `deletedAt`, so payments that
 * already named it keep their record.
 */
export const bankAccounts = pgTable(
  "bank_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    bankName: text("bank_name").notNull(),
    /** CBU or CVU, 22 digits, both check digits valid. */
    cbu: text("cbu").notNull(),
    alias: text("alias"),
    holderName: text("holder_name").notNull(),
    /** 11 digits. */
    holderCuit: text("holder_cuit").notNull(),
    forTicketTransfers: boolean("for_ticket_transfers").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("bank_accounts_organization_idx").on(t.organizationId),
    uniqueIndex("bank_accounts_org_cbu_key").on(t.organizationId, t.cbu).where(sql`deleted_at is null`),
    uniqueIndex("bank_accounts_org_tickets_key").on(t.organizationId).where(sql`for_ticket_transfers and deleted_at is null`),
    check("bank_accounts_cbu_check", sql`${t.cbu} ~ '^[0-9]{22}$'`),
    check("bank_accounts_cuit_check", sql`${t.holderCuit} ~ '^[0-9]{11}$'`),
  ],
);

/**
 * A receipt a buyer uploaded for a bank-transfer billing. The file lives in
 * `${DATA_DIR}/receipts` under a random name and is served only by
 * `/comprobantes/{id}` to the buyer and the organization. A new upload
 * replaces the current one (`replacedAt` on the old row; the file is kept).
 */
export const bankTransferReceipts = pgTable(
  "bank_transfer_receipts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    billingId: uuid("billing_id")
      .notNull()
      .references(() => billings.id, { onDelete: "cascade" }),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    file: text("file").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    originalName: text("original_name").notNull(),
    uploadedByUserId: uuid("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    replacedAt: timestamp("replaced_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("bank_transfer_receipts_current_key").on(t.billingId).where(sql`replaced_at is null`),
    index("bank_transfer_receipts_org_idx").on(t.organizationId, t.createdAt),
    check("bank_transfer_receipts_type_check", sql`${t.contentType} in ('application/pdf','image/jpeg','image/png')`),
  ],
);

export const BANK_TRANSFER_DECISIONS = ["approved", "rejected"] as const;
export type BankTransferDecision = (typeof BANK_TRANSFER_DECISIONS)[number];

/** The organizer's decision on a bank-transfer billing: one per billing (the primary key makes it once). */
export const bankTransferReviews = pgTable(
  "bank_transfer_reviews",
  {
    billingId: uuid("billing_id")
      .primaryKey()
      .references(() => billings.id, { onDelete: "cascade" }),
    decision: text("decision").$type<BankTransferDecision>().notNull(),
    /** Shown to the buyer when rejected. */
    reason: text("reason"),
    reviewedByUserId: uuid("reviewed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("bank_transfer_reviews_decision_check", sql`${t.decision} in ('approved','rejected')`)],
);

/** Row types: what a select of these tables returns. */
export type BankAccountRow = typeof bankAccounts.$inferSelect;

export const WITHDRAWAL_STATUSES = ["requested", "approved", "paid", "rejected"] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/**
 * Money out (docs/payouts.md): an owner or admin asks for part of the
 * available balance to go to one of the organization's bank accounts; the
 * platform approves it, pays it (with the transfer's reference) or rejects it
 * with a reason. The ledger takes the amount out on request and gives it
 * back once on rejection.
 */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id),
    /**
     * The account as it was when the withdrawal was requested (decision 144): the platform pays to these,
     * never to whatever the account says later.
     */
    bankName: text("bank_name").notNull(),
    cbu: text("cbu").notNull(),
    alias: text("alias"),
    holderName: text("holder_name").notNull(),
    holderCuit: text("holder_cuit").notNull(),
    /** Integer centavos. */
    amount: integer("amount").notNull(),
    status: text("status").$type<WithdrawalStatus>().notNull().default("requested"),
    rejectionReason: text("rejection_reason"),
    transferReference: text("transfer_reference"),
    requestedByUserId: uuid("requested_by_user_id").references(() => users.id, { onDelete: "set null" }),
    decidedByUserId: uuid("decided_by_user_id").references(() => users.id, { onDelete: "set null" }),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    rejectedAt: timestamp("rejected_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("withdrawals_organization_idx").on(t.organizationId, t.requestedAt),
    index("withdrawals_open_idx").on(t.requestedAt).where(sql`status in ('requested','approved')`),
    check("withdrawals_status_check", sql`${t.status} in ('requested','approved','paid','rejected')`),
    check("withdrawals_amount_check", sql`${t.amount} > 0`),
  ],
);

export type WithdrawalRow = typeof withdrawals.$inferSelect;
