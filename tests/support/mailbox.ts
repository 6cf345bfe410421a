import { and, desc, eq } from "drizzle-orm";
import { getDb } from "#server/db/client";
import { emailLog } from "#server/db/schema";

/** Reads the email log (every email the app sends is written there first). */
export async function emailsTo(to: string, kind?: string) {
  const db = await getDb();
  return db
    .select()
    .from(emailLog)
    .where(and(eq(emailLog.to, to.toLowerCase()), kind ? eq(emailLog.kind, kind) : undefined))
    .orderBy(desc(emailLog.createdAt), desc(emailLog.id));
}

export async function lastEmailTo(to: string, kind?: string) {
  const [email] = await emailsTo(to, kind);
  if (!email) throw new Error(`No email to ${to}${kind ? ` (${kind})` : ""} in the log`);
  return email;
}

/** The 6-digit code of the last recovery email to that address. */
export async function lastRecoveryCode(to: string): Promise<string> {
  const email = await lastEmailTo(to, "recovery-code");
  const match = /\b(\d{6})\b/.exec(email.text);
  if (!match) throw new Error(`No code in: ${email.text}`);
  return match[1];
}

/** The token of the last sign-in link emailed to that address. */
export async function lastSignInToken(to: string): Promise<string> {
  const email = await lastEmailTo(to, "sign-in-link");
  const match = /[?&]token=([^\s&"<]+)/.exec(email.text);
  if (!match) throw new Error(`No link in: ${email.text}`);
  return decodeURIComponent(match[1]);
}
