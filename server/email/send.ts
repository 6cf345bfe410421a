import { eq } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import type { DbOrTx } from "#server/db/client";
import { emailLog } from "#server/db/schema";
import { env } from "#server/env";

export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What the email is for (sign-in-link, recovery-code…), shown in the log. */
  kind: string;
}

let transporter: Transporter | undefined;

async function getTransporter(): Promise<Transporter | undefined> {
  const url = env().SMTP_URL;
  if (!url) return undefined;
  if (!transporter) {
    const nodemailer = await import("nodemailer");
    transporter = nodemailer.createTransport(url);
  }
  return transporter;
}

/**
 * The one way the app sends mail: the log row is written first, so every
 * email is traceable (logEmailId) even when delivery fails or SMTP is absent.
 */
export async function sendEmail(db: DbOrTx, message: EmailMessage): Promise<{ logEmailId: string }> {
  const [row] = await db
    .insert(emailLog)
    .values({ ...message, to: message.to.toLowerCase(), status: "logged" })
    .returning({ id: emailLog.id });
  const smtp = await getTransporter();
  if (smtp) {
    try {
      await smtp.sendMail({ from: env().MAIL_FROM, to: message.to, subject: message.subject, html: message.html, text: message.text });
      await db.update(emailLog).set({ status: "sent", sentAt: new Date() }).where(eq(emailLog.id, row.id));
    } catch (error) {
      await db
        .update(emailLog)
        .set({ status: "failed", error: error instanceof Error ? error.message : String(error) })
        .where(eq(emailLog.id, row.id));
    }
  }
  return { logEmailId: row.id };
}
