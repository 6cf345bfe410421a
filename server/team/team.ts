import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { emailSchema } from "#common/validation";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { hashToken, randomToken } from "#server/auth/tokens";
import { auditLog, membershipInvitations, memberships, organizations, promoterGroupMembers, promoterGroups, users, type MembershipRole } from "#server/db/schema";
import { emailLayout, escapeHtml } from "#server/email/templates";
import { sendEmail } from "#server/email/send";
import { appUrl } from "#server/env";
import { Conflict, Forbidden, NotFound, Unauthenticated } from "#server/errors";
import { parseInput, type DomainInput } from "#server/validation";
import { joinPromoterGroup } from "#server/promoters/membership";
import { requireSecondFactor } from "#server/accounts/two-factor";
import { CAPABILITIES, requireCapability, type Capability } from "#server/organizations/permissions";
import { brand } from "#common/brand";

export const TEAM_INVITATION_EMAIL_KIND = "team-invitation";
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export const TEAM_MESSAGES = {
  lastOwner: "La organización necesita al menos un dueño.",
  roleChanged: "El rol de esa persona cambió recién. Recargá la página y volvé a probar.",
  yourRoleChanged: "Tu rol en la organización cambió recién. Recargá la página y volvé a probar.",
} as const;

export const ROLE_LABELS: Record<MembershipRole, string> = {
  owner: "Dueño",
  admin: "Admin",
  operator: "Operador",
  staff: "Staff de puerta",
  marketing: "Marketing",
  promoter: "RRPP",
  promoter_lead: "Líder de RRPP",
};

/** Roles handed out from the team page; promoters join through a group (server/team/promoter-groups.ts). */
export const TEAM_ROLES = ["owner", "admin", "operator", "staff", "marketing"] as const satisfies readonly MembershipRole[];

/** What each role may do, in words, for the table on `/organizacion/operadores` and docs/team.md. */
export const CAPABILITY_LABELS: Record<Capability, string> = {
  "organization:manage": "Editar los datos de la organización",
  "members:manage": "Invitar, cambiar de rol y quitar personas del equipo",
  "money:manage": "Cuentas bancarias, Mercado Pago y dinero",
  "events:manage": "Crear y editar eventos, entradas y cupones",
  "sales:read": "Ver ventas, compradores y acreditaciones",
  "door:pins": "Ver y cambiar el PIN de puerta",
  "door:undo": "Deshacer un ingreso",
  "door:operate": "Acreditar en la puerta y ver los ingresos en vivo",
  "pixel:manage": "Configurar el píxel de marketing de los eventos",
  "campaigns:manage": "Plantillas y campañas de email",
  "emails:read": "Ver y reenviar los emails enviados",
  "promoters:manage": "Armar los grupos de RRPP, sus líderes y comisiones",
  "promoters:sell": "Vender con su link de RRPP y ver sus números (el líder, los de su grupo)",
  "audit:read": "Ver el registro de cambios de la organización",
};

/** The team roles' capabilities (promoters have their own page and rules: docs/promoters.md). */
export function roleTable() {
  const allows = (capability: Capability, role: MembershipRole) => (CAPABILITIES[capability] as readonly MembershipRole[]).includes(role);
  return (Object.keys(CAPABILITIES) as Capability[])
    .filter((capability) => TEAM_ROLES.some((role) => allows(capability, role)))
    .map((capability) => ({
      capability,
      label: CAPABILITY_LABELS[capability],
      roles: Object.fromEntries(TEAM_ROLES.map((role) => [role, allows(capability, role)])) as Record<(typeof TEAM_ROLES)[number], boolean>,
    }));
}

const roleSchema = z.enum(TEAM_ROLES, { error: "Elegí un rol." });

/** Only owners hand out or take away the owner and admin roles; admins manage operators and staff. */
function mayGrant(actorRole: MembershipRole | "platform-admin", role: MembershipRole): boolean {
  if (actorRole === "platform-admin" || actorRole === "owner") return true;
  return actorRole === "admin" && (role === "operator" || role === "staff" || role === "marketing");
}

