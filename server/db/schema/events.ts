import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

export const STATUSES = ["active", "paused", "deleted"] as const;
export type Status = (typeof STATUSES)[number];

export const PAYMENT_METHOD_KINDS = ["MercadoPagoAccount", "BankAccount", "PromoterAccount"] as const;
export type PaymentMethodKind = (typeof PAYMENT_METHOD_KINDS)[number];

export const CUSTOM_FIELD_KINDS = ["text", "number", "select", "date"] as const;
export type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number];

export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    imageUrl: text("image_url"),
    category: text("category").notNull().default("otros"),
    minAge: integer("min_age").notNull().default(0),
    venueName: text("venue_name").notNull(),
    venueAddress: text("venue_address").notNull(),
    city: text("city").notNull(),
    province: text("province").notNull(),
    /** The venue's place on the map, both or neither: the Apple pass shows up on the lock screen near it (docs/wallet.md). */
    venueLatitude: doublePrecision("venue_latitude"),
    venueLongitude: doublePrecision("venue_longitude"),
    status: text("status").$type<Status>().notNull().default("active"),
    /** Null while a draft: buyers only see published events. */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** Our service fee in basis points (1000 = 10 %), fixed when the organizer accepts the conditions. */
    serviceFeeBps: integer("service_fee_bps"),
    serviceConditionsAcceptedAt: timestamp("service_conditions_accepted_at", { withTimezone: true }),
    /** Buyers who enter it see and buy presale tickets. */
    presaleCode: text("presale_code"),
    pixelId: text("pixel_id"),
    /** The checkout asks for each ticket's holder (name and document), one per ticket. */
    oneHolderPerTicket: boolean("one_holder_per_ticket").notNull().default(false),
    /**
     * The most tickets of this event one account may hold at once, however it got them (purchase, a ticket
     * sent to it, resale; decision 203). Null: no limit.
     */
    maxTicketsPerAccount: integer("max_tickets_per_account"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("events_slug_key").on(t.slug),
    index("events_organization_idx").on(t.organizationId),
    check("events_status_check", sql`${t.status} in ('active','paused','deleted')`),
    check("events_venue_coordinates_check", sql`(${t.venueLatitude} is null) = (${t.venueLongitude} is null) and (${t.venueLatitude} is null or (${t.venueLatitude} between -90 and 90 and ${t.venueLongitude} between -180 and 180))`),
    check("events_max_tickets_per_account_check", sql`${t.maxTicketsPerAccount} is null or ${t.maxTicketsPerAccount} between 1 and 1000`),
  ],
);

export const eventDates = pgTable(
  "event_dates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    doorsAt: timestamp("doors_at", { withTimezone: true }),
    status: text("status").$type<Status>().notNull().default("active"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("event_dates_event_idx").on(t.eventId, t.startsAt),
    check("event_dates_status_check", sql`${t.status} in ('active','paused','deleted')`),
    check("event_dates_order_check", sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

export const PRODUCT_KINDS = ["ticket", "menu"] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];
export const MENU_CATEGORIES = ["drink", "food", "combo"] as const;
export type MenuCategory = (typeof MENU_CATEGORIES)[number];

export const ticketTypes = pgTable(
  "ticket_types",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    /** Null: valid for every date of the event. */
    eventDateId: uuid("event_date_id").references(() => eventDates.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Integer centavos (ARS). */
    price: integer("price").notNull(),
    stock: integer("stock").notNull(),
    sold: integer("sold").notNull().default(0),
    minPerOrder: integer("min_per_order").notNull().default(1),
    maxPerOrder: integer("max_per_order").notNull().default(10),
    salesStartAt: timestamp("sales_start_at", { withTimezone: true }),
    salesEndAt: timestamp("sales_end_at", { withTimezone: true }),
    status: text("status").$type<Status>().notNull().default("active"),
    hidden: boolean("hidden").notNull().default(false),
    presale: boolean("presale").notNull().default(false),
    accessCode: text("access_code"),
    paymentMethod: text("payment_method").$type<PaymentMethodKind>().notNull().default("MercadoPagoAccount"),
    sortOrder: integer("sort_order").notNull().default(0),
    /**
     * What the row sells (decision 106): `ticket` gets you in, `menu` is a
     * consumable of the event's menu (drink, food, combo) redeemed at the
     * bar. Both go through the same stock, order, payment and refund path.
     */
    kind: text("kind").$type<ProductKind>().notNull().default("ticket"),
    /** Menu items only: drink, food or combo. */
    menuCategory: text("menu_category").$type<MenuCategory>(),
    /** Menu items only: the picture shown on the menu. */
    imageUrl: text("image_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ticket_types_event_idx").on(t.eventId),
    check("ticket_types_kind_check", sql`${t.kind} in ('ticket','menu')`),
    check("ticket_types_menu_category_check", sql`${t.menuCategory} is null or ${t.menuCategory} in ('drink','food','combo')`),
    // The database itself refuses overselling, whatever the code does.
    check("ticket_types_stock_check", sql`${t.sold} >= 0 and ${t.sold} <= ${t.stock}`),
    check("ticket_types_price_check", sql`${t.price} >= 0`),
    check("ticket_types_per_order_check", sql`${t.minPerOrder} >= 1 and ${t.maxPerOrder} >= ${t.minPerOrder}`),
  ],
);

export const eventCustomFields = pgTable(
  "event_custom_fields",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    label: text("label").notNull(),
    kind: text("kind").$type<CustomFieldKind>().notNull(),
    options: text("options").array().notNull().default(sql`'{}'::text[]`),
    required: boolean("required").notNull().default(false),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("event_custom_fields_event_idx").on(t.eventId)],
);

/** Row types: what a select of these tables returns. */
export type EventDateRow = typeof eventDates.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type TicketTypeRow = typeof ticketTypes.$inferSelect;
export type EventCustomFieldRow = typeof eventCustomFields.$inferSelect;
