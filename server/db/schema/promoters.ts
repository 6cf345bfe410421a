import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";

/**
 * A group of promoters (RRPP) of an organization, run by a lead
 * (docs/promoters.md). What it sells: `eventIds` (empty: every event of the
 * organization) and, inside them, `ticketTypeIds` (empty: every ticket type),
 * which are also the tickets its commission is paid on.
 */
export const promoterGroups = pgTable(
  "promoter_groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    leadUserId: uuid("lead_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Integer centavos per ticket sold through the group's links; null: no commission. */
    commissionPerTicket: integer("commission_per_ticket"),
    eventIds: uuid("event_ids").array().notNull().default(sql`'{}'::uuid[]`),
    ticketTypeIds: uuid("ticket_type_ids").array().notNull().default(sql`'{}'::uuid[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("promoter_groups_name_key").on(t.organizationId, sql`lower(${t.name})`)],
);

/**
 * Who sells in a group (the lead too). One group per person and organization:
 * a sale through their link is attributed to exactly one group.
 */
export const promoterGroupMembers = pgTable(
  "promoter_group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => promoterGroups.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), uniqueIndex("promoter_group_members_person_key").on(t.organizationId, t.userId)],
);

export type PromoterGroupRow = typeof promoterGroups.$inferSelect;

/** Cash a promoter handed to the organization for tickets they sold in hand (PromoterAccount). */
export const promoterSettlements = pgTable(
  "promoter_settlements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** Integer centavos received. */
    amount: integer("amount").notNull(),
    note: text("note"),
    recordedByUserId: uuid("recorded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("promoter_settlements_person_idx").on(t.organizationId, t.userId)],
);
