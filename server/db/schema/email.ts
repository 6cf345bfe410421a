import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/** Every email the app sends, written before delivery (decision 114). */
export const emailLog = pgTable(
  "email_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    kind: text("kind").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    status: text("status").$type<"logged" | "sent" | "failed">().notNull().default("logged"),
    error: text("error"),
    /** The organization the email is about (an order, an event, a campaign): its `/organizacion/log-emails` lists it. Null for account emails. */
    organizationId: uuid("organization_id").references(() => organizations.id),
    /** A campaign's email (docs/campaigns.md): with `to`, which recipient it was for, so a run cut short knows it was already sent. */
    campaignId: uuid("campaign_id"),
    /** Extra headers sent with it (List-Unsubscribe…), kept so a resend carries them too. */
    headers: jsonb("headers").$type<Record<string, string>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("email_log_to_idx").on(t.to, t.createdAt),
    index("email_log_organization_idx").on(t.organizationId, t.createdAt).where(sql`organization_id is not null`),
    index("email_log_campaign_idx").on(t.campaignId, t.to).where(sql`campaign_id is not null`),
  ],
);

export type EmailLogRow = typeof emailLog.$inferSelect;
