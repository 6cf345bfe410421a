import type { GiveawayLineRow, OrderRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import * as invitations from "#server/invitations/invitations";
import type { InvitationView } from "#server/invitations/invitations";
import * as giveaways from "#server/invitations/giveaways";
import type { GiveawayProgress } from "#server/invitations/giveaways";

/** Invitations and CSV giveaways for integrators: the same domain functions as /organizacion/invitaciones and /organizacion/evento/enviar-tickets (docs/invitations.md). */

const InvitationTickets = builder.objectRef<InvitationView["tickets"][number]>("InvitationTickets").implement({
  fields: (t) => ({
    ticketTypeName: t.exposeString("ticketTypeName", { nullable: false }),
    qty: t.exposeInt("qty", { nullable: false }),
  }),
});

const Invitation = builder.objectRef<InvitationView>("Invitation").implement({
  description: "A gift order: complimentary tickets sent to one guest (payment method FREE, total 0).",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false, description: "The gift order's id." }),
    code: t.exposeString("code", { nullable: false, description: "The order's short code." }),
    eventId: t.exposeID("eventId", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    guestName: t.exposeString("guestName", { nullable: false }),
    email: t.exposeString("email", { nullable: false }),
    documentNumber: t.exposeString("documentNumber", { nullable: false, description: "\"\" when none was given." }),
    tickets: t.field({ type: [InvitationTickets], nullable: false, resolve: (i) => i.tickets }),
    qty: t.exposeInt("qty", { nullable: false, description: "Tickets of the invitation, all types." }),
    redeemed: t.exposeInt("redeemed", { nullable: false, description: "Of them, already used at the door." }),
    status: t.exposeString("status", { nullable: false, description: "active or revoked." }),
    invitedBy: t.exposeString("invitedBy", { description: "Name (or email) of who sent it; null when sent by the system." }),
    createdAt: t.string({ nullable: false, resolve: (i) => isoDate(i.createdAt)! }),
  }),
});

