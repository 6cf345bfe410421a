import { and, asc, count, desc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { AUDIENCE_LABELS, unknownVariablesMessage } from "#common/campaigns";
import { formatDateTime, parseDateTime } from "#common/dates";
import type { Ctx } from "#server/context";
import type { Db, DbOrTx } from "#server/db/client";
import {
  campaignRecipients,
  campaigns,
  emailLog,
  emailTemplates,
  eventDates,
  events,
  ticketTypes,
  type CampaignAudience,
  type CampaignRecipientRow,
  type CampaignRow,
} from "#server/db/schema";
import { sendEmail } from "#server/email/send";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { enqueue } from "#server/jobs/queue";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { eventForTemplate, eventVariablesUsed, organizationName, renderCampaignEmail, TEMPLATE_MESSAGES, templateValues, type EventForTemplate } from "./templates";
import { isUnsubscribed, unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe";
import { resultRows } from "#server/db/raw";

/*
 * Email campaigns (`/organizacion/campanias-de-email`, docs/campaigns.md).
 *
 * Audience: buyers (payer emails of paid orders: billed, with an approved
 * billing; gift orders left out) of an event, a date, a ticket type or the
 * whole organization, or the organization's promoters; lowercase, one per
 * email, never anyone unsubscribed from the organization.
 *
 * Exactly once: when sending starts the audience is copied into
 * `campaign_recipients`, unique per (campaign, email), in the transaction
 * that moves the campaign to `sending` (a conditional UPDATE: only one
 * start). The job then sends RECIPIENTS_PER_RUN per run: a run holds the
 * campaign (`run_locked_until`), claims each recipient with a conditional
 * UPDATE `pending → sending` before sending, and marks it sent after. A run
 * that died leaves at most the recipients it had claimed in `sending`; the
 * next run looks each one up in the email log (written before SMTP): logged
 * means it went (sent, never again), absent means it never went (back to
 * pending). So a job run twice, or again after a crash, sends nobody twice.
 */

export const SEND_CAMPAIGN_JOB = "send-campaign";
/** Recipients one run sends; the next run comes RUN_INTERVAL_MS later: at most 6.000 emails a minute. */
export const RECIPIENTS_PER_RUN = 100;
export const RUN_INTERVAL_MS = 1_000;
/** How long a run holds the campaign; far longer than a run takes, far shorter than the queue's lock timeout. */
const RUN_LEASE_MS = 2 * 60_000;

export const CAMPAIGN_MESSAGES = {
  notFound: "No encontramos la campaña.",
  notEditable: "Esta campaña ya se mandó o se está mandando.",
  notScheduled: "Esta campaña no está programada: no hay nada que cancelar.",
  audience: "Elegí a quién le mandás la campaña.",
  audienceNotFound: "No encontramos eso en tu organización. Elegí de nuevo a quién le mandás.",
  sendAtPast: "Elegí una fecha y hora que todavía no pasó (hora de Buenos Aires).",
  sendAtInvalid: "Escribí la fecha y la hora en que sale (hora de Buenos Aires).",
  nobody: "No hay nadie a quien mandarle esta campaña: el público está vacío o todos se dieron de baja.",
  templateOther: "Elegí una plantilla de tu organización.",
} as const;

const UUID = z.uuid({ error: "Identificador inválido." });
const optionalUuid = z.preprocess((v) => (v === "" || v === null ? undefined : v), UUID.optional());

// ───────────────────────── Audiences ─────────────────────────

export interface AudienceInput {
  organizationId: string;
  audience: CampaignAudience;
  eventId?: string | null;
  eventDateId?: string | null;
  ticketTypeId?: string | null;
}

/**
 * The audience as SQL returning (email, first_name), one row per lowercase
 * email, unsubscribed people left out. The same query counts it, lists it
 * and copies it into the recipients.
 */
export function audienceQuery(a: AudienceInput): SQL {
  const org = a.organizationId;
  const notUnsubscribed = (email: SQL) => sql`not exists (select 1 from email_unsubscribes unsub where unsub.organization_id = ${org} and unsub.email = ${email})`;
  if (a.audience === "promoters") {
    const email = sql`lower(trim(u.email))`;
    return sql`select distinct on (${email}) ${email} as email, coalesce(u.first_name, '') as first_name
      from memberships m join users u on u.id = m.user_id
      where m.organization_id = ${org} and m.role in ('promoter', 'promoter_lead') and position('@' in u.email) > 1 and ${notUnsubscribed(email)}
      order by ${email}`;
  }
  const email = sql`lower(trim(o.payer->>'email'))`;
  const filters: SQL[] = [];
  if (a.audience === "event") filters.push(sql`and o.event_id = ${a.eventId}`);
  if (a.audience === "event_date") filters.push(sql`and o.event_date_id = ${a.eventDateId}`);
  if (a.audience === "ticket_type") filters.push(sql`and exists (select 1 from order_items i where i.order_id = o.id and i.ticket_type_id = ${a.ticketTypeId})`);
  return sql`select distinct on (${email}) ${email} as email, coalesce(o.payer->>'firstName', '') as first_name
    from orders o
    where o.organization_id = ${org} and o.status = 'billed' and o.gift = false
      and exists (select 1 from billings b where b.order_id = o.id and b.status = 'approved')
      ${sql.join(filters, sql` `)}
      and position('@' in coalesce(o.payer->>'email', '')) > 1
      and ${notUnsubscribed(email)}
    order by ${email}, o.created_at desc`;
}

/** How many people the audience has right now. */
export async function audienceSize(db: DbOrTx, a: AudienceInput): Promise<number> {
  const rows = resultRows<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${audienceQuery(a)}) audience`));
  return Number(rows[0]?.n ?? 0);
}

/** The audience's people (tests and the API's preview; the send copies it with one INSERT … SELECT). */
export async function audienceMembers(db: DbOrTx, a: AudienceInput): Promise<{ email: string; firstName: string }[]> {
  const rows = resultRows<{ email: string; first_name: string }>(await db.execute(audienceQuery(a)));
  return rows.map((r) => ({ email: r.email, firstName: r.first_name }));
}

const audienceSchema = z.object({
  organizationId: UUID,
  audience: z.enum(["event", "event_date", "ticket_type", "organization", "promoters"], { error: CAMPAIGN_MESSAGES.audience }),
  eventId: optionalUuid,
  eventDateId: optionalUuid,
  ticketTypeId: optionalUuid,
});

/**
 * Checks the audience against the organization: the event, date or ticket
 * type must be its own. Returns it with the event the campaign is about.
 */
async function resolveAudience(db: DbOrTx, input: z.output<typeof audienceSchema>): Promise<AudienceInput & { eventId: string | null }> {
  const refused = (field: string) => new Invalid({ [field]: [CAMPAIGN_MESSAGES.audienceNotFound] });
  const ownEvent = async (eventId: string | undefined, field: string) => {
    if (!eventId) throw refused(field);
    const [event] = await db.select({ id: events.id, status: events.status }).from(events).where(and(eq(events.id, eventId), eq(events.organizationId, input.organizationId)));
    if (!event || event.status === "deleted") throw refused(field);
    return event.id;
  };
  switch (input.audience) {
    case "event":
      return { organizationId: input.organizationId, audience: "event", eventId: await ownEvent(input.eventId, "audience") };
    case "event_date": {
      if (!input.eventDateId) throw refused("audience");
      const [date] = await db.select({ eventId: eventDates.eventId }).from(eventDates).where(eq(eventDates.id, input.eventDateId));
      return { organizationId: input.organizationId, audience: "event_date", eventDateId: input.eventDateId, eventId: await ownEvent(date?.eventId, "audience") };
    }
    case "ticket_type": {
      if (!input.ticketTypeId) throw refused("audience");
      const [ticket] = await db.select({ eventId: ticketTypes.eventId }).from(ticketTypes).where(eq(ticketTypes.id, input.ticketTypeId));
      return { organizationId: input.organizationId, audience: "ticket_type", ticketTypeId: input.ticketTypeId, eventId: await ownEvent(ticket?.eventId, "audience") };
    }
    default:
      return { organizationId: input.organizationId, audience: input.audience, eventId: input.eventId ? await ownEvent(input.eventId, "eventId") : null };
  }
}

/** `campaignAudienceSize`: how many would get it, before creating or sending. */
export async function countAudience(ctx: Ctx, rawInput: DomainInput<typeof audienceSchema>): Promise<number> {
  const input = parseInput(audienceSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "campaigns:manage");
  return audienceSize(ctx.db, await resolveAudience(ctx.db, input));
}

export interface AudienceChoices {
  events: { id: string; name: string; dates: { id: string; startsAt: Date }[]; ticketTypes: { id: string; name: string }[] }[];
}

/** What the form offers: the organization's events (not deleted), newest first, with their dates and ticket types. */
export async function audienceChoices(ctx: Ctx, organizationId: string): Promise<AudienceChoices> {
  await requireCapability(ctx, organizationId, "campaigns:manage");
  const list = await ctx.db
    .select({ id: events.id, name: events.name })
    .from(events)
    .where(and(eq(events.organizationId, organizationId), sql`${events.status} <> 'deleted'`))
    .orderBy(desc(events.createdAt))
    .limit(100);
  const ids = list.map((e) => e.id);
  const [dates, tickets] = ids.length
    ? await Promise.all([
        ctx.db.select({ id: eventDates.id, eventId: eventDates.eventId, startsAt: eventDates.startsAt }).from(eventDates).where(and(inArray(eventDates.eventId, ids), sql`${eventDates.status} <> 'deleted'`)).orderBy(asc(eventDates.startsAt)),
        ctx.db.select({ id: ticketTypes.id, eventId: ticketTypes.eventId, name: ticketTypes.name }).from(ticketTypes).where(and(inArray(ticketTypes.eventId, ids), sql`${ticketTypes.status} <> 'deleted'`)).orderBy(asc(ticketTypes.sortOrder)),
      ])
    : [[], []];
  return {
    events: list.map((e) => ({
      ...e,
      dates: dates.filter((d) => d.eventId === e.id).map(({ id, startsAt }) => ({ id, startsAt })),
      ticketTypes: tickets.filter((t) => t.eventId === e.id).map(({ id, name }) => ({ id, name })),
    })),
  };
}

// ───────────────────────── Campaigns ─────────────────────────

const createSchema = audienceSchema.extend({
  name: z.string({ error: "Poné un nombre para reconocerla." }).trim().min(1, { error: "Poné un nombre para reconocerla." }).max(80, { error: "Hasta 80 caracteres." }),
  subject: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().trim().max(150, { error: "Hasta 150 caracteres." }).optional()),
  templateId: z.uuid({ error: "Elegí una plantilla." }),
});

/** `createCampaign`: a draft; nothing is sent until sendCampaign or scheduleCampaign. The subject defaults to the template's. */
export async function createCampaign(ctx: Ctx, rawInput: DomainInput<typeof createSchema>): Promise<CampaignRow> {
  const input = parseInput(createSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "campaigns:manage");
  const [template] = await ctx.db.select().from(emailTemplates).where(and(eq(emailTemplates.id, input.templateId), eq(emailTemplates.organizationId, input.organizationId)));
  if (!template) throw new Invalid({ templateId: [CAMPAIGN_MESSAGES.templateOther] });
  const subject = input.subject ?? template.subject;
  const badSubject = unknownVariablesMessage(subject) ?? (/[\r\n]/.test(subject) ? "El asunto va en una sola línea." : null);
  if (badSubject) throw new Invalid({ subject: [badSubject] });
  const audience = await resolveAudience(ctx.db, input);
  const needsEvent = eventVariablesUsed(subject, template.body);
  if (needsEvent.length && !audience.eventId) throw new Invalid({ eventId: [TEMPLATE_MESSAGES.needsEvent(needsEvent)] });
  const [row] = await ctx.db
    .insert(campaigns)
    .values({
      organizationId: input.organizationId,
      name: input.name,
      subject,
      templateId: template.id,
      audience: audience.audience,
      eventId: audience.eventId,
      eventDateId: audience.eventDateId ?? null,
      ticketTypeId: audience.ticketTypeId ?? null,
      createdByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning();
  return row;
}

/** A campaign of an organization the actor may run campaigns for. */
async function requireCampaign(ctx: Ctx, campaignId: string): Promise<CampaignRow> {
  if (!UUID.safeParse(campaignId).success) throw new NotFound(CAMPAIGN_MESSAGES.notFound);
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (!campaign) throw new NotFound(CAMPAIGN_MESSAGES.notFound);
  await requireCapability(ctx, campaign.organizationId, "campaigns:manage");
  return campaign;
}

const audienceOf = (c: CampaignRow): AudienceInput => ({ organizationId: c.organizationId, audience: c.audience, eventId: c.eventId, eventDateId: c.eventDateId, ticketTypeId: c.ticketTypeId });

/**
 * `sendCampaign`: a draft (or a cancelled one) starts now: its recipients
 * are copied and the job queued, in one transaction. An empty audience is
 * refused before anything changes.
 */
export async function sendCampaignNow(ctx: Ctx, campaignId: string): Promise<CampaignRow> {
  const campaign = await requireCampaign(ctx, campaignId);
  if (campaign.status !== "draft" && campaign.status !== "cancelled") throw new Conflict(CAMPAIGN_MESSAGES.notEditable);
  if (!(await audienceSize(ctx.db, audienceOf(campaign)))) throw new Conflict(CAMPAIGN_MESSAGES.nobody);
  const started = await startSending(ctx.db, campaign.id, ["draft", "cancelled"], ctx.now);
  if (!started) throw new Conflict(CAMPAIGN_MESSAGES.notEditable);
  return started;
}

const scheduleSchema = z.object({ id: UUID, sendAt: z.union([z.string(), z.date()], { error: CAMPAIGN_MESSAGES.sendAtInvalid }) });

/** `scheduleCampaign`: it starts by itself at `sendAt` (dd/mm/aaaa hh:mm or ISO without offset are read as Buenos Aires time). */
export async function scheduleCampaign(ctx: Ctx, rawInput: DomainInput<typeof scheduleSchema>): Promise<CampaignRow> {
  const input = parseInput(scheduleSchema, rawInput);
  const campaign = await requireCampaign(ctx, input.id);
  const sendAt = input.sendAt instanceof Date ? input.sendAt : parseDateTime(input.sendAt);
  if (!sendAt || Number.isNaN(sendAt.getTime())) throw new Invalid({ sendAt: [CAMPAIGN_MESSAGES.sendAtInvalid] });
  if (sendAt.getTime() <= ctx.now.getTime()) throw new Invalid({ sendAt: [CAMPAIGN_MESSAGES.sendAtPast] });
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(campaigns)
      .set({ status: "scheduled", scheduledAt: sendAt, updatedAt: ctx.now })
      .where(and(eq(campaigns.id, campaign.id), inArray(campaigns.status, ["draft", "cancelled", "scheduled"])))
      .returning();
    if (!row) throw new Conflict(CAMPAIGN_MESSAGES.notEditable);
    await enqueue(tx, SEND_CAMPAIGN_JOB, { campaignId: row.id }, sendAt);
    return row;
  });
}

/** `cancelCampaign`: a scheduled campaign does not go out (it can be scheduled or sent again later). */
export async function cancelCampaign(ctx: Ctx, campaignId: string): Promise<CampaignRow> {
  const campaign = await requireCampaign(ctx, campaignId);
  const [row] = await ctx.db
    .update(campaigns)
    .set({ status: "cancelled", updatedAt: ctx.now })
    .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, "scheduled")))
    .returning();
  if (!row) throw new Conflict(campaign.status === "sending" || campaign.status === "done" ? CAMPAIGN_MESSAGES.notEditable : CAMPAIGN_MESSAGES.notScheduled);
  return row;
}

/** `deleteCampaign`: only a draft or a cancelled one (nothing was sent). */
export async function deleteCampaign(ctx: Ctx, campaignId: string): Promise<void> {
  const campaign = await requireCampaign(ctx, campaignId);
  const gone = await ctx.db
    .delete(campaigns)
    .where(and(eq(campaigns.id, campaign.id), inArray(campaigns.status, ["draft", "cancelled"])))
    .returning({ id: campaigns.id });
  if (!gone.length) throw new Conflict(CAMPAIGN_MESSAGES.notEditable);
}

/**
 * Moves the campaign to `sending` (only from `from`: one start ever wins),
 * keeps the template as it is now, copies the audience into the recipients
 * and queues the first run. Null when it was not in `from`.
 */
async function startSending(db: DbOrTx, campaignId: string, from: CampaignRow["status"][], now: Date): Promise<CampaignRow | null> {
  return db.transaction(async (tx) => {
    const [campaign] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId));
    if (!campaign) return null;
    const [template] = await tx.select().from(emailTemplates).where(eq(emailTemplates.id, campaign.templateId));
    const [started] = await tx
      .update(campaigns)
      .set({ status: "sending", startedAt: now, updatedAt: now, sentSubject: campaign.subject, sentBody: template?.body ?? "" })
      .where(and(eq(campaigns.id, campaignId), inArray(campaigns.status, from)))
      .returning();
    if (!started) return null;
    await tx.execute(sql`insert into campaign_recipients (campaign_id, email, first_name)
      select ${campaignId}::uuid, audience.email, audience.first_name from (${audienceQuery(audienceOf(started))}) audience
      on conflict (campaign_id, email) do nothing`);
    const [{ n }] = await tx.select({ n: count() }).from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaignId));
    const [withCount] = await tx.update(campaigns).set({ recipientCount: Number(n) }).where(eq(campaigns.id, campaignId)).returning();
    await enqueue(tx, SEND_CAMPAIGN_JOB, { campaignId }, now);
    return withCount;
  });
}

export interface RunResult {
  sent: number;
  failed: number;
  skipped: number;
  more: boolean;
}

export interface RunOptions {
  /** Called right after each email went out and before its recipient is marked sent: where a crash hurts most (tests throw here). */
  afterSend?: (sentInThisRun: number) => void | Promise<void>;
}

/**
 * The job (`send-campaign`): starts a due scheduled campaign, then sends up
 * to RECIPIENTS_PER_RUN recipients and queues the next run, or marks the
 * campaign done. Safe to run twice at once or again after a crash (see the
 * top of this file).
 */
export async function runCampaign(db: Db, campaignId: string, now: Date, options: RunOptions = {}): Promise<RunResult> {
  const idle: RunResult = { sent: 0, failed: 0, skipped: 0, more: false };
  if (!UUID.safeParse(campaignId).success) return idle;
  let [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (!campaign) return idle;
  if (campaign.status === "scheduled") {
    // A job of an earlier schedule (the campaign was moved later) does nothing: the newer job starts it.
    if (!campaign.scheduledAt || campaign.scheduledAt.getTime() > now.getTime()) return idle;
    campaign = (await startSending(db, campaign.id, ["scheduled"], now)) ?? campaign;
    // startSending queued a run; this one goes on anyway (that run will find the work done or the campaign held).
  }
  if (campaign.status !== "sending") return idle;

  const [held] = await db
    .update(campaigns)
    .set({ runLockedUntil: new Date(now.getTime() + RUN_LEASE_MS) })
    .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, "sending"), or(isNull(campaigns.runLockedUntil), lt(campaigns.runLockedUntil, now))))
    .returning();
  // Another run is sending it: that one queues what follows.
  if (!held) return idle;
  try {
    return await sendBatch(db, held, now, options);
  } finally {
    await db.update(campaigns).set({ runLockedUntil: null }).where(eq(campaigns.id, held.id));
  }
}

async function sendBatch(db: Db, campaign: CampaignRow, now: Date, options: RunOptions): Promise<RunResult> {
  await recoverInterrupted(db, campaign.id);
  const batch = await db
    .select()
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaign.id), eq(campaignRecipients.status, "pending")))
    .orderBy(asc(campaignRecipients.email))
    .limit(RECIPIENTS_PER_RUN + 1);
  const result: RunResult = { sent: 0, failed: 0, skipped: 0, more: batch.length > RECIPIENTS_PER_RUN };
  const orgName = await organizationName(db, campaign.organizationId);
  let event: EventForTemplate | null = null;
  if (campaign.eventId) {
    try {
      event = await eventForTemplate(db, campaign.organizationId, campaign.eventId, now);
    } catch {
      event = null;
    }
  }
  const content = { subject: campaign.sentSubject ?? campaign.subject, body: campaign.sentBody ?? "" };
  for (const recipient of batch.slice(0, RECIPIENTS_PER_RUN)) {
    const [claimed] = await db
      .update(campaignRecipients)
      .set({ status: "sending", claimedAt: now })
      .where(and(eq(campaignRecipients.id, recipient.id), eq(campaignRecipients.status, "pending")))
      .returning();
    if (!claimed) continue;
    if (await isUnsubscribed(db, campaign.organizationId, recipient.email)) {
      await finish(db, recipient, { status: "skipped", error: "Se dio de baja antes de que le llegara." }, now);
      result.skipped++;
      continue;
    }
    const email = renderCampaignEmail(content, templateValues({ firstName: recipient.firstName, organizationName: orgName, event }), unsubscribeUrl(campaign.organizationId, recipient.email));
    const sent = await sendEmail(db, {
      to: recipient.email,
      kind: "campaign",
      ...email,
      headers: unsubscribeHeaders(campaign.organizationId, recipient.email),
      organizationId: campaign.organizationId,
      campaignId: campaign.id,
    });
    await options.afterSend?.(result.sent + result.failed + 1);
    const failed = sent.status === "failed";
    await finish(db, recipient, { status: failed ? "failed" : "sent", emailLogId: sent.logEmailId, error: failed ? "El servidor de correo no lo aceptó." : null }, now);
    result[failed ? "failed" : "sent"]++;
  }
  await refreshCounts(db, campaign.id);
  if (result.more) {
    await enqueue(db, SEND_CAMPAIGN_JOB, { campaignId: campaign.id }, new Date(now.getTime() + RUN_INTERVAL_MS));
  } else {
    const [{ open }] = await db
      .select({ open: count() })
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.campaignId, campaign.id), inArray(campaignRecipients.status, ["pending", "sending"])));
    if (!Number(open))
      await db
        .update(campaigns)
        .set({ status: "done", finishedAt: now, updatedAt: now })
        .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, "sending")));
    else result.more = true;
  }
  return result;
}

async function finish(db: DbOrTx, recipient: CampaignRecipientRow, values: Partial<CampaignRecipientRow>, now: Date) {
  await db
    .update(campaignRecipients)
    .set({ ...values, doneAt: now })
    .where(and(eq(campaignRecipients.id, recipient.id), eq(campaignRecipients.status, "sending")));
}

/**
 * Recipients a dead run left `sending` (this run holds the campaign, so no
 * live run is sending them): the email log, written before SMTP, says
 * whether each went. Logged → sent (or failed, as the log says), never
 * again; not logged → back to pending.
 */
async function recoverInterrupted(db: DbOrTx, campaignId: string) {
  const stuck = await db.select().from(campaignRecipients).where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.status, "sending")));
  for (const recipient of stuck) {
    const [logged] = await db
      .select({ id: emailLog.id, status: emailLog.status })
      .from(emailLog)
      .where(and(eq(emailLog.campaignId, campaignId), eq(emailLog.to, recipient.email), eq(emailLog.kind, "campaign")))
      .orderBy(asc(emailLog.createdAt))
      .limit(1);
    await db
      .update(campaignRecipients)
      .set(
        logged
          ? { status: logged.status === "failed" ? "failed" : "sent", emailLogId: logged.id, error: logged.status === "failed" ? "El servidor de correo no lo aceptó." : null, doneAt: new Date() }
          : { status: "pending", claimedAt: null },
      )
      .where(and(eq(campaignRecipients.id, recipient.id), eq(campaignRecipients.status, "sending")));
  }
}

async function recipientCounts(db: DbOrTx, campaignId: string) {
  const grouped = await db.select({ status: campaignRecipients.status, n: count() }).from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaignId)).groupBy(campaignRecipients.status);
  const counts = { pending: 0, sending: 0, sent: 0, failed: 0, skipped: 0 };
  for (const g of grouped) counts[g.status] = Number(g.n);
  return counts;
}

async function refreshCounts(db: DbOrTx, campaignId: string) {
  const c = await recipientCounts(db, campaignId);
  await db.update(campaigns).set({ sentCount: c.sent, failedCount: c.failed, skippedCount: c.skipped }).where(eq(campaigns.id, campaignId));
}

// ───────────────────────── Reading ─────────────────────────

export interface CampaignView {
  campaign: CampaignRow;
  templateName: string;
  audienceLabel: string;
  /** Right now (draft, scheduled, cancelled), or the recipients copied when it started. */
  audienceSize: number;
  counts: { pending: number; sent: number; failed: number; skipped: number };
}

async function describeAudience(db: DbOrTx, c: CampaignRow): Promise<string> {
  const [event] = c.eventId ? await db.select({ name: events.name }).from(events).where(eq(events.id, c.eventId)) : [];
  if (c.audience === "event_date" && c.eventDateId) {
    const [date] = await db.select({ startsAt: eventDates.startsAt }).from(eventDates).where(eq(eventDates.id, c.eventDateId));
    return `${AUDIENCE_LABELS.event_date}: ${event?.name ?? ""}, ${date ? formatDateTime(date.startsAt) : ""}`;
  }
  if (c.audience === "ticket_type" && c.ticketTypeId) {
    const [ticket] = await db.select({ name: ticketTypes.name }).from(ticketTypes).where(eq(ticketTypes.id, c.ticketTypeId));
    return `${AUDIENCE_LABELS.ticket_type}: ${ticket?.name ?? ""} de ${event?.name ?? ""}`;
  }
  if (c.audience === "event") return `${AUDIENCE_LABELS.event}: ${event?.name ?? ""}`;
  return event ? `${AUDIENCE_LABELS[c.audience]} (sobre ${event.name})` : AUDIENCE_LABELS[c.audience];
}

async function view(db: DbOrTx, c: CampaignRow): Promise<CampaignView> {
  const [template] = await db.select({ name: emailTemplates.name }).from(emailTemplates).where(eq(emailTemplates.id, c.templateId));
  const started = c.status === "sending" || c.status === "done";
  const counts = started ? await recipientCounts(db, c.id) : { pending: 0, sending: 0, sent: 0, failed: 0, skipped: 0 };
  return {
    campaign: c,
    templateName: template?.name ?? "",
    audienceLabel: await describeAudience(db, c),
    audienceSize: started ? c.recipientCount : await audienceSize(db, audienceOf(c)),
    counts: { pending: counts.pending + counts.sending, sent: counts.sent, failed: counts.failed, skipped: counts.skipped },
  };
}

/** `campaign`: one campaign with its audience and progress (sent / failed / pending). */
export async function getCampaign(ctx: Ctx, campaignId: string): Promise<CampaignView> {
  return view(ctx.db, await requireCampaign(ctx, campaignId));
}

/** `campaigns`: the organization's campaigns, newest first. */
export async function listCampaigns(ctx: Ctx, organizationId: string): Promise<CampaignView[]> {
  await requireCapability(ctx, organizationId, "campaigns:manage");
  const rows = await ctx.db.select().from(campaigns).where(eq(campaigns.organizationId, organizationId)).orderBy(desc(campaigns.createdAt)).limit(50);
  return Promise.all(rows.map((c) => view(ctx.db, c)));
}

const recipientsSchema = z.object({
  campaignId: z.string(),
  status: z.enum(["pending", "sending", "sent", "failed", "skipped"]).optional(),
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** `campaignRecipients`: who it went to, optionally of one status (the page lists the failed ones). */
export async function listRecipients(ctx: Ctx, rawInput: DomainInput<typeof recipientsSchema>): Promise<{ items: CampaignRecipientRow[]; total: number; page: number; limit: number }> {
  const input = parseInput(recipientsSchema, rawInput);
  const campaign = await requireCampaign(ctx, input.campaignId);
  const where = and(eq(campaignRecipients.campaignId, campaign.id), input.status ? eq(campaignRecipients.status, input.status) : undefined);
  const [items, [{ total }]] = await Promise.all([
    ctx.db.select().from(campaignRecipients).where(where).orderBy(asc(campaignRecipients.email)).limit(input.limit).offset(input.page * input.limit),
    ctx.db.select({ total: count() }).from(campaignRecipients).where(where),
  ]);
  return { items, total: Number(total), page: input.page, limit: input.limit };
}

