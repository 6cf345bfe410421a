import { eq } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import type { DbOrTx } from "#server/db/client";
import { emailAttachments, emailLog } from "#server/db/schema";
import { env } from "#server/env";
import { withTestModeNotice } from "./templates";

export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What the email is for (sign-in-link, recovery-code…), shown in the log. */
  kind: string;
  /** Files sent with it; give `cid` to an image the HTML shows inline as `<img src="cid:…">`. */
  attachments?: EmailAttachment[];
  /** Extra headers (a campaign's List-Unsubscribe, RFC 8058), kept in the log for a resend. */
  headers?: Record<string, string>;
  /** The organization the email is about (its order, event or campaign): its email log (`/organizacion/log-emails`) lists it. */
  organizationId?: string | null;
  /** A campaign's email: which campaign (docs/campaigns.md). */
  campaignId?: string | null;
}

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Buffer | Uint8Array;
  cid?: string;
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
export async function sendEmail(db: DbOrTx, input: EmailMessage): Promise<SentEmail> {
  return logAndDeliver(db, withTestModeNotice(input));
}

/**
 * Sends again an email of the log, exactly as it was (same HTML, text,
 * headers and attachments), as a new log row: the original stays as it was.
 */
export async function resendLoggedEmail(db: DbOrTx, logEmailId: string): Promise<SentEmail | null> {
  const [original] = await db.select().from(emailLog).where(eq(emailLog.id, logEmailId));
  if (!original) return null;
  const files = await db.select().from(emailAttachments).where(eq(emailAttachments.emailLogId, original.id));
  return logAndDeliver(db, {
    to: original.to,
    subject: original.subject,
    html: original.html,
    text: original.text,
    kind: original.kind,
    headers: original.headers ?? undefined,
    organizationId: original.organizationId,
    campaignId: original.campaignId,
    attachments: files.map((f) => ({ filename: f.filename, contentType: f.contentType, content: Buffer.from(f.contentBase64, "base64"), cid: f.contentId ?? undefined })),
  });
}

/** The log row's id and how delivery went: `logged` when there is no SMTP (the dev mailbox shows it). */
export interface SentEmail {
  logEmailId: string;
  status: "logged" | "sent" | "failed";
}

async function logAndDeliver(db: DbOrTx, message: EmailMessage): Promise<SentEmail> {
  const { attachments = [], headers, organizationId, campaignId, ...fields } = message;
  const [row] = await db
    .insert(emailLog)
    .values({ ...fields, to: message.to.toLowerCase(), status: "logged", headers: headers ?? null, organizationId: organizationId ?? null, campaignId: campaignId ?? null })
    .returning({ id: emailLog.id });
  if (attachments.length) {
    await db.insert(emailAttachments).values(
      attachments.map((a) => ({
        emailLogId: row.id,
        filename: a.filename,
        contentType: a.contentType,
        contentId: a.cid ?? null,
        size: a.content.byteLength,
        contentBase64: Buffer.from(a.content).toString("base64"),
      })),
    );
  }
  const smtp = await getTransporter();
  if (smtp) {
    try {
      await smtp.sendMail({
        from: env().MAIL_FROM,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers,
        attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content), cid: a.cid })),
      });
      await db.update(emailLog).set({ status: "sent", sentAt: new Date() }).where(eq(emailLog.id, row.id));
      return { logEmailId: row.id, status: "sent" };
    } catch (error) {
      await db
        .update(emailLog)
        .set({ status: "failed", error: error instanceof Error ? error.message : String(error) })
        .where(eq(emailLog.id, row.id));
      return { logEmailId: row.id, status: "failed" };
    }
  }
  return { logEmailId: row.id, status: "logged" };
}
