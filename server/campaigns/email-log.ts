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

/** `loggedEmail`: one email as it was sent (HTML, text, attachments' names), if it is about an organization the actor may read. */
export async function getLoggedEmail(ctx: Ctx, id: string): Promise<EmailLogRow & { attachments: { filename: string; size: number }[] }> {
  if (!z.uuid().safeParse(id).success) throw new NotFound(EMAIL_LOG_MESSAGES.notFound);
  const [row] = await ctx.db.select().from(emailLog).where(eq(emailLog.id, id));
  if (!row || !row.organizationId) throw new NotFound(EMAIL_LOG_MESSAGES.notFound);
  await requireCapability(ctx, row.organizationId, "emails:read");
  const attachments = await ctx.db.select({ filename: emailAttachments.filename, size: emailAttachments.size }).from(emailAttachments).where(eq(emailAttachments.emailLogId, row.id));
  return { ...row, attachments };
}

/** `resendEmail`: the same email again, as a new row of the log. A campaign is not resent to someone who unsubscribed. */
export async function resendEmail(ctx: Ctx, id: string): Promise<EmailLogItem> {
  const original = await getLoggedEmail(ctx, id);
  if ((original.kind === "campaign" || original.kind === "campaign-test") && (await isUnsubscribed(ctx.db, original.organizationId!, original.to))) throw new Conflict(EMAIL_LOG_MESSAGES.unsubscribed);
  const sent = await resendLoggedEmail(ctx.db, original.id);
  if (!sent) throw new NotFound(EMAIL_LOG_MESSAGES.notFound);
  const [row] = await ctx.db.select(itemColumns).from(emailLog).where(eq(emailLog.id, sent.logEmailId));
  return row;
}
