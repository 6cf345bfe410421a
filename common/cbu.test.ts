import { describe, expect, it } from "vitest";
import { bankNameOf, buildCbu, formatCbu, isCvu, isValidAlias, isValidCbu, normalizeCbu } from "./cbu";

describe("CBU / CVU check digits", () => {
  it("accepts real-shaped keys with both check digits right", () => {
    // Banco Macro, the example of BCRA's published algorithm.
    expect(isValidCbu("2850590940090418135201")).toBe(true);
    expect(isValidCbu("28505909 40090418135201")).toBe(true);
    expect(isValidCbu("285-0590-9-4009041813520-1")).toBe(true);
    // A Mercado Pago CVU (provider 0003).
    const cvu = buildCbu("000", "0003", "1000012345678");
    expect(cvu).toHaveLength(22);
    expect(isValidCbu(cvu)).toBe(true);
    expect(isCvu(cvu)).toBe(true);
    expect(isCvu("2850590940090418135201")).toBe(false);
  });

  it("refuses a wrong first or second check digit, a wrong length and letters", () => {
    expect(isValidCbu("2850590840090418135201")).toBe(false); // block 1 digit changed
    expect(isValidCbu("2850590940090418135202")).toBe(false); // block 2 digit changed
    expect(isValidCbu("2850590940090418135210")).toBe(false); // two digits swapped
    expect(isValidCbu("285059094009041813520")).toBe(false);
    expect(isValidCbu("28505909400904181352011")).toBe(false);
    expect(isValidCbu("28505909400904181352A1")).toBe(false);
    expect(isValidCbu("")).toBe(false);
  });

  it("names the bank from its code, and the provider of a CVU", () => {
    expect(bankNameOf("2850590940090418135201")).toBe("Banco Macro");
    expect(bankNameOf(buildCbu("011", "0123", "4567890123456"))).toBe("Banco de la Nación Argentina");
    expect(bankNameOf(buildCbu("000", "0003", "1000012345678"))).toBe("Mercado Pago");
    expect(bankNameOf(buildCbu("999", "0001", "1"))).toBeNull();
    expect(bankNameOf("2850590940090418135202")).toBeNull();
  });

  it("formats and normalizes", () => {
    expect(normalizeCbu(" 2850590 9-40090418135201 ")).toBe("2850590940090418135201");
    expect(formatCbu("2850590940090418135201")).toBe("28505909 40090418135201");
  });
});

describe("alias", () => {
  it("takes 6 to 20 letters, digits, dots and hyphens", () => {
    for (const alias of ["FERIA.VINOS.MP", "casa-1", "abcdef", "A1.B2-C3.D4.E5.F6.G7"]) expect(isValidAlias(alias)).toBe(true);
    for (const alias of ["abcde", "A1.B2-C3.D4.E5.F6.G7X", "feria vinos", "año.nuevo", "feria_vinos", "hola!!"]) expect(isValidAlias(alias)).toBe(false);
  });
});
