import type { Ctx } from "#server/context";
import { attemptKeys, takeAttempt } from "#server/auth/rate-limit";
import { TOKEN_PURPOSES, signPurposeToken, verifyPurposeToken } from "#server/auth/tokens";
import { sendEmail } from "#server/email/send";
import { emailLayout, escapeHtml } from "#server/email/templates";
import { appUrl } from "#server/env";
import { Conflict, Invalid, Unauthenticated } from "#server/errors";
import { getUserById, markEmailVerified, requireUserId } from "./users";

/**
 * Email verification (decision 115): a signed link, valid for 24 hours, for the account and the address it had
 * when the link was sent (changing the email makes earlier links worthless). Opening it marks the email
 * verified and joins that email's purchases made without an account, in one transaction; opening it again
 * changes nothing. Sending is rate limited like sign-in links and recovery codes.
 */
export const VERIFICATION_TTL_SECONDS = 24 * 3600;
export const VERIFICATION_PATH = "/cuenta/verificar-email";
export const BAD_VERIFICATION_LINK = "El enlace para confirmar tu email no es válido o ya venció. Pedí uno nuevo desde Mi cuenta.";
export const ALREADY_VERIFIED = "Tu email ya está confirmado.";

/**
 * The link's token says what it is for (`aud`/`typ` "tribuna:verify-email", decision 146): it verifies an
 * address and nothing else, and no other token (an access token) verifies an address.
 */
export async function verificationToken(user: { id: string; email: string }, now: Date): Promise<string> {
  return signPurposeToken(TOKEN_PURPOSES.verifyEmail, { email: user.email }, { subject: user.id, now, ttlSeconds: VERIFICATION_TTL_SECONDS });
}

export function verificationEmail(link: string, firstName: string | null) {
  const greeting = firstName ? `¡Hola, ${firstName}!` : "¡Hola!";
  return {
    subject: "Confirmá tu email en Tribuna",
    html: emailLayout(
      "Confirmá tu email",
      `<p>${escapeHtml(greeting)} Tocá el botón para confirmar que este es tu email. Así las entradas que compraste sin cuenta con este email aparecen en Mis tickets.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#14b8a6;color:#0f1115;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Confirmar mi email</a></p>
<p>El enlace vence en 24 horas.</p>
<p style="font-size:12px;color:#8a8f98;word-break:break-all">${escapeHtml(link)}</p>`,
      "Si no creaste una cuenta en Tribuna, podés ignorar este correo.",
    ),
    text: `${greeting} Confirmá tu email en Tribuna: ${link}\nAsí las entradas que compraste sin cuenta con este email aparecen en Mis tickets. El enlace vence en 24 horas.`,
  };
}

/** `sendEmailVerification`: emails the signed-in person a link to confirm their address (also at registration). */
export async function sendEmailVerification(ctx: Ctx): Promise<{ emailTo: string; logEmailId: string }> {
  const user = await getUserById(ctx, requireUserId(ctx));
  if (!user) throw new Unauthenticated();
  if (user.emailVerifiedAt) throw new Conflict(ALREADY_VERIFIED);
  return sendVerificationTo(ctx, user);
}

/** The verification email to this account's current address (rate limited per address and IP). */
export async function sendVerificationTo(ctx: Ctx, user: { id: string; email: string; firstName: string | null }) {
  await takeAttempt(ctx.db, attemptKeys("verify-email", user.email, ctx.ip), ctx.now);
  const link = `${appUrl()}${VERIFICATION_PATH}?token=${encodeURIComponent(await verificationToken(user, ctx.now))}`;
  const { logEmailId } = await sendEmail(ctx.db, { to: user.email, kind: "email-verification", ...verificationEmail(link, user.firstName) });
  return { emailTo: user.email, logEmailId };
}

/** `verifyEmail`: the link's token marks the address verified and joins its purchases. Any session (or none) may open it. */
export async function verifyEmail(ctx: Ctx, input: { token: unknown }): Promise<{ email: string; alreadyVerified: boolean; joinedOrders: number }> {
  const token = typeof input.token === "string" ? input.token : "";
  const check = await verifyPurposeToken(token, TOKEN_PURPOSES.verifyEmail, ctx.now);
  if (!check.ok || typeof check.payload.email !== "string") throw new Invalid({ token: [BAD_VERIFICATION_LINK] }, BAD_VERIFICATION_LINK);
  const user = await getUserById(ctx, check.payload.sub);
  if (!user || user.email !== check.payload.email) throw new Invalid({ token: [BAD_VERIFICATION_LINK] }, BAD_VERIFICATION_LINK);
  const { joinedOrders } = await markEmailVerified(ctx.db, user.id, ctx.now);
  return { email: user.email, alreadyVerified: Boolean(user.emailVerifiedAt), joinedOrders };
}
