import type { LedgerEntryRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate, money } from "./scalars";
import { getOrganizationLedger } from "#server/ledger/ledger";

type LedgerItem = LedgerEntryRow & { orderCode: string | null };

const LedgerEntry = builder.objectRef<LedgerItem>("LedgerEntry").implement({
  description: "One append-only movement of the organization's money, in centavos seen from the organization (positive: owed to it).",
  fields: (t) => ({
    id: t.id({ nullable: false, resolve: (e) => String(e.id) }),
    kind: t.exposeString("kind", {
      nullable: false,
      description: "payment, service_fee, refund, service_fee_refund, chargeback, withdrawal, direct_collection (a bank transfer paid into the organizer's own account), direct_refund, resale_payout (a resale seller's money given back) or resale_payout_direct (that money given back by the organizer from their own account).",
    }),
    amount: t.exposeInt("amount", { nullable: false }),
    amountFormatted: t.string({ nullable: false, resolve: (e) => money(e.amount)! }),
    description: t.exposeString("description", { nullable: false }),
    orderCode: t.exposeString("orderCode"),
    createdAt: t.string({ nullable: false, resolve: (e) => isoDate(e.createdAt)! }),
  }),
});

const Ledger = builder.objectRef<Awaited<ReturnType<typeof getOrganizationLedger>>>("Ledger").implement({
  fields: (t) => ({
    balance: t.exposeInt("balance", { nullable: false, description: "Sum of every entry, in centavos: what the organization may withdraw (negative: fees it owes)." }),
    balanceFormatted: t.string({ nullable: false, resolve: (l) => money(l.balance)! }),
    items: t.field({ type: [LedgerEntry], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

builder.queryFields((t) => ({
  ledger: t.field({
    type: Ledger,
    nullable: false,
    description: "The organization's balance and ledger entries, newest first (money:manage).",
    args: { organizationId: t.arg.id({ required: true }), page: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, { ctx }) => getOrganizationLedger(ctx, given({ ...args, organizationId: String(args.organizationId) })),
  }),
}));
