import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { eventDates, events, ticketTypes } from "./events";

/**
 * An organization's email template (docs/campaigns.md): a subject and a body
 * in a small Markdown subset (paragraphs, **negrita**, *cursiva*, links,
 * lists) with variables like {{nombre}}. Never HTML: the body is escaped and
 * rendered by server/campaigns/render.ts.
 */
export const emailTemplates = pgTable(
  "email_templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("email_templates_organization_idx").on(t.organizationId, t.updatedAt)],
);

export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "done", "cancelled"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_AUDIENCES = ["event", "event_date", "ticket_type", "organization", "promoters"] as const;
export type CampaignAudience = (typeof CAMPAIGN_AUDIENCES)[number];

/**
 * A campaign: who (audience), what (subject + template, the body copied when
 * sending starts) and when. `draft` → `scheduled` (send now is scheduled at
 * now) → `sending` (recipients materialised once) → `done`; a scheduled one
 * can be `cancelled` (and scheduled again).
 */
export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => emailTemplates.id),
    audience: text("audience").$type<CampaignAudience>().notNull(),
    /** The event the audience is about, or the one {{evento}} names for the whole organization or its promoters (optional then). */
    eventId: uuid("event_id").references(() => events.id),
    eventDateId: uuid("event_date_id").references(() => eventDates.id),
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id),
    status: text("status").$type<CampaignStatus>().notNull().default("draft"),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    /** The template's subject and body as they were when sending started: editing the template later changes nothing sent. */
    sentSubject: text("sent_subject"),
    sentBody: text("sent_body"),
    recipientCount: integer("recipient_count").notNull().default(0),
    sentCount: integer("sent_count").notNull().default(0),
    failedCount: integer("failed_count").notNull().default(0),
    skippedCount: integer("skipped_count").notNull().default(0),
    /** A run holds the campaign until then (one run at a time; a run that died lets go when it passes). */
    runLockedUntil: timestamp("run_locked_until", { withTimezone: true }),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("campaigns_organization_idx").on(t.organizationId, t.createdAt),
    index("campaigns_template_idx").on(t.templateId),
    check("campaigns_status_check", sql`${t.status} in ('draft','scheduled','sending','done','cancelled')`),
    check("campaigns_audience_check", sql`${t.audience} in ('event','event_date','ticket_type','organization','promoters')`),
  ],
);

export const CAMPAIGN_RECIPIENT_STATUSES = ["pending", "sending", "sent", "failed", "skipped"] as const;
export type CampaignRecipientStatus = (typeof CAMPAIGN_RECIPIENT_STATUSES)[number];

/**
 * One person a campaign goes to, materialised once when sending starts.
 * Unique per (campaign, email): nobody is in a campaign twice. A row leaves
 * `pending` only through a conditional UPDATE, so two runs never both send it.
 */
export const campaignRecipients = pgTable(
  "campaign_recipients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    /** Lowercase. */
    email: text("email").notNull(),
    firstName: text("first_name").notNull().default(""),
    status: text("status").$type<CampaignRecipientStatus>().notNull().default("pending"),
    emailLogId: uuid("email_log_id"),
    error: text("error"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("campaign_recipients_email_key").on(t.campaignId, t.email),
    index("campaign_recipients_pending_idx").on(t.campaignId, t.email).where(sql`status in ('pending','sending')`),
    check("campaign_recipients_status_check", sql`${t.status} in ('pending','sending','sent','failed','skipped')`),
  ],
);

/** Someone who asked an organization for no more campaigns (docs/campaigns.md). Transactional emails still go. */
export const emailUnsubscribes = pgTable(
  "email_unsubscribes",
  {
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** Lowercase. */
    email: text("email").notNull(),
    /** How: the page's button or the mail client's one-click POST (RFC 8058). */
    source: text("source").$type<"page" | "one-click">().notNull(),
    campaignId: uuid("campaign_id").references(() => campaigns.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("email_unsubscribes_key").on(t.organizationId, t.email)],
);

/** Row types: what a select of these tables returns. */
export type EmailTemplateRow = typeof emailTemplates.$inferSelect;
export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignRecipientRow = typeof campaignRecipients.$inferSelect;
