import { builder } from "./builder";
import { given, isoDate, money } from "./scalars";
import * as overview from "#server/admin/overview";
import type { AdminChargeback, AdminProviderRefund, AdminRefundRequest, Paged, PlatformOrganization, RefundTotals } from "#server/admin/overview";

/**
 * The platform team's screens for integrators (docs/admin.md): the same
 * domain functions as /admin/organizaciones and /admin/devoluciones. Only
 * users with the global role `admin`: UNAUTHENTICATED without a session,
 * FORBIDDEN for anyone else; a status that does not exist is BAD_USER_INPUT
 * (`fieldErrors.status`); a bad page is page 1.
 */

const PlatformOrganizationRef = builder.objectRef<PlatformOrganization>("PlatformOrganization").implement({
  description: "An organization as the platform team sees it, with its numbers.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    slug: t.exposeString("slug", { nullable: false, description: "Its public page is /{slug}." }),
    cuit: t.exposeString("cuit", { description: "11 digits, no dashes." }),
    contactEmail: t.exposeString("contactEmail"),
    createdAt: t.string({ nullable: false, resolve: (o) => isoDate(o.createdAt)! }),
    members: t.exposeInt("members", { nullable: false, description: "Team members, every role." }),
    events: t.exposeInt("events", { nullable: false, description: "Events not deleted (drafts and paused included)." }),
    paidOrders: t.exposeInt("paidOrders", { nullable: false, description: "Orders with a payment in the ledger." }),
    grossSold: t.exposeInt("grossSold", {
      nullable: false,
      description: "Sum of the ledger's payment entries (what buyers paid, fees included, before refunds), integer centavos.",
    }),
    grossSoldFormatted: t.string({ nullable: false, resolve: (o) => money(o.grossSold)! }),
    balance: t.exposeInt("balance", { nullable: false, description: "Sum of every ledger entry, integer centavos (negative: the organization owes fees)." }),
    balanceFormatted: t.string({ nullable: false, resolve: (o) => money(o.balance)! }),
    pendingWithdrawals: t.exposeInt("pendingWithdrawals", { nullable: false, description: "Withdrawals requested or approved, not paid nor rejected yet." }),
  }),
});

const PlatformOrganizationsPage = builder.objectRef<Paged<PlatformOrganization> & { search: string }>("PlatformOrganizationsPage").implement({
  fields: (t) => ({
    items: t.field({ type: [PlatformOrganizationRef], nullable: false, resolve: (p) => p.items }),
    total: t.exposeInt("total", { nullable: false, description: "Organizations matching the search." }),
    page: t.exposeInt("page", { nullable: false, description: "1-based; clamped to the last page." }),
    pages: t.exposeInt("pages", { nullable: false }),
    pageSize: t.exposeInt("pageSize", { nullable: false }),
    search: t.exposeString("search", { nullable: false, description: "The search as applied (trimmed, at most 100 characters)." }),
  }),
});

const AdminRefundRequestRef = builder.objectRef<AdminRefundRequest>("AdminRefundRequest").implement({
  description: "A buyer's refund request (Botón de arrepentimiento) of any organization.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    code: t.exposeString("code", { nullable: false, description: "Management code (DEV-…)." }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    organizationName: t.exposeString("organizationName", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    orderCode: t.exposeString("orderCode", { nullable: false }),
    buyerName: t.exposeString("buyerName", { nullable: false }),
    buyerEmail: t.exposeString("buyerEmail", { nullable: false }),
    amount: t.exposeInt("amount", { nullable: false, description: "Integer centavos." }),
    amountFormatted: t.string({ nullable: false, resolve: (r) => money(r.amount)! }),
    status: t.exposeString("status", { nullable: false, description: "pending, refunded or rejected." }),
    automatic: t.exposeBoolean("automatic", { nullable: false, description: "Refunded at once: asked inside the legal window." }),
    method: t.exposeString("method", { nullable: false, description: "provider or bank_transfer." }),
    createdAt: t.string({ nullable: false, resolve: (r) => isoDate(r.createdAt)! }),
    decidedAt: t.string({ resolve: (r) => isoDate(r.decidedAt) }),
  }),
});

const AdminRefundRequestsPage = builder.objectRef<Paged<AdminRefundRequest>>("AdminRefundRequestsPage").implement({
  fields: (t) => ({
    items: t.field({ type: [AdminRefundRequestRef], nullable: false, resolve: (p) => p.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "1-based; clamped to the last page." }),
    pages: t.exposeInt("pages", { nullable: false }),
    pageSize: t.exposeInt("pageSize", { nullable: false }),
  }),
});