export async function listTeam(ctx: Ctx, organizationId: string) {
  await requireCapability(ctx, organizationId, "members:manage");
  const [members, invitations] = await Promise.all([
    ctx.db
      .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: memberships.role, since: memberships.createdAt })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.organizationId, organizationId))
      .orderBy(asc(sql`array_position(array['owner','admin','operator','staff','marketing','promoter_lead','promoter'], ${memberships.role})`), asc(users.firstName)),
    ctx.db
      .select({ id: membershipInvitations.id, email: membershipInvitations.email, role: membershipInvitations.role, createdAt: membershipInvitations.createdAt, expiresAt: membershipInvitations.expiresAt })
      .from(membershipInvitations)
      .where(
        and(
          eq(membershipInvitations.organizationId, organizationId),
          // Promoter invitations are the groups page's (some were made by nickname, whose email stays hidden).
          isNull(membershipInvitations.promoterGroupId),
          isNull(membershipInvitations.acceptedAt),
          isNull(membershipInvitations.revokedAt),
          gt(membershipInvitations.expiresAt, ctx.now),
        ),
      )
      .orderBy(desc(membershipInvitations.createdAt)),
  ]);
  return { members: members.map((m) => ({ ...m, name: `${m.firstName ?? ""} ${m.lastName ?? ""}`.trim() || m.email })), invitations };
}

const inviteSchema = z.object({ organizationId: z.string().uuid(), email: emailSchema, role: roleSchema });

/** Emails a one-time link to join with `role` (a pending invitation to the same email is replaced). */
export async function inviteMember(ctx: Ctx, input: DomainInput<typeof inviteSchema>) {
  const data = parseInput(inviteSchema, input);
  const actorRole = await requireCapability(ctx, data.organizationId, "members:manage");
  if (!mayGrant(actorRole, data.role)) throw new Forbidden("Solo un dueño puede sumar dueños o admins.");
  // Handing out power (owners and admins move money) asks for the second factor.
  if (data.role === "owner" || data.role === "admin") await requireSecondFactor(ctx);
  const email = data.email.toLowerCase();
  const [already] = await ctx.db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, data.organizationId), sql`lower(${users.email}) = ${email}`));
  if (already) throw new Conflict("Esa persona ya es parte del equipo.", { email: ["Esa persona ya es parte del equipo."] });
  return sendMembershipInvitation(ctx, { organizationId: data.organizationId, email, role: data.role, promoterGroupId: null });
}

/**
 * Writes the one-time invitation (replacing a pending one to the same email)
 * and emails its link: the team page's and the promoter groups' (with the
 * group the person joins) share it, and the same accept page.
 */
export async function sendMembershipInvitation(ctx: Ctx, input: { organizationId: string; email: string; role: MembershipRole; promoterGroupId: string | null; groupName?: string; invitedNickname?: string | null }) {
  const email = input.email.toLowerCase();
  const [organization] = await ctx.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, input.organizationId));
  const token = randomToken();
  const invitation = await ctx.db.transaction(async (tx) => {
    await tx
      .update(membershipInvitations)
      .set({ revokedAt: ctx.now })
      .where(
        and(
          eq(membershipInvitations.organizationId, input.organizationId),
          eq(membershipInvitations.email, email),
          // Only one made the same way: otherwise inviting a guessed email and then a nickname would confirm the
          // guess when the first invitation disappeared from the list.
          input.invitedNickname ? sql`${membershipInvitations.invitedNickname} is not null` : isNull(membershipInvitations.invitedNickname),
          isNull(membershipInvitations.acceptedAt),
          isNull(membershipInvitations.revokedAt),
        ),
      );
    const [row] = await tx
      .insert(membershipInvitations)
      .values({
        organizationId: input.organizationId,
        email,
        role: input.role,
        promoterGroupId: input.promoterGroupId,
        invitedNickname: input.invitedNickname ?? null,
        tokenHash: hashToken(token),
        invitedByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        createdAt: ctx.now,
        expiresAt: new Date(ctx.now.getTime() + INVITATION_TTL_MS),
      })
      .returning();
    return row;
  });
  const link = `${appUrl()}/organizacion/operadores/aceptar/${token}`;
  const orgName = organization?.name ?? "una organización";
  const as = input.groupName ? `${ROLE_LABELS[input.role]} del grupo ${input.groupName}` : ROLE_LABELS[input.role];
  await sendEmail(ctx.db, {
    to: email,
    // An invitation by nickname stays out of the organization's email log: its recipient is the email the
    // inviter must not learn.
    organizationId: input.invitedNickname ? null : input.organizationId,
    kind: TEAM_INVITATION_EMAIL_KIND,
    subject: `Te invitaron al equipo de ${orgName} en Tribuna`,
    html: emailLayout(
      `Te invitaron al equipo de ${orgName}`,
      `<p>Te sumaron como <strong>${escapeHtml(as)}</strong> en ${escapeHtml(orgName)}.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;background:${brand.email.button};color:${brand.email.buttonText};font-weight:bold;border-radius:8px;text-decoration:none">Aceptar la invitación</a></p>
<p>Si todavía no tenés cuenta en Tribuna, la creás al entrar. El link vence en 7 días y sirve una sola vez.</p>`,
      "Si no esperabas esta invitación, podés ignorar este correo.",
    ),
    text: `Te sumaron como ${as} en ${orgName}.\n\nAceptá la invitación: ${link}\n\nSi todavía no tenés cuenta en Tribuna, la creás al entrar. El link vence en 7 días y sirve una sola vez.`,
  });
  return { invitation, link };
}

