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
export async function sendEmail(db: DbOrTx, input: EmailMessage): Promise<{ logEmailId: string }> {
  const message = withTestModeNotice(input);
  const { attachments = [], ...fields } = message;
  const [row] = await db
    .insert(emailLog)
    .values({ ...fields, to: message.to.toLowerCase(), status: "logged" })
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
        attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content), cid: a.cid })),
      });
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
