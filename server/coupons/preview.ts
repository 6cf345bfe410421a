import type { DbOrTx } from "#server/db/client";
import { purchaseTotals, type CouponRule } from "#common/pricing";
import { previewCoupon } from "./coupons";

export interface CouponPagePreview {
  ok: true;
  /** As the organizer wrote it. */
  code: string;
  /** "20 % off" */
  label: string;
  /** Names of the ticket types it is limited to; null = all. */
  onlyFor: string[] | null;
  /** The discount rule, for the page's live total (common/pricing.ts discountFor). */
  rule: CouponRule;
  /** Percent coupons: each applicable ticket's price with the discount (centavos). */
  discountedPrices: Record<string, number>;
  /** With the quantities in the saved cart: what createOrder would charge (centavos); null without items. */
  totals: { subtotal: number; discount: number; serviceFee: number; total: number } | null;
}

/**
 * What the event page shows for the coupon in the saved cart: the discount,
 * the prices with it and, for the tickets already chosen, the totals the
 * order would have (same rules as createOrder: fee on what is paid).
 * Takes no use; createOrder checks the coupon again.
 */
export async function couponForEventPage(
  db: DbOrTx,
  input: {
    event: { id: string; serviceFeeBps: number };
    tickets: { id: string; name: string; price: number }[];
    code: string;
    items: { ticketId: string; qty: number }[];
    now: Date;
  },
): Promise<CouponPagePreview | { ok: false; message: string }> {
  const found = await previewCoupon(db, { eventId: input.event.id, code: input.code, now: input.now });
  if (!found.ok) return found;
  const { coupon } = found;
  const applies = (id: string) => !coupon.ticketTypeIds.length || coupon.ticketTypeIds.includes(id);
  const discountedPrices: Record<string, number> = {};
  if (coupon.kind === "percent") {
    for (const t of input.tickets) if (applies(t.id) && t.price > 0) discountedPrices[t.id] = t.price - Math.round((t.price * coupon.value) / 100);
  }
  const prices = new Map(input.tickets.map((t) => [t.id, t.price]));
  const lines = input.items.filter((i) => prices.has(i.ticketId)).map((i) => ({ ticketTypeId: i.ticketId, qty: i.qty, unitPrice: prices.get(i.ticketId)! }));
  let totals: CouponPagePreview["totals"] = null;
  if (lines.length) totals = purchaseTotals(lines, input.event.serviceFeeBps, coupon);
  const onlyFor = coupon.ticketTypeIds.length ? input.tickets.filter((t) => applies(t.id)).map((t) => t.name) : null;
  const rule: CouponRule = { kind: coupon.kind, value: coupon.value, ticketTypeIds: coupon.ticketTypeIds };
  return { ok: true, code: coupon.code, label: found.label, onlyFor, rule, discountedPrices, totals };
}
