import { builder } from "./builder";
import { money } from "./scalars";
import * as summaryDomain from "#server/reports/summary";
import type { OrganizationSummary, SalesFigures } from "#server/reports/summary";

/** The organization's dashboard for integrators: the same function as /organizacion/resumen. */

const SalesFiguresRef = builder.objectRef<SalesFigures>("SalesFigures").implement({
  fields: (t) => ({
    orders: t.exposeInt("orders", { nullable: false, description: "Paid orders (gifts left out)." }),
    tickets: t.exposeInt("tickets", { nullable: false }),
    menuItems: t.exposeInt("menuItems", { nullable: false }),
    revenue: t.exposeInt("revenue", { nullable: false, description: "Integer centavos the organization keeps: price after discounts, without our service fee." }),
    revenueFormatted: t.string({ nullable: false, resolve: (f) => money(f.revenue)! }),
  }),
});

const OrganizationSummaryRef = builder.objectRef<OrganizationSummary>("OrganizationSummary").implement({
  fields: (t) => ({
    today: t.field({ type: SalesFiguresRef, nullable: false, description: "Since midnight, Buenos Aires time.", resolve: (s) => s.today }),
    lastSevenDays: t.field({ type: SalesFiguresRef, nullable: false, description: "Today and the 6 days before.", resolve: (s) => s.lastSevenDays }),
    total: t.field({ type: SalesFiguresRef, nullable: false, resolve: (s) => s.total }),
    pendingTransfers: t.exposeInt("pendingTransfers", { nullable: false, description: "Bank transfers waiting for the organizer's review." }),
    refundsToDecide: t.exposeInt("refundsToDecide", { nullable: false, description: "Refund requests waiting for the organizer's decision." }),
  }),
});

builder.queryFields((t) => ({
  organizationSummary: t.field({
    type: OrganizationSummaryRef,
    nullable: false,
    description: "Sales today, in the last 7 days and in total, and what needs a decision. Needs sales:read.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => summaryDomain.organizationSummary(ctx, String(args.organizationId)),
  }),
}));