const AdminProviderRefundRef = builder.objectRef<AdminProviderRefund>("AdminProviderRefund").implement({
  description: "A refund through the payment provider that failed, keeps failing or was never tried.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationName: t.exposeString("organizationName", { nullable: false }),
    orderCode: t.exposeString("orderCode", { nullable: false }),
    provider: t.exposeString("provider", { nullable: false, description: "mercadopago or sandbox." }),
    providerPaymentId: t.exposeString("providerPaymentId", { nullable: false }),
    amount: t.exposeInt("amount", { nullable: false, description: "Integer centavos." }),
    amountFormatted: t.string({ nullable: false, resolve: (r) => money(r.amount)! }),
    reason: t.exposeString("reason", { nullable: false }),
    status: t.exposeString("status", { nullable: false, description: "pending or failed." }),
    problem: t.exposeString("problem", {
      nullable: false,
      description: "failed (the job gave up), retrying (the provider answered with an error; the job retries) or stuck (pending for over an hour without an attempt).",
    }),
    lastError: t.exposeString("lastError"),
    createdAt: t.string({ nullable: false, resolve: (r) => isoDate(r.createdAt)! }),
    processedAt: t.string({ resolve: (r) => isoDate(r.processedAt) }),
  }),
});

const AdminChargebackRef = builder.objectRef<AdminChargeback>("AdminChargeback").implement({
  description: "A payment the card issuer took back (billing charged_back).",
  fields: (t) => ({
    billingId: t.exposeID("billingId", { nullable: false }),
    organizationName: t.exposeString("organizationName", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    orderCode: t.exposeString("orderCode", { nullable: false }),
    provider: t.exposeString("provider", { nullable: false }),
    amount: t.exposeInt("amount", { nullable: false, description: "Integer centavos." }),
    amountFormatted: t.string({ nullable: false, resolve: (c) => money(c.amount)! }),
    chargedBackAt: t.string({ nullable: false, resolve: (c) => isoDate(c.chargedBackAt)! }),
  }),
});

const RefundTotalsRef = builder.objectRef<RefundTotals>("RefundTotals").implement({
  description: "Last 30 days, from the ledger; pendingRequests at any date.",
  fields: (t) => ({
    since: t.string({ nullable: false, resolve: (r) => isoDate(r.since)! }),
    refundedAmount: t.exposeInt("refundedAmount", { nullable: false, description: "refund entries, integer centavos (positive)." }),
    refundedAmountFormatted: t.string({ nullable: false, resolve: (r) => money(r.refundedAmount)! }),
    refundedCount: t.exposeInt("refundedCount", { nullable: false }),
    chargebackAmount: t.exposeInt("chargebackAmount", { nullable: false, description: "chargeback entries, integer centavos (positive)." }),
    chargebackAmountFormatted: t.string({ nullable: false, resolve: (r) => money(r.chargebackAmount)! }),
    chargebackCount: t.exposeInt("chargebackCount", { nullable: false }),
    pendingRequests: t.exposeInt("pendingRequests", { nullable: false, description: "Refund requests waiting for the organizer." }),
  }),
});

const RefundsOverviewRef = builder.objectRef<overview.RefundsOverview>("RefundsOverview").implement({
  fields: (t) => ({
    totals: t.field({ type: RefundTotalsRef, nullable: false, resolve: (o) => o.totals }),
    status: t.exposeString("status", { description: "The status filter applied (null: every status)." }),
    requests: t.field({ type: AdminRefundRequestsPage, nullable: false, description: "Newest first, 25 a page.", resolve: (o) => o.requests }),
    providerRefunds: t.field({ type: [AdminProviderRefundRef], nullable: false, description: "Newest first, at most 100.", resolve: (o) => o.providerRefunds }),
    chargebacks: t.field({ type: [AdminChargebackRef], nullable: false, description: "Newest first, at most 100.", resolve: (o) => o.chargebacks }),
  }),
});

const PlatformOrganizationsInput = builder.inputType("PlatformOrganizationsInput", {
  fields: (t) => ({
    search: t.string({ description: "Part of the name, the slug or the CUIT (with or without dashes)." }),
    page: t.int({ description: "1-based; 25 a page." }),
  }),
});

const RefundsOverviewInput = builder.inputType("RefundsOverviewInput", {
  fields: (t) => ({
    status: t.string({ description: "pending, refunded or rejected; absent: every status." }),
    page: t.int({ description: "1-based page of the refund requests; 25 a page." }),
  }),
});

builder.queryFields((t) => ({
  platformOrganizations: t.field({
    type: PlatformOrganizationsPage,
    nullable: false,
    description: "Platform admins: every organization, newest first, with members, events, paid orders, gross sold, ledger balance and pending withdrawals.",
    args: { input: t.arg({ type: PlatformOrganizationsInput }) },
    resolve: (_root, args, { ctx }) => overview.listPlatformOrganizations(ctx, given({ search: args.input?.search, page: args.input?.page })),
  }),
  refundsOverview: t.field({
    type: RefundsOverviewRef,
    nullable: false,
    description: "Platform admins: refunds and chargebacks across every organization (30-day totals, refund requests, provider refunds with problems, chargebacks).",
    args: { input: t.arg({ type: RefundsOverviewInput }) },
    resolve: (_root, args, { ctx }) => overview.refundsOverview(ctx, given({ status: args.input?.status, page: args.input?.page })),
  }),
}));
