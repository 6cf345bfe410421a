import { describe, expect, it } from "vitest";
import { checkPassColors, contrastRatio, normalizeHexColor } from "./pass-colors";

describe("pass colours (WCAG AA)", () => {
  it("measures contrast as WCAG does: black on white is 21:1, a colour on itself 1:1", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#14b8a6", "#14b8a6")).toBe(1);
    // Tribuna's teal 700 on white: the pair the light theme uses for links.
    expect(contrastRatio("#0f766e", "#ffffff")).toBeGreaterThan(4.5);
  });

  it("accepts both empty (Tribuna's colours) or a readable pair, normalized; refuses one alone, a bad format or poor contrast", () => {
    expect(checkPassColors("", " ")).toEqual({ ok: true, colors: null });
    expect(checkPassColors("#1A2B3C", "ffffff")).toEqual({ ok: true, colors: { background: "#1a2b3c", text: "#ffffff" } });
    expect(checkPassColors("#1a2b3c", "")).toMatchObject({ ok: false, field: "passTextColor" });
    expect(checkPassColors("", "#ffffff")).toMatchObject({ ok: false, field: "passBackgroundColor" });
    expect(checkPassColors("#fff", "#000000")).toMatchObject({ ok: false, field: "passBackgroundColor", message: expect.stringContaining("#rrggbb") });
    // #767676 on white is 4.54:1 (passes); #777777 is 4.48:1 (fails).
    expect(checkPassColors("#ffffff", "#767676").ok).toBe(true);
    expect(checkPassColors("#ffffff", "#777777")).toMatchObject({ ok: false, field: "passTextColor", message: expect.stringContaining("4,48:1") });
    expect(normalizeHexColor("azul")).toBeNull();
  });
});
