import { describe, expect, it } from "vitest";
import { finalPrice, ivaInServiceFee, priceDisplay, priceWithoutNationalTaxes, withoutNationalTaxesLine } from "./tax-display";
import { purchaseTotals } from "./pricing";
import { formatMoney } from "./money";

describe("tax display", () => {
  it("the final price is face value plus the service charge, as purchaseTotals charges it", () => {
    const totals = purchaseTotals([{ ticketTypeId: "a", qty: 2, unitPrice: 1_000_000 }], 1_000);
    expect(finalPrice(totals.subtotal - totals.discount, totals.serviceFee)).toBe(totals.total);
    expect(totals.total).toBe(2_200_000);
  });

  it("takes the 21 % IVA included in the service charge out when the platform is Responsable Inscripto", () => {
    // $ 2.000 fee with IVA inside: $ 347,11 of IVA (2000 − 2000 / 1,21).
    expect(ivaInServiceFee(200_000, "RESPONSABLE_INSCRIPTO")).toBe(34_711);
    expect(priceWithoutNationalTaxes(2_000_000, 200_000, "RESPONSABLE_INSCRIPTO")).toBe(2_165_289);
    expect(priceDisplay(2_000_000, 200_000, "RESPONSABLE_INSCRIPTO")).toEqual({ final: 2_200_000, withoutNationalTaxes: 2_165_289 });
  });

  it("has nothing to take out for a Monotributo or exempt platform, or without a fee", () => {
    for (const condition of ["MONOTRIBUTO", "EXENTO"] as const) {
      expect(ivaInServiceFee(200_000, condition)).toBe(0);
      expect(priceDisplay(2_000_000, 200_000, condition)).toEqual({ final: 2_200_000, withoutNationalTaxes: null });
    }
    expect(priceDisplay(2_000_000, 0, "RESPONSABLE_INSCRIPTO")).toEqual({ final: 2_000_000, withoutNationalTaxes: null });
  });

  it("says the line with the law's words", () => {
    expect(withoutNationalTaxesLine(formatMoney(2_165_289))).toMatch(/^Precio sin impuestos nacionales: \$\s21\.652,89$/);
  });
});
