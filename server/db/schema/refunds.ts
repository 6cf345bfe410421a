import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { billings, orders } from "./orders";

/**
 * pending: waiting for the organizer (outside the legal window);
 * refunded: the money goes back (automatic inside the window, or approved);
 * rejected: the organizer said no, with a reason.
 */
export const REFUND_REQUEST_STATUSES = ["pending", "refunded", "rejected"] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUSES)[number];

/** How the money goes back: through the payment provider, or by a manual bank transfer to the buyer's CBU/CVU. */
export const REFUND_METHODS = ["provider", "bank_transfer"] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

/**
 * A buyer's withdrawal ("Botón de arrepentimiento", Disposición 954/2025).
 * `code` (DEV-XXXXXX) is the management code the buyer gets at once. At most
 * one open (pending or refunded) request per order.
 */
export const refundRequests = pgTable(
  "refund_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    code: text("code").notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    billingId: uuid("billing_id")
      .notNull()
      .references(() => billings.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** The payer's email as given (lowercase). */
    email: text("email").notNull(),
    reason: text("reason").notNull().default(""),
    status: text("status").$type<RefundRequestStatus>().notNull(),
    /** True when the request fell inside the legal window and was refunded without the organizer. */
    automatic: boolean("automatic").notNull().default(false),
    method: text("method").$type<RefundMethod>().notNull(),
    /** Buyer's CBU/CVU (22 digits), for bank-transfer refunds. */
    cbu: text("cbu"),
    /** Manual bank-transfer refunds: when the organizer marked the money as transferred. */
    transferredAt: timestamp("transferred_at", { withTimezone: true }),
    decidedByUserId: uuid("decided_by_user_id").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    rejectionReason: text("rejection_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("refund_requests_code_key").on(t.code),
    uniqueIndex("refund_requests_open_order_key").on(t.orderId).where(sql`status <> 'rejected'`),
    index("refund_requests_organization_idx").on(t.organizationId, t.status, t.createdAt),
    check("refund_requests_status_check", sql`${t.status} in ('pending','refunded','rejected')`),
    check("refund_requests_method_check", sql`${t.method} in ('provider','bank_transfer')`),
  ],
);

/** Row types: what a select of these tables returns. */
export type RefundRequestRow = typeof refundRequests.$inferSelect;
