import { isoDate } from "./scalars";
import { builder } from "./builder";
import * as team from "#server/team/team";

/** The organization's team for integrators: the same domain functions as /organizacion/operadores. */

type Member = Awaited<ReturnType<typeof team.listTeam>>["members"][number];
type Invitation = Awaited<ReturnType<typeof team.listTeam>>["invitations"][number];

const TeamMember = builder.objectRef<Member>("TeamMember").implement({
  fields: (t) => ({
    userId: t.exposeID("userId", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    email: t.exposeString("email", { nullable: false }),
    role: t.exposeString("role", { nullable: false, description: "owner, admin, operator or staff." }),
    since: t.string({ nullable: false, resolve: (m) => isoDate(m.since)! }),
  }),
});

const TeamInvitation = builder.objectRef<Invitation>("TeamInvitation").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    email: t.exposeString("email", { nullable: false }),
    role: t.exposeString("role", { nullable: false }),
    createdAt: t.string({ nullable: false, resolve: (i) => isoDate(i.createdAt)! }),
    expiresAt: t.string({ nullable: false, resolve: (i) => isoDate(i.expiresAt)! }),
  }),
});

const Team = builder.objectRef<Awaited<ReturnType<typeof team.listTeam>>>("Team").implement({
  fields: (t) => ({
    members: t.field({ type: [TeamMember], nullable: false, resolve: (x) => x.members }),
    invitations: t.field({ type: [TeamInvitation], nullable: false, description: "Pending ones.", resolve: (x) => x.invitations }),
  }),
});

const JoinedOrganization = builder.objectRef<{ organizationId: string; organizationName: string }>("JoinedOrganization").implement({
  fields: (t) => ({
    organizationId: t.exposeID("organizationId", { nullable: false }),
    organizationName: t.exposeString("organizationName", { nullable: false }),
  }),
});

builder.queryFields((t) => ({
  team: t.field({
    type: Team,
    nullable: false,
    description: "The organization's members and pending invitations. Needs members:manage (owners and admins).",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => team.listTeam(ctx, String(args.organizationId)),
  }),
}));

builder.mutationFields((t) => ({
  inviteMember: t.field({
    type: TeamInvitation,
    nullable: false,
    description: "Emails a one-time link (7 days) to join with a role. Admins invite operators and staff; owners any role. CONFLICT when already a member.",
    args: { organizationId: t.arg.id({ required: true }), email: t.arg.string({ required: true }), role: t.arg.string({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const { invitation } = await team.inviteMember(ctx, { organizationId: String(args.organizationId), email: args.email, role: args.role });
      return invitation;
    },
  }),
  acceptTeamInvitation: t.field({
    type: JoinedOrganization,
    nullable: false,
    description: "The signed-in person joins with the invitation's token (from the emailed link). NOT_FOUND or CONFLICT when it no longer works.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => team.acceptInvitation(ctx, args.token),
  }),
  changeMemberRole: t.field({
    type: "Boolean",
    nullable: false,
    description: "Owners change any role, admins only between operator and staff; nobody their own; never the last owner. Audited.",
    args: { organizationId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }), role: t.arg.string({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await team.changeMemberRole(ctx, { organizationId: String(args.organizationId), userId: String(args.userId), role: args.role });
      return true;
    },
  }),
  removeMember: t.field({
    type: "Boolean",
    nullable: false,
    description: "Removes someone from the team, or lets the signed-in member leave (userId = yours); never the last owner. Audited.",
    args: { organizationId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await team.removeMember(ctx, { organizationId: String(args.organizationId), userId: String(args.userId) });
      return true;
    },
  }),
  revokeTeamInvitation: t.field({
    type: "Boolean",
    nullable: false,
    args: { organizationId: t.arg.id({ required: true }), invitationId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await team.revokeInvitation(ctx, { organizationId: String(args.organizationId), invitationId: String(args.invitationId) });
      return true;
    },
  }),
}));
