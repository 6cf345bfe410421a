import { desc, eq, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { getDb } from "#server/db/client";
import { emailAttachments, emailLog } from "#server/db/schema";
import { clientIp } from "#server/auth/request-auth";
import { devMailboxEnabled, env, smtpConfigured } from "#server/env";
import { isLoopbackAddress } from "#server/http/request-origin";

/**
 * A request from this same machine: the socket's address (or, behind a trusted proxy, the client's) is loopback.
 * Without TRUST_PROXY, a request that came through a proxy on this machine also arrives from loopback: any
 * forwarding header means it did, and it does not count (decision 114).
 */
export function fromLoopback(request: Request): boolean {
  if (!isLoopbackAddress(clientIp(request))) return false;
  if (env().TRUST_PROXY === "true") return true;
  return !["x-forwarded-for", "forwarded", "x-real-ip", "x-forwarded-host"].some((name) => request.headers.has(name));
}

/** Whether this request may read /dev/correos (server/env.ts devMailboxEnabled). */
export function devMailboxOpenFor(request: Request): boolean {
  return devMailboxEnabled({ fromLoopback: fromLoopback(request) });
}

/**
 * The dev mailbox (/dev/correos): reads the email log, where every email the
 * app sends is written first (decision 114). Off in production unless
 * ENABLE_DEV_MAILBOX=true, or there is no SMTP and the request comes from this
 * machine; otherwise the pages answer 404.
 */
export function assertDevMailbox(request: Request) {
  if (!devMailboxOpenFor(request)) throw new Response("Not Found", { status: 404 });
}

/**
 * Where a page that just sent an email tells the person to read it: only when
 * no email leaves (no SMTP_URL) and this visitor may open the mailbox; null
 * otherwise. `to` narrows the list to that address; `id` opens one email.
 */
export function mailboxLink(request: Request, options: { to?: string | null; id?: string | null } = {}): string | null {
  if (smtpConfigured() || !devMailboxOpenFor(request)) return null;
  if (options.id) return `/dev/correos/${options.id}`;
  return options.to ? `/dev/correos?to=${encodeURIComponent(options.to)}` : "/dev/correos";
}

/** The spec's date format, in Buenos Aires time. */
export function formatBuenosAires(date: Date): string {
  return DateTime.fromJSDate(date).setZone("America/Argentina/Buenos_Aires").toFormat("HH:mm - dd/MM/yyyy");
}

export async function listLoggedEmails(options: { to?: string | null; limit?: number } = {}) {
  const db = await getDb();
  const to = options.to?.trim().toLowerCase();
  const rows = await db
    .select({ id: emailLog.id, to: emailLog.to, subject: emailLog.subject, kind: emailLog.kind, status: emailLog.status, createdAt: emailLog.createdAt })
    .from(emailLog)
    .where(to ? eq(emailLog.to, to) : undefined)
    .orderBy(desc(emailLog.createdAt), desc(emailLog.id))
    .limit(options.limit ?? 50);
  return rows.map((row) => ({ ...row, createdAt: formatBuenosAires(row.createdAt) }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getLoggedEmail(id: string) {
  if (!UUID.test(id)) return null;
  const db = await getDb();
  const [row] = await db.select().from(emailLog).where(eq(emailLog.id, id));
  if (!row) return null;
  const files = await db.select().from(emailAttachments).where(eq(emailAttachments.emailLogId, row.id)).orderBy(sql`${emailAttachments.contentId} is not null`, emailAttachments.filename);
  // Inline images (`cid:`) shown as data URIs here, since the page is not a mail client.
  let html = row.html;
  for (const f of files) if (f.contentId) html = html.split(`cid:${f.contentId}`).join(`data:${f.contentType};base64,${f.contentBase64}`);
  return {
    id: row.id,
    to: row.to,
    subject: row.subject,
    kind: row.kind,
    status: row.status,
    error: row.error,
    createdAt: formatBuenosAires(row.createdAt),
    html,
    text: row.text,
    links: extractLinks(row.html, row.text),
    attachments: files.map((f) => ({ id: f.id, filename: f.filename, contentType: f.contentType, size: f.size, inline: !!f.contentId })),
  };
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/**
 * A link written in a sentence ends before the sentence's punctuation: "texto (https://…/x)." is https://…/x
 * (campaign emails write links so). A ")" stays when the link opened its own "(".
 */
function withoutTrailingPunctuation(link: string): string {
  let out = link.replace(/[.,;:!?]+$/, "");
  const count = (text: string, char: string) => text.split(char).length - 1;
  while (out.endsWith(")") && count(out, ")") > count(out, "(")) out = out.slice(0, -1).replace(/[.,;:!?]+$/, "");
  return out;
}

/** Every link in the email (href in the HTML, URLs in the text), in order, without repeats. */
export function extractLinks(html: string, text: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/href\s*=\s*"([^"]*)"/gi)) found.push(match[1].replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]));
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+/g)) found.push(withoutTrailingPunctuation(match[0]));
  return [...new Set(found.filter((href) => /^https?:\/\//i.test(href)))];
}

/** The email's HTML for a sandboxed iframe: links open in the whole window, not inside the frame. */
export function framedHtml(html: string): string {
  const base = '<base target="_top">';
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + base + html.slice(doctype[0].length) : base + html;
}

/** One attachment of a logged email (the dev mailbox's download link). */
export async function getLoggedAttachment(emailId: string, attachmentId: string) {
  if (!UUID.test(emailId) || !UUID.test(attachmentId)) return null;
  const db = await getDb();
  const [row] = await db.select().from(emailAttachments).where(eq(emailAttachments.id, attachmentId));
  return row && row.emailLogId === emailId ? row : null;
}
