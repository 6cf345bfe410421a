import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { parseMoney } from "#common/money";
import { hasControlCharacters } from "#common/control-characters";
import { emailSchema, PATTERNS } from "#common/validation";
import type { Ctx } from "#server/context";
import { hasRole } from "#server/context";
import { isUniqueViolation } from "#server/db/errors";
import {
  auditLog,
  billings,
  events,
  membershipInvitations,
  memberships,
  orders,
  promoterGroupMembers,
  promoterGroups,
  promoterSettlements,
  ticketTypes,
  users,
  type PromoterGroupRow,
} from "#server/db/schema";
import { Conflict, Forbidden, Invalid, NotFound } from "#server/errors";
import { requireCapability } from "#server/organizations/permissions";
import { sendMembershipInvitation } from "./team";
import { appUrl } from "#server/env";
import { qrSvg } from "#server/tickets/qr";
import { parseInput } from "#server/validation";
import { PROMOTER_ROLES } from "#server/promoters/attribution";
import { groupOfPromoter, leavePromoterGroup, makeLead, PROMOTER_MESSAGES } from "#server/promoters/membership";
import { referralSales, type ReferralSalesRow } from "#server/promoters/metrics";

/*
 * Promoter (RRPP) groups (docs/promoters.md): the organization's owners and
 * admins make groups, say what each sells and its commission per ticket,
 * name a lead and add promoters; a lead adds and removes the promoters of
 * their own group. People join through the team's one-time invitation link
 * (server/team/team.ts), with the group written on it.
 */

export const GROUP_MESSAGES = {
  name: "Escribí un nombre de hasta 60 caracteres.",
  nameTaken: "Ya hay un grupo con ese nombre.",
  commission: "Escribí la comisión por entrada en pesos (por ejemplo 1500), o dejala vacía.",
  events: "Elegí eventos de esta organización.",
  ticketTypes: "Elegí tipos de entrada de los eventos del grupo.",
  who: "Escribí el email o el apodo de la persona.",
  nobodyWithNick: "No hay nadie con ese apodo en Tribuna: invitala por email.",
  notFound: "No encontramos ese grupo.",
  notMember: "Esa persona no es parte del grupo.",
  leadLeaves: "El líder no se puede sacar a sí mismo: pedíselo a la organización.",
  notLead: "Solo el líder de este grupo o la organización pueden hacer esto.",
  settlement: "Escribí el monto que te entregó, en pesos.",
  alreadyIn: "Esa persona ya es parte de este grupo.",
} as const;

const uuid = z.string().uuid("Identificador inválido");
const idList = z.preprocess((v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().uuid(GROUP_MESSAGES.events)).max(200));

const nameSchema = z
  .string({ error: GROUP_MESSAGES.name })
  .transform((v) => v.trim().replace(/\s+/g, " "))
  .refine((v) => v.length >= 1 && v.length <= 60 && !hasControlCharacters(v), GROUP_MESSAGES.name);

/** Pesos as typed ("1.500,50") or integer centavos (GraphQL); empty: none. */
function moneyOrEmpty(message: string) {
  return z.union([z.number(), z.string(), z.null(), z.undefined()]).transform((v, issue) => {
    if (v === null || v === undefined || (typeof v === "string" && !v.trim())) return null;
    const centavos = typeof v === "number" ? (Number.isInteger(v) ? v : null) : parseMoney(v);
    if (centavos === null || centavos < 0 || centavos > 10_000_000_00) {
      issue.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return centavos;
  });
}

const ticketTypeList = z.preprocess((v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().uuid(GROUP_MESSAGES.ticketTypes)).max(500));
const groupFields = {
  name: nameSchema,
  commissionPerTicket: moneyOrEmpty(GROUP_MESSAGES.commission).optional().transform((v) => v ?? null),
  eventIds: idList.optional().transform((v) => v ?? []),
  ticketTypeIds: ticketTypeList.optional().transform((v) => v ?? []),
};
const createSchema = z.object({ organizationId: uuid, ...groupFields });
const updateSchema = z.object({ groupId: uuid, ...groupFields });

/** Events and ticket types must be the organization's, and the ticket types of the chosen events. */
async function checkScope(ctx: Ctx, organizationId: string, eventIds: string[], ticketTypeIds: string[]) {
  if (eventIds.length) {
    const found = await ctx.db.select({ id: events.id }).from(events).where(and(inArray(events.id, eventIds), eq(events.organizationId, organizationId)));
    if (found.length !== new Set(eventIds).size) throw new Invalid({ eventIds: [GROUP_MESSAGES.events] });
  }
  if (ticketTypeIds.length) {
    const found = await ctx.db
      .select({ id: ticketTypes.id, eventId: ticketTypes.eventId })
      .from(ticketTypes)
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(inArray(ticketTypes.id, ticketTypeIds), eq(events.organizationId, organizationId), eq(ticketTypes.kind, "ticket")));
    if (found.length !== new Set(ticketTypeIds).size || (eventIds.length && found.some((t) => !eventIds.includes(t.eventId)))) throw new Invalid({ ticketTypeIds: [GROUP_MESSAGES.ticketTypes] });
  }
}

