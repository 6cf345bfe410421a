import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { eventDates, events, ticketTypes } from "./events";
import { orders } from "./orders";
import { resaleListings } from "./resale";

/**
 * An event's waiting list (docs/waitlist.md, decisions 198 and 199): one row
 * per event that ever had one; `enabled` turns it on and off. Its row is also
 * the lock every waiting-list change that moves stock takes first, so two
 * offer runs of one event never hand the same tickets out twice.
 */
export const waitlistSettings = pgTable(
  "waitlist_settings",
  {
    eventId: uuid("event_id")
      .primaryKey()
      .references(() => events.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    /** How long an offer holds its tickets for the person it was made to. */
    offerMinutes: integer("offer_minutes").notNull().default(30),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("waitlist_settings_offer_minutes_check", sql`${t.offerMinutes} between 5 and 1440`)],
);

export const WAITLIST_ENTRY_STATUSES = ["waiting", "offered", "claimed", "left", "missed"] as const;
export type WaitlistEntryStatus = (typeof WAITLIST_ENTRY_STATUSES)[number];

/**
 * One account waiting for `quantity` tickets of one date: of one ticket type,
 * or of any ticket of the event (`ticketTypeId` null). `position` orders the
 * line (first joined, first offered). At most one open entry (waiting or
 * offered) per account, date and ticket type.
 */
export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    eventDateId: uuid("event_date_id")
      .notNull()
      .references(() => eventDates.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    status: text("status").$type<WaitlistEntryStatus>().notNull().default("waiting"),
    position: bigint("position", { mode: "number" }).generatedAlwaysAsIdentity(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("waitlist_entries_quantity_check", sql`${t.quantity} between 1 and 100`),
    check("waitlist_entries_status_check", sql`${t.status} in ('waiting','offered','claimed','left','missed')`),
    uniqueIndex("waitlist_entries_open_key")
      .on(t.eventDateId, t.userId, sql`coalesce(${t.ticketTypeId}, '00000000-0000-0000-0000-000000000000'::uuid)`)
      .where(sql`${t.status} in ('waiting','offered')`),
    index("waitlist_entries_line_idx").on(t.eventId, t.status, t.position),
    index("waitlist_entries_user_idx").on(t.userId),
  ],
);

export const WAITLIST_OFFER_STATUSES = ["offered", "claimed", "expired", "withdrawn"] as const;
export type WaitlistOfferStatus = (typeof WAITLIST_OFFER_STATUSES)[number];

/**
 * Tickets held for one entry until `expiresAt` (decision 198): while
 * `offered`, its `quantity` units of `ticketTypeId` count in the ticket
 * type's `sold` (server/stock), so nobody else can take them. Claimed, the
 * hold becomes the claimant's order (`orderId`); expired or withdrawn, the
 * units go to the next person in line.
 */
export const waitlistOffers = pgTable(
  "waitlist_offers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => waitlistEntries.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    status: text("status").$type<WaitlistOfferStatus>().notNull().default("offered"),
    offeredAt: timestamp("offered_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    /** A resale listing offered instead of stock (docs/waitlist.md, "Reventa"): the listing is held for the offer; quantity 1. */
    listingId: uuid("listing_id").references(() => resaleListings.id, { onDelete: "cascade" }),
  },
  (t) => [
    check("waitlist_offers_quantity_check", sql`${t.quantity} >= 1`),
    check("waitlist_offers_status_check", sql`${t.status} in ('offered','claimed','expired','withdrawn')`),
    index("waitlist_offers_entry_idx").on(t.entryId),
    index("waitlist_offers_open_idx").on(t.status, t.expiresAt),
    index("waitlist_offers_listing_idx").on(t.listingId).where(sql`listing_id is not null`),
  ],
);

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
export type WaitlistOfferRow = typeof waitlistOffers.$inferSelect;
export type WaitlistSettingsRow = typeof waitlistSettings.$inferSelect;
