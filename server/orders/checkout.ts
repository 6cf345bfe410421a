import type { BillingRow, OrderItemRow, OrderRow } from "#server/db/schema";
import { asc, eq } from "drizzle-orm";
import type { Ctx } from "#server/context";
import { billings, eventCustomFields, eventDates, events, ticketTypes } from "#server/db/schema";
import { Invalid } from "#server/errors";
import { appUrl } from "#server/env";
import { preferenceIdForBilling } from "#server/payments/mercadopago";
import { getPaymentProvider, paymentPublicConfigFor } from "#server/payments/providers";
import { createOrder, getBillingForBuyer } from "./orders";
import { createResaleOrder } from "./resale-order";
import { billingAccessToken, purchaseLink, withBillingToken } from "#server/auth/billing-access";
import { parseTaxDetails, saveTaxDetails } from "#server/invoicing/tax-details";
import type { TaxDetailsInput } from "#common/invoicing";

export interface CheckoutStarted {
  order: OrderRow & { items: OrderItemRow[] };
  billing: BillingRow;
  /** Where the buyer pays; null when nothing is due. */
  paymentUrl: string | null;
  /** The `t` that lets a buyer without an account read this billing (server/auth/billing-access.ts). */
  accessToken: string;
}

/**
 * `createOrder` as buyers and integrators call it: holds the tickets, then
 * opens the payment where the buyer will pay. One function for the checkout
 * page and GraphQL. Free orders are already billed: nothing to pay.
 */
export async function startCheckout(
  ctx: Ctx,
  { invoice, ...input }: Parameters<typeof createOrder>[1] & { resaleListingId?: string | null; invoice?: TaxDetailsInput | null },
): Promise<CheckoutStarted> {
  // Factura A (docs/invoicing.md): checked before anything is held, so a wrong CUIT places no order.
  const taxDetails = invoice ? parseTaxDetails(invoice) : null;
  // Resale hook (docs/resale.md): a listing is bought through the same checkout, holding the listing instead of stock.
  const { order, billing } = input.resaleListingId ? await createResaleOrder(ctx, input as Parameters<typeof createResaleOrder>[1]) : await createOrder(ctx, input);
  // Kept before the payment is opened, so no payment (and no invoice) can come before it (decision 217).
  if (taxDetails) await saveTaxDetails(ctx.db, billing.id, taxDetails);
  const accessToken = billingAccessToken(billing.id);
  if (billing.status !== "pending") return { order, billing, paymentUrl: null, accessToken };
  if (order.paymentMethod === "BANK_TRANSFER") {
    // The buyer sees the organizer's account there and uploads the receipt.
    return { order, billing, paymentUrl: withBillingToken(`${appUrl()}/checkout/bank-transfer/${billing.id}`, billing.id), accessToken };
  }
  const { paymentUrl, providerReference } = await getPaymentProvider(ctx.db).createCheckout(billing, order);
  if (providerReference) {
    const [updated] = await ctx.db.update(billings).set({ providerReference, updatedAt: ctx.now }).where(eq(billings.id, billing.id)).returning();
    return { order, billing: updated, paymentUrl, accessToken };
  }
  return { order, billing, paymentUrl, accessToken };
}

/** What the payer-info page asks besides the payer: the event's custom fields and whether each ticket needs its holder. */
export async function getCheckoutQuestions(ctx: Ctx, eventId: string) {
  const [[event], fields] = await Promise.all([
    ctx.db.select({ oneHolderPerTicket: events.oneHolderPerTicket }).from(events).where(eq(events.id, eventId)),
    ctx.db.select().from(eventCustomFields).where(eq(eventCustomFields.eventId, eventId)).orderBy(asc(eventCustomFields.sortOrder)),
  ]);
  return {
    oneHolderPerTicket: event?.oneHolderPerTicket ?? false,
    customFields: fields.map((f) => ({ id: f.id, label: f.label, kind: f.kind, options: f.options, required: f.required })),
  };
}

export const CHECKOUT_PAGE_MESSAGES = {
  holdOver: "Tu reserva venció: las entradas volvieron a la venta. Elegilas de nuevo en la página del evento.",
  notPayable: "Esta compra ya no se puede pagar.",
  notMercadoPago: "Esta compra se paga por transferencia bancaria.",
} as const;

