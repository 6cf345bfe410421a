import { describe, expect, it } from "vitest";
import { buyerMethodOf, HOLD_MINUTES, holdDuration, serviceFeeOf, serviceFeeRateLabel } from "./pricing";

describe("holds in words", () => {
  it("say the domain's hold times the way pages say them", () => {
    expect(HOLD_MINUTES).toEqual({ MERCADO_PAGO: 15, BANK_TRANSFER: 2880 });
    expect(holdDuration("MERCADO_PAGO")).toBe("15 minutos");
    expect(holdDuration("BANK_TRANSFER")).toBe("48 horas");
  });
});

describe("service fee", () => {
  it("is rounded to the centavo on what is paid", () => {
    expect(serviceFeeOf(1_000_000, 1_000)).toBe(100_000);
    expect(serviceFeeOf(333, 1_000)).toBe(33);
    expect(serviceFeeOf(0, 1_000)).toBe(0);
  });

  it("reads its rate the Argentine way, and has none without a fee", () => {
    expect(serviceFeeRateLabel(1_000)).toBe("10 %");
    expect(serviceFeeRateLabel(750)).toBe("7,5 %");
    expect(serviceFeeRateLabel(1_234)).toBe("12,34 %");
    expect(serviceFeeRateLabel(0)).toBeNull();
  });
});

describe("how an order is paid", () => {
  it("by the accounts of its ticket types: transfer only when every one is a bank account", () => {
    expect(buyerMethodOf(["BankAccount", "BankAccount"])).toBe("BANK_TRANSFER");
    expect(buyerMethodOf(["MercadoPagoAccount"])).toBe("MERCADO_PAGO");
    expect(buyerMethodOf(["BankAccount", "MercadoPagoAccount"])).toBe("MERCADO_PAGO");
    expect(buyerMethodOf([])).toBe("MERCADO_PAGO");
  });
});
