/**
 * How a price is shown to a buyer (docs/prices.md, decision 214): the final
 * price (face value + service charge, everything paid) first, and beside it
 * the price without national taxes (Ley 27.743). Pure and browser-safe;
 * the platform's IVA condition comes from the server's environment.
 * Amounts in integer centavos.
 */

export const PLATFORM_IVA_CONDITIONS = ["RESPONSABLE_INSCRIPTO", "MONOTRIBUTO", "EXENTO"] as const;
export type PlatformIvaCondition = (typeof PLATFORM_IVA_CONDITIONS)[number];

/** The IVA rate on Tribuna's service charge when it is Responsable Inscripto: 21 % (general rate). */
export const IVA_RATE_BPS = 2_100;

/** The label Ley 27.743 asks for, word for word. */
export const WITHOUT_NATIONAL_TAXES_LABEL = "Precio sin impuestos nacionales";

/** What the buyer pays: face value (after any discount) plus the service charge. */
export function finalPrice(faceValue: number, serviceFee: number): number {
  return faceValue + serviceFee;
}

/**
 * The IVA inside a service charge that already includes it: fee − fee / 1,21,
 * rounded to the centavo. Zero unless the platform is Responsable Inscripto
 * (a Monotributo or exempt platform charges no IVA it can separate).
 */
export function ivaInServiceFee(serviceFee: number, condition: PlatformIvaCondition): number {
  if (condition !== "RESPONSABLE_INSCRIPTO" || serviceFee <= 0) return 0;
  return Math.round((serviceFee * IVA_RATE_BPS) / (10_000 + IVA_RATE_BPS));
}

/**
 * The price without national taxes: the final price less the IVA inside the
 * service charge. The face value is taken as carrying no national tax: the
 * admission to a show is IVA-exempt (Ley 23.349 art. 7 inc. h ap. 10) and
 * Tribuna collects it on the organizer's behalf (decision 214).
 */
export function priceWithoutNationalTaxes(faceValue: number, serviceFee: number, condition: PlatformIvaCondition): number {
  return finalPrice(faceValue, serviceFee) - ivaInServiceFee(serviceFee, condition);
}

export interface PriceDisplay {
  /** Everything paid, the first and most prominent figure. */
  final: number;
  /** Null when it equals the final price (nothing national to take out): no line is shown then. */
  withoutNationalTaxes: number | null;
}

/** The figures a buyer page or email shows for a price, in the order it shows them. */
export function priceDisplay(faceValue: number, serviceFee: number, condition: PlatformIvaCondition): PriceDisplay {
  const final = finalPrice(faceValue, serviceFee);
  const without = priceWithoutNationalTaxes(faceValue, serviceFee, condition);
  return { final, withoutNationalTaxes: without === final ? null : without };
}

/** "Precio sin impuestos nacionales: $ 10.826,45", given the amount already formatted. */
export function withoutNationalTaxesLine(formatted: string): string {
  return `${WITHOUT_NATIONAL_TAXES_LABEL}: ${formatted}`;
}
