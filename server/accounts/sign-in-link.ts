import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { emailSchema, nameSchema } from "#common/validation";
import type { Ctx } from "#server/context";
import { attemptKeys, takeAttempt } from "#server/auth/rate-limit";
import { startSession, type Tokens } from "#server/auth/sessions";
import { hashToken, randomToken } from "#server/auth/tokens";
import { signInLinks } from "#server/db/schema";
import { sendEmail } from "#server/email/send";
import { signInLinkEmail } from "#server/email/templates";
import { appUrl } from "#server/env";
import { Invalid } from "#server/errors";
import { parseInput } from "#server/validation";
import { createUser } from "./auth";
import { getUserByEmail, markEmailVerified } from "./users";

export const SIGN_IN_LINK_TTL_MS = 30 * 60 * 1000;
export const BAD_LINK = "El enlace no es válido o ya venció. Pedí uno nuevo.";

const SAME_SITE_BASE = "http://tribuna.invalid";

/**
 * Only same-site paths are kept as return paths (no open redirects). Browsers
 * drop tabs and newlines inside URLs and read a backslash as "/", so
 * "/<tab>/evil.com" and "/<backslash>evil.com" would leave the site: anything
 * with a control character or a backslash is refused, and what is left must
 * resolve to our own origin.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return null;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  try {
    if (new URL(value, SAME_SITE_BASE).origin !== SAME_SITE_BASE) return null;
  } catch {
    return null;
  }
  return value;
}

/**
 * `createSignInLink`: emails a one-time link. For an existing user it signs
 * in; otherwise it leads to a short sign-up. `userFound` is part of the
 * spec's contract (the page says "te enviamos un enlace para ingresar" or
 * "para crear tu cuenta").
 */
export async function createSignInLink(ctx: Ctx, input: { email: unknown; returnTo?: unknown }) {
  const { email, returnTo } = parseInput(
    z.object({ email: emailSchema, returnTo: z.string().nullish() }),
    input,
  );
  // Each link is an email: limited per address and per IP like recovery codes,
  // so nobody can flood a stranger's inbox.
  const keys = attemptKeys("sign-in-link", email, ctx.ip);
  await takeAttempt(ctx.db, keys, ctx.now);
  const user = await getUserByEmail(ctx, email);
  const token = randomToken();
  await ctx.db.insert(signInLinks).values({
    email,
    tokenHash: hashToken(token),
    returnTo: safeReturnPath(returnTo),
    expiresAt: new Date(ctx.now.getTime() + SIGN_IN_LINK_TTL_MS),
    createdAt: ctx.now,
  });
  const link = `${appUrl()}/cuenta/enlace?token=${encodeURIComponent(token)}`;
  const { logEmailId } = await sendEmail(ctx.db, { to: email, kind: "sign-in-link", ...signInLinkEmail(link, Boolean(user)) });
  return { userFound: Boolean(user), emailTo: email, logEmailId };
}

/** Reads a link without using it (the page decides between sign-in and sign-up). */
export async function inspectSignInLink(ctx: Ctx, token: string) {
  const [link] = await ctx.db
    .select()
    .from(signInLinks)
    .where(and(eq(signInLinks.tokenHash, hashToken(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, ctx.now)));
  if (!link) return null;
  const user = await getUserByEmail(ctx, link.email);
  return { email: link.email, userFound: Boolean(user), returnTo: link.returnTo };
}

/** Marks the link used exactly once, even if two clicks race. */
async function consumeLink(ctx: Ctx, token: string) {
  const [link] = await ctx.db
    .update(signInLinks)
    .set({ usedAt: ctx.now })
    .where(and(eq(signInLinks.tokenHash, hashToken(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, ctx.now)))
    .returning();
  if (!link) throw new Invalid({ token: [BAD_LINK] }, BAD_LINK);
  return link;
}

/** `finishSignInFromLink`: signs in the existing user the link was sent to. */
export async function finishSignInFromLink(ctx: Ctx, input: { token: string }): Promise<Tokens & { returnTo: string | null }> {
  const token = String(input.token ?? "");
  const info = await inspectSignInLink(ctx, token);
  if (!info || !info.userFound) throw new Invalid({ token: [BAD_LINK] }, BAD_LINK);
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const link = await consumeLink(txCtx, token);
    const user = await getUserByEmail(txCtx, link.email);
    if (!user) throw new Invalid({ token: [BAD_LINK] }, BAD_LINK);
    await markEmailVerified(tx, user.id, ctx.now);
    return { ...(await startSession(tx, user, ctx.now)), returnTo: link.returnTo };
  });
}

export const LINK_FOR_EXISTING_ACCOUNT = "Ya existe una cuenta con este email. Usá el enlace para ingresar.";

/**
 * `registerFromLink`: creates the account for the email the link proved, and
 * signs in. The link is spent only when the account is created.
 */
export async function registerFromLink(
  ctx: Ctx,
  input: { token: string; firstName: unknown; lastName: unknown },
): Promise<Tokens & { returnTo: string | null }> {
  const data = parseInput(z.object({ token: z.string().min(1, BAD_LINK), firstName: nameSchema, lastName: nameSchema }), input);
  const info = await inspectSignInLink(ctx, data.token);
  if (!info) throw new Invalid({ token: [BAD_LINK] }, BAD_LINK);
  if (info.userFound) throw new Invalid({ token: [LINK_FOR_EXISTING_ACCOUNT] }, LINK_FOR_EXISTING_ACCOUNT);
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const link = await consumeLink(txCtx, data.token);
    const user = await createUser(txCtx, { email: link.email, firstName: data.firstName, lastName: data.lastName });
    await markEmailVerified(tx, user.id, ctx.now);
    return { ...(await startSession(tx, user, ctx.now)), returnTo: link.returnTo };
  });
}
