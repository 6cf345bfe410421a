import { eq } from "drizzle-orm";
import type { Ctx } from "#server/context";
import { billings } from "#server/db/schema";
import { appUrl } from "#server/env";
import { getPaymentProvider } from "#server/payments/provider";
import { createOrder, type BillingRow, type OrderItemRow, type OrderRow } from "./orders";

/**
 * `createOrder` as buyers and integrators call it: holds the tickets, then
 * opens the payment where the buyer will pay. One function for the checkout
 * page and GraphQL. Free orders are already billed: nothing to pay.
 */
export async function startCheckout(
  ctx: Ctx,
  input: unknown,
): Promise<{ order: OrderRow & { items: OrderItemRow[] }; billing: BillingRow; paymentUrl: string | null }> {
  const { order, billing } = await createOrder(ctx, input);
  if (billing.status !== "pending") return { order, billing, paymentUrl: null };
  if (order.paymentMethod === "BANK_TRANSFER") {
    // The buyer sees the organizer's account there and uploads the receipt.
    return { order, billing, paymentUrl: `${appUrl()}/checkout/bank-transfer/${billing.id}` };
  }
  const { paymentUrl, providerReference } = await getPaymentProvider(ctx.db).createCheckout(billing, order);
  if (providerReference) {
    const [updated] = await ctx.db.update(billings).set({ providerReference, updatedAt: ctx.now }).where(eq(billings.id, billing.id)).returning();
    return { order, billing: updated, paymentUrl };
  }
  return { order, billing, paymentUrl };
}
