import type { UserRow } from "#server/db/schema";
import { and, asc, count, eq, ilike, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { z } from "zod";
import { MESSAGES, profileSchema } from "#common/validation";
import type { Ctx } from "#server/context";
import { hasRole } from "#server/context";
import { memberships, orders, users } from "#server/db/schema";
import { Conflict, Forbidden, Invalid, NotFound, Unauthenticated } from "#server/errors";
import { parseInput, type DomainInput } from "#server/validation";


/** What the spec's `current` returns, plus the id and roles the app needs. */
export function toPublicUser(user: UserRow) {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    nickname: user.nickname,
    documentNumber: user.documentNumber,
    documentType: user.documentType,
    address: user.address,
    state: user.state,
    phoneNumber: user.phoneNumber,
    roles: user.roles,
    isOrganizer: user.roles.includes("producer"),
    isAdmin: user.roles.includes("admin"),
  };
}
export type PublicUser = ReturnType<typeof toPublicUser>;

/** Profile fields a buyer needs before checkout; Google sign-in asks for the missing ones. */
export const PROFILE_FIELDS = ["firstName", "lastName", "documentType", "documentNumber", "phoneNumber"] as const;

export function fieldsToComplete(user: UserRow): string[] {
  return PROFILE_FIELDS.filter((field) => !user[field]);
}

export function requireUserId(ctx: Ctx): string {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  return ctx.actor.userId;
}

export async function getUserById(ctx: Ctx, id: string): Promise<UserRow | undefined> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function getUserByEmail(ctx: Ctx, email: string): Promise<UserRow | undefined> {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return user;
}

/**
 * The person proved they read this address (sign-in link, recovery code,
 * Google's verified email, the verification link): from now on invitations
 * sent to it show in their account (docs/invitations.md), and the purchases
 * made without an account with this email join it (decision 115), in one
 * transaction. Only the first proof's time is kept; joining again finds
 * nothing left to join. Returns how many purchases joined.
 */
export async function markEmailVerified(db: DbOrTx, userId: string, now: Date): Promise<{ joinedOrders: number }> {
  return db.transaction(async (tx) => {
    await tx.update(users).set({ emailVerifiedAt: now }).where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
    const [user] = await tx.select({ email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
    if (!user?.verifiedAt) return { joinedOrders: 0 };
    return { joinedOrders: await joinPurchasesByEmail(tx, userId, user.email, now) };
  });
}

/**
 * The purchases (not invitations: those already follow the verified email) made without an account with the
 * payer email `email` become the account's: "Mis tickets", the withdrawal list and refunds see them. Orders
 * placed with another account are never moved. Idempotent: only orders with no account change.
 */
export async function joinPurchasesByEmail(db: DbOrTx, userId: string, email: string, now: Date): Promise<number> {
  const joined = await db
    .update(orders)
    .set({ buyerUserId: userId, updatedAt: now })
    .where(and(isNull(orders.buyerUserId), eq(orders.gift, false), sql`lower(${orders.payer}->>'email') = ${email.trim().toLowerCase()}`))
    .returning({ id: orders.id });
  return joined.length;
}

/** `current`: the signed-in user. */
export async function currentUser(ctx: Ctx): Promise<PublicUser> {
  const user = await getUserById(ctx, requireUserId(ctx));
  if (!user) throw new Unauthenticated();
  return toPublicUser(user);
}

export const EMAIL_IN_USE = "Ya existe una cuenta con este email";
export const NICKNAME_TAKEN = "Ese apodo ya está en uso";

export const updateUserSchema = profileSchema;

/**
 * `updateUser`: the signed-in user edits their own profile. Fields left out
 * of the input keep their value; an email or nickname already used is refused.
 */
export async function updateUser(ctx: Ctx, input: DomainInput<typeof updateUserSchema>): Promise<PublicUser> {
  const userId = requireUserId(ctx);
  const existing = await getUserById(ctx, userId);
  if (!existing) throw new Unauthenticated();
  const merged = { ...pickProfile(existing), ...stripUndefined(input as Record<string, unknown>) };
  const data = parseInput(updateUserSchema, merged);

  if (data.documentNumber && !data.documentType) {
    throw new Invalid({ documentType: [MESSAGES.required] });
  }
  if (data.email !== existing.email && (await getUserByEmail(ctx, data.email))) {
    throw new Invalid({ email: [EMAIL_IN_USE] });
  }
  if (data.nickname && data.nickname.toLowerCase() !== existing.nickname?.toLowerCase()) {
    const [taken] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.nickname}) = ${data.nickname.toLowerCase()}`);
    if (taken) throw new Invalid({ nickname: [NICKNAME_TAKEN] });
  }
  try {
    const [updated] = await ctx.db
      .update(users)
      .set({
        firstName: data.firstName,
        lastName: data.lastName,
        email: data.email,
        nickname: data.nickname ?? null,
        documentType: data.documentType ?? null,
        documentNumber: data.documentNumber ?? null,
        address: data.address ?? null,
        state: data.state ?? null,
        phoneNumber: data.phoneNumber ?? null,
        // A new address is not proven yet: its purchases join only after it is verified (decision 115).
        ...(data.email !== existing.email ? { emailVerifiedAt: null } : {}),
        updatedAt: ctx.now,
      })
      .where(eq(users.id, userId))
      .returning();
    return toPublicUser(updated);
  } catch (error) {
    // Two saves racing for the same email or nickname: the unique index decides.
    const violated = uniqueViolation(error);
    if (violated === "users_nickname_key") throw new Conflict(NICKNAME_TAKEN, { nickname: [NICKNAME_TAKEN] });
    if (violated) throw new Conflict(EMAIL_IN_USE, { email: [EMAIL_IN_USE] });
    throw error;
  }
}

/** The unique index a failed write ran into (postgres.js and PGlite name it differently; drizzle wraps it in `cause`). */
function uniqueViolation(error: unknown): string | null {
  for (let e = error as { code?: string; cause?: unknown; constraint_name?: string; constraint?: string } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return e.constraint_name ?? e.constraint ?? "unknown";
  }
  return null;
}

function pickProfile(user: UserRow) {
  return {
    firstName: user.firstName ?? "",
    lastName: user.lastName ?? "",
    email: user.email,
    nickname: user.nickname ?? undefined,
    documentType: user.documentType ?? undefined,
    documentNumber: user.documentNumber ?? undefined,
    address: user.address ?? undefined,
    state: user.state ?? undefined,
    phoneNumber: user.phoneNumber ?? undefined,
  };
}

function stripUndefined(input: Record<string, unknown> | null | undefined) {
  return Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined));
}

/** An ILIKE pattern that finds the text as typed: "%" and "_" are not wildcards. */
function containsPattern(text: string) {
  return `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}

/**
 * People search for the back office (adding operators, staff). The platform
 * team searches everyone; an organizer or promoter lead, by part of the email
 * or name, only the people of their own organizations, and anyone else only by
 * their whole email (whoever creates an organization must not be able to list
 * every account: decision 117).
 */
export async function findUsers(ctx: Ctx, text: string) {
  const userId = requireUserId(ctx);
  if (!hasRole(ctx.actor, "admin") && !hasRole(ctx.actor, "producer") && !hasRole(ctx.actor, "promoter_lead")) {
    throw new Forbidden();
  }
  const term = text.trim();
  if (term.length < 2) return [];
  const pattern = containsPattern(term);
  const matches = or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern));
  const mine = sql`${users.id} in (select theirs.user_id from ${memberships} theirs join ${memberships} own on own.organization_id = theirs.organization_id where own.user_id = ${userId})`;
  return ctx.db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(hasRole(ctx.actor, "admin") ? matches : or(and(matches, mine), eq(sql`lower(${users.email})`, term.toLowerCase())))
    .orderBy(asc(users.email))
    .limit(20);
}

