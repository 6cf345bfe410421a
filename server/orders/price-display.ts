import { formatMoney } from "#common/money";
import { priceDisplay } from "#common/tax-display";
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
