import { and, eq, isNull } from "drizzle-orm";
import type { Ctx } from "#server/context";
import { orders } from "#server/db/schema";
import { isBillingAccessToken, purchaseLink } from "#server/auth/billing-access";
import { purchaseOfOrder, type PurchaseView } from "#server/tickets/tickets";
import { getBillingForBuyer } from "./orders";

/**
 * `/tickets/{billingId}`: the purchase confirmation with its tickets. Read by
 * the buyer's account, the organization's members, or whoever holds the
 * billing's access token (`?t=`, in every checkout link and the tickets email).
 * Anyone else: NotFound (anonymous without token: Unauthenticated).
 */
export async function getPurchaseTickets(ctx: Ctx, billingId: string, options: { token?: string | null } = {}): Promise<PurchaseView> {
  const view = await getBillingForBuyer(ctx, billingId, options);
  const claimed = await claimWithToken(ctx, view.order, billingId, options.token);
  const purchase = await purchaseOfOrder(ctx.db, view.order, view.billing);
  // The page's own links (reload, PDF): the token only for whoever came with it and still needs it (purchaseLink).
  const link = (path: string) => purchaseLink(ctx, path, { billingId, token: options.token, buyerUserId: claimed && ctx.actor.kind === "user" ? ctx.actor.userId : view.order.buyerUserId });
  return { ...purchase, pagePath: link(`/tickets/${billingId}`), pdfPath: link(`/tickets/${billingId}/pdf`) };
}

/**
 * A purchase made without an account joins the account of whoever opens its
 * link (token) signed in: from then on it is in their "Mis tickets". Matching
 * by payer email instead would hand tickets to anyone who registers with
 * someone else's address (accounts do not verify their email), so only the
 * token — proof of having the checkout or the tickets email — claims.
 */
async function claimWithToken(ctx: Ctx, order: { id: string; buyerUserId: string | null }, billingId: string, token: string | null | undefined): Promise<boolean> {
  if (ctx.actor.kind !== "user" || order.buyerUserId || !isBillingAccessToken(billingId, token)) return false;
  const claimed = await ctx.db
    .update(orders)
    .set({ buyerUserId: ctx.actor.userId })
    .where(and(eq(orders.id, order.id), isNull(orders.buyerUserId)))
    .returning({ id: orders.id });
  return claimed.length > 0;
}
