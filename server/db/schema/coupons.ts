import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { events } from "./events";
import { orders } from "./orders";

export const COUPON_KINDS = ["percent", "fixed"] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

export const COUPON_STATUSES = ["active", "paused", "deleted"] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];

/**
 * A discount code of one event (decision 33). `uses` counts orders holding
 * it (one use = one order); the CHECK makes the database refuse going over
 * `max_uses`, as `ticket_types` does with stock.
 */
export const coupons = pgTable(
  "coupons",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    /** As the organizer typed it; compared case-insensitively, no spaces. */
    code: text("code").notNull(),
    kind: text("kind").$type<CouponKind>().notNull(),
    /** percent: 1–100; fixed: integer centavos off the applicable tickets. */
    value: integer("value").notNull(),
    /** Empty = every ticket type of the event. */
    ticketTypeIds: uuid("ticket_type_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** null = unlimited. */
    maxUses: integer("max_uses"),
    uses: integer("uses").notNull().default(0),
    validFrom: timestamp("valid_from", { withTimezone: true }),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    status: text("status").$type<CouponStatus>().notNull().default("active"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One live code per event, whatever its case; a deleted coupon frees its code.
    uniqueIndex("coupons_event_code_key").on(t.eventId, sql`lower(${t.code})`).where(sql`status <> 'deleted'`),
    index("coupons_organization_idx").on(t.organizationId, t.createdAt),
    check("coupons_kind_check", sql`${t.kind} in ('percent','fixed')`),
    check("coupons_status_check", sql`${t.status} in ('active','paused','deleted')`),
    check("coupons_value_check", sql`(${t.kind} = 'percent' and ${t.value} between 1 and 100) or (${t.kind} = 'fixed' and ${t.value} > 0)`),
    check("coupons_uses_check", sql`${t.uses} >= 0 and (${t.maxUses} is null or ${t.uses} <= ${t.maxUses})`),
    check("coupons_max_uses_check", sql`${t.maxUses} is null or ${t.maxUses} >= 1`),
    check("coupons_window_check", sql`${t.validFrom} is null or ${t.validUntil} is null or ${t.validUntil} > ${t.validFrom}`),
  ],
);

/**
 * The coupon an order used and the discount it got. `released_at` is set, once,
 * when the order ends unpaid (expired, transfer rejected) and its use goes back.
 */
export const couponRedemptions = pgTable(
  "coupon_redemptions",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    couponId: uuid("coupon_id")
      .notNull()
      .references(() => coupons.id),
    /** Integer centavos taken off the order's subtotal. */
    discount: integer("discount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
  },
  (t) => [index("coupon_redemptions_coupon_idx").on(t.couponId), check("coupon_redemptions_discount_check", sql`${t.discount} >= 0`)],
);

/** Row types: what a select of these tables returns. */
export type CouponRow = typeof coupons.$inferSelect;