/**
 * `/checkout/{billingId}`: the billing as its buyer reads it (account, the
 * organization, or the access token), with the event, the date, the fee
 * percentage the organizer accepted and whether the hold is still on.
 */
export async function getCheckoutSummary(ctx: Ctx, billingId: string, options: { token?: string | null } = {}) {
  const view = await getBillingForBuyer(ctx, billingId, options);
  const { order, billing } = view;
  const [[event], [date], tickets] = await Promise.all([
    ctx.db
      .select({ id: events.id, name: events.name, slug: events.slug, venueName: events.venueName, city: events.city, serviceFeeBps: events.serviceFeeBps })
      .from(events)
      .where(eq(events.id, order.eventId)),
    ctx.db.select({ startsAt: eventDates.startsAt }).from(eventDates).where(eq(eventDates.id, order.eventDateId)),
    ctx.db.select({ id: ticketTypes.id, paymentMethod: ticketTypes.paymentMethod }).from(ticketTypes).where(eq(ticketTypes.eventId, order.eventId)),
  ]);
  const held = order.status === "draft" && billing.status === "pending" && !!order.holdExpiresAt && order.holdExpiresAt > ctx.now;
  // Which methods the tickets bought allow (one method per order: createOrder refuses mixes).
  const kinds = new Set(order.items.map((i) => tickets.find((t) => t.id === i.ticketTypeId)?.paymentMethod));
  // The next pages' links carry the token only for whoever came with it (purchaseLink).
  const link = (path: string) => purchaseLink(ctx, path, { billingId, token: options.token, buyerUserId: order.buyerUserId });
  return {
    ...view,
    event,
    startsAt: date?.startsAt ?? null,
    held,
    allows: { MERCADO_PAGO: kinds.has("MercadoPagoAccount"), BANK_TRANSFER: kinds.has("BankAccount") },
    ticketsPath: link(`/tickets/${billingId}`),
    bankTransferPath: link(`/checkout/bank-transfer/${billingId}`),
  };
}

/**
 * Sends the buyer (again) to the provider for a pending Mercado Pago billing
 * whose hold is still on: the first try, or a retry after a rejection.
 */
export async function openPayment(ctx: Ctx, billingId: string, options: { token?: string | null } = {}): Promise<{ paymentUrl: string }> {
  const summary = await getCheckoutSummary(ctx, billingId, options);
  if (!summary.held) throw new Invalid({ _form: [summary.order.status === "draft" || summary.order.status === "expired" ? CHECKOUT_PAGE_MESSAGES.holdOver : CHECKOUT_PAGE_MESSAGES.notPayable] });
  if (summary.order.paymentMethod !== "MERCADO_PAGO") throw new Invalid({ _form: [CHECKOUT_PAGE_MESSAGES.notMercadoPago] });
  const { paymentUrl, providerReference } = await getPaymentProvider(ctx.db).createCheckout(summary.billing, summary.order);
  if (providerReference && providerReference !== summary.billing.providerReference) {
    await ctx.db.update(billings).set({ providerReference, updatedAt: ctx.now }).where(eq(billings.id, summary.billing.id));
  }
  return { paymentUrl };
}

/**
 * What the checkout page needs for Mercado Pago in the browser: whether the
 * public key is missing (the page logs it, decision 46) and, when the order can
 * be paid with Mercado Pago for real (not the sandbox), the public key and
 * the order's Checkout Pro preference for Mercado Pago's own button.
 */
export async function mercadoPagoBrowserConfig(ctx: Ctx, summary: Awaited<ReturnType<typeof getCheckoutSummary>>) {
  const { publicKey, sandbox } = await paymentPublicConfigFor(ctx.db, summary.order.organizationId, ctx.now);
  const preferenceId = publicKey && !sandbox && summary.held && summary.allows.MERCADO_PAGO ? await preferenceIdForBilling(ctx.db, summary.billing.id) : null;
  return { missingPublicKey: !publicKey, wallet: publicKey && preferenceId ? { publicKey, preferenceId } : null };
}
