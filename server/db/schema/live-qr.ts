import { sql } from "drizzle-orm";
import { boolean, check, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { events } from "./events";

/**
 * An event's live QR ("QR dinámico", docs/door.md, decisions 207 and 208). No row: the default
 * (on for events with named tickets, an explicit resale setting that allows resale, or a per-account
 * limit; 24 hours of static-code reveal; no key yet).
 */
export const eventLiveQr = pgTable(
  "event_live_qr",
  {
    eventId: uuid("event_id")
      .primaryKey()
      .references(() => events.id, { onDelete: "cascade" }),
    /** The organizer's choice; null follows the default. */
    enabled: boolean("enabled"),
    /** Hours before a date's opening from which a live ticket's static code is admitted (and shown in Apple Wallet). */
    staticCodeRevealHours: integer("static_code_reveal_hours").notNull().default(24),
    /** The event's 32-byte key (AES-256-GCM, purpose "live-qr-keys"), made the first time a live ticket needs it. */
    keyEncrypted: text("key_encrypted"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("event_live_qr_reveal_hours_check", sql`${t.staticCodeRevealHours} between 0 and 168`)],
);

export type EventLiveQrRow = typeof eventLiveQr.$inferSelect;
