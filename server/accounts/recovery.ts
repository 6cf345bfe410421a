import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { emailSchema, passwordSchema } from "#common/validation";
import type { Ctx } from "#server/context";
import { attemptKeys, takeAttempt } from "#server/auth/rate-limit";
import { revokeAllSessions, startSession, type Tokens } from "#server/auth/sessions";
import { hashToken, randomDigits, safeEqual } from "#server/auth/tokens";
import { recoveryCodes } from "#server/db/schema";
import { sendEmail } from "#server/email/send";
import { recoveryCodeEmail } from "#server/email/templates";
import { Invalid } from "#server/errors";
import { parseInput, type DomainInput } from "#server/validation";
import { setPassword } from "./auth";
import { getUserByEmail, markEmailVerified } from "./users";

export const RECOVERY_CODE_TTL_MS = 15 * 60 * 1000;
export const RECOVERY_MAX_ATTEMPTS = 5;
export const BAD_CODE = "El código no es válido o venció. Pedí uno nuevo.";

const recoverPasswordCodeSchema = z.object({ email: emailSchema });

/**
 * `recoverPasswordCode`: emails a 6-digit code when the account exists.
 * Always answers true, so nobody learns which emails have accounts.
 */
export async function recoverPasswordCode(ctx: Ctx, input: DomainInput<typeof recoverPasswordCodeSchema>): Promise<boolean> {
  const { email } = parseInput(recoverPasswordCodeSchema, input);
  const keys = attemptKeys("recovery", email, ctx.ip);
  // Each request counts, so the inbox of a stranger cannot be flooded.
  await takeAttempt(ctx.db, keys, ctx.now);
  const user = await getUserByEmail(ctx, email);
  if (!user) return true;
  const code = randomDigits(6);
  await ctx.db.update(recoveryCodes).set({ usedAt: ctx.now }).where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
  await ctx.db.insert(recoveryCodes).values({
    userId: user.id,
    codeHash: hashToken(code),
    expiresAt: new Date(ctx.now.getTime() + RECOVERY_CODE_TTL_MS),
    createdAt: ctx.now,
  });
  await sendEmail(ctx.db, { to: user.email, kind: "recovery-code", ...recoveryCodeEmail(code) });
  return true;
}

export const recoverPasswordSchema = z.object({
  email: emailSchema,
  code: z.string().trim().regex(/^\d{6}$/, "Ingresá los 6 números del código"),
  password: passwordSchema,
});

/**
 * `recoverPassword`: a valid code sets the new password, ends every other
 * sign-in of the account (whoever had it, loses it) and signs in. 5 tries per
 * code, a new code replaces the old one, and a code works once.
 */
export async function recoverPassword(ctx: Ctx, input: DomainInput<typeof recoverPasswordSchema>): Promise<Tokens> {
  const data = parseInput(recoverPasswordSchema, input);
  const user = await getUserByEmail(ctx, data.email);
  if (!user) throw new Invalid({ code: [BAD_CODE] }, BAD_CODE);
  const [latest] = await ctx.db
    .select()
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)))
    .orderBy(desc(recoveryCodes.createdAt))
    .limit(1);
  if (!latest || latest.expiresAt <= ctx.now) throw new Invalid({ code: [BAD_CODE] }, BAD_CODE);
  // Every guess spends one attempt before the comparison, in one conditional
  // UPDATE: parallel guesses cannot get more than RECOVERY_MAX_ATTEMPTS tries.
  const [spent] = await ctx.db
    .update(recoveryCodes)
    .set({ attempts: sql`${recoveryCodes.attempts} + 1` })
    .where(
      and(eq(recoveryCodes.id, latest.id), isNull(recoveryCodes.usedAt), lt(recoveryCodes.attempts, RECOVERY_MAX_ATTEMPTS)),
    )
    .returning({ id: recoveryCodes.id });
  if (!spent || !safeEqual(latest.codeHash, hashToken(data.code))) throw new Invalid({ code: [BAD_CODE] }, BAD_CODE);
  return ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(recoveryCodes)
      .set({ usedAt: ctx.now })
      .where(and(eq(recoveryCodes.id, latest.id), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    if (!claimed) throw new Invalid({ code: [BAD_CODE] }, BAD_CODE);
    const txCtx = { ...ctx, db: tx };
    await setPassword(txCtx, user.id, data.password);
    await revokeAllSessions(tx, user.id, ctx.now);
    // The code reached this inbox: the address is proven.
    await markEmailVerified(tx, user.id, ctx.now);
    return startSession(tx, user, ctx.now);
  });
}
