import { and, eq, inArray } from "drizzle-orm";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { billings, invoices, orders, type InvoiceRow } from "#server/db/schema";
import { NotFound, Unauthenticated } from "#server/errors";
import { invoiceDocument } from "#server/invoicing/pdf";
import type { PurchaseView } from "#server/tickets/tickets";
import { getBillingForBuyer } from "./orders";
import { uuid } from "./preview";

/*
 * The buyer's copy of our invoice and credit note (docs/invoicing.md, "El PDF"): downloadable by whoever may
 * read the purchase — the same rule as its page and its tickets PDF (getBillingForBuyer) — once ARCA
 * authorised it. Here, above `invoicing`, because that rule lives with the order.
 */

export const INVOICE_DOWNLOAD_MESSAGES = { notFound: "No encontramos esa factura." } as const;

export interface InvoiceDownload {
  id: string;
  kind: InvoiceRow["kind"];
  /** "Descargar factura" / "Descargar nota de crédito". */
  label: string;
  path: string;
}

/** `/tickets/{billingId}/factura/{invoiceId}/pdf`, with the purchase page's own query (its token, when it needs one). */
function downloadPath(billingId: string, invoiceId: string, pagePath: string): string {
  const query = pagePath.includes("?") ? pagePath.slice(pagePath.indexOf("?")) : "";
  return `/tickets/${billingId}/factura/${invoiceId}/pdf${query}`;
}

function downloadOf(invoice: Pick<InvoiceRow, "id" | "kind" | "billingId">, pagePath: string): InvoiceDownload {
  return { id: invoice.id, kind: invoice.kind, label: invoice.kind === "invoice" ? "Descargar factura" : "Descargar nota de crédito", path: downloadPath(invoice.billingId, invoice.id, pagePath) };
}

async function authorisedOf(db: DbOrTx, billingIds: string[]) {
  if (!billingIds.length) return [];
  return db
    .select({ id: invoices.id, kind: invoices.kind, billingId: invoices.billingId })
    .from(invoices)
    .where(and(inArray(invoices.billingId, billingIds), eq(invoices.status, "authorised")))
    .orderBy(invoices.createdAt);
}

/**
 * The purchase page's links: its authorised invoice and credit note. `purchase` is what getPurchaseTickets
 * returned (it checked the reader), and its page path carries the token when the reader needs it.
 */
export async function invoiceDownloadsOf(db: DbOrTx, purchase: Pick<PurchaseView, "billingId" | "pagePath">): Promise<InvoiceDownload[]> {
  return (await authorisedOf(db, [purchase.billingId])).map((invoice) => downloadOf(invoice, purchase.pagePath));
}

/**
 * "Mis tickets": per billing, the authorised vouchers of the signed-in person's own purchases (an invitation
 * has none; a purchase someone else made is not theirs to download from here).
 */
export async function myInvoiceDownloads(ctx: Ctx, billingIds: string[]): Promise<Record<string, InvoiceDownload[]>> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const ids = [...new Set(billingIds.filter((id) => uuid.safeParse(id).success))];
  if (!ids.length) return {};
  const mine = await ctx.db
    .select({ id: billings.id })
    .from(billings)
    .innerJoin(orders, eq(orders.id, billings.orderId))
    .where(and(inArray(billings.id, ids), eq(orders.buyerUserId, ctx.actor.userId)));
  const out: Record<string, InvoiceDownload[]> = {};
  for (const invoice of await authorisedOf(ctx.db, mine.map((m) => m.id))) (out[invoice.billingId] ??= []).push(downloadOf(invoice, `/tickets/${invoice.billingId}`));
  return out;
}

/**
 * `/tickets/{billingId}/factura/{invoiceId}/pdf`: the voucher's PDF, for whoever may read the purchase
 * (anonymous without the token: Unauthenticated; anyone else: NotFound). Only an authorised voucher of that
 * very billing; any other id is NotFound.
 */
export async function getPurchaseInvoicePdf(ctx: Ctx, billingId: string, invoiceId: string, options: { token?: string | null } = {}): Promise<{ filename: string; content: Uint8Array }> {
  await getBillingForBuyer(ctx, billingId, options);
  if (!uuid.safeParse(invoiceId).success) throw new NotFound(INVOICE_DOWNLOAD_MESSAGES.notFound);
  const [invoice] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.billingId, billingId), eq(invoices.status, "authorised")));
  if (!invoice) throw new NotFound(INVOICE_DOWNLOAD_MESSAGES.notFound);
  return invoiceDocument(ctx.db, invoice);
}