async function saving<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error, "promoter_groups_name_key")) throw new Invalid({ name: [GROUP_MESSAGES.nameTaken] });
    throw error;
  }
}

export async function createPromoterGroup(ctx: Ctx, input: z.input<typeof createSchema>): Promise<PromoterGroupRow> {
  const data = parseInput(createSchema, input);
  await requireCapability(ctx, data.organizationId, "promoters:manage");
  await checkScope(ctx, data.organizationId, data.eventIds, data.ticketTypeIds);
  const [row] = await saving(() =>
    ctx.db
      .insert(promoterGroups)
      .values({ organizationId: data.organizationId, name: data.name, commissionPerTicket: data.commissionPerTicket, eventIds: [...new Set(data.eventIds)], ticketTypeIds: [...new Set(data.ticketTypeIds)], createdAt: ctx.now, updatedAt: ctx.now })
      .returning(),
  );
  return row;
}

async function requireGroup(ctx: Ctx, groupId: string): Promise<PromoterGroupRow> {
  if (!uuid.safeParse(groupId).success) throw new NotFound(GROUP_MESSAGES.notFound);
  const [group] = await ctx.db.select().from(promoterGroups).where(eq(promoterGroups.id, groupId));
  if (!group) throw new NotFound(GROUP_MESSAGES.notFound);
  return group;
}

/** The organization (promoters:manage), or the group's own lead when `leadMay`. */
async function requireGroupAccess(ctx: Ctx, groupId: string, leadMay: boolean): Promise<{ group: PromoterGroupRow; asLead: boolean }> {
  const group = await requireGroup(ctx, groupId);
  if (leadMay && ctx.actor.kind === "user" && group.leadUserId === ctx.actor.userId && !hasRole(ctx.actor, "admin")) {
    const [still] = await ctx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.organizationId, group.organizationId), eq(memberships.userId, ctx.actor.userId), eq(memberships.role, "promoter_lead")));
    if (still) return { group, asLead: true };
  }
  try {
    await requireCapability(ctx, group.organizationId, "promoters:manage");
  } catch (error) {
    if (leadMay && error instanceof Forbidden) throw new Forbidden(GROUP_MESSAGES.notLead);
    throw error;
  }
  return { group, asLead: false };
}

export async function updatePromoterGroup(ctx: Ctx, input: z.input<typeof updateSchema>): Promise<PromoterGroupRow> {
  const data = parseInput(updateSchema, input);
  const { group } = await requireGroupAccess(ctx, data.groupId, false);
  await checkScope(ctx, group.organizationId, data.eventIds, data.ticketTypeIds);
  const [row] = await saving(() =>
    ctx.db
      .update(promoterGroups)
      .set({ name: data.name, commissionPerTicket: data.commissionPerTicket, eventIds: [...new Set(data.eventIds)], ticketTypeIds: [...new Set(data.ticketTypeIds)], updatedAt: ctx.now })
      .where(eq(promoterGroups.id, group.id))
      .returning(),
  );
  return row;
}

