import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/**
 * Two-factor sign-in (TOTP, RFC 6238) for the people who move money. The key
 * is encrypted at rest; `enabledAt` null means an enrolment not yet confirmed
 * with a first code. `lastStep` is the last time step accepted, so one code
 * is never accepted twice.
 */
export const twoFactorKeys = pgTable("two_factor_keys", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  enabledAt: timestamp("enabled_at", { withTimezone: true }),
  lastStep: integer("last_step"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One-time recovery codes, stored hashed; `usedAt` marks a spent one. */
export const twoFactorRecoveryCodes = pgTable(
  "two_factor_recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("two_factor_recovery_codes_user_idx").on(t.userId)],
);

/**
 * A sign-in (a session family, i.e. one device) that proved the second factor,
 * and when: sensitive actions accept it for a while without asking again.
 */
export const twoFactorVerifications = pgTable("two_factor_verifications", {
  familyId: uuid("family_id").primaryKey(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  verifiedAt: timestamp("verified_at", { withTimezone: true }).notNull(),
});

/**
 * A browser the person asked to remember after proving the second factor
 * (decision 133): the cookie `dispositivo-2fa` carries a random token, stored
 * here hashed, for REMEMBERED_DEVICE_DAYS. A new sign-in in that browser, by
 * the same person, does not need to type a code again until it expires.
 */
export const twoFactorDevices = pgTable(
  "two_factor_devices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("two_factor_devices_user_idx").on(t.userId)],
);
