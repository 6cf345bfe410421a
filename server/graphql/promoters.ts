import type { OrderRow, PromoterGroupRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import * as groups from "#server/team/promoter-groups";
import type { PendingPromoterInvitation, PromoterNumbers } from "#server/team/promoter-groups";
import * as inHand from "#server/invitations/sales-in-hand";

/** Promoter (RRPP) groups, links and sales in hand for integrators: the same domain functions as /organizacion/relaciones-publicas (docs/promoters.md). */

const PromoterEventNumbers = builder.objectRef<PromoterNumbers["perEvent"][number]>("PromoterEventNumbers").implement({
  fields: (t) => ({
    eventId: t.exposeID("eventId", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    sold: t.exposeInt("sold", { nullable: false }),
    accredited: t.exposeInt("accredited", { nullable: false }),
  }),
});

const Promoter = builder.objectRef<PromoterNumbers>("Promoter").implement({
  description: "A promoter of a group with their numbers. Sold: tickets of paid orders attributed to them and not voided; accredited: of those, redeemed at the door. Money in centavos.",
  fields: (t) => ({
    userId: t.exposeID("userId", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    email: t.exposeString("email", { nullable: false }),
    nickname: t.exposeString("nickname", { description: "Their referral link is /eventos/{slug}/{nickname}." }),
    isLead: t.exposeBoolean("isLead", { nullable: false }),
    sold: t.exposeInt("sold", { nullable: false }),
    accredited: t.exposeInt("accredited", { nullable: false }),
    commissionTickets: t.exposeInt("commissionTickets", { nullable: false, description: "Sold tickets of the ticket types the group's commission is paid on." }),
    commission: t.exposeInt("commission", { nullable: false, description: "commissionTickets × the group's commission per ticket." }),
    collected: t.exposeInt("collected", { nullable: false, description: "Cash collected selling PromoterAccount tickets in hand." }),
    settled: t.exposeInt("settled", { nullable: false, description: "Cash the organization recorded as handed in." }),
    owed: t.exposeInt("owed", { nullable: false, description: "collected − settled." }),
    perEvent: t.field({ type: [PromoterEventNumbers], nullable: false, resolve: (p) => p.perEvent }),
  }),
});

const PromoterInvitation = builder.objectRef<PendingPromoterInvitation>("PromoterInvitation").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    email: t.exposeString("email", { description: "The email the inviter typed; null when they invited by nickname (that person's email is never shown)." }),
    who: t.exposeString("who", { nullable: false, description: "How the inviter named the person: their email, or @nickname." }),
    role: t.exposeString("role", { nullable: false, description: "promoter or promoter_lead." }),
    expiresAt: t.string({ nullable: false, resolve: (i) => isoDate(i.expiresAt)! }),
  }),
});

const PromoterGroup = builder.objectRef<PromoterGroupRow>("PromoterGroup").implement({
  description: "A group of promoters. eventIds empty: it sells every event of the organization; ticketTypeIds empty: commission on every ticket type.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    leadUserId: t.exposeID("leadUserId"),
    commissionPerTicket: t.exposeInt("commissionPerTicket", { description: "Centavos per ticket; null: no commission." }),
    eventIds: t.exposeIDList("eventIds", { nullable: false }),
    ticketTypeIds: t.exposeIDList("ticketTypeIds", { nullable: false }),
  }),
});

const PromoterGroupDetail = builder.objectRef<Awaited<ReturnType<typeof groups.listPromoterGroups>>[number]>("PromoterGroupDetail").implement({
  fields: (t) => ({
    group: t.field({ type: PromoterGroup, nullable: false, resolve: (d) => d.group }),
    members: t.field({ type: [Promoter], nullable: false, resolve: (d) => d.members }),
    invitations: t.field({ type: [PromoterInvitation], nullable: false, description: "Pending ones.", resolve: (d) => d.invitations }),
  }),
});

type Mine = NonNullable<Awaited<ReturnType<typeof groups.myPromoterGroup>>>;

