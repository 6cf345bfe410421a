import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Every email the app sends, written before delivery (DESIGN.md §6). */
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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("email_log_to_idx").on(t.to, t.createdAt)],
);
