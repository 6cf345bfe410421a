import { and, count, desc, eq, ilike } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { emailAttachments, emailLog, type EmailLogRow } from "#server/db/schema";
import { resendLoggedEmail } from "#server/email/send";
import { Conflict, NotFound } from "#server/errors";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { isUnsubscribed } from "./unsubscribe";

/*
 * The organization's email log (`/organizacion/log-emails`): every email the
 * app sent about the organization's orders, events, team and campaigns
 * (`email_log.organization_id`). Members with `emails:read` (owner, admin,
 * marketing) read it and resend one: a new log row with the same content.
 */

export const EMAIL_LOG_MESSAGES = {
  notFound: "No encontramos ese correo.",
  unsubscribed: "Esa persona se dio de baja de tus correos: no le reenviamos una campaña. Los correos de sus compras sí se pueden reenviar.",
} as const;

const listSchema = z.object({
  organizationId: z.uuid({ error: "Identificador inválido." }),
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export type EmailLogItem = Pick<EmailLogRow, "id" | "to" | "subject" | "kind" | "status" | "error" | "createdAt" | "sentAt" | "campaignId">;

const itemColumns = {
  id: emailLog.id,
  to: emailLog.to,
  subject: emailLog.subject,
  kind: emailLog.kind,
  status: emailLog.status,
  error: emailLog.error,
  createdAt: emailLog.createdAt,
  sentAt: emailLog.sentAt,
  campaignId: emailLog.campaignId,
};

/** `emailLog`: newest first, optionally only those to an address containing `search`. */
export async function listEmailLog(ctx: Ctx, rawInput: DomainInput<typeof listSchema>): Promise<{ items: EmailLogItem[]; total: number; page: number; limit: number }> {
  const input = parseInput(listSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "emails:read");
  const search = input.search?.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  const where = and(eq(emailLog.organizationId, input.organizationId), search ? ilike(emailLog.to, `%${search}%`) : undefined);
  const [items, [{ total }]] = await Promise.all([
    ctx.db.select(itemColumns).from(emailLog).where(where).orderBy(desc(emailLog.createdAt), desc(emailLog.id)).limit(input.limit).offset(input.page * input.limit),
    ctx.db.select({ total: count() }).from(emailLog).where(where),
  ]);
  return { items, total: Number(total), page: input.page, limit: input.limit };
}

/*
 * Links that carry a secret are not shown in the log, to anyone (decision
 * 152): the purchase link (`/tickets/{billingId}?t=…`, and every checkout link
 * with `t`) opens the buyer's tickets and door codes forever and, opened
 * signed in, moves the purchase to the account that opened it; a team
 * invitation (`/organizacion/operadores/aceptar/{token}`) makes whoever opens
 * it a member with the invited role; a sign-in or verification link
 * (`?token=`) opens an account; an unsubscribe link (`/correos/baja/{token}`)
 * unsubscribes its recipient. The stored email keeps them: "Reenviar" sends
 * the original, with working links, to the same recipient.
 */

/** What the log shows where such a link was. */
export const REDACTED_LINK = "[enlace personal: no se muestra en el registro]";

const SECRET_PARAMS = new Set(["t", "token"]);
const SECRET_PATH = /\/(organizacion\/operadores\/aceptar|correos\/baja)\/[^/]+/i;
const URL_IN_CONTENT = /https?:\/\/[^\s"'<>]+/gi;
const HREF = /(\bhref\s*=\s*)(["'])(.*?)\2/gi;

/** True for a link (absolute or a path, as written in HTML or text) that carries a purchase token or another secret. */
export function isSecretLink(link: string): boolean {
  let url: URL;
  try {
    url = new URL(link.replace(/&amp;/gi, "&").trim(), "http://registro.invalid");
  } catch {
    return false;
  }
  return [...url.searchParams.keys()].some((key) => SECRET_PARAMS.has(key.toLowerCase())) || SECRET_PATH.test(url.pathname);
}

/** The email's HTML or text with every secret-carrying link replaced: `href`s point nowhere, written-out links become REDACTED_LINK. */
export function redactSecretLinks(content: string): string {
  return content
    .replace(HREF, (whole, attribute: string, quote: string, value: string) => (isSecretLink(value) ? `${attribute}${quote}#${quote}` : whole))
    .replace(URL_IN_CONTENT, (link) => (isSecretLink(link) ? REDACTED_LINK : link));
}

/**
 * `loggedEmail`: one email as it was sent (HTML, text, attachments' names and
 * sizes, never their content), if it is about an organization the actor may
 * read, with links that carry secrets removed (redactSecretLinks).
 */
export async function getLoggedEmail(ctx: Ctx, id: string): Promise<EmailLogRow & { attachments: { filename: string; size: number }[] }> {
  const row = await loggedEmailRow(ctx, id);
  const attachments = await ctx.db.select({ filename: emailAttachments.filename, size: emailAttachments.size }).from(emailAttachments).where(eq(emailAttachments.emailLogId, row.id));
  return { ...row, html: redactSecretLinks(row.html), text: redactSecretLinks(row.text), attachments };
}

async function loggedEmailRow(ctx: Ctx, id: string): Promise<EmailLogRow> {
  if (!z.uuid().safeParse(id).success) throw new NotFound(EMAIL_LOG_MESSAGES.notFound);
  const [row] = await ctx.db.select().from(emailLog).where(eq(emailLog.id, id));
  if (!row || !row.organizationId) throw new NotFound(EMAIL_LOG_MESSAGES.notFound);
  await requireCapability(ctx, row.organizationId, "emails:read");
  return row;
}

/** `resendEmail`: the same email again, as a new row of the log. A campaign is not resent to someone who unsubscribed. */
export async function resendEmail(ctx: Ctx, id: string): Promise<EmailLogItem> {
  const original = await loggedEmailRow(ctx, id);
  if ((original.kind === "campaign" || original.kind === "campaign-test") && (await isUnsubscribed(ctx.db, original.organizationId!, original.to))) throw new Conflict(EMAIL_LOG_MESSAGES.unsubscribed);
  const sent = await resendLoggedEmail(ctx.db, original.id);
  if (!sent) throw new NotFound(EMAIL_LOG_MESSAGES.notFound);
  const [row] = await ctx.db.select(itemColumns).from(emailLog).where(eq(emailLog.id, sent.logEmailId));
  return row;
}
