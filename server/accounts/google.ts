import type { UserRow } from "#server/db/schema";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { emailSchema, nameSchema } from "#common/validation";
import type { Ctx } from "#server/context";
import { startSession, type Tokens } from "#server/auth/sessions";
import { users } from "#server/db/schema";
import { Conflict, DomainError, Forbidden } from "#server/errors";
import { parseInput } from "#server/validation";
import { createUser } from "./auth";
import { fieldsToComplete, getUserByEmail, markEmailVerified } from "./users";

export const GOOGLE_EMAIL_NOT_VERIFIED =
  "Tu email de Google no está verificado. Verificalo en Google o ingresá con tu email y contraseña.";
export const GOOGLE_ACCOUNT_MISMATCH =
  "Este email ya está vinculado a otra cuenta de Google. Ingresá con tu email y contraseña o con un enlace a tu email.";

/**
 * What Google's OpenID Connect userinfo endpoint answers
 * (https://openidconnect.googleapis.com/v1/userinfo): `sub` is the stable
 * account id; `email_verified` says whether Google checked the address.
 */
export const googleProfileSchema = z.object({
  sub: z.string().min(1),
  email: emailSchema,
  email_verified: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).default(false),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

export interface GoogleSignIn extends Tokens {
  /** Profile fields the person still has to fill in (`/cuenta/finalizar-google`). */
  fieldsToComplete: string[];
  /** True when this sign-in created the account. */
  created: boolean;
}

/** A name from Google is kept only when it passes our own name rule; otherwise the person types it. */
function usableName(value: string | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  return nameSchema.safeParse(trimmed).success ? trimmed : null;
}

async function getUserByGoogleId(ctx: Ctx, googleId: string): Promise<UserRow | undefined> {
  const [user] = await ctx.db.select().from(users).where(eq(users.googleId, googleId));
  return user;
}

/**
 * Signs in (or signs up) the person Google vouched for:
 * 1. an account already linked to this Google account (`sub`) signs in;
 * 2. else an account with the same email is linked to it, only when Google
 *    verified the email (otherwise anyone could claim someone else's address);
 * 3. else a new account is created with the names Google gave.
 * Returns our tokens and the profile fields still missing.
 */
// Google's userinfo answer: a third party's JSON, so `unknown` until the schema has read it.
export async function signInWithGoogle(ctx: Ctx, input: unknown): Promise<GoogleSignIn> {
  const profile = parseInput(googleProfileSchema, input);
  let created = false;

  let user = await getUserByGoogleId(ctx, profile.sub);
  if (!user) {
    if (!profile.email_verified) throw new Forbidden(GOOGLE_EMAIL_NOT_VERIFIED);
    const existing = await getUserByEmail(ctx, profile.email);
    if (existing) {
      if (existing.googleId && existing.googleId !== profile.sub) throw new Conflict(GOOGLE_ACCOUNT_MISMATCH);
      const [linked] = await ctx.db
        .update(users)
        .set({
          googleId: profile.sub,
          firstName: existing.firstName ?? usableName(profile.given_name),
          lastName: existing.lastName ?? usableName(profile.family_name),
          updatedAt: ctx.now,
        })
        .where(eq(users.id, existing.id))
        .returning();
      user = linked;
    } else {
      try {
        user = await createUser(ctx, {
          email: profile.email,
          firstName: usableName(profile.given_name),
          lastName: usableName(profile.family_name),
          googleId: profile.sub,
        });
        created = true;
      } catch (error) {
        // Two callbacks racing for the same new account: the one that lost signs in to the winner's.
        if (!(error instanceof DomainError)) throw error;
        user = (await getUserByGoogleId(ctx, profile.sub)) ?? undefined;
        if (!user) throw new Conflict(GOOGLE_ACCOUNT_MISMATCH);
      }
    }
  }

  if (profile.email_verified && profile.email.trim().toLowerCase() === user.email) await markEmailVerified(ctx.db, user.id, ctx.now);
  const tokens = await startSession(ctx.db, user, ctx.now);
  return { ...tokens, fieldsToComplete: fieldsToComplete(user), created };
}
