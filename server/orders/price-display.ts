import { formatMoney } from "#common/money";
import { unitFinalPrice } from "#common/pricing";
import { priceDisplay, type PlatformIvaCondition } from "#common/tax-display";
import { env } from "#server/env";

/**
 * The price without national taxes, formatted, for a buyer page or email
 * (docs/prices.md): the rule is common/tax-display.ts, the platform's IVA
 * condition the server's PLATFORM_IVA_CONDITION. Null when it equals the
 * final price (no line then). `faceValue` is after any coupon's discount.
 */
export function withoutNationalTaxesOf(faceValue: number, serviceFee: number): string | null {
  const { withoutNationalTaxes } = priceDisplay(faceValue, serviceFee, env().PLATFORM_IVA_CONDITION);
  return withoutNationalTaxes === null ? null : formatMoney(withoutNationalTaxes);
}

/**
 * The platform's IVA condition, for a page whose browser recomputes a total
 * (the event page's picker) with the same pure rule (decision 214). It is a
 * public fact of the platform, the same for every visitor.
 */
export function platformIvaCondition(): PlatformIvaCondition {
  return env().PLATFORM_IVA_CONDITION;
}

/** A price as a buyer page shows it, formatted: the final price first, the line without national taxes beside it. */
export interface PriceFigures {
  /** Everything paid; "Gratis" when it is zero. */
  final: string;
  finalCents: number;
  /** Null when it equals the final price. */
  withoutNationalTaxes: string | null;
  /** The service fee inside the final price, formatted; null without one. */
  serviceFee: string | null;
}

/** The figures of a price that already has its service fee worked out (`faceValue` after any coupon). */
export function priceFiguresOf(faceValue: number, serviceFee: number): PriceFigures {
  const final = faceValue + serviceFee;
  return {
    final: final === 0 ? "Gratis" : formatMoney(final),
    finalCents: final,
    withoutNationalTaxes: withoutNationalTaxesOf(faceValue, serviceFee),
    serviceFee: serviceFee > 0 ? formatMoney(serviceFee) : null,
  };
}

/** One ticket's figures: its price plus the event's service fee on it (common/pricing.ts unitFinalPrice). */
export function unitPriceFigures(price: number, serviceFeeBps: number): PriceFigures {
  const { faceValue, serviceFee } = unitFinalPrice(price, serviceFeeBps);
  return priceFiguresOf(faceValue, serviceFee);
}
