import { count, desc, eq, type SQL } from "drizzle-orm";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { events, INVOICE_STATUSES, invoices, orders, organizations, type InvoiceRow, type InvoiceStatus } from "#server/db/schema";
import { requirePlatformAdmin } from "#server/organizations/permissions";

/*
 * Reading invoices (docs/invoicing.md): a billing's, for whoever may read that billing (the GraphQL field
 * resolves under Billing, after its own authorization), and the platform team's list for /admin/facturas.
 */

/** The billing's invoice and credit note, oldest first. The caller has already authorised reading the billing. */
export async function invoicesOfBilling(db: DbOrTx, billingId: string): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.billingId, billingId)).orderBy(invoices.createdAt);
}

export const INVOICES_PAGE_SIZE = 50;
export const INVOICE_ADMIN_MESSAGES = { onlyPlatform: "Solo el equipo de Tribuna puede ver esta pantalla." } as const;

export interface AdminInvoice extends InvoiceRow {
  orderCode: string;
  organizationName: string;
  eventName: string;
}

/**
 * Every invoice and credit note, newest first, for the platform team: `status` one of INVOICE_STATUSES (any
 * other value: all), with the counts per status. Only users with the platform's `admin` role.
 */
export async function listInvoicesForAdmin(ctx: Ctx, input: { status?: string | null; page?: number } = {}) {
  requirePlatformAdmin(ctx, INVOICE_ADMIN_MESSAGES.onlyPlatform);
  const status = INVOICE_STATUSES.includes(input.status as InvoiceStatus) ? (input.status as InvoiceStatus) : null;
  const page = Number.isInteger(input.page) && (input.page ?? 0) >= 1 ? Math.min(input.page!, 100_000) : 1;
  const where: SQL | undefined = status ? eq(invoices.status, status) : undefined;
  const rows = await ctx.db
    .select({ invoice: invoices, orderCode: orders.code, organizationName: organizations.name, eventName: events.name })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(organizations, eq(organizations.id, orders.organizationId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(where)
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(INVOICES_PAGE_SIZE)
    .offset((page - 1) * INVOICES_PAGE_SIZE);
  const counts = await ctx.db.select({ status: invoices.status, n: count() }).from(invoices).groupBy(invoices.status);
  const byStatus = Object.fromEntries(INVOICE_STATUSES.map((s) => [s, Number(counts.find((c) => c.status === s)?.n ?? 0)])) as Record<InvoiceStatus, number>;
  const total = status ? byStatus[status] : Object.values(byStatus).reduce((a, b) => a + b, 0);
  return {
    status,
    page,
    pages: Math.max(1, Math.ceil(total / INVOICES_PAGE_SIZE)),
    counts: byStatus,
    items: rows.map((r): AdminInvoice => ({ ...r.invoice, orderCode: r.orderCode, organizationName: r.organizationName, eventName: r.eventName })),
  };
}

