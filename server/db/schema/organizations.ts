import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

export const organizations = pgTable(
  "organizations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description"),
    cuit: text("cuit"),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    logoUrl: text("logo_url"),
    /**
     * The organizer's colours for its wallet passes ("#rrggbb", decision 221): both or neither (null: Tribuna's).
     * Their contrast is checked by common/pass-colors.ts before they are saved.
     */
    passBackgroundColor: text("pass_background_color"),
    passTextColor: text("pass_text_color"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("organizations_slug_key").on(t.slug),
    check("organizations_pass_colors_check", sql`(${t.passBackgroundColor} is null) = (${t.passTextColor} is null)`),
  ],
);

export const MEMBERSHIP_ROLES = ["owner", "admin", "operator", "staff", "marketing", "promoter", "promoter_lead"] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

export const memberships = pgTable(
  "memberships",
  {
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<MembershipRole>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] })],
);

/**
 * An invitation to join an organization's team with a role (`/organizacion/operadores`).
 * The link carries a random token (only its hash is kept); it works once,
 * for 7 days, for whoever signs in with it (an existing account or a new one).
 */
export const membershipInvitations = pgTable(
  "membership_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").$type<MembershipRole>().notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedByUserId: uuid("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedByUserId: uuid("accepted_by_user_id").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Promoter invitations only: the group (promoter_groups) the person joins on accepting. */
    promoterGroupId: uuid("promoter_group_id"),
    /** Set when the inviter typed a nickname: the email was looked up for them and is never shown to them. */
    invitedNickname: text("invited_nickname"),
  },
  (t) => [uniqueIndex("membership_invitations_token_key").on(t.tokenHash), index("membership_invitations_organization_idx").on(t.organizationId, t.createdAt)],
);

export type MembershipInvitationRow = typeof membershipInvitations.$inferSelect;