const PromoterLink = builder.objectRef<Mine["links"][number]>("PromoterLink").implement({
  fields: (t) => ({
    eventId: t.exposeID("eventId", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    url: t.exposeString("url", { nullable: false, description: "The referral link: /eventos/{slug}/{nickname}." }),
    qrSvg: t.exposeString("qrSvg", { nullable: false, description: "The link's QR code as SVG." }),
  }),
});

const MyPromoterGroup = builder.objectRef<Mine>("MyPromoterGroup").implement({
  description: "The signed-in promoter's group in an organization: their links for the events on sale, their numbers and, for the lead, every member's.",
  fields: (t) => ({
    groupId: t.id({ nullable: false, resolve: (m) => m.group.id }),
    groupName: t.string({ nullable: false, resolve: (m) => m.group.name }),
    commissionPerTicket: t.int({ resolve: (m) => m.group.commissionPerTicket }),
    isLead: t.exposeBoolean("isLead", { nullable: false }),
    me: t.field({ type: Promoter, resolve: (m) => m.me }),
    links: t.field({ type: [PromoterLink], nullable: false, resolve: (m) => m.links }),
    members: t.field({ type: [Promoter], nullable: false, description: "The lead only (empty for promoters).", resolve: (m) => m.members }),
    invitations: t.field({ type: [PromoterInvitation], nullable: false, description: "The lead only.", resolve: (m) => m.invitations }),
  }),
});

const InHandTicketDate = builder.objectRef<{ id: string; startsAt: Date }>("InHandTicketDate").implement({
  fields: (t) => ({ id: t.exposeID("id", { nullable: false }), startsAt: t.string({ nullable: false, resolve: (d) => isoDate(d.startsAt)! }) }),
});

const InHandTicket = builder.objectRef<Awaited<ReturnType<typeof inHand.ticketsSellableInHand>>[number]>("InHandTicket").implement({
  description: "A PromoterAccount ticket type the promoter may sell in hand.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    eventId: t.exposeID("eventId", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    price: t.exposeInt("price", { nullable: false, description: "Centavos." }),
    left: t.exposeInt("left", { nullable: false }),
    dates: t.field({ type: [InHandTicketDate], nullable: false, description: "Dates still to come it is valid for.", resolve: (x) => x.dates }),
  }),
});

const InHandOrder = builder.objectRef<OrderRow>("InHandOrder").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    code: t.exposeString("code", { nullable: false }),
    email: t.string({ nullable: false, resolve: (o) => o.payer.email }),
    total: t.exposeInt("total", { nullable: false, description: "What the promoter collects, in centavos (our fee included)." }),
    paymentMethod: t.exposeString("paymentMethod", { nullable: false, description: "PROMOTER." }),
  }),
});

const PromoterGroupInput = builder.inputType("PromoterGroupInput", {
  fields: (t) => ({
    organizationId: t.id({ description: "createPromoterGroup only." }),
    groupId: t.id({ description: "updatePromoterGroup only." }),
    name: t.string({ required: true, description: "Up to 60 characters, unique in the organization." }),
    commissionPerTicket: t.int({ description: "Centavos per ticket; null: no commission." }),
    eventIds: t.idList({ description: "Events it sells; empty: all." }),
    ticketTypeIds: t.idList({ description: "Ticket types of those events the commission is paid on; empty: all." }),
  }),
});

const InvitePromoterInput = builder.inputType("InvitePromoterInput", {
  fields: (t) => ({
    groupId: t.id({ required: true }),
    who: t.string({ required: true, description: "An email, or the Tribuna nickname of someone who has an account." }),
    lead: t.boolean({ description: "As the group's lead (the organization only)." }),
  }),
});

const SellInHandInput = builder.inputType("SellInHandInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    ticketTypeId: t.id({ required: true }),
    eventDateId: t.id({ description: "Needed only when the ticket type is valid for several dates still to come." }),
    qty: t.int({ required: true, description: "1 to 20." }),
    email: t.string({ required: true }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    documentNumber: t.string(),
  }),
});

const SettlementInput = builder.inputType("PromoterSettlementInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    userId: t.id({ required: true }),
    amount: t.int({ required: true, description: "Centavos handed in (more than 0)." }),
    note: t.string(),
  }),
});

const ids = (list: readonly (string | number)[] | null | undefined) => (list ?? []).map(String);

