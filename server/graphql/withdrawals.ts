import { builder } from "./builder";
import { given, isoDate, money } from "./scalars";
import * as withdrawalsDomain from "#server/payouts/withdrawals";
import type { Balance, WithdrawalView } from "#server/payouts/withdrawals";
import type { WithdrawalRow } from "#server/db/schema";

/** Money out for integrators and the platform's team: the same domain functions as /organizacion/extracciones (docs/payouts.md). */

const PendingRelease = builder.objectRef<Balance["pending"][number]>("PendingRelease").implement({
  fields: (t) => ({
    releaseAt: t.string({ nullable: false, description: "When this part becomes available: 72 h after the later of its event date's end and its payment.", resolve: (p) => isoDate(p.releaseAt)! }),
    amount: t.exposeInt("amount", { nullable: false, description: "Integer centavos." }),
  }),
});

const WithdrawalBalance = builder.objectRef<Balance>("WithdrawalBalance").implement({
  fields: (t) => ({
    available: t.exposeInt("available", { nullable: false, description: "What can be withdrawn now, integer centavos." }),
    availableFormatted: t.string({ nullable: false, resolve: (b) => money(b.available)! }),
    total: t.exposeInt("total", { nullable: false, description: "The ledger's sum, released or not (negative: fees owed)." }),
    pending: t.field({ type: [PendingRelease], nullable: false, description: "Not yet released, by date.", resolve: (b) => b.pending }),
  }),
});

const Withdrawal = builder.objectRef<WithdrawalRow & Partial<Pick<WithdrawalView, "organizationName">>>("Withdrawal").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    organizationName: t.string({ resolve: (w) => w.organizationName ?? null }),
    bankAccountId: t.exposeID("bankAccountId", { nullable: false, description: "The account it was requested to; what it is paid to are the fields below, copied when requested." }),
    bankName: t.string({ resolve: (w) => w.bankName }),
    cbuEnd: t.string({ description: "Last 4 digits of the CBU/CVU.", resolve: (w) => w.cbu.slice(-4) }),
    cbu: t.exposeString("cbu", { nullable: false, description: "The CBU/CVU it is paid to, as the account was when the withdrawal was requested (a later edit of the account does not change it)." }),
    alias: t.string({ description: "The account's alias when requested.", resolve: (w) => w.alias }),
    holderName: t.exposeString("holderName", { nullable: false, description: "The account holder when requested." }),
    holderCuit: t.exposeString("holderCuit", { nullable: false, description: "The holder's CUIT when requested, 11 digits." }),
    amount: t.exposeInt("amount", { nullable: false, description: "Integer centavos." }),
    status: t.exposeString("status", { nullable: false, description: "requested, approved, paid or rejected." }),
    rejectionReason: t.string({ resolve: (w) => w.rejectionReason }),
    transferReference: t.string({ resolve: (w) => w.transferReference }),
    requestedAt: t.string({ nullable: false, resolve: (w) => isoDate(w.requestedAt)! }),
    approvedAt: t.string({ resolve: (w) => isoDate(w.approvedAt) }),
    paidAt: t.string({ resolve: (w) => isoDate(w.paidAt) }),
    rejectedAt: t.string({ resolve: (w) => isoDate(w.rejectedAt) }),
  }),
});

builder.queryFields((t) => ({
  withdrawalBalance: t.field({
    type: WithdrawalBalance,
    nullable: false,
    description: "Available and to-be-released money of an organization. Needs money:manage.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => withdrawalsDomain.getWithdrawalBalance(ctx, String(args.organizationId)),
  }),
  withdrawals: t.field({
    type: [Withdrawal],
    nullable: false,
    description: "An organization's withdrawals (money:manage), or without organizationId every organization's (platform admins: the approval queue), newest first.",
    args: { organizationId: t.arg.id(), statuses: t.arg.stringList(), limit: t.arg.int() },
    resolve: (_root, args, { ctx }) =>
      withdrawalsDomain.listWithdrawals(ctx, given({ organizationId: args.organizationId == null ? undefined : String(args.organizationId), statuses: args.statuses ?? undefined, limit: args.limit ?? undefined })),
  }),
}));

const RequestWithdrawalInput = builder.inputType("RequestWithdrawalInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    bankAccountId: t.id({ required: true }),
    amount: t.int({ required: true, description: "Integer centavos, at most the available balance." }),
  }),
});

builder.mutationFields((t) => ({
  requestWithdrawal: t.field({
    type: Withdrawal,
    nullable: false,
    description: "Asks for part of the available balance to one of the organization's bank accounts; taken from the balance at once. Needs money:manage.",
    args: { input: t.arg({ type: RequestWithdrawalInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => withdrawalsDomain.requestWithdrawal(ctx, { organizationId: String(input.organizationId), bankAccountId: String(input.bankAccountId), amount: input.amount }),
  }),
  approveWithdrawal: t.field({
    type: Withdrawal,
    nullable: false,
    description: "Platform admins: requested → approved.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => withdrawalsDomain.approveWithdrawal(ctx, String(args.id)),
  }),
  markWithdrawalPaid: t.field({
    type: Withdrawal,
    nullable: false,
    description: "Platform admins: approved → paid, with the bank transfer's reference.",
    args: { id: t.arg.id({ required: true }), transferReference: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => withdrawalsDomain.markWithdrawalPaid(ctx, { id: String(args.id), transferReference: args.transferReference }),
  }),
  rejectWithdrawal: t.field({
    type: Withdrawal,
    nullable: false,
    description: "Platform admins: requested or approved → rejected with a reason; the amount goes back to the balance once.",
    args: { id: t.arg.id({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => withdrawalsDomain.rejectWithdrawal(ctx, { id: String(args.id), reason: args.reason }),
  }),
}));
