import type { DbOrTx } from "#server/db/client";
import type { CouponRule } from "#common/pricing";
import { previewCoupon } from "./coupons";

export interface CouponPagePreview {
  ok: true;
  /** As the organizer wrote it. */
  code: string;
  /** "20 % de descuento" */
  label: string;
  /** Names of the ticket types it is limited to; null = all. */
  onlyFor: string[] | null;
  /** The discount rule, for the page's live total (common/pricing.ts discountFor). */
  rule: CouponRule;
  /** Percent coupons: each applicable ticket's price with the discount (centavos). */
  discountedPrices: Record<string, number>;
}

/**
 * What the event page shows for the coupon in the saved cart: the discount,
 * the prices with it, and its rule, with which the page's picker totals the
 * tickets chosen (common/pricing.ts, as createOrder: fee on what is paid).
 * Takes no use; createOrder checks the coupon again.
 */
export async function couponForEventPage(
  db: DbOrTx,
  input: {
    event: { id: string };
    tickets: { id: string; name: string; price: number }[];
    code: string;
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
  const onlyFor = coupon.ticketTypeIds.length ? input.tickets.filter((t) => applies(t.id)).map((t) => t.name) : null;
  const rule: CouponRule = { kind: coupon.kind, value: coupon.value, ticketTypeIds: coupon.ticketTypeIds };
  return { ok: true, code: coupon.code, label: found.label, onlyFor, rule, discountedPrices };
}
