import { and, asc, count, desc, eq, gt, ne } from "drizzle-orm";
import { z } from "zod";
import { EVENT_VARIABLES, TEMPLATE_LIMITS, unknownVariablesMessage, variablesIn } from "#common/campaigns";
import { formatDate, formatLongDay, formatTime } from "#common/dates";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { campaigns, emailTemplates, eventDates, events, organizations, type EmailTemplateRow } from "#server/db/schema";
import { sendEmail } from "#server/email/send";
import { emailLayout, escapeHtml } from "#server/email/templates";
import { appUrl } from "#server/env";
import { Conflict, Invalid, NotFound, Unauthenticated } from "#server/errors";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { fillHtml, fillText, markdownToHtml, markdownToText, type TemplateValues } from "./render";
import { unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe";
import { brand } from "#common/brand";

/*
 * Email templates (`/organizacion/campanias-de-email/plantillas`,
 * docs/campaigns.md): a name, a subject and a body in a small Markdown subset
 * with variables. Only members with `campaigns:manage` (owner, admin,
 * marketing) read or change them, and only their organization's.
 */

export const TEMPLATE_MESSAGES = {
  notFound: "No encontramos la plantilla.",
  inUse: "Esta plantilla la usa una campaña: no se puede borrar. Podés editarla.",
  needsEvent: (names: string[]) => `La plantilla usa ${names.map((n) => `{{${n}}}`).join(", ")}: elegí de qué evento habla la campaña.`,
  eventNotFound: "No encontramos ese evento en tu organización.",
} as const;

const UUID = z.uuid({ error: "Identificador inválido." });

const text = (max: number, required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(max, { error: `Hasta ${max.toLocaleString("es-AR")} caracteres.` });

const subjectSchema = text(TEMPLATE_LIMITS.subject, "Escribí el asunto.")
  .refine((v) => !/[\r\n]/.test(v), { error: "El asunto va en una sola línea." })
  .superRefine((v, c) => {
    const message = unknownVariablesMessage(v);
    if (message) c.addIssue({ code: "custom", message });
  });
const bodySchema = text(TEMPLATE_LIMITS.body, "Escribí el texto del correo.").superRefine((v, c) => {
  const message = unknownVariablesMessage(v);
  if (message) c.addIssue({ code: "custom", message });
});

const contentSchema = z.object({ subject: subjectSchema, body: bodySchema });
const templateSchema = contentSchema.extend({ organizationId: UUID, name: text(TEMPLATE_LIMITS.name, "Poné un nombre para reconocerla.") });
const updateSchema = contentSchema.extend({ id: UUID, name: text(TEMPLATE_LIMITS.name, "Poné un nombre para reconocerla.") });

export async function listTemplates(ctx: Ctx, organizationId: string): Promise<EmailTemplateRow[]> {
  await requireCapability(ctx, organizationId, "campaigns:manage");
  return ctx.db.select().from(emailTemplates).where(eq(emailTemplates.organizationId, organizationId)).orderBy(desc(emailTemplates.updatedAt)).limit(200);
}

/** A template of an organization the actor may run campaigns for (another organization's is a 403, an unknown id a 404). */
export async function getTemplate(ctx: Ctx, templateId: string): Promise<EmailTemplateRow> {
  if (!UUID.safeParse(templateId).success) throw new NotFound(TEMPLATE_MESSAGES.notFound);
  const [template] = await ctx.db.select().from(emailTemplates).where(eq(emailTemplates.id, templateId));
  if (!template) throw new NotFound(TEMPLATE_MESSAGES.notFound);
  await requireCapability(ctx, template.organizationId, "campaigns:manage");
  return template;
}

export async function createTemplate(ctx: Ctx, rawInput: DomainInput<typeof templateSchema>): Promise<EmailTemplateRow> {
  const input = parseInput(templateSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "campaigns:manage");
  const [row] = await ctx.db
    .insert(emailTemplates)
    .values({ ...input, createdByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null, createdAt: ctx.now, updatedAt: ctx.now })
    .returning();
  return row;
}

export async function updateTemplate(ctx: Ctx, rawInput: DomainInput<typeof updateSchema>): Promise<EmailTemplateRow> {
  const input = parseInput(updateSchema, rawInput);
  const template = await getTemplate(ctx, input.id);
  const [row] = await ctx.db.update(emailTemplates).set({ name: input.name, subject: input.subject, body: input.body, updatedAt: ctx.now }).where(eq(emailTemplates.id, template.id)).returning();
  return row;
}

/** Only a template no campaign uses (a campaign keeps its template to show it). */
export async function deleteTemplate(ctx: Ctx, templateId: string): Promise<void> {
  const template = await getTemplate(ctx, templateId);
  const [{ used }] = await ctx.db.select({ used: count() }).from(campaigns).where(eq(campaigns.templateId, template.id));
  if (Number(used)) throw new Conflict(TEMPLATE_MESSAGES.inUse);
  await ctx.db.delete(emailTemplates).where(eq(emailTemplates.id, template.id));
}

// ───────────────────────── Rendering ─────────────────────────

export interface EventForTemplate {
  name: string;
  slug: string;
  venueName: string;
  nextStartsAt: Date | null;
}

/** The event a campaign talks about, with its next date (or its last one, when all passed). */
export async function eventForTemplate(db: DbOrTx, organizationId: string, eventId: string, now: Date): Promise<EventForTemplate> {
  if (!UUID.safeParse(eventId).success) throw new Invalid({ eventId: [TEMPLATE_MESSAGES.eventNotFound] });
  const [event] = await db
    .select({ name: events.name, slug: events.slug, venueName: events.venueName, status: events.status })
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.organizationId, organizationId)));
  if (!event || event.status === "deleted") throw new Invalid({ eventId: [TEMPLATE_MESSAGES.eventNotFound] });
  const [next] = await db
    .select({ startsAt: eventDates.startsAt })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted"), gt(eventDates.startsAt, now)))
    .orderBy(asc(eventDates.startsAt))
    .limit(1);
  const [last] = next ? [next] : await db.select({ startsAt: eventDates.startsAt }).from(eventDates).where(eq(eventDates.eventId, eventId)).orderBy(desc(eventDates.startsAt)).limit(1);
  return { name: event.name, slug: event.slug, venueName: event.venueName, nextStartsAt: last?.startsAt ?? null };
}

