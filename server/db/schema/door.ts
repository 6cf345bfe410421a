import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { eventDates, events } from "./events";
import { issuedProducts } from "./payments";

/**
 * The door PIN of an event (docs/door.md): staff without an account open the
 * door screen with it. Kept encrypted because owners and admins read it back;
 * `id` is new on every rotation, so door sessions opened with an older PIN
 * (they carry the id) end when it is rotated or revoked (row deleted).
 */
export const doorPins = pgTable(
  "door_pins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    pinEncrypted: text("pin_encrypted").notNull(),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("door_pins_event_key").on(t.eventId)],
);

export const DOOR_SCAN_OUTCOMES = ["admitted", "already_in", "conflict", "voided", "other_event", "other_date", "wrong_place", "expired_code", "unknown"] as const;
export type DoorScanOutcome = (typeof DOOR_SCAN_OUTCOMES)[number];

/**
 * Every scan a door device made, admitted or not, online or synced later.
 * `scan_id` is the device's own id for the scan: sending it again is a no-op,
 * which is what makes syncing an offline queue idempotent. It is unique per
 * event, not globally: another organizer's door choosing the same id must
 * neither read this event's scan nor block it (decision 149).
 */
export const doorScans = pgTable(
  "door_scans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    scanId: text("scan_id").notNull(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    /** The date the door was admitting. */
    eventDateId: uuid("event_date_id").references(() => eventDates.id),
    issuedProductId: uuid("issued_product_id").references(() => issuedProducts.id, { onDelete: "set null" }),
    outcome: text("outcome").$type<DoorScanOutcome>().notNull(),
    door: text("door").notNull(),
    deviceId: text("device_id").notNull(),
    /** Who scanned: a member's user id, or null with `pin_session_id` for staff who opened the door with the PIN. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    pinSessionId: text("pin_session_id"),
    /** Judged on the device without the network and synced afterwards. */
    offline: boolean("offline").notNull().default(false),
    /** When the device scanned (its clock); `received_at` is ours. */
    scannedAt: timestamp("scanned_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("door_scans_event_scan_id_key").on(t.eventId, t.scanId),
    index("door_scans_event_idx").on(t.eventId, t.receivedAt),
    index("door_scans_issued_product_idx").on(t.issuedProductId),
    check("door_scans_outcome_check", sql`${t.outcome} in ('admitted','already_in','conflict','voided','other_event','other_date','wrong_place','expired_code','unknown')`),
  ],
);

export type DoorScanRow = typeof doorScans.$inferSelect;

/**
 * One row per open live-view stream (`/vivos/{slug}`), so the cap of streams
 * per account holds across every app process (decision 167). `process_id` is
 * the process that holds it; it refreshes `heartbeat_at` while the stream is
 * open and deletes the row when it closes. A row whose heartbeat is older than
 * the staleness window belongs to a process that died: it no longer counts and
 * is deleted by the next one that looks.
 */
export const liveStreams = pgTable(
  "live_streams",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    processId: text("process_id").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("live_streams_user_idx").on(t.userId), index("live_streams_heartbeat_idx").on(t.heartbeatAt)],
);