/** The group goes, and its promoters leave the organization; their past sales stay theirs. */
export async function deletePromoterGroup(ctx: Ctx, input: { groupId: string }) {
  const { group } = await requireGroupAccess(ctx, input.groupId, false);
  const actorId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  await ctx.db.transaction(async (tx) => {
    const members = await tx.select({ userId: promoterGroupMembers.userId }).from(promoterGroupMembers).where(eq(promoterGroupMembers.groupId, group.id));
    for (const m of members) await leavePromoterGroup(tx, { organizationId: group.organizationId, groupId: group.id, userId: m.userId, actorId, now: ctx.now });
    await tx.update(membershipInvitations).set({ revokedAt: ctx.now }).where(and(eq(membershipInvitations.promoterGroupId, group.id), isNull(membershipInvitations.acceptedAt), isNull(membershipInvitations.revokedAt)));
    await tx.delete(promoterGroups).where(eq(promoterGroups.id, group.id));
    await tx.insert(auditLog).values({ actorId, action: "promoters.delete-group", targetId: group.id, data: { organizationId: group.organizationId, name: group.name }, createdAt: ctx.now });
  });
}

const inviteSchema = z.object({
  groupId: uuid,
  who: z.string({ error: GROUP_MESSAGES.who }).transform((v) => v.trim()).refine((v) => v.length > 0 && v.length <= 254, GROUP_MESSAGES.who),
  lead: z.boolean().default(false),
});

/**
 * Invites someone to sell in the group, by email or by their Tribuna nickname
 * (the email is looked up, never shown). As lead: only the organization; a
 * lead invites promoters to their own group.
 */
export async function invitePromoter(ctx: Ctx, input: z.input<typeof inviteSchema>) {
  const data = parseInput(inviteSchema, input);
  const { group } = await requireGroupAccess(ctx, data.groupId, !data.lead);
  let email: string;
  // Who the inviter named, as they typed it: by nickname the email is looked up and never shown back.
  let invitedNickname: string | null = null;
  if (data.who.includes("@") && !data.who.startsWith("@")) {
    const parsed = emailSchema.safeParse(data.who);
    if (!parsed.success) throw new Invalid({ who: [parsed.error.issues[0]?.message ?? GROUP_MESSAGES.who] });
    email = parsed.data.toLowerCase();
  } else {
    const nick = data.who.replace(/^@/, "");
    if (!PATTERNS.nickname.test(nick)) throw new Invalid({ who: [GROUP_MESSAGES.nobodyWithNick] });
    const [found] = await ctx.db.select({ email: users.email, nickname: users.nickname }).from(users).where(sql`lower(${users.nickname}) = ${nick.toLowerCase()}`);
    if (!found) throw new Invalid({ who: [GROUP_MESSAGES.nobodyWithNick] });
    email = found.email.toLowerCase();
    invitedNickname = found.nickname;
  }
  const [existing] = await ctx.db
    .select({ userId: users.id, role: memberships.role })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.organizationId, group.organizationId)))
    .where(sql`lower(${users.email}) = ${email}`);
  if (existing?.role && !(PROMOTER_ROLES as readonly string[]).includes(existing.role)) throw new Conflict(PROMOTER_MESSAGES.otherRole, { who: [PROMOTER_MESSAGES.otherRole] });
  if (existing) {
    const current = await groupOfPromoter(ctx.db, group.organizationId, existing.userId);
    if (current && current.id !== group.id) throw new Conflict(PROMOTER_MESSAGES.otherGroup(current.name), { who: [PROMOTER_MESSAGES.otherGroup(current.name)] });
    // Already selling in this group: making them lead needs no invitation.
    if (current && data.lead) {
      await setGroupLead(ctx, { groupId: group.id, userId: existing.userId });
      return { invited: false as const, who: invitationLabel(email, invitedNickname) };
    }
    if (current) throw new Conflict(GROUP_MESSAGES.alreadyIn, { who: [GROUP_MESSAGES.alreadyIn] });
  }
  await sendMembershipInvitation(ctx, { organizationId: group.organizationId, email, role: data.lead ? "promoter_lead" : "promoter", promoterGroupId: group.id, groupName: group.name, invitedNickname });
  const invitee = invitedNickname ? { nickname: invitedNickname } : { email };
  await ctx.db.insert(auditLog).values({ actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null, action: "promoters.invite", targetId: group.id, data: { organizationId: group.organizationId, ...invitee, lead: data.lead }, createdAt: ctx.now });
  return { invited: true as const, who: invitationLabel(email, invitedNickname) };
}

