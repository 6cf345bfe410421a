import { Secret, TOTP } from "otpauth";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment } from "#server/accounts/two-factor";
import { verifyAccessToken } from "#server/auth/tokens";
import { getDb } from "#server/db/client";

/**
 * Turns two-factor on for `user` and counts the sign-in of `accessToken` as
 * verified, through the domain functions, as /cuenta/seguridad does: for tests
 * of actions that ask for the second factor.
 */
export async function enrolSecondFactor(user: { id: string; email: string }, accessToken: string): Promise<{ secret: string }> {
  const now = new Date();
  const check = await verifyAccessToken(accessToken, now);
  if (!check.ok) throw new Error("enrolSecondFactor: the access token is not valid");
  const ctx = { db: await getDb(), now, actor: { kind: "user" as const, userId: user.id, email: user.email, roles: [], sessionId: check.claims.sid } };
  const { secret } = await startTwoFactorEnrolment(ctx);
  await confirmTwoFactorEnrolment(ctx, { code: new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: now.getTime() }) });
  return { secret };
}

/** A producer's domain context on a fresh sign-in that has proved the second factor. */
export async function ctxWithSecondFactor(user: { id: string; email: string }, roles: ("producer" | "admin")[] = ["producer"]) {
  const { startSession } = await import("#server/auth/sessions");
  const db = await getDb();
  const now = new Date();
  const tokens = await startSession(db, { id: user.id, email: user.email, roles }, now);
  await enrolSecondFactor(user, tokens.accessToken);
  const check = await verifyAccessToken(tokens.accessToken, now);
  if (!check.ok) throw new Error("ctxWithSecondFactor: the access token is not valid");
  return { db, now: new Date(), ip: "203.0.113.7", actor: { kind: "user" as const, userId: user.id, email: user.email, roles, sessionId: check.claims.sid } };
}
