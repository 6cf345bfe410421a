import type { EmailTemplateRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import * as campaigns from "#server/campaigns/campaigns";
import type { CampaignView } from "#server/campaigns/campaigns";
import * as emailLog from "#server/campaigns/email-log";
import type { EmailLogItem } from "#server/campaigns/email-log";
import * as templates from "#server/campaigns/templates";

/** Email templates, campaigns and the email log for integrators: the same domain functions as /organizacion/campanias-de-email and /organizacion/log-emails (docs/campaigns.md). */

const EmailTemplate = builder.objectRef<EmailTemplateRow>("EmailTemplate").implement({
  description: "An email template: subject and body in a small Markdown subset with variables ({{nombre}}, {{evento}}, {{fecha}}, {{lugar}}, {{link_evento}}, {{organizacion}}).",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    subject: t.exposeString("subject", { nullable: false }),
    body: t.exposeString("body", { nullable: false, description: "Markdown subset: paragraphs, **bold**, *italics*, lists, [links](https://…), ## subtitles. Never HTML." }),
    createdAt: t.string({ nullable: false, resolve: (r) => isoDate(r.createdAt)! }),
    updatedAt: t.string({ nullable: false, resolve: (r) => isoDate(r.updatedAt)! }),
  }),
});

const RenderedEmail = builder.objectRef<templates.RenderedEmail>("RenderedEmail").implement({
  description: "A template rendered with sample values (the preview).",
  fields: (t) => ({
    subject: t.exposeString("subject", { nullable: false }),
    html: t.exposeString("html", { nullable: false, description: "Show it in a sandboxed iframe." }),
    text: t.exposeString("text", { nullable: false }),
  }),
});

const CampaignCounts = builder.objectRef<CampaignView["counts"]>("CampaignCounts").implement({
  description: "Recipients by status, once sending started.",
  fields: (t) => ({
    pending: t.exposeInt("pending", { nullable: false, description: "Still to send." }),
    sent: t.exposeInt("sent", { nullable: false }),
    failed: t.exposeInt("failed", { nullable: false, description: "The mail server refused it; not retried (never twice)." }),
    skipped: t.exposeInt("skipped", { nullable: false, description: "Unsubscribed after the campaign started." }),
  }),
});

const Campaign = builder.objectRef<CampaignView>("Campaign").implement({
  description: "An email campaign: draft → scheduled → sending → done, or cancelled while scheduled.",
  fields: (t) => ({
    id: t.id({ nullable: false, resolve: (v) => v.campaign.id }),
    organizationId: t.id({ nullable: false, resolve: (v) => v.campaign.organizationId }),
    name: t.string({ nullable: false, resolve: (v) => v.campaign.name }),
    subject: t.string({ nullable: false, resolve: (v) => v.campaign.subject }),
    templateId: t.id({ nullable: false, resolve: (v) => v.campaign.templateId }),
    templateName: t.exposeString("templateName", { nullable: false }),
    audience: t.string({ nullable: false, description: "event, event_date, ticket_type, organization or promoters.", resolve: (v) => v.campaign.audience }),
    audienceLabel: t.exposeString("audienceLabel", { nullable: false, description: "The audience in Spanish words." }),
    audienceSize: t.exposeInt("audienceSize", { nullable: false, description: "People it goes to: now (draft, scheduled, cancelled) or as copied when sending started." }),
    eventId: t.id({ resolve: (v) => v.campaign.eventId }),
    eventDateId: t.id({ resolve: (v) => v.campaign.eventDateId }),
    ticketTypeId: t.id({ resolve: (v) => v.campaign.ticketTypeId }),
    status: t.string({ nullable: false, description: "draft, scheduled, sending, done or cancelled.", resolve: (v) => v.campaign.status }),
    scheduledAt: t.string({ resolve: (v) => isoDate(v.campaign.scheduledAt) }),
    counts: t.field({ type: CampaignCounts, nullable: false, resolve: (v) => v.counts }),
    createdAt: t.string({ nullable: false, resolve: (v) => isoDate(v.campaign.createdAt)! }),
    startedAt: t.string({ resolve: (v) => isoDate(v.campaign.startedAt) }),
    finishedAt: t.string({ resolve: (v) => isoDate(v.campaign.finishedAt) }),
  }),
});