export async function organizationName(db: DbOrTx, organizationId: string): Promise<string> {
  const [row] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.name ?? "";
}

/** The values of the variables for one recipient. */
export function templateValues(input: { firstName: string; organizationName: string; event: EventForTemplate | null }): TemplateValues {
  const { event } = input;
  return {
    nombre: input.firstName.trim() || "hola",
    organizacion: input.organizationName,
    evento: event?.name ?? "",
    // Inside the organizer's sentence ("Te esperamos el {{fecha}}."): lowercase, the year, no "hs".
    fecha: event?.nextStartsAt ? `${formatLongDay(event.nextStartsAt)} de ${formatDate(event.nextStartsAt).slice(-4)} a las ${formatTime(event.nextStartsAt)}` : "",
    lugar: event?.venueName ?? "",
    link_evento: event ? `${appUrl()}/eventos/${event.slug}` : appUrl(),
  };
}

/** The event variables a subject or body uses (they need the campaign to be about an event). */
export function eventVariablesUsed(...texts: string[]): string[] {
  return [...new Set(texts.flatMap(variablesIn))].filter((n) => (EVENT_VARIABLES as readonly string[]).includes(n));
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * A campaign email: the body rendered from Markdown and filled in, inside the
 * app's layout, with who sends it and the unsubscribe link at the bottom.
 */
export function renderCampaignEmail(content: { subject: string; body: string }, values: TemplateValues, unsubscribe: string): RenderedEmail {
  const subject = fillText(content.subject, values);
  const organization = values.organizacion || "la organización";
  const footer = `<p style="font-size:12px;color:${brand.email.muted};margin-top:24px;line-height:1.5">Te escribe ${escapeHtml(organization)} por Tribuna porque compraste entradas o formás parte de su equipo. <a href="${escapeHtml(unsubscribe)}" style="color:${brand.email.muted}">No quiero recibir más correos de ${escapeHtml(organization)}</a>.</p>`;
  return {
    subject,
    html: emailLayout(subject, fillHtml(markdownToHtml(content.body), values) + footer, ""),
    text: `${fillText(markdownToText(content.body), values)}\n\n—\nTe escribe ${organization} por Tribuna. Para no recibir más correos de ${organization}: ${unsubscribe}`,
  };
}

const previewSchema = contentSchema.extend({
  organizationId: UUID,
  eventId: z.preprocess((v) => (v === "" || v === null ? undefined : v), UUID.optional()),
});

/** Sample values for a preview: the signed-in person's name, and the chosen event or a made-up one. */
async function previewValues(ctx: Ctx, organizationId: string, eventId: string | undefined): Promise<TemplateValues> {
  const event = eventId
    ? await eventForTemplate(ctx.db, organizationId, eventId, ctx.now)
    : { name: "Noche de Cumbia", slug: "noche-de-cumbia", venueName: "Club Atlético Fernández Fierro", nextStartsAt: new Date(ctx.now.getTime() + 14 * 86_400_000) };
  return templateValues({ firstName: "Sofía", organizationName: await organizationName(ctx.db, organizationId), event });
}

/** `previewEmailTemplate`: what the email looks like (checked like a save; nothing is stored nor sent). */
export async function previewTemplate(ctx: Ctx, rawInput: DomainInput<typeof previewSchema>): Promise<RenderedEmail> {
  const input = parseInput(previewSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "campaigns:manage");
  const values = await previewValues(ctx, input.organizationId, input.eventId);
  return renderCampaignEmail(input, values, `${appUrl()}/correos/baja/ejemplo`);
}

/**
 * `sendTestEmail` ("Enviarme una prueba"): the rendered email to the
 * signed-in person only, never to anyone else. It carries a real
 * unsubscribe link for that address, to try it.
 */
export async function sendTestEmail(ctx: Ctx, rawInput: DomainInput<typeof previewSchema>): Promise<{ to: string }> {
  const input = parseInput(previewSchema, rawInput);
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  await requireCapability(ctx, input.organizationId, "campaigns:manage");
  const to = ctx.actor.email.toLowerCase();
  const values = await previewValues(ctx, input.organizationId, input.eventId);
  const email = renderCampaignEmail(input, values, unsubscribeUrl(input.organizationId, to));
  await sendEmail(ctx.db, { to, kind: "campaign-test", ...email, subject: `[Prueba] ${email.subject}`, headers: unsubscribeHeaders(input.organizationId, to), organizationId: input.organizationId });
  return { to };
}
