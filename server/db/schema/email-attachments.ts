import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { emailLog } from "./email";

/**
 * The files an email carried (the tickets PDF, the QR images shown inline by
 * `cid:`), kept with its log row so the dev mailbox and support can see
 * exactly what was sent. Content is base64.
 */
export const emailAttachments = pgTable(
  "email_attachments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    emailLogId: uuid("email_log_id")
      .notNull()
      .references(() => emailLog.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    /** Set for images the HTML shows inline (`<img src="cid:…">`). */
    contentId: text("content_id"),
    size: integer("size").notNull(),
    contentBase64: text("content_base64").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("email_attachments_email_idx").on(t.emailLogId)],
);