builder.queryFields((t) => ({
  promoterGroups: t.field({
    type: [PromoterGroupDetail],
    nullable: false,
    description: "The organization's promoter groups with their members' numbers and pending invitations. Needs promoters:manage (owner, admin).",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => groups.listPromoterGroups(ctx, String(args.organizationId)),
  }),
  myPromoterGroup: t.field({
    type: MyPromoterGroup,
    description: "The signed-in promoter's group in the organization (null when they are in none). Needs the promoter or promoter_lead role there.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => groups.myPromoterGroup(ctx, String(args.organizationId)),
  }),
  ticketsSellableInHand: t.field({
    type: [InHandTicket],
    nullable: false,
    description: "PromoterAccount ticket types the signed-in promoter's group sells.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => inHand.ticketsSellableInHand(ctx, String(args.organizationId)),
  }),
}));

builder.mutationFields((t) => ({
  createPromoterGroup: t.field({
    type: PromoterGroup,
    nullable: false,
    description: "Needs promoters:manage. BAD_USER_INPUT with fieldErrors (name taken, commission, events or ticket types not of the organization).",
    args: { input: t.arg({ type: PromoterGroupInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => groups.createPromoterGroup(ctx, { ...given(input), organizationId: String(input.organizationId ?? ""), eventIds: ids(input.eventIds), ticketTypeIds: ids(input.ticketTypeIds) }),
  }),
  updatePromoterGroup: t.field({
    type: PromoterGroup,
    nullable: false,
    description: "Replaces name, commission and scope. Needs promoters:manage.",
    args: { input: t.arg({ type: PromoterGroupInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => groups.updatePromoterGroup(ctx, { ...given(input), groupId: String(input.groupId ?? ""), eventIds: ids(input.eventIds), ticketTypeIds: ids(input.ticketTypeIds) }),
  }),
  deletePromoterGroup: t.boolean({
    nullable: false,
    description: "Deletes the group; its promoters leave the organization (their past sales stay theirs).",
    args: { groupId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await groups.deletePromoterGroup(ctx, { groupId: String(args.groupId) });
      return true;
    },
  }),
  invitePromoter: t.boolean({
    nullable: false,
    description: "Emails a one-time link to join the group (by email or nickname). The organization, or the group's lead for promoters. True when an invitation was sent; false when an existing member of the group was made lead.",
    args: { input: t.arg({ type: InvitePromoterInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => (await groups.invitePromoter(ctx, { groupId: String(input.groupId), who: input.who, lead: input.lead ?? false })).invited,
  }),
  setPromoterGroupLead: t.boolean({
    nullable: false,
    description: "Makes a member of the group its lead (the previous lead stays as promoter). Needs promoters:manage.",
    args: { groupId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await groups.setGroupLead(ctx, { groupId: String(args.groupId), userId: String(args.userId) });
      return true;
    },
  }),
  removePromoter: t.boolean({
    nullable: false,
    description: "Takes a promoter out of the group and the organization. The organization, or the group's lead (never themselves).",
    args: { groupId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await groups.removePromoter(ctx, { groupId: String(args.groupId), userId: String(args.userId) });
      return true;
    },
  }),
  revokePromoterInvitation: t.boolean({
    nullable: false,
    args: { groupId: t.arg.id({ required: true }), invitationId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await groups.revokePromoterInvitation(ctx, { groupId: String(args.groupId), invitationId: String(args.invitationId) });
      return true;
    },
  }),
  recordPromoterSettlement: t.boolean({
    nullable: false,
    description: "Records cash a promoter handed in for tickets sold in hand. Needs promoters:manage.",
    args: { input: t.arg({ type: SettlementInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      await groups.recordPromoterSettlement(ctx, { ...given(input), organizationId: String(input.organizationId), userId: String(input.userId) });
      return true;
    },
  }),
  sellTicketsInHand: t.field({
    type: InHandOrder,
    nullable: false,
    description: "A promoter issues paid PromoterAccount tickets to a buyer who paid them in cash; they are emailed. CONFLICT when the stock is short.",
    args: { input: t.arg({ type: SellInHandInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => inHand.sellTicketsInHand(ctx, { ...given(input), organizationId: String(input.organizationId), ticketTypeId: String(input.ticketTypeId) }),
  }),
}));
