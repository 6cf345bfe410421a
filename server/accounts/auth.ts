import { eq } from "drizzle-orm";
import { z } from "zod";
import { emailSchema, nameSchema, passwordSchema, requiredText } from "#common/validation";
import type { Ctx } from "#server/context";
import { hasRole } from "#server/context";
import { attemptKeys, clearAttempts, takeAttempt } from "#server/auth/rate-limit";
import { hashPassword, verifyPassword } from "#server/auth/password";
import { revokeSessionFamily, revokeSessionFamilyById, rotateRefreshToken, startSession, type Tokens } from "#server/auth/sessions";
import { auditLog, users } from "#server/db/schema";
import { DomainError, Forbidden, Invalid, NotFound } from "#server/errors";
import { parseInput, type DomainInput } from "#server/validation";
import { sendVerificationTo } from "./email-verification";
import { getUserByEmail, getUserById, requireUserId, toPublicUser } from "./users";

export const EMAIL_TAKEN = "Ya existe una cuenta con este email. Iniciá sesión o recuperá tu contraseña.";
export const BAD_CREDENTIALS = "El email o la contraseña no son correctos.";

export const registerSchema = z.object({
  firstName: nameSchema,
  lastName: nameSchema,
  email: emailSchema,
  password: passwordSchema,
});

export async function createUser(
  ctx: Ctx,
  data: { email: string; firstName?: string | null; lastName?: string | null; passwordHash?: string | null; googleId?: string | null },
) {
  const [created] = await ctx.db
    .insert(users)
    .values({ ...data, email: data.email.toLowerCase(), createdAt: ctx.now, updatedAt: ctx.now })
    .onConflictDoNothing()
    .returning();
  if (!created) throw new Invalid({ email: [EMAIL_TAKEN] }, EMAIL_TAKEN);
  return created;
}

/**
 * `register`: a new account with a password; signs the person in and emails the link that confirms the address
 * (decision 115: until then, purchases made without an account with this email stay apart). A refused or failed
 * email does not undo the account: it can be asked for again from Mi cuenta.
 */
export async function register(ctx: Ctx, input: DomainInput<typeof registerSchema>): Promise<Tokens & { verification: { emailTo: string; logEmailId: string } | null }> {
  const data = parseInput(registerSchema, input);
  const passwordHash = await hashPassword(data.password);
  const user = await createUser(ctx, { email: data.email, firstName: data.firstName, lastName: data.lastName, passwordHash });
  const tokens = await startSession(ctx.db, user, ctx.now);
  const verification = await sendVerificationTo(ctx, user).catch((error: unknown) => {
    if (!(error instanceof DomainError)) console.error(error);
    return null;
  });
  return { ...tokens, verification };
}

export const loginSchema = z.object({ email: emailSchema, password: requiredText() });

/** `login`: the same answer for a wrong password and an unknown email. */
export async function login(ctx: Ctx, input: DomainInput<typeof loginSchema>): Promise<Tokens> {
  const data = parseInput(loginSchema, input);
  const keys = attemptKeys("login", data.email, ctx.ip);
  // Counted before the password is checked, so parallel guesses hit the limit too.
  const attempt = await takeAttempt(ctx.db, keys, ctx.now);
  const user = await getUserByEmail(ctx, data.email);
  const ok = await verifyPassword(user?.passwordHash ?? null, data.password);
  if (!user || !ok) throw new DomainError("UNAUTHENTICATED", BAD_CREDENTIALS, { password: [BAD_CREDENTIALS] });
  // Only failures count: a successful sign-in is forgotten, with the email's earlier failures.
  await attempt.release();
  await clearAttempts(ctx.db, keys);
  return startSession(ctx.db, user, ctx.now);
}

/** Fresh tokens for a refresh token (rotation with reuse detection). */
export function refresh(ctx: Ctx, refreshToken: string) {
  return rotateRefreshToken(ctx.db, refreshToken, ctx.now);
}

/**
 * `logout`: ends the sign-in of the refresh token given and the actor's
 * current session (the one its access token names), so neither token works
 * afterwards. Returns the user that was signed in, when known.
 */
export async function logout(ctx: Ctx, refreshToken: string | null | undefined) {
  let userId: string | null = null;
  if (refreshToken) userId = await revokeSessionFamily(ctx.db, refreshToken, ctx.now);
  if (ctx.actor.kind === "user") {
    if (ctx.actor.sessionId) await revokeSessionFamilyById(ctx.db, ctx.actor.sessionId, ctx.now);
    userId ??= ctx.actor.userId;
  }
  if (!userId) return null;
  const user = await getUserById(ctx, userId);
  return user ? toPublicUser(user) : null;
}

/**
 * `impersonatedLogin`: an admin signs in as someone else to help them. The
 * audit row and the session (which remembers the admin) commit together.
 */
export async function impersonatedLogin(ctx: Ctx, input: { email: string }): Promise<Tokens> {
  const adminId = requireUserId(ctx);
  if (!hasRole(ctx.actor, "admin")) throw new Forbidden("Solo un administrador puede ingresar como otra persona.");
  const { email } = parseInput(z.object({ email: emailSchema }), input);
  const target = await getUserByEmail(ctx, email);
  if (!target) throw new NotFound("No encontramos un usuario con ese email.");
  return ctx.db.transaction(async (tx) => {
    await tx.insert(auditLog).values({
      actorId: adminId,
      action: "impersonate",
      targetId: target.id,
      data: { email: target.email },
      createdAt: ctx.now,
    });
    return startSession(tx, target, ctx.now, { impersonatorId: adminId });
  });
}

/** Sets a new password. It does not touch sessions: the caller decides (recovery ends them all). */
export async function setPassword(ctx: Ctx, userId: string, password: string) {
  const passwordHash = await hashPassword(password);
  await ctx.db.update(users).set({ passwordHash, updatedAt: ctx.now }).where(eq(users.id, userId));
}