const LoggedEmail = builder.objectRef<EmailLogItem & { html?: string; text?: string }>("LoggedEmail").implement({
  description: "An email the app sent about the organization.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    to: t.exposeString("to", { nullable: false }),
    subject: t.exposeString("subject", { nullable: false }),
    kind: t.exposeString("kind", { nullable: false, description: "tickets, refund-approved, bank-transfer-rejected, campaign… (the page shows it in Spanish)." }),
    status: t.exposeString("status", { nullable: false, description: "logged (no SMTP configured), sent or failed." }),
    error: t.exposeString("error"),
    campaignId: t.exposeID("campaignId"),
    createdAt: t.string({ nullable: false, resolve: (e) => isoDate(e.createdAt)! }),
    html: t.string({ description: "Only in loggedEmail.", resolve: (e) => e.html ?? null }),
    text: t.string({ description: "Only in loggedEmail.", resolve: (e) => e.text ?? null }),
  }),
});

const LoggedEmailList = builder.objectRef<Awaited<ReturnType<typeof emailLog.listEmailLog>>>("LoggedEmailList").implement({
  fields: (t) => ({
    items: t.field({ type: [LoggedEmail], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "From 0." }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

const EmailTemplateInput = builder.inputType("EmailTemplateInput", {
  fields: (t) => ({
    id: t.id({ description: "Only in updateEmailTemplate." }),
    organizationId: t.id({ description: "Only in createEmailTemplate." }),
    name: t.string({ required: true, description: "Up to 80 characters." }),
    subject: t.string({ required: true, description: "Up to 150 characters, one line; variables allowed." }),
    body: t.string({ required: true, description: "Up to 20.000 characters. Unknown variables are BAD_USER_INPUT." }),
  }),
});

const EmailContentInput = builder.inputType("EmailContentInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    subject: t.string({ required: true }),
    body: t.string({ required: true }),
    eventId: t.id({ description: "The event {{evento}} and the rest take their values from; a sample one when absent." }),
  }),
});

const CampaignAudienceInput = builder.inputType("CampaignAudienceInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    audience: t.string({ required: true, description: "event (needs eventId), event_date (eventDateId), ticket_type (ticketTypeId), organization or promoters." }),
    eventId: t.id({ description: "For event; optional for organization and promoters (the event the variables name)." }),
    eventDateId: t.id(),
    ticketTypeId: t.id(),
  }),
});

const CreateCampaignInput = builder.inputType("CreateCampaignInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    name: t.string({ required: true }),
    templateId: t.id({ required: true }),
    subject: t.string({ description: "Default: the template's." }),
    audience: t.string({ required: true, description: "As in CampaignAudienceInput." }),
    eventId: t.id(),
    eventDateId: t.id(),
    ticketTypeId: t.id(),
  }),
});

const ScheduleCampaignInput = builder.inputType("ScheduleCampaignInput", {
  fields: (t) => ({
    id: t.id({ required: true }),
    sendAt: t.string({ required: true, description: "ISO 8601 with offset, or a local date-time read as Buenos Aires time; must be in the future." }),
  }),
});

const EmailLogFilter = builder.inputType("EmailLogFilter", {
  description: "Newest first; page 0 and limit 50 by default.",
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    search: t.string({ description: "Part of the recipient's address." }),
    page: t.int({ description: "From 0." }),
    limit: t.int({ description: "1 to 200." }),
  }),
});