const InvitationList = builder.objectRef<Awaited<ReturnType<typeof invitations.listInvitations>>>("InvitationList").implement({
  fields: (t) => ({
    items: t.field({ type: [Invitation], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "From 0." }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

const InvitationOrder = builder.objectRef<OrderRow>("InvitationOrder").implement({
  description: "The gift order behind an invitation, as sendInvitation, revokeInvitation and resendInvitation leave it.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    code: t.exposeString("code", { nullable: false }),
    eventId: t.exposeID("eventId", { nullable: false }),
    email: t.string({ nullable: false, description: "The guest's email.", resolve: (o) => o.payer.email }),
    status: t.string({ nullable: false, description: "active or revoked (as in invitations).", resolve: (o) => (o.status === "billed" ? "active" : "revoked") }),
    total: t.exposeInt("total", { nullable: false, description: "Always 0." }),
    createdAt: t.string({ nullable: false, resolve: (o) => isoDate(o.createdAt)! }),
  }),
});

const GiveawayCounts = builder.objectRef<GiveawayProgress["counts"]>("GiveawayCounts").implement({
  description: "Rows of the file by status.",
  fields: (t) => ({
    ready: t.exposeInt("ready", { nullable: false, description: "Checked and waiting to be sent." }),
    invalid: t.exposeInt("invalid", { nullable: false, description: "With an error in the file: never sent." }),
    sent: t.exposeInt("sent", { nullable: false }),
    skipped: t.exposeInt("skipped", { nullable: false, description: "Already sent before (this or another file): not sent again." }),
    failed: t.exposeInt("failed", { nullable: false, description: "Could not be sent (no stock left, event or ticket type gone)." }),
  }),
});

const Giveaway = builder.objectRef<GiveawayProgress>("Giveaway").implement({
  description: "A CSV of guests: checked on upload (preview), sent by the job queue after startGiveaway, one gift order per ready row.",
  fields: (t) => ({
    id: t.id({ nullable: false, resolve: (g) => g.giveaway.id }),
    eventId: t.id({ nullable: false, resolve: (g) => g.giveaway.eventId }),
    eventName: t.string({ nullable: false, resolve: (g) => g.giveaway.eventName }),
    status: t.string({ nullable: false, description: "preview, sending or done.", resolve: (g) => g.giveaway.status }),
    fileName: t.string({ nullable: false, resolve: (g) => g.giveaway.fileName }),
    totalRows: t.int({ nullable: false, description: "Rows of the file, header and empty lines left out.", resolve: (g) => g.giveaway.totalRows }),
    counts: t.field({ type: GiveawayCounts, nullable: false, resolve: (g) => g.counts }),
    done: t.exposeInt("done", { nullable: false, description: "Rows the job has dealt with (sent, failed, or skipped while sending)." }),
    toSend: t.exposeInt("toSend", { nullable: false, description: "done plus the rows still ready: the progress bar is done / toSend." }),
    createdAt: t.string({ nullable: false, resolve: (g) => isoDate(g.giveaway.createdAt)! }),
    startedAt: t.string({ resolve: (g) => isoDate(g.giveaway.startedAt) }),
    finishedAt: t.string({ resolve: (g) => isoDate(g.giveaway.finishedAt) }),
  }),
});

const GiveawayRow = builder.objectRef<GiveawayLineRow>("GiveawayRow").implement({
  description: "One row of a giveaway's file, as checked (and later sent).",
  fields: (t) => ({
    line: t.exposeInt("line", { nullable: false, description: "Line in the file; the header is line 1." }),
    email: t.exposeString("email", { nullable: false }),
    firstName: t.exposeString("firstName", { nullable: false }),
    lastName: t.exposeString("lastName", { nullable: false }),
    documentNumber: t.exposeString("documentNumber", { nullable: false }),
    qty: t.exposeInt("qty", { nullable: false }),
    ticketTypeName: t.exposeString("ticketTypeName", { nullable: false, description: "The matched ticket type, or as written in the file when none matched." }),
    status: t.exposeString("status", { nullable: false, description: "invalid, ready, sent, skipped or failed." }),
    error: t.exposeString("error", { description: "Why it is invalid, skipped or failed (Spanish, for the organizer)." }),
  }),
});

const GiveawayRowList = builder.objectRef<Awaited<ReturnType<typeof giveaways.listGiveawayRows>>>("GiveawayRowList").implement({
  fields: (t) => ({
    items: t.field({ type: [GiveawayRow], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "From 0." }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

const InvitationsFilter = builder.inputType("InvitationsFilter", {
  description: "Newest first; page 0 and limit 25 by default.",
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    eventId: t.id(),
    search: t.string({ description: "Part of the guest's name, email or DNI, or the order code." }),
    page: t.int({ description: "From 0." }),
    limit: t.int({ description: "1 to 100." }),
  }),
});

const SendInvitationInput = builder.inputType("SendInvitationInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    eventDateId: t.id({ description: "Needed only when the ticket type is valid for every date and more than one is still to come." }),
    ticketTypeId: t.id({ required: true, description: "Any ticket type of the event not deleted, paused and hidden ones included." }),
    email: t.string({ required: true }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    documentNumber: t.string({ description: "Optional; dots, dashes and spaces are dropped." }),
    qty: t.int({ required: true, description: "1 to 20." }),
  }),
});

const PreviewGiveawayInput = builder.inputType("PreviewGiveawayInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    eventDateId: t.id({ description: "Needed only when more than one date is still to come." }),
    fileName: t.string({ description: "Shown in the list of giveaways; default invitados.csv." }),
    csv: t.string({ required: true, description: "The file's text (up to 2 MB): comma or semicolon separated, header row first (email, nombre, apellido, dni, cantidad, tipo de entrada)." }),
  }),
});

const GiveawayRowsInput = builder.inputType("GiveawayRowsInput", {
  fields: (t) => ({
    giveawayId: t.id({ required: true }),
    status: t.string({ description: "invalid, ready, sent, skipped or failed; absent: all." }),
    page: t.int({ description: "From 0." }),
    limit: t.int({ description: "1 to 500 (default 100)." }),
  }),
});

builder.queryFields((t) => ({
  invitations: t.field({
    type: InvitationList,
    nullable: false,
    description: "The organization's invitations (gift orders), active and revoked, newest first, optionally of one event or matching a search. Needs events:manage.",
    args: { filter: t.arg({ type: InvitationsFilter, required: true }) },
    resolve: (_root, { filter }, { ctx }) => invitations.listInvitations(ctx, given(filter)),
  }),
  giveaway: t.field({
    type: Giveaway,
    nullable: false,
    description: "A giveaway with its counts per row status: poll it while it is sending. Needs events:manage on its event.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => giveaways.getGiveaway(ctx, String(args.id)),
  }),
  giveawayRows: t.field({
    type: GiveawayRowList,
    nullable: false,
    description: "A giveaway's rows in file order, optionally of one status, with each row's error.",
    args: { input: t.arg({ type: GiveawayRowsInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => giveaways.listGiveawayRows(ctx, given({ ...input, giveawayId: String(input.giveawayId) })),
  }),
}));

builder.mutationFields((t) => ({
  sendInvitation: t.field({
    type: InvitationOrder,
    nullable: false,
    description: "Complimentary tickets for one guest: takes stock, issues the tickets and emails them. Needs events:manage. CONFLICT when the stock is short.",
    args: { input: t.arg({ type: SendInvitationInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => invitations.sendInvitation(ctx, given(input)),
  }),
  revokeInvitation: t.field({
    type: InvitationOrder,
    nullable: false,
    description: "Voids the invitation's tickets and puts their stock back on sale, once. CONFLICT when already revoked or someone got in with it.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => invitations.revokeInvitation(ctx, String(args.id)),
  }),
  resendInvitation: t.field({
    type: InvitationOrder,
    nullable: false,
    description: "Emails the tickets to the guest again. CONFLICT when revoked.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => invitations.resendInvitation(ctx, String(args.id)),
  }),
  previewGiveaway: t.field({
    type: Giveaway,
    nullable: false,
    description: "Reads and checks a CSV of guests and keeps it as a preview: nothing is sent. Problems with the file are BAD_USER_INPUT on `file`; problems of a row are in giveawayRows.",
    args: { input: t.arg({ type: PreviewGiveawayInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const giveaway = await giveaways.previewGiveaway(ctx, given(input));
      return giveaways.getGiveaway(ctx, giveaway.id);
    },
  }),
  startGiveaway: t.field({
    type: Giveaway,
    nullable: false,
    description: "Confirms a preview: the job queue sends its ready rows (status sending, then done). Never sends a person the same ticket type twice. CONFLICT when already started or nothing is ready.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const giveaway = await giveaways.startGiveaway(ctx, String(args.id));
      return giveaways.getGiveaway(ctx, giveaway.id);
    },
  }),
}));

export { Invitation, Giveaway };
