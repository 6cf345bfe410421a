import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { issuedProducts } from "./payments";

/**
 * A ticket sent by its buyer to another person (decision 48, "Tickets can be
 * sent to another person before redemption"): who held it, who holds it now,
 * who sent it and when. For support; the ticket itself already carries the
 * new holder and a new code.
 */
export const ticketTransfers = pgTable(
  "ticket_transfers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    issuedProductId: uuid("issued_product_id")
      .notNull()
      .references(() => issuedProducts.id, { onDelete: "cascade" }),
    fromName: text("from_name").notNull(),
    fromEmail: text("from_email").notNull(),
    toName: text("to_name").notNull(),
    toEmail: text("to_email").notNull(),
    /** For named tickets (decision 202): the documents before and after, so support can tell who held it. */
    fromDocument: text("from_document"),
    toDocument: text("to_document"),
    byUserId: uuid("by_user_id").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ticket_transfers_issued_product_idx").on(t.issuedProductId)],
);
