import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { eventDates, events, ticketTypes } from "./events";

export const ORDER_STATUSES = ["draft", "billed", "closed", "expired", "orphan"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** PROMOTER: sold in hand by a promoter, who collected the money (PromoterAccount ticket types, docs/promoters.md). */
export const ORDER_PAYMENT_METHODS = ["MERCADO_PAGO", "BANK_TRANSFER", "FREE", "PROMOTER"] as const;
export type OrderPaymentMethod = (typeof ORDER_PAYMENT_METHODS)[number];

export const BILLING_STATUSES = ["pending", "approved", "cancelled", "refunded", "charged_back"] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

export const BILLING_PROVIDERS = ["sandbox", "mercadopago", "bank_transfer", "free", "promoter"] as const;
export type BillingProvider = (typeof BILLING_PROVIDERS)[number];

/** The person who pays, as typed at checkout (may differ from the signed-in user). */
export interface Payer {
  firstName: string;
  lastName: string;
  email: string;
  documentType: string;
  documentNumber: string;
  phoneNumber: string;
}

/** The holder of one ticket unit, as typed at checkout (orders.attendees keeps one per unit, in item order). */
export interface Attendee {
  ticketTypeId: string;
  firstName: string;
  lastName: string;
  documentType: string;
  documentNumber: string;
  email?: string;
}

/** A buyer's answer to one of the event's custom fields, with the question as it was asked. */
export interface CustomFieldAnswer {
  fieldId: string;
  label: string;
  value: string;
}

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Short human code, e.g. "TRB-7KQ2M9": what buyers quote to support. */
    code: text("code").notNull(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    eventDateId: uuid("event_date_id")
      .notNull()
      .references(() => eventDates.id),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    buyerUserId: uuid("buyer_user_id").references(() => users.id, { onDelete: "set null" }),
    payer: jsonb("payer").$type<Payer>().notNull(),
    /** One per ticket unit, in the order of the items (null: the payer holds them all). */
    attendees: jsonb("attendees").$type<Attendee[]>(),
    /** Answers to the event's custom fields (null: the event asked none). */
    customFields: jsonb("custom_fields").$type<CustomFieldAnswer[]>(),
    status: text("status").$type<OrderStatus>().notNull().default("draft"),
    gift: boolean("gift").notNull().default(false),
    paymentMethod: text("payment_method").$type<OrderPaymentMethod>().notNull(),
    referredNick: text("referred_nick"),
    /** The promoter the sale is attributed to: the referral nick's owner when they sold the event for this organization then. */
    promoterUserId: uuid("promoter_user_id").references(() => users.id, { onDelete: "set null" }),
    /**
     * Gift orders only: who the tickets are for and what, as a key unique per
     * event (docs/invitations.md). A giveaway sent twice, or a job retried,
     * finds the key taken and sends nothing again.
     */
    giftKey: text("gift_key"),
    /** Gift orders only: the member who sent the invitation. */
    invitedByUserId: uuid("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Integer centavos (ARS). */
    subtotal: integer("subtotal").notNull(),
    serviceFee: integer("service_fee").notNull().default(0),
    discount: integer("discount").notNull().default(0),
    total: integer("total").notNull(),
    /** Until when the stock is held for this draft order. */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("orders_code_key").on(t.code),
    index("orders_event_idx").on(t.eventId, t.createdAt),
    index("orders_organization_idx").on(t.organizationId, t.createdAt),
    index("orders_buyer_idx").on(t.buyerUserId),
    index("orders_promoter_idx").on(t.promoterUserId, t.eventId).where(sql`promoter_user_id is not null`),
    uniqueIndex("orders_gift_key").on(t.eventId, t.giftKey).where(sql`gift_key is not null`),
    // "Mis tickets" finds invitations sent to a verified email (docs/invitations.md).
    index("orders_gift_email_idx").on(sql`lower(${t.payer}->>'email')`).where(sql`gift`),
    index("orders_draft_hold_idx").on(t.holdExpiresAt).where(sql`status = 'draft'`),
    check("orders_status_check", sql`${t.status} in ('draft','billed','closed','expired','orphan')`),
    check("orders_payment_method_check", sql`${t.paymentMethod} in ('MERCADO_PAGO','BANK_TRANSFER','FREE','PROMOTER')`),
    check("orders_amounts_check", sql`${t.subtotal} >= 0 and ${t.serviceFee} >= 0 and ${t.discount} >= 0 and ${t.total} >= 0`),
  ],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id),
    /** Snapshot of the ticket type's name when bought. */
    name: text("name").notNull(),
    qty: integer("qty").notNull(),
    /** Snapshot of the price when bought, integer centavos. */
    unitPrice: integer("unit_price").notNull(),
  },
  (t) => [
    index("order_items_order_idx").on(t.orderId),
    index("order_items_ticket_type_idx").on(t.ticketTypeId),
    check("order_items_qty_check", sql`${t.qty} > 0`),
    check("order_items_price_check", sql`${t.unitPrice} >= 0`),
  ],
);

/** One payment attempt for an order, with its provider's reference. */
export const billings = pgTable(
  "billings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    status: text("status").$type<BillingStatus>().notNull().default("pending"),
    provider: text("provider").$type<BillingProvider>().notNull(),
    providerReference: text("provider_reference"),
    amount: integer("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("billings_order_idx").on(t.orderId),
    uniqueIndex("billings_provider_reference_key").on(t.provider, t.providerReference),
    check("billings_status_check", sql`${t.status} in ('pending','approved','cancelled','refunded','charged_back')`),
    check("billings_provider_check", sql`${t.provider} in ('sandbox','mercadopago','bank_transfer','free','promoter')`),
    check("billings_amount_check", sql`${t.amount} >= 0`),
  ],
);

/** Row types: what a select of these tables returns. */
export type BillingRow = typeof billings.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
