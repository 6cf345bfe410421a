import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { events } from "./events";

/**
 * An event's virtual waiting room (docs/queue.md, decision 186). One row per
 * event that ever had one; `enabled` turns it on and off. The draw's seed is
 * secret until the opening (only its SHA-256, the commitment, is shown).
 * `nextPosition` is the last position handed out and `admittedThrough` the
 * watermark: every place up to that position was admitted once (it is
 * admitted, bought or gone), every place after it is waiting.
 */
export const eventQueues = pgTable(
  "event_queues",
  {
    eventId: uuid("event_id")
      .primaryKey()
      .references(() => events.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    opensAt: timestamp("opens_at", { withTimezone: true }).notNull(),
    admissionMinutes: integer("admission_minutes").notNull().default(10),
    /** Null: the automatic pace (as many as the stock left can serve). */
    admitPerMinute: integer("admit_per_minute"),
    paused: boolean("paused").notNull().default(false),
    /** 64 hex characters, secret until the draw. */
    drawSeed: text("draw_seed").notNull(),
    /** SHA-256 (hex) of the seed's text: published from the start. */
    drawCommitment: text("draw_commitment").notNull(),
    /** When the places that joined before the opening got their positions (the seed is public from then on). */
    drawnAt: timestamp("drawn_at", { withTimezone: true }),
    nextPosition: integer("next_position").notNull().default(0),
    admittedThrough: integer("admitted_through").notNull().default(0),
    soldOut: boolean("sold_out").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("event_queues_admission_minutes_check", sql`${t.admissionMinutes} between 1 and 120`),
    check("event_queues_admit_per_minute_check", sql`${t.admitPerMinute} is null or ${t.admitPerMinute} > 0`),
    check("event_queues_watermark_check", sql`${t.admittedThrough} >= 0 and ${t.admittedThrough} <= ${t.nextPosition}`),
  ],
);

export type QueuePlaceStatus = "waiting" | "admitted" | "bought" | "left";

/**
 * One account's place in an event's queue: one per account and event,
 * whatever the device (the unique index). `position` is null until the draw
 * for places that joined before the opening; after it, positions are handed
 * out in arrival order. `arrival` orders joins (what other processes load
 * next).
 */
export const queuePlaces = pgTable(
  "queue_places",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    arrival: bigint("arrival", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull(),
    position: integer("position"),
    status: text("status").$type<QueuePlaceStatus>().notNull().default("waiting"),
    admittedAt: timestamp("admitted_at", { withTimezone: true }),
    admissionExpiresAt: timestamp("admission_expires_at", { withTimezone: true }),
    boughtAt: timestamp("bought_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("queue_places_event_user_key").on(t.eventId, t.userId),
    uniqueIndex("queue_places_event_position_key").on(t.eventId, t.position),
    index("queue_places_event_arrival_idx").on(t.eventId, t.arrival),
    index("queue_places_event_status_idx").on(t.eventId, t.status),
    check("queue_places_status_check", sql`${t.status} in ('waiting','admitted','bought','left')`),
  ],
);
