/**
 * The money rules of a purchase, in one place for the server (createOrder, the
 * coupon preview, invitations) and the browser (the event page's live total).
 * Pure and browser-safe. Amounts in integer centavos.
 */

/** The service fee on what is paid: `bps` basis points of `amount`, rounded to the centavo. */
export function serviceFeeOf(amount: number, bps: number): number {
  return Math.round((amount * bps) / 10_000);
}

export interface DiscountLine {
  ticketTypeId: string;
  qty: number;
  unitPrice: number;
}

/** What a coupon discounts: a percent (1–100) or a fixed amount, on the ticket types it names (none = all). */
export interface CouponRule {
  kind: "percent" | "fixed";
  value: number;
  ticketTypeIds: string[];
}

/**
 * The discount on the lines the coupon applies to (all, when it names no
 * ticket types): a percent of their subtotal (rounded to the centavo), or
 * the fixed amount up to that subtotal.
 */
export function discountFor(coupon: CouponRule, lines: DiscountLine[]) {
  const applies = (id: string) => !coupon.ticketTypeIds.length || coupon.ticketTypeIds.includes(id);
  const applicable = lines.filter((l) => applies(l.ticketTypeId));
  const applicableSubtotal = applicable.reduce((sum, l) => sum + l.qty * l.unitPrice, 0);
  const discount = coupon.kind === "percent" ? Math.round((applicableSubtotal * coupon.value) / 100) : Math.min(coupon.value, applicableSubtotal);
  return { applies: applicable.length > 0, applicableSubtotal, discount };
}

/** Subtotal, then the discount, then the fee on what is left, then the total: the order the checkout reads them in. */
export function purchaseTotals(lines: DiscountLine[], serviceFeeBps: number, coupon?: CouponRule | null) {
  const subtotal = lines.reduce((sum, l) => sum + l.qty * l.unitPrice, 0);
  const discount = coupon ? discountFor(coupon, lines).discount : 0;
  const serviceFee = serviceFeeOf(subtotal - discount, serviceFeeBps);
  return { subtotal, discount, serviceFee, total: subtotal - discount + serviceFee };
}

/**
 * The fee's rate as the buyer reads it next to the amount: "10 %", "7,5 %";
 * null without a fee (the line then shows no rate). Every page that prices a
 * purchase says it the same way: the event page, the payer step of tickets
 * and of the menu, the summary before paying.
 */
export function serviceFeeRateLabel(bps: number): string | null {
  return bps > 0 ? `${(bps / 100).toLocaleString("es-AR", { maximumFractionDigits: 2 })} %` : null;
}

/** How long a draft order holds its stock, by how it is paid (decisions 21 and 35): server/orders and every page that says it. */
export const HOLD_MINUTES = { MERCADO_PAGO: 15, BANK_TRANSFER: 48 * 60 } as const;

/** The hold in words, as pages and emails say it: "15 minutos", "48 horas". */
export function holdDuration(method: keyof typeof HOLD_MINUTES): string {
  const minutes = HOLD_MINUTES[method];
  if (minutes % 60 !== 0) return `${minutes} minutos`;
  const hours = minutes / 60;
  return hours === 1 ? "1 hora" : `${hours} horas`;
}

/** How a buyer pays each ticket type's account (the ticket type's `paymentMethod`). PromoterAccount tickets are not sold online. */
export const BUYER_METHOD_OF_ACCOUNT: Readonly<Record<string, "MERCADO_PAGO" | "BANK_TRANSFER">> = {
  MercadoPagoAccount: "MERCADO_PAGO",
  BankAccount: "BANK_TRANSFER",
};

/**
 * The method an order of these ticket types is paid with: the one they share, or
 * Mercado Pago when there are none (createOrder refuses a mix with its own message).
 */
export function buyerMethodOf(accounts: readonly (string | undefined)[]): "MERCADO_PAGO" | "BANK_TRANSFER" {
  const methods = new Set(accounts.map((account) => (account ? BUYER_METHOD_OF_ACCOUNT[account] : undefined)));
  return methods.size === 1 && methods.has("BANK_TRANSFER") ? "BANK_TRANSFER" : "MERCADO_PAGO";
}

/**
 * One ticket's final price as a buyer reads it beside the ticket (docs/prices.md):
 * its price (after any coupon) plus the service fee on it. A purchase's fee is
 * computed on its whole subtotal (purchaseTotals), so a total can differ by a
 * centavo from adding these.
 */
export function unitFinalPrice(price: number, serviceFeeBps: number) {
  const serviceFee = serviceFeeOf(price, serviceFeeBps);
  return { faceValue: price, serviceFee, final: price + serviceFee };
}
