import { builder } from "./builder";
import { money } from "./scalars";
import * as metricsDomain from "#server/reports/metrics";
import * as summaryDomain from "#server/reports/summary";
import * as exportsDomain from "#server/reports/exports";
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
    description: "Sales today, in the last 7 days and in total, and what needs a decision. Needs sales:read. With eventId, only that event's (as the summary page's event filter); another organization's or an unknown event is NOT_FOUND.",
    args: { organizationId: t.arg.id({ required: true }), eventId: t.arg.id({ description: "Only this event of the organization." }) },
    resolve: (_root, args, { ctx }) => summaryDomain.organizationSummary(ctx, String(args.organizationId), args.eventId == null ? null : String(args.eventId)),
  }),
}));

type Metrics = Awaited<ReturnType<typeof metricsDomain.eventMetrics>>;

const DaySales = builder.objectRef<Metrics["salesPerDay"][number]>("DaySales").implement({
  fields: (t) => ({
    day: t.exposeString("day", { nullable: false, description: "YYYY-MM-DD, Buenos Aires." }),
    orders: t.exposeInt("orders", { nullable: false }),
    tickets: t.exposeInt("tickets", { nullable: false }),
    revenue: t.exposeInt("revenue", { nullable: false, description: "Integer centavos, without our fee." }),
  }),
});
const TicketTypeSales = builder.objectRef<Metrics["ticketTypes"][number]>("TicketTypeSales").implement({
  fields: (t) => ({
    name: t.exposeString("name", { nullable: false }),
    sold: t.exposeInt("sold", { nullable: false }),
    stock: t.exposeInt("stock", { nullable: false }),
    revenue: t.exposeInt("revenue", { nullable: false }),
  }),
});
const CouponUse = builder.objectRef<Metrics["coupons"][number]>("CouponUse").implement({
  fields: (t) => ({ code: t.exposeString("code", { nullable: false }), uses: t.exposeInt("uses", { nullable: false }), discount: t.exposeInt("discount", { nullable: false }) }),
});
const PromoterSales = builder.objectRef<Metrics["promoters"][number]>("PromoterSales").implement({
  fields: (t) => ({ nick: t.exposeString("nick", { nullable: false }), orders: t.exposeInt("orders", { nullable: false }), tickets: t.exposeInt("tickets", { nullable: false }) }),
});
const EntrySlot = builder.objectRef<Metrics["entries"]["perQuarterHour"][number]>("EntrySlot").implement({
  fields: (t) => ({ at: t.exposeString("at", { nullable: false, description: "Start of the 15 minutes (ISO 8601)." }), entered: t.exposeInt("entered", { nullable: false }) }),
});
const EventEntries = builder.objectRef<Metrics["entries"]>("EventEntries").implement({
  fields: (t) => ({
    sold: t.exposeInt("sold", { nullable: false, description: "Tickets that can get in (invitations included)." }),
    entered: t.exposeInt("entered", { nullable: false }),
    perQuarterHour: t.field({ type: [EntrySlot], nullable: false, resolve: (e) => e.perQuarterHour }),
  }),
});
const EventMetricsRef = builder.objectRef<Metrics>("EventMetrics").implement({
  fields: (t) => ({
    salesPerDay: t.field({ type: [DaySales], nullable: false, resolve: (m) => m.salesPerDay }),
    ticketTypes: t.field({ type: [TicketTypeSales], nullable: false, resolve: (m) => m.ticketTypes }),
    coupons: t.field({ type: [CouponUse], nullable: false, resolve: (m) => m.coupons }),
    promoters: t.field({ type: [PromoterSales], nullable: false, description: "Ranking by tickets sold through referral links.", resolve: (m) => m.promoters }),
    entries: t.field({ type: EventEntries, nullable: false, resolve: (m) => m.entries }),
  }),
});

builder.queryFields((t) => ({
  eventMetrics: t.field({
    type: EventMetricsRef,
    nullable: false,
    description: "One event in numbers, as /organizacion/metricas-evento shows it; with eventDateId, only that date's orders and tickets. Needs sales:read.",
    args: { eventId: t.arg.id({ required: true }), eventDateId: t.arg.id() },
    resolve: (_root, args, { ctx }) => metricsDomain.eventMetrics(ctx, String(args.eventId), args.eventDateId ? String(args.eventDateId) : null),
  }),
}));

const ReportDownload = builder.objectRef<{ path: string; filename: string }>("ReportDownload").implement({
  description: "Where to download an export: GET the path on this server with the same x-access-token header; it streams CSV or XLSX.",
  fields: (t) => ({
    path: t.exposeString("path", { nullable: false }),
    filename: t.exposeString("filename", { nullable: false }),
  }),
});

const ReportDownloadInput = builder.inputType("ReportDownloadInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    kind: t.string({ required: true, description: "ventas, asistentes, acreditaciones, cupones, rrpp, libro-mayor, or facturas (the platform's invoices and credit notes: platform admins only, FORBIDDEN otherwise)." }),
    format: t.string({ description: "csv (default) or xlsx." }),
    eventId: t.id({ description: "Only this event's rows (ignored by facturas, which covers the whole platform)." }),
    month: t.string({ description: "facturas only: the month of emission, aaaa-mm (Buenos Aires); absent: every month. BAD_USER_INPUT when malformed." }),
  }),
});

builder.queryFields((t) => ({
  reportDownload: t.field({
    type: ReportDownload,
    nullable: false,
    description: "Checks the actor may take this export (sales:read; the ledger money:manage; facturas a platform admin) and says where to download it.",
    args: { input: t.arg({ type: ReportDownloadInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => exportsDomain.exportDownloadPath(ctx, { organizationId: String(input.organizationId), kind: input.kind, format: input.format ?? undefined, eventId: input.eventId ? String(input.eventId) : undefined, period: input.month ?? undefined }),
  }),
}));