export async function setGroupLead(ctx: Ctx, input: { groupId: string; userId: string }) {
  const { group } = await requireGroupAccess(ctx, input.groupId, false);
  if (!uuid.safeParse(input.userId).success) throw new NotFound(GROUP_MESSAGES.notMember);
  await ctx.db.transaction(async (tx) => {
    const [member] = await tx.select().from(promoterGroupMembers).where(and(eq(promoterGroupMembers.groupId, group.id), eq(promoterGroupMembers.userId, input.userId)));
    if (!member) throw new NotFound(GROUP_MESSAGES.notMember);
    await makeLead(tx, { organizationId: group.organizationId, groupId: group.id, userId: input.userId });
    await tx.insert(auditLog).values({ actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null, action: "promoters.set-lead", targetId: input.userId, data: { organizationId: group.organizationId, groupId: group.id }, createdAt: ctx.now });
  });
}

/** Takes a promoter out of the group (the organization, or the group's lead; a lead never removes themselves). */
export async function removePromoter(ctx: Ctx, input: { groupId: string; userId: string }) {
  const { group, asLead } = await requireGroupAccess(ctx, input.groupId, true);
  if (!uuid.safeParse(input.userId).success) throw new NotFound(GROUP_MESSAGES.notMember);
  if (asLead && input.userId === group.leadUserId) throw new Conflict(GROUP_MESSAGES.leadLeaves);
  await ctx.db.transaction(async (tx) => {
    const [member] = await tx.select().from(promoterGroupMembers).where(and(eq(promoterGroupMembers.groupId, group.id), eq(promoterGroupMembers.userId, input.userId)));
    if (!member) throw new NotFound(GROUP_MESSAGES.notMember);
    await leavePromoterGroup(tx, { organizationId: group.organizationId, groupId: group.id, userId: input.userId, actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null, now: ctx.now });
  });
}

/** Withdraws a pending invitation to the group (the organization or the group's lead). */
export async function revokePromoterInvitation(ctx: Ctx, input: { groupId: string; invitationId: string }) {
  const { group } = await requireGroupAccess(ctx, input.groupId, true);
  if (!uuid.safeParse(input.invitationId).success) throw new NotFound("No encontramos esa invitación.");
  const [row] = await ctx.db
    .update(membershipInvitations)
    .set({ revokedAt: ctx.now })
    .where(and(eq(membershipInvitations.id, input.invitationId), eq(membershipInvitations.promoterGroupId, group.id), isNull(membershipInvitations.acceptedAt), isNull(membershipInvitations.revokedAt)))
    .returning({ id: membershipInvitations.id });
  if (!row) throw new NotFound("No encontramos esa invitación.");
}

// ───────────────────────── Numbers ─────────────────────────

export interface PromoterNumbers {
  userId: string;
  name: string;
  email: string;
  nickname: string | null;
  isLead: boolean;
  /** Tickets sold through their link and kept (not voided). */
  sold: number;
  accredited: number;
  /** Tickets that earn the group's commission (its ticket types), and that commission in centavos. */
  commissionTickets: number;
  commission: number;
  /** Cash they collected selling in hand (PromoterAccount), what they handed in, and what they still owe. */
  collected: number;
  settled: number;
  owed: number;
  perEvent: { eventId: string; eventName: string; sold: number; accredited: number }[];
}

function commissionTicketsOf(group: PromoterGroupRow, rows: ReferralSalesRow[]): number {
  return rows.filter((r) => !group.ticketTypeIds.length || group.ticketTypeIds.includes(r.ticketTypeId)).reduce((sum, r) => sum + r.count, 0);
}