builder.queryFields((t) => ({
  emailTemplates: t.field({
    type: [EmailTemplate],
    nullable: false,
    description: "The organization's email templates, last modified first. Needs campaigns:manage.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => templates.listTemplates(ctx, String(args.organizationId)),
  }),
  emailTemplate: t.field({
    type: EmailTemplate,
    nullable: false,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => templates.getTemplate(ctx, String(args.id)),
  }),
  previewEmailTemplate: t.field({
    type: RenderedEmail,
    nullable: false,
    description: "Renders a subject and body with sample values, without saving or sending anything.",
    args: { input: t.arg({ type: EmailContentInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => templates.previewTemplate(ctx, given(input)),
  }),
  campaigns: t.field({
    type: [Campaign],
    nullable: false,
    description: "The organization's campaigns, newest first (50). Needs campaigns:manage.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => campaigns.listCampaigns(ctx, String(args.organizationId)),
  }),
  campaign: t.field({
    type: Campaign,
    nullable: false,
    description: "One campaign with its progress: poll it while it is sending.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => campaigns.getCampaign(ctx, String(args.id)),
  }),
  campaignAudienceSize: t.int({
    nullable: false,
    description: "How many people an audience has right now (paid buyers or promoters, one per email, unsubscribed left out).",
    args: { input: t.arg({ type: CampaignAudienceInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => campaigns.countAudience(ctx, given(input)),
  }),
  emailLog: t.field({
    type: LoggedEmailList,
    nullable: false,
    description: "Every email sent about the organization (tickets, refunds, transfers, invitations, campaigns…). Needs emails:read.",
    args: { filter: t.arg({ type: EmailLogFilter, required: true }) },
    resolve: (_root, { filter }, { ctx }) => emailLog.listEmailLog(ctx, given(filter)),
  }),
  loggedEmail: t.field({
    type: LoggedEmail,
    nullable: false,
    description: "One logged email with its HTML and text. Links that carry a purchase token or another secret (invitations, sign-in, unsubscribe) are replaced by a placeholder, for every role: resendEmail sends the original to its recipient.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => emailLog.getLoggedEmail(ctx, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  createEmailTemplate: t.field({
    type: EmailTemplate,
    nullable: false,
    args: { input: t.arg({ type: EmailTemplateInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => templates.createTemplate(ctx, given(input)),
  }),
  updateEmailTemplate: t.field({
    type: EmailTemplate,
    nullable: false,
    args: { input: t.arg({ type: EmailTemplateInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => templates.updateTemplate(ctx, given(input)),
  }),
  deleteEmailTemplate: t.boolean({
    nullable: false,
    description: "CONFLICT when a campaign uses it.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await templates.deleteTemplate(ctx, String(args.id));
      return true;
    },
  }),
  sendTestEmail: t.string({
    nullable: false,
    description: "Sends the rendered email to the signed-in person only; returns their address.",
    args: { input: t.arg({ type: EmailContentInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => (await templates.sendTestEmail(ctx, given(input))).to,
  }),
  createCampaign: t.field({
    type: Campaign,
    nullable: false,
    description: "A draft: nothing is sent until sendCampaign or scheduleCampaign.",
    args: { input: t.arg({ type: CreateCampaignInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => campaigns.getCampaign(ctx, (await campaigns.createCampaign(ctx, given(input))).id),
  }),
  sendCampaign: t.field({
    type: Campaign,
    nullable: false,
    description: "Starts a draft or cancelled campaign now. CONFLICT when already started or the audience is empty.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => campaigns.getCampaign(ctx, (await campaigns.sendCampaignNow(ctx, String(args.id))).id),
  }),
  scheduleCampaign: t.field({
    type: Campaign,
    nullable: false,
    args: { input: t.arg({ type: ScheduleCampaignInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => campaigns.getCampaign(ctx, (await campaigns.scheduleCampaign(ctx, given(input))).id),
  }),
  cancelCampaign: t.field({
    type: Campaign,
    nullable: false,
    description: "Only a scheduled campaign. CONFLICT otherwise.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => campaigns.getCampaign(ctx, (await campaigns.cancelCampaign(ctx, String(args.id))).id),
  }),
  resendEmail: t.field({
    type: LoggedEmail,
    nullable: false,
    description: "Sends a logged email again, same content, as a new log row. CONFLICT for a campaign to someone unsubscribed.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => emailLog.resendEmail(ctx, String(args.id)),
  }),
}));

export { Campaign, EmailTemplate, LoggedEmail };
