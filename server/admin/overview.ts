import { and, count, desc, eq, gte, ilike, inArray, isNotNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import {
  billings,
  events,
  ledgerEntries,
  memberships,
  orders,
  organizations,
  paymentRefunds,
  REFUND_REQUEST_STATUSES,
  refundRequests,
  withdrawals,
  type RefundMethod,
  type RefundRequestStatus,
} from "#server/db/schema";
import { requirePlatformAdmin as requireAnyPlatformAdmin } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";

/*
 * The platform team's screens (docs/admin.md): every organization with its
 * numbers, and refunds and chargebacks across the platform. Read-only; only
 * users with the global role `admin` (like the withdrawal queue,
 * server/payouts/withdrawals.ts). Money comes from the ledger, which is the
 * truth (docs/payouts.md): gross sold is the sum of `payment` entries, the
 * balance the sum of every entry.
 */

export const ADMIN_PAGE_SIZE = 25;
/** A provider refund still pending, without an error, after this long: the job is not running (nobody tried it). */
export const STUCK_REFUND_MS = 60 * 60_000;
/** The window of the totals at the top of /admin/devoluciones. */
export const TOTALS_DAYS = 30;
/** At most this many rows of provider refunds with problems and of chargebacks (newest first). */
export const ADMIN_LIST_LIMIT = 100;

export const ADMIN_MESSAGES = {
  onlyPlatform: "Solo el equipo de Tribuna puede ver esta pantalla.",
  status: "Elegí un estado válido: pendiente, devuelta o rechazada.",
} as const;

/** Signed-in (UNAUTHENTICATED otherwise) and with the platform's `admin` role (FORBIDDEN otherwise). */
const requirePlatformAdmin = (ctx: Ctx) => requireAnyPlatformAdmin(ctx, ADMIN_MESSAGES.onlyPlatform);

/** A page number from a URL or an API: anything that is not a whole number ≥ 1 is page 1 (never an error). */
const pageSchema = z
  .unknown()
  .optional()
  .transform((v) => {
    const n = typeof v === "number" ? Math.trunc(v) : Number.parseInt(String(v ?? ""), 10);
    return Number.isFinite(n) && n >= 1 ? Math.min(n, 100_000) : 1;
  });

/**
 * Free text: control characters dropped (PostgreSQL refuses NUL), spaces
 * collapsed, trimmed, at most 100 characters (longer is cut, never an error).
 */
const searchSchema = z
  .unknown()
  .optional()
  .transform((v) =>
    typeof v === "string"
      ? v
          .replace(/[\u0000-\u001F\u007F]/g, " ")
          .replace(/\s+/g, " ")
          .trim()
          .slice(0, 100)
      : ""
  );

export interface Paged<T> {
  items: T[];
  total: number;
  /** 1-based, clamped to the last page. */
  page: number;
  pages: number;
  pageSize: number;
}

function pageOf(requested: number, total: number) {
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  const page = Math.min(requested, pages);
  return { page, pages, offset: (page - 1) * ADMIN_PAGE_SIZE };
}

const likeOf = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const toNumber = (v: string | number | null | undefined) => Number(v ?? 0);

// ---------------------------------------------------------------------------
// Organizations

export interface PlatformOrganization {
  id: string;
  name: string;
  slug: string;
  cuit: string | null;
  contactEmail: string | null;
  createdAt: Date;
  members: number;
  /** Events not deleted (drafts and paused included). */
  events: number;
  /** Orders with a `payment` entry in the ledger. */
  paidOrders: number;
  /** Sum of the `payment` entries: what buyers paid, fees included, before refunds (integer centavos). */
  grossSold: number;
  /** Sum of every ledger entry (integer centavos; negative: the organization owes fees). */
  balance: number;
  /** Withdrawals requested or approved, not paid nor rejected yet. */
  pendingWithdrawals: number;
}

const organizationsSchema = z.object({ search: searchSchema, page: pageSchema });

/**
 * `platformOrganizations`: every organization, newest first, 25 a page,
 * optionally searched by name, slug or CUIT (a CUIT matches with or without
 * dashes), each with its members, events and money.
 */
export async function listPlatformOrganizations(ctx: Ctx, rawInput: DomainInput<typeof organizationsSchema> = {}): Promise<Paged<PlatformOrganization> & { search: string }> {
  requirePlatformAdmin(ctx);
  const input = parseInput(organizationsSchema, rawInput ?? {});
  const where = organizationSearch(input.search);
  const [{ total }] = await ctx.db.select({ total: count() }).from(organizations).where(where);
  const { page, pages, offset } = pageOf(input.page, total);
  const rows = await ctx.db
    .select({
      id: organizations.id,
      name: organizations.name,
      slug: organizations.slug,
      cuit: organizations.cuit,
      contactEmail: organizations.contactEmail,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .where(where)
    .orderBy(desc(organizations.createdAt), desc(organizations.id))
    .limit(ADMIN_PAGE_SIZE)
    .offset(offset);
  const ids = rows.map((r) => r.id);
  if (!ids.length) return { items: [], total, page, pages, pageSize: ADMIN_PAGE_SIZE, search: input.search };

  const [memberRows, eventRows, ledgerRows, withdrawalRows] = await Promise.all([
    ctx.db.select({ id: memberships.organizationId, n: count() }).from(memberships).where(inArray(memberships.organizationId, ids)).groupBy(memberships.organizationId),
    ctx.db
      .select({ id: events.organizationId, n: count() })
      .from(events)
      .where(and(inArray(events.organizationId, ids), ne(events.status, "deleted")))
      .groupBy(events.organizationId),
    ctx.db
      .select({
        id: ledgerEntries.organizationId,
        paidOrders: sql<string>`count(distinct ${ledgerEntries.orderId}) filter (where ${ledgerEntries.kind} = 'payment')`,
        grossSold: sql<string>`coalesce(sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.kind} = 'payment'), 0)`,
        balance: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)`,
      })
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.organizationId, ids))
      .groupBy(ledgerEntries.organizationId),
    ctx.db
      .select({ id: withdrawals.organizationId, n: count() })
      .from(withdrawals)
      .where(and(inArray(withdrawals.organizationId, ids), inArray(withdrawals.status, ["requested", "approved"])))
      .groupBy(withdrawals.organizationId),
  ]);
  const members = new Map(memberRows.map((r) => [r.id, r.n]));
  const eventCounts = new Map(eventRows.map((r) => [r.id, r.n]));
  const money = new Map(ledgerRows.map((r) => [r.id, r]));
  const pendingWithdrawals = new Map(withdrawalRows.map((r) => [r.id, r.n]));
  return {
    items: rows.map((r) => ({
      ...r,
      members: members.get(r.id) ?? 0,
      events: eventCounts.get(r.id) ?? 0,
      paidOrders: toNumber(money.get(r.id)?.paidOrders),
      grossSold: toNumber(money.get(r.id)?.grossSold),
      balance: toNumber(money.get(r.id)?.balance),
      pendingWithdrawals: pendingWithdrawals.get(r.id) ?? 0,
    })),
    total,
    page,
    pages,
    pageSize: ADMIN_PAGE_SIZE,
    search: input.search,
  };
}

function organizationSearch(search: string): SQL | undefined {
  if (!search) return undefined;
  const like = likeOf(search);
  const conditions: (SQL | undefined)[] = [ilike(organizations.name, like), ilike(organizations.slug, like), ilike(organizations.cuit, like)];
  // "30712345671", "30-71234567-1" or "30 71234567 1" find the same CUIT.
  const digits = search.replace(/\D/g, "");
  if (digits.length >= 2 && /^[\d\s.-]+$/.test(search)) conditions.push(sql`regexp_replace(coalesce(${organizations.cuit}, ''), '\\D', '', 'g') like ${`%${digits}%`}`);
  return or(...conditions);
}

// ---------------------------------------------------------------------------
// Refunds and chargebacks

export interface AdminRefundRequest {
  id: string;
  code: string;
  organizationId: string;
  organizationName: string;
  eventName: string;
  orderCode: string;
  buyerName: string;
  buyerEmail: string;
  /** The billing's amount: what goes back (integer centavos). */
  amount: number;
  status: RefundRequestStatus;
  automatic: boolean;
  method: RefundMethod;
  createdAt: Date;
  decidedAt: Date | null;
}

/** failed: the job gave up; retrying: the provider answered with an error and the job tries again; stuck: nobody tried it for an hour. */
export type ProviderRefundProblem = "failed" | "retrying" | "stuck";

export interface AdminProviderRefund {
  id: string;
  organizationName: string;
  orderCode: string;
  provider: string;
  providerPaymentId: string;
  amount: number;
  reason: string;
  status: string;
  problem: ProviderRefundProblem;
  lastError: string | null;
  createdAt: Date;
  processedAt: Date | null;
}

export interface AdminChargeback {
  billingId: string;
  organizationName: string;
  eventName: string;
  orderCode: string;
  provider: string;
  amount: number;
  /** When the billing became charged_back. */
  chargedBackAt: Date;
}

export interface RefundTotals {
  /** Start of the window (now − 30 days). */
  since: Date;
  /** `refund` ledger entries of the window: every refund, whatever started it (integer centavos, positive). */
  refundedAmount: number;
  refundedCount: number;
  /** `chargeback` ledger entries of the window (integer centavos, positive). */
  chargebackAmount: number;
  chargebackCount: number;
  /** Refund requests waiting for the organizer, at any date. */
  pendingRequests: number;
}

export interface RefundsOverview {
  totals: RefundTotals;
  /** The status filter applied (null: every status). */
  status: RefundRequestStatus | null;
  requests: Paged<AdminRefundRequest>;
  providerRefunds: AdminProviderRefund[];
  chargebacks: AdminChargeback[];
}

const refundsSchema = z.object({
  status: z
    .unknown()
    .optional()
    .transform((v) => (v === null || v === undefined || (typeof v === "string" && ["", "todos", "todas"].includes(v.trim().toLowerCase())) ? undefined : v))
    .pipe(z.enum(REFUND_REQUEST_STATUSES, { error: ADMIN_MESSAGES.status }).optional()),
  page: pageSchema,
});

/**
 * `refundsOverview`: across every organization, the totals of the last 30
 * days (from the ledger), the buyers' refund requests (filtered by status,
 * newest first, 25 a page), the provider refunds that failed or are stuck,
 * and the chargebacks (billings `charged_back`), newest first.
 */
export async function refundsOverview(ctx: Ctx, rawInput: DomainInput<typeof refundsSchema> = {}): Promise<RefundsOverview> {
  requirePlatformAdmin(ctx);
  const input = parseInput(refundsSchema, rawInput ?? {});
  const since = new Date(ctx.now.getTime() - TOTALS_DAYS * 24 * 3600_000);
  const stuckBefore = new Date(ctx.now.getTime() - STUCK_REFUND_MS);
  const requestWhere = input.status ? eq(refundRequests.status, input.status) : undefined;

  const [[ledger], [pending], [{ total }], providerRows, chargebackRows] = await Promise.all([
    ctx.db
      .select({
        refundedAmount: sql<string>`coalesce(-sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.kind} = 'refund'), 0)`,
        refundedCount: sql<string>`count(*) filter (where ${ledgerEntries.kind} = 'refund')`,
        chargebackAmount: sql<string>`coalesce(-sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.kind} = 'chargeback'), 0)`,
        chargebackCount: sql<string>`count(*) filter (where ${ledgerEntries.kind} = 'chargeback')`,
      })
      .from(ledgerEntries)
      .where(and(inArray(ledgerEntries.kind, ["refund", "chargeback"]), gte(ledgerEntries.createdAt, since))),
    ctx.db.select({ n: count() }).from(refundRequests).where(eq(refundRequests.status, "pending")),
    ctx.db.select({ total: count() }).from(refundRequests).where(requestWhere),
    ctx.db
      .select({
        refund: paymentRefunds,
        provider: billings.provider,
        orderCode: orders.code,
        organizationName: organizations.name,
      })
      .from(paymentRefunds)
      .innerJoin(billings, eq(billings.id, paymentRefunds.billingId))
      .innerJoin(orders, eq(orders.id, billings.orderId))
      .innerJoin(organizations, eq(organizations.id, orders.organizationId))
      .where(or(eq(paymentRefunds.status, "failed"), and(eq(paymentRefunds.status, "pending"), or(isNotNull(paymentRefunds.lastError), lt(paymentRefunds.createdAt, stuckBefore)))))
      .orderBy(desc(paymentRefunds.createdAt), desc(paymentRefunds.id))
      .limit(ADMIN_LIST_LIMIT),
    ctx.db
      .select({
        billingId: billings.id,
        organizationName: organizations.name,
        eventName: events.name,
        orderCode: orders.code,
        provider: billings.provider,
        amount: billings.amount,
        chargedBackAt: billings.updatedAt,
      })
      .from(billings)
      .innerJoin(orders, eq(orders.id, billings.orderId))
      .innerJoin(events, eq(events.id, orders.eventId))
      .innerJoin(organizations, eq(organizations.id, orders.organizationId))
      .where(eq(billings.status, "charged_back"))
      .orderBy(desc(billings.updatedAt), desc(billings.id))
      .limit(ADMIN_LIST_LIMIT),
  ]);

  const { page, pages, offset } = pageOf(input.page, total);
  const requestRows = await ctx.db
    .select({
      request: refundRequests,
      organizationName: organizations.name,
      eventName: events.name,
      orderCode: orders.code,
      payer: orders.payer,
      amount: billings.amount,
    })
    .from(refundRequests)
    .innerJoin(orders, eq(orders.id, refundRequests.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(organizations, eq(organizations.id, refundRequests.organizationId))
    .innerJoin(billings, eq(billings.id, refundRequests.billingId))
    .where(requestWhere)
    .orderBy(desc(refundRequests.createdAt), desc(refundRequests.id))
    .limit(ADMIN_PAGE_SIZE)
    .offset(offset);

  return {
    totals: {
      since,
      refundedAmount: toNumber(ledger?.refundedAmount),
      refundedCount: toNumber(ledger?.refundedCount),
      chargebackAmount: toNumber(ledger?.chargebackAmount),
      chargebackCount: toNumber(ledger?.chargebackCount),
      pendingRequests: pending?.n ?? 0,
    },
    status: input.status ?? null,
    requests: {
      items: requestRows.map(({ request: r, ...row }) => ({
        id: r.id,
        code: r.code,
        organizationId: r.organizationId,
        organizationName: row.organizationName,
        eventName: row.eventName,
        orderCode: row.orderCode,
        buyerName: `${row.payer.firstName} ${row.payer.lastName}`.trim(),
        buyerEmail: r.email,
        amount: row.amount,
        status: r.status,
        automatic: r.automatic,
        method: r.method,
        createdAt: r.createdAt,
        decidedAt: r.decidedAt,
      })),
      total,
      page,
      pages,
      pageSize: ADMIN_PAGE_SIZE,
    },
    providerRefunds: providerRows.map(({ refund: r, ...row }) => ({
      id: r.id,
      organizationName: row.organizationName,
      orderCode: row.orderCode,
      provider: row.provider,
      providerPaymentId: r.providerPaymentId,
      amount: r.amount,
      reason: r.reason,
      status: r.status,
      problem: r.status === "failed" ? "failed" : r.lastError ? "retrying" : "stuck",
      lastError: r.lastError,
      createdAt: r.createdAt,
      processedAt: r.processedAt,
    })),
    chargebacks: chargebackRows,
  };
}
