import { describe, expect, it } from "vitest";
import { parseSavedCart, restoreSavedCart, savedCartCookieName, toSavedCart, type CartTicket } from "./saved-cart";

const base: CartTicket = { id: "general", name: "General", available: 10, hidden: false, paymentMethod: "MercadoPagoAccount", presale: false, accessCode: null };
const ticket = (over: Partial<CartTicket>): CartTicket => ({ ...base, ...over });

describe("saved cart", () => {
  it("keeps only items with quantity above 0", () => {
    expect(toSavedCart({ items: [{ ticketId: "a", qty: 0 }, { ticketId: "b", qty: 2 }, { ticketId: "c", qty: -1 }] }).items).toEqual([{ ticketId: "b", qty: 2 }]);
  });

  it("keeps a ticket that passes every rule", () => {
    const result = restoreSavedCart({ items: [{ ticketId: "general", qty: 2 }] }, [base], { presaleUnlocked: false });
    expect(result).toEqual({ items: [{ ticketId: "general", qty: 2 }], dropped: [] });
  });

  it.each([
    ["the ticket no longer exists", [], {}, "gone"],
    ["stock is below the saved quantity", [ticket({ available: 1 })], {}, "stock"],
    ["it is hidden", [ticket({ hidden: true })], {}, "hidden"],
    ["its payment method is not the card-wallet one", [ticket({ paymentMethod: "BankAccount" })], {}, "payment-method"],
    ["it is presale and presale is not unlocked", [ticket({ presale: true })], {}, "presale"],
    ["it needs an access code that does not match", [ticket({ accessCode: "VIP2026" })], { accessCode: "otro" }, "access-code"],
  ] as const)("drops the item when %s", (_label, tickets, unlock, reason) => {
    const result = restoreSavedCart({ items: [{ ticketId: "general", qty: 2 }] }, [...tickets], { presaleUnlocked: false, ...unlock });
    expect(result.items).toEqual([]);
    expect(result.dropped).toEqual([expect.objectContaining({ ticketId: "general", reason })]);
  });

  it("compares access codes without caring about case, and keeps presale once unlocked", () => {
    const result = restoreSavedCart(
      { items: [{ ticketId: "general", qty: 1 }] },
      [ticket({ accessCode: "VIP2026", presale: true })],
      { accessCode: "vip2026", presaleUnlocked: true },
    );
    expect(result.dropped).toEqual([]);
  });

  it("treats a tampered cookie as no cart", () => {
    expect(parseSavedCart("{nope")).toBeNull();
    expect(parseSavedCart(JSON.stringify({ items: [{ ticketId: "x", qty: "2" }, { ticketId: "y", qty: 1 }] }))?.items).toEqual([{ ticketId: "y", qty: 1 }]);
  });
});

describe("savedCartCookieName", () => {
  it("keeps a real slug as it is and makes anything else a valid cookie name (found by tests/contract/form-fuzz.test.ts)", () => {
    expect(savedCartCookieName("noche-de-cumbia-2")).toBe("incomplete-saved-order--noche-de-cumbia-2");
    expect(savedCartCookieName("ñandú; Domain=evil.com")).toBe("incomplete-saved-order--_and___Domain_evil.com");
    expect(savedCartCookieName("😀")).toMatch(/^[\x21-\x7e]+$/);
  });
});
