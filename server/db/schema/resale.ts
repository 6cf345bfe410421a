import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { eventDates, events, ticketTypes } from "./events";
import { billings, orders } from "./orders";
import { issuedProducts } from "./payments";

/**
 * The organizer's resale rules for one event (docs/resale.md, decision 200).
 * No row: resale on, at most the face value, no fee.
 */
export const eventResaleSettings = pgTable(
  "event_resale_settings",
  {
    eventId: uuid("event_id")
      .primaryKey()
      .references(() => events.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(true),
    /** The highest price a listing may ask, in basis points of the face value the seller paid (10000 = the face value; never more). */
    capBps: integer("cap_bps").notNull().default(10_000),
    /** The organizer's resale fee, in basis points of the listing's price: kept from what the seller gets back. */
    feeBps: integer("fee_bps").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("event_resale_settings_cap_check", sql`${t.capBps} between 1 and 10000`),
    check("event_resale_settings_fee_check", sql`${t.feeBps} between 0 and 5000`),
  ],
);

export const RESALE_LISTING_STATUSES = ["active", "held", "sold", "cancelled"] as const;
export type ResaleListingStatus = (typeof RESALE_LISTING_STATUSES)[number];
/** provider: refunded through the payment the seller made (Mercado Pago or the sandbox); organizer: given back by the organizer from their own account. */
export type ResalePayoutMethod = "provider" | "organizer";
/** none: not sold yet; pending: sold, money on its way; done; failed: the provider refused it (someone must look). */
export type ResalePayoutStatus = "none" | "pending" | "done" | "failed";

/**
 * One ticket offered at (or under) its face value through the official
 * resale (docs/resale.md). `active` → `held` by one buyer's draft order
 * (a conditional UPDATE: exactly one buyer) → `sold` when that order is paid,
 * or back to `active` when its hold ends. The seller cancels an active one.
 * Money in integer centavos: `payout` = `price` − `fee`.
 */
export const resaleListings = pgTable(
  "resale_listings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    eventDateId: uuid("event_date_id")
      .notNull()
      .references(() => eventDates.id),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id),
    issuedProductId: uuid("issued_product_id")
      .notNull()
      .references(() => issuedProducts.id),
    sellerUserId: uuid("seller_user_id")
      .notNull()
      .references(() => users.id),
    sellerOrderId: uuid("seller_order_id")
      .notNull()
      .references(() => orders.id),
    sellerBillingId: uuid("seller_billing_id")
      .notNull()
      .references(() => billings.id),
    /** What the seller paid for this ticket (the order line's unit price). */
    faceValue: integer("face_value").notNull(),
    price: integer("price").notNull(),
    fee: integer("fee").notNull().default(0),
    payout: integer("payout").notNull(),
    status: text("status").$type<ResaleListingStatus>().notNull().default("active"),
    heldByOrderId: uuid("held_by_order_id").references(() => orders.id),
    buyerOrderId: uuid("buyer_order_id").references(() => orders.id),
    payoutMethod: text("payout_method").$type<ResalePayoutMethod>(),
    payoutStatus: text("payout_status").$type<ResalePayoutStatus>().notNull().default("none"),
    payoutReference: text("payout_reference"),
    payoutError: text("payout_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    soldAt: timestamp("sold_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
  },
  (t) => [
    // One live listing per ticket: listing twice, or after the sale, is refused by the database itself.
    uniqueIndex("resale_listings_live_ticket_key").on(t.issuedProductId).where(sql`status in ('active','held','sold')`),
    uniqueIndex("resale_listings_buyer_order_key").on(t.buyerOrderId).where(sql`buyer_order_id is not null`),
    index("resale_listings_event_idx").on(t.eventId, t.status),
    index("resale_listings_held_idx").on(t.heldByOrderId).where(sql`held_by_order_id is not null`),
    index("resale_listings_seller_idx").on(t.sellerUserId),
    check("resale_listings_status_check", sql`${t.status} in ('active','held','sold','cancelled')`),
    check("resale_listings_amounts_check", sql`${t.price} > 0 and ${t.price} <= ${t.faceValue} and ${t.fee} >= 0 and ${t.payout} = ${t.price} - ${t.fee}`),
    check("resale_listings_payout_check", sql`${t.payoutStatus} in ('none','pending','done','failed')`),
  ],
);

export type ResaleListingRow = typeof resaleListings.$inferSelect;
export type EventResaleSettingsRow = typeof eventResaleSettings.$inferSelect;