/** Members of an organization, paged; only its members (or an admin) may list them. */
export async function findUsersByOrganization(
  ctx: Ctx,
  input: { organizationId: string; page?: number | null; limit?: number | null; search?: string | null },
) {
  const userId = requireUserId(ctx);
  const page = Math.max(0, input.page ?? 0);
  const limit = Math.min(100, Math.max(1, input.limit ?? 10));
  if (!z.string().uuid().safeParse(input.organizationId).success) throw new NotFound("No encontramos la organización.");
  if (!hasRole(ctx.actor, "admin")) {
    const [member] = await ctx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.organizationId, input.organizationId), eq(memberships.userId, userId)));
    if (!member) throw new Forbidden();
  }
  const search = input.search?.trim();
  const pattern = search ? containsPattern(search) : null;
  const where = and(
    eq(memberships.organizationId, input.organizationId),
    pattern ? or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern)) : undefined,
  );
  const [{ total }] = await ctx.db.select({ total: count() }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where);
  const rows = await ctx.db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where)
    .orderBy(asc(users.email))
    .limit(limit)
    .offset(page * limit);
  return { users: rows, total, page, limit };
}

/**
 * The spec's user-by-email lookup. It tells whether an email has an account,
 * so only that user (finishing a Google sign-in) or an admin may ask.
 */
export async function userByEmail(ctx: Ctx, email: string) {
  const actorId = requireUserId(ctx);
  const normalized = email.trim().toLowerCase();
  const user = await getUserByEmail(ctx, normalized);
  // "Self" is decided by the account's id, not the token's email claim, which can lag behind an email change.
  const isSelf = user?.id === actorId;
  if (!isSelf && !hasRole(ctx.actor, "admin")) throw new Forbidden();
  if (!user) throw new NotFound("No encontramos un usuario con ese email.");
  return { user: { id: user.id, phoneNumber: user.phoneNumber }, fieldsToComplete: fieldsToComplete(user) };
}

/** Public: who a referral nickname belongs to (shown on the event page). */
export async function fetchUserByNickname(ctx: Ctx, nickname: string) {
  const [user] = await ctx.db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(sql`lower(${users.nickname}) = ${nickname.trim().toLowerCase()}`);
  if (!user) throw new NotFound("No encontramos a nadie con ese apodo.");
  return user;
}
