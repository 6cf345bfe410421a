import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { organizations } from "./organizations";
import { billings } from "./orders";

/**
 * An organization's Mercado Pago account, connected by OAuth (decisions 29 and 31).
 * The tokens are stored encrypted (AES-256-GCM, key derived from AUTH_SECRET;
 * see server/payments/mercadopago-accounts.ts): a copy of the database alone
 * cannot charge or refund on the organizer's behalf. One per organization.
 */
export const mercadopagoAccounts = pgTable(
  "mercadopago_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Mercado Pago's user id of the seller (`user_id` in notifications, `collector_id` in payments). */
    mpUserId: text("mp_user_id").notNull(),
    accessTokenEncrypted: text("access_token_encrypted").notNull(),
    refreshTokenEncrypted: text("refresh_token_encrypted"),
    publicKey: text("public_key"),
    liveMode: boolean("live_mode").notNull().default(true),
    scope: text("scope"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
    connectedByUserId: uuid("connected_by_user_id").references(() => users.id, { onDelete: "set null" }),
    refreshedAt: timestamp("refreshed_at", { withTimezone: true }),
    /** The last failed refresh, kept for the back office (cleared by a successful one). */
    lastRefreshError: text("last_refresh_error"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("mercadopago_accounts_organization_key").on(t.organizationId), index("mercadopago_accounts_user_idx").on(t.mpUserId)],
);

/**
 * The Checkout Pro preference made for a billing. `billings.provider_reference`
 * holds only the PAYMENT id (set when a payment arrives), so the preference
 * lives here, with the account it was created in: null `mp_user_id` means
 * the platform's own account (no marketplace fee).
 */
export const mercadopagoPreferences = pgTable(
  "mercadopago_preferences",
  {
    billingId: uuid("billing_id")
      .primaryKey()
      .references(() => billings.id, { onDelete: "cascade" }),
    preferenceId: text("preference_id").notNull(),
    initPoint: text("init_point").notNull(),
    mpUserId: text("mp_user_id"),
    /** Integer centavos charged as marketplace_fee (0 with the platform token). */
    marketplaceFee: integer("marketplace_fee").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("mercadopago_preferences_preference_key").on(t.preferenceId)],
);

/** Row types: what a select of these tables returns. */
export type MercadoPagoAccountRow = typeof mercadopagoAccounts.$inferSelect;
