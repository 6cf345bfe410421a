import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { SeatPlan } from "#common/seating-plan";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { eventDates, events, ticketTypes } from "./events";
import { orders } from "./orders";

/** A venue's seat plan, owned by an organization and reused by its events (docs/seating.md). */
export const seatMaps = pgTable(
  "seat_maps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    /** common/seating-plan.ts `seatPlanSchema`, validated on every save. */
    plan: jsonb("plan").$type<SeatPlan>().notNull(),
    /** Grows by one on every save: an editor that saves an older version is told someone else changed it. */
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("seat_maps_organization_idx").on(t.organizationId)],
);

/** Which map an event's dates use, and which ticket type sells each of the map's categories. */
export const eventSeating = pgTable(
  "event_seating",
  {
    eventId: uuid("event_id")
      .primaryKey()
      .references(() => events.id),
    seatMapId: uuid("seat_map_id")
      .notNull()
      .references(() => seatMaps.id),
    /** Category name → ticket type id (a ticket type of the event). */
    categories: jsonb("categories").$type<Record<string, string>>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Saving a map re-checks the events that use it.
  (t) => [index("event_seating_seat_map_idx").on(t.seatMapId)],
);

/**
 * The unique index's predicate, written as a literal: `ON CONFLICT … WHERE` must match it, and a bound
 * parameter would not once PostgreSQL switches a prepared statement to its generic plan.
 */
export const LIVE_CLAIM = sql`state <> 'released'`;

export const SEAT_CLAIM_STATES = ["held", "sold", "blocked", "released"] as const;
export type SeatClaimState = (typeof SEAT_CLAIM_STATES)[number];

/**
 * One seat of one event date taken by something: an unpaid order (`held`), a paid one (`sold`) or the
 * organizer (`blocked`). A claim that ends is kept as `released` (a late payment knows which seats to
 * take again). The partial UNIQUE index is the guarantee: at most one live claim per seat and date,
 * whatever the code does, so two buyers can never hold the same seat.
 */
export const seatClaims = pgTable(
  "seat_claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventDateId: uuid("event_date_id")
      .notNull()
      .references(() => eventDates.id),
    seatGuid: text("seat_guid").notNull(),
    state: text("state").$type<SeatClaimState>().notNull(),
    /** The seat as the map printed it when claimed: what the ticket prints (no map read at payment). */
    section: text("section").notNull(),
    row: text("row").notNull(),
    number: text("number").notNull(),
    /** held and sold: the order (its billings say how it is paid). Deleted with it (a refused order of a batch). */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "cascade" }),
    /** held and sold: the ticket type the seat is sold as (the event's mapping of its category). */
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id),
    /** held: until when (the order's hold); the order's expiry releases it. */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }),
    /** blocked: why the organizer took it off sale ("producción", "cámara"). */
    reason: text("reason"),
    blockedByUserId: uuid("blocked_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("seat_claims_live_key").on(t.eventDateId, t.seatGuid).where(LIVE_CLAIM),
    index("seat_claims_order_idx").on(t.orderId).where(sql`order_id is not null`),
    check("seat_claims_state_check", sql`${t.state} in ('held','sold','blocked','released')`),
    check("seat_claims_order_check", sql`${t.state} not in ('held','sold') or (${t.orderId} is not null and ${t.ticketTypeId} is not null)`),
  ],
);

export type SeatMapRow = typeof seatMaps.$inferSelect;
export type EventSeatingRow = typeof eventSeating.$inferSelect;
export type SeatClaimRow = typeof seatClaims.$inferSelect;