/** Each member's numbers in one group: the one computation behind the organization's and the lead's pages. */
async function groupNumbers(ctx: Ctx, group: PromoterGroupRow): Promise<PromoterNumbers[]> {
  const people = await ctx.db
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, nickname: users.nickname })
    .from(promoterGroupMembers)
    .innerJoin(users, eq(users.id, promoterGroupMembers.userId))
    .where(eq(promoterGroupMembers.groupId, group.id))
    .orderBy(asc(users.firstName), asc(users.lastName));
  const ids = people.map((p) => p.userId);
  if (!ids.length) return [];
  const [sales, collected, settled] = await Promise.all([
    referralSales(ctx.db, { organizationId: group.organizationId, userIds: ids, eventId: null }),
    ctx.db
      .select({ userId: sql<string>`${orders.promoterUserId}`, total: sql<string>`coalesce(sum(${billings.amount}), 0)` })
      .from(orders)
      .innerJoin(billings, and(eq(billings.orderId, orders.id), eq(billings.provider, "promoter"), eq(billings.status, "approved")))
      .where(and(eq(orders.organizationId, group.organizationId), inArray(orders.promoterUserId, ids), eq(orders.paymentMethod, "PROMOTER")))
      .groupBy(orders.promoterUserId),
    ctx.db
      .select({ userId: promoterSettlements.userId, total: sql<string>`coalesce(sum(${promoterSettlements.amount}), 0)` })
      .from(promoterSettlements)
      .where(and(eq(promoterSettlements.organizationId, group.organizationId), inArray(promoterSettlements.userId, ids)))
      .groupBy(promoterSettlements.userId),
  ]);
  return people.map((p) => {
    const mine = sales.filter((r) => r.userId === p.userId);
    const events = new Map<string, { eventId: string; eventName: string; sold: number; accredited: number }>();
    for (const r of mine) {
      const e = events.get(r.eventId) ?? { eventId: r.eventId, eventName: r.eventName, sold: 0, accredited: 0 };
      e.sold += r.count;
      e.accredited += r.accredited;
      events.set(r.eventId, e);
    }
    const commissionTickets = commissionTicketsOf(group, mine);
    const got = Number(collected.find((c) => c.userId === p.userId)?.total ?? 0);
    const gave = Number(settled.find((c) => c.userId === p.userId)?.total ?? 0);
    return {
      userId: p.userId,
      name: `${p.firstName ?? ""} ${p.lastName ?? ""}`.trim() || p.email,
      email: p.email,
      nickname: p.nickname,
      isLead: p.userId === group.leadUserId,
      sold: mine.reduce((sum, r) => sum + r.count, 0),
      accredited: mine.reduce((sum, r) => sum + r.accredited, 0),
      commissionTickets,
      commission: commissionTickets * (group.commissionPerTicket ?? 0),
      collected: got,
      settled: gave,
      owed: got - gave,
      perEvent: [...events.values()],
    };
  });
}

/** How an invitation names the invitee to whoever invited them: the email they typed, or "@nickname". */
function invitationLabel(email: string, invitedNickname: string | null): string {
  return invitedNickname ? `@${invitedNickname}` : email;
}

export interface PendingPromoterInvitation {
  id: string;
  /** The email the inviter typed; null for an invitation by nickname (that email is never shown). */
  email: string | null;
  who: string;
  role: string;
  expiresAt: Date;
}

async function pendingInvitations(ctx: Ctx, groupId: string): Promise<PendingPromoterInvitation[]> {
  const rows = await ctx.db
    .select({ id: membershipInvitations.id, email: membershipInvitations.email, invitedNickname: membershipInvitations.invitedNickname, role: membershipInvitations.role, expiresAt: membershipInvitations.expiresAt })
    .from(membershipInvitations)
    .where(and(eq(membershipInvitations.promoterGroupId, groupId), isNull(membershipInvitations.acceptedAt), isNull(membershipInvitations.revokedAt), gt(membershipInvitations.expiresAt, ctx.now)))
    .orderBy(desc(membershipInvitations.createdAt));
  return rows.map(({ invitedNickname, email, ...row }) => ({ ...row, email: invitedNickname ? null : email, who: invitationLabel(email, invitedNickname) }));
}

/** `/organizacion/relaciones-publicas/grupos`: every group with its scope, people, invitations and numbers. */
export async function listPromoterGroups(ctx: Ctx, organizationId: string) {
  await requireCapability(ctx, organizationId, "promoters:manage");
  const groups = await ctx.db.select().from(promoterGroups).where(eq(promoterGroups.organizationId, organizationId)).orderBy(asc(promoterGroups.name));
  return Promise.all(groups.map(async (group) => ({ group, members: await groupNumbers(ctx, group), invitations: await pendingInvitations(ctx, group.id) })));
}

const settlementSchema = z.object({
  organizationId: uuid,
  userId: uuid,
  amount: moneyOrEmpty(GROUP_MESSAGES.settlement).refine((v) => v !== null && v > 0, GROUP_MESSAGES.settlement),
  note: z
    .string()
    .max(200, "Hasta 200 caracteres.")
    .nullish()
    .transform((v) => v?.trim() || null),
});