async function pendingInvitation(ctx: Ctx, token: string) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new NotFound("Esta invitación no existe o ya no sirve.");
  const [row] = await ctx.db
    .select({ invitation: membershipInvitations, organizationName: organizations.name })
    .from(membershipInvitations)
    .innerJoin(organizations, eq(organizations.id, membershipInvitations.organizationId))
    .where(eq(membershipInvitations.tokenHash, hashToken(token)));
  if (!row || row.invitation.revokedAt) throw new NotFound("Esta invitación no existe o ya no sirve.");
  if (row.invitation.acceptedAt) throw new Conflict("Esta invitación ya fue aceptada.");
  if (row.invitation.expiresAt <= ctx.now) throw new Conflict("Esta invitación venció. Pedile a quien te invitó que te mande otra.");
  return row;
}

/** What the accept page shows before the person accepts. */
export async function invitationPreview(ctx: Ctx, token: string) {
  const { invitation, organizationName } = await pendingInvitation(ctx, token);
  const promoter = invitation.promoterGroupId !== null;
  // A promoter's link is their nickname: who has none yet picks it on the accept page.
  const [me] = ctx.actor.kind === "user" ? await ctx.db.select({ nickname: users.nickname }).from(users).where(eq(users.id, ctx.actor.userId)) : [];
  return { organizationName, email: invitation.email, role: invitation.role, roleLabel: ROLE_LABELS[invitation.role], promoter, needsNickname: promoter && !me?.nickname };
}

/**
 * The signed-in person joins with the invited role (someone already in keeps
 * the role they had). A promoter invitation also puts them in its group
 * (server/promoters/membership.ts), with the nickname they chose if they had none.
 */
export async function acceptInvitation(ctx: Ctx, token: string, options: { nickname?: string | null } = {}) {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const userId = ctx.actor.userId;
  const { invitation, organizationName } = await pendingInvitation(ctx, token);
  await ctx.db.transaction(async (tx) => {
    const [taken] = await tx
      .update(membershipInvitations)
      .set({ acceptedAt: ctx.now, acceptedByUserId: userId })
      .where(and(eq(membershipInvitations.id, invitation.id), isNull(membershipInvitations.acceptedAt), isNull(membershipInvitations.revokedAt)))
      .returning({ id: membershipInvitations.id });
    if (!taken) throw new Conflict("Esta invitación ya fue aceptada.");
    if (invitation.promoterGroupId && (invitation.role === "promoter" || invitation.role === "promoter_lead")) {
      await joinPromoterGroup(tx, { organizationId: invitation.organizationId, groupId: invitation.promoterGroupId, userId, role: invitation.role, nickname: options.nickname, now: ctx.now });
    } else await tx.insert(memberships).values({ organizationId: invitation.organizationId, userId, role: invitation.role, createdAt: ctx.now }).onConflictDoNothing();
  });
  return { organizationId: invitation.organizationId, organizationName, promoter: invitation.promoterGroupId !== null };
}

export async function revokeInvitation(ctx: Ctx, input: { organizationId: string; invitationId: string }) {
  await requireCapability(ctx, input.organizationId, "members:manage");
  if (!z.string().uuid().safeParse(input.invitationId).success) throw new NotFound("No encontramos esa invitación.");
  const [row] = await ctx.db
    .update(membershipInvitations)
    .set({ revokedAt: ctx.now })
    .where(and(eq(membershipInvitations.id, input.invitationId), eq(membershipInvitations.organizationId, input.organizationId), isNull(membershipInvitations.acceptedAt), isNull(membershipInvitations.revokedAt)))
    .returning({ id: membershipInvitations.id });
  if (!row) throw new NotFound("No encontramos esa invitación.");
}

async function memberOf(ctx: Ctx, organizationId: string, userId: string) {
  if (!z.string().uuid().safeParse(userId).success) throw new NotFound("Esa persona no es parte del equipo.");
  const [row] = await ctx.db.select().from(memberships).where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  if (!row) throw new NotFound("Esa persona no es parte del equipo.");
  return row;
}

