import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { eventDates, events, ticketTypes } from "./events";
import { orders } from "./orders";

export const GIVEAWAY_STATUSES = ["preview", "sending", "done"] as const;
export type GiveawayStatus = (typeof GIVEAWAY_STATUSES)[number];

/**
 * A CSV of guests uploaded on `/organizacion/evento/enviar-tickets/{slug}`
 * (docs/invitations.md): checked row by row on upload (`preview`), then sent
 * by the job queue (`sending` → `done`).
 */
export const giveaways = pgTable(
  "giveaways",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    eventDateId: uuid("event_date_id").references(() => eventDates.id),
    fileName: text("file_name").notNull(),
    status: text("status").$type<GiveawayStatus>().notNull().default("preview"),
    totalRows: integer("total_rows").notNull(),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("giveaways_event_idx").on(t.eventId, t.createdAt), check("giveaways_status_check", sql`${t.status} in ('preview','sending','done')`)]
);

export const GIVEAWAY_ROW_STATUSES = ["invalid", "ready", "sent", "skipped", "failed"] as const;
export type GiveawayRowStatus = (typeof GIVEAWAY_ROW_STATUSES)[number];

/**
 * One line of the CSV. `invalid` rows carry their Spanish error and are never
 * sent; `ready` ones are sent by the job (→ `sent` with the gift order, or
 * `skipped` when that person already got them, or `failed` with why).
 */
export const giveawayRows = pgTable(
  "giveaway_rows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    giveawayId: uuid("giveaway_id")
      .notNull()
      .references(() => giveaways.id, { onDelete: "cascade" }),
    /** Line in the file (the header is line 1). */
    line: integer("line").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    documentNumber: text("document_number").notNull(),
    qty: integer("qty").notNull(),
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id),
    /** The ticket type as written in the file (shown when it matched none). */
    ticketTypeName: text("ticket_type_name").notNull(),
    status: text("status").$type<GiveawayRowStatus>().notNull(),
    error: text("error"),
    orderId: uuid("order_id").references(() => orders.id),
  },
  (t) => [
    uniqueIndex("giveaway_rows_line_key").on(t.giveawayId, t.line),
    index("giveaway_rows_pending_idx")
      .on(t.giveawayId, t.line)
      .where(sql`status = 'ready'`),
    check("giveaway_rows_status_check", sql`${t.status} in ('invalid','ready','sent','skipped','failed')`),
  ]
);

/** Row types: what a select of these tables returns. */
export type GiveawayRow = typeof giveaways.$inferSelect;
export type GiveawayLineRow = typeof giveawayRows.$inferSelect;
