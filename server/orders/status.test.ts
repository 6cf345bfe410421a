import { describe, expect, it } from "vitest";
import { displayStatus } from "./status";

describe("displayStatus (the table in docs/orders.md)", () => {
  it.each([
    ["draft", "pending", "pending"],
    ["billed", "approved", "approved"],
    ["closed", "cancelled", "cancelled"],
    ["expired", "cancelled", "expired"],
    ["billed", "refunded", "refunded"],
    ["orphan", "pending", "orphan"],
    ["billed", "charged_back", "charged_back"],
  ] as const)("%s + %s → %s", (order, billing, expected) => {
    expect(displayStatus(order, billing)).toBe(expected);
  });

  it.each([
    ["draft", "approved"],
    ["draft", "cancelled"],
    ["billed", "pending"],
    ["billed", "cancelled"],
    ["expired", "pending"],
    ["orphan", "approved"],
    ["closed", "refunded"],
    ["draft", null],
    [null, "pending"],
  ] as const)("any other pair (%s + %s) → nothing", (order, billing) => {
    expect(displayStatus(order, billing)).toBeNull();
  });
});