/**
 * Membership changes of one organization run one at a time: the organization's row is locked for the
 * transaction, and the member and the owner count are read again under that lock. Without it, two owners
 * leaving (or being demoted) at once each saw the other still there and the organization lost every owner.
 */
async function lockedMember(ctx: Ctx, tx: DbOrTx, organizationId: string, userId: string, seen: { role: MembershipRole; actorRole: MembershipRole | "platform-admin" | null }) {
  await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).for("update");
  if (seen.actorRole && seen.actorRole !== "platform-admin" && ctx.actor.kind === "user") {
    const [actor] = await tx.select({ role: memberships.role }).from(memberships).where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, ctx.actor.userId)));
    if (actor?.role !== seen.actorRole) throw new Conflict(TEAM_MESSAGES.yourRoleChanged);
  }
  const [row] = await tx.select().from(memberships).where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  if (!row) throw new NotFound("Esa persona no es parte del equipo.");
  // The permission checks (and the second factor) were made for the role read before the lock.
  if (row.role !== seen.role) throw new Conflict(TEAM_MESSAGES.roleChanged);
  return row;
}

async function ownersLeft(tx: DbOrTx, organizationId: string): Promise<number> {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(memberships).where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")));
  return row?.n ?? 0;
}

const changeRoleSchema = z.object({ organizationId: z.string().uuid(), userId: z.string(), role: roleSchema });

export async function changeMemberRole(ctx: Ctx, input: DomainInput<typeof changeRoleSchema>) {
  const data = parseInput(changeRoleSchema, input);
  const actorRole = await requireCapability(ctx, data.organizationId, "members:manage");
  const member = await memberOf(ctx, data.organizationId, data.userId);
  if (ctx.actor.kind === "user" && member.userId === ctx.actor.userId) throw new Conflict("No podés cambiar tu propio rol: pedíselo a otro dueño.");
  if (!mayGrant(actorRole, member.role) || !mayGrant(actorRole, data.role)) throw new Forbidden("Solo un dueño puede cambiar dueños o admins.");
  await requireSecondFactor(ctx);
  await ctx.db.transaction(async (tx) => {
    await lockedMember(ctx, tx, data.organizationId, member.userId, { role: member.role, actorRole });
    if (member.role === "owner" && data.role !== "owner" && (await ownersLeft(tx, data.organizationId)) <= 1) throw new Conflict(TEAM_MESSAGES.lastOwner);
    await tx.update(memberships).set({ role: data.role }).where(and(eq(memberships.organizationId, data.organizationId), eq(memberships.userId, member.userId)));
    await tx.insert(auditLog).values({ actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null, action: "team.change-role", targetId: member.userId, data: { organizationId: data.organizationId, from: member.role, to: data.role }, createdAt: ctx.now });
  });
}

/** Removes someone from the team (or lets a member leave); never the last owner. */
export async function removeMember(ctx: Ctx, input: { organizationId: string; userId: string }) {
  const self = ctx.actor.kind === "user" && ctx.actor.userId === input.userId;
  const actorRole = self ? null : await requireCapability(ctx, input.organizationId, "members:manage");
  if (self && !z.string().uuid().safeParse(input.organizationId).success) throw new NotFound("No encontramos la organización.");
  const member = await memberOf(ctx, input.organizationId, input.userId);
  if (actorRole && !mayGrant(actorRole, member.role)) throw new Forbidden("Solo un dueño puede quitar dueños o admins.");
  if (actorRole && (member.role === "owner" || member.role === "admin")) await requireSecondFactor(ctx);
  await ctx.db.transaction(async (tx) => {
    await lockedMember(ctx, tx, input.organizationId, member.userId, { role: member.role, actorRole });
    if (member.role === "owner" && (await ownersLeft(tx, input.organizationId)) <= 1) throw new Conflict(TEAM_MESSAGES.lastOwner);
    await tx.delete(memberships).where(and(eq(memberships.organizationId, input.organizationId), eq(memberships.userId, member.userId)));
    // A promoter leaves their group too (and a lead stops leading it): their link stops counting.
    await tx.delete(promoterGroupMembers).where(and(eq(promoterGroupMembers.organizationId, input.organizationId), eq(promoterGroupMembers.userId, member.userId)));
    await tx.update(promoterGroups).set({ leadUserId: null }).where(and(eq(promoterGroups.organizationId, input.organizationId), eq(promoterGroups.leadUserId, member.userId)));
    await tx.insert(auditLog).values({ actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null, action: "team.remove", targetId: member.userId, data: { organizationId: input.organizationId, role: member.role }, createdAt: ctx.now });
  });
}