/** Cash a promoter handed in for tickets sold in hand: lowers what they owe. */
export async function recordPromoterSettlement(ctx: Ctx, input: z.input<typeof settlementSchema>) {
  const data = parseInput(settlementSchema, input);
  await requireCapability(ctx, data.organizationId, "promoters:manage");
  const [member] = await ctx.db.select({ userId: promoterGroupMembers.userId }).from(promoterGroupMembers).where(and(eq(promoterGroupMembers.organizationId, data.organizationId), eq(promoterGroupMembers.userId, data.userId)));
  const [sold] = member ? [member] : await ctx.db.select({ userId: orders.promoterUserId }).from(orders).where(and(eq(orders.organizationId, data.organizationId), eq(orders.promoterUserId, data.userId))).limit(1);
  if (!sold) throw new NotFound(GROUP_MESSAGES.notMember);
  const actorId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(promoterSettlements).values({ organizationId: data.organizationId, userId: data.userId, amount: data.amount!, note: data.note, recordedByUserId: actorId, createdAt: ctx.now }).returning();
    await tx.insert(auditLog).values({ actorId, action: "promoters.settlement", targetId: data.userId, data: { organizationId: data.organizationId, amount: data.amount }, createdAt: ctx.now });
    return row;
  });
}

/**
 * `/organizacion/relaciones-publicas/mi-grupo`: the signed-in promoter's
 * group in this organization, their own numbers, and for a lead every
 * member's numbers and the pending invitations.
 */
export async function myPromoterGroup(ctx: Ctx, organizationId: string) {
  const role = await requireCapability(ctx, organizationId, "promoters:sell");
  const me = ctx.actor.kind === "user" ? ctx.actor.userId : "";
  const mine = await groupOfPromoter(ctx.db, organizationId, me);
  if (!mine) return null;
  const group = await requireGroup(ctx, mine.id);
  const members = await groupNumbers(ctx, group);
  const isLead = role === "promoter_lead" && group.leadUserId === me;
  const sellable = await ctx.db
    .select({ id: events.id, name: events.name, slug: events.slug })
    .from(events)
    .where(
      and(
        eq(events.organizationId, organizationId),
        eq(events.status, "active"),
        group.eventIds.length ? inArray(events.id, group.eventIds) : undefined,
        isNotNull(events.publishedAt),
        sql`exists (select 1 from event_dates d where d.event_id = ${events.id} and d.status = 'active' and d.ends_at > ${ctx.now.toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(asc(events.name));
  const nick = members.find((m) => m.userId === me)?.nickname ?? null;
  const links = nick
    ? await Promise.all(
        sellable.map(async (e) => {
          const url = `${appUrl()}/eventos/${e.slug}/${nick}`;
          return { eventId: e.id, eventName: e.name, url, qrSvg: await qrSvg(url) };
        }),
      )
    : [];
  return {
    group: { id: group.id, name: group.name, commissionPerTicket: group.commissionPerTicket, eventIds: group.eventIds, ticketTypeIds: group.ticketTypeIds },
    links,
    isLead,
    me: members.find((m) => m.userId === me) ?? null,
    members: isLead ? members : [],
    invitations: isLead ? await pendingInvitations(ctx, group.id) : [],
  };
}

/** What a group can be set to sell: the organization's events (not deleted) and their ticket types. */
export async function promoterScopeOptions(ctx: Ctx, organizationId: string) {
  await requireCapability(ctx, organizationId, "promoters:manage");
  const rows = await ctx.db
    .select({ eventId: events.id, eventName: events.name, ticketTypeId: ticketTypes.id, ticketName: ticketTypes.name })
    .from(events)
    .leftJoin(ticketTypes, and(eq(ticketTypes.eventId, events.id), eq(ticketTypes.kind, "ticket"), sql`${ticketTypes.status} <> 'deleted'`))
    .where(and(eq(events.organizationId, organizationId), sql`${events.status} <> 'deleted'`))
    .orderBy(asc(events.name), asc(ticketTypes.sortOrder));
  const out = new Map<string, { id: string; name: string; ticketTypes: { id: string; name: string }[] }>();
  for (const r of rows) {
    const event = out.get(r.eventId) ?? { id: r.eventId, name: r.eventName, ticketTypes: [] };
    if (r.ticketTypeId) event.ticketTypes.push({ id: r.ticketTypeId, name: r.ticketName ?? "" });
    out.set(r.eventId, event);
  }
  return [...out.values()];
}
