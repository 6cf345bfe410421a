import { describe, expect, it } from "vitest";
import { formatEventDay, formatEventStart } from "./dates";

describe("formatEventStart: an event's date line", () => {
  it("says the day with its year and the Buenos Aires time once, with «h»", () => {
    // 01:00 UTC on the 29th is 22:00 of the 28th in Buenos Aires.
    expect(formatEventStart(new Date("2026-11-29T01:00:00Z"))).toBe("Sábado 28 de noviembre de 2026 · 22:00 h");
    expect(formatEventStart("2027-01-04T23:30:00-03:00")).toBe("Lunes 4 de enero de 2027 · 23:30 h");
    expect(formatEventDay(new Date("2026-11-29T01:00:00Z"))).toBe("Sábado 28 de noviembre de 2026");
  });

  it("never the old «22:00 - 28/11/2026 hs»", () => {
    const line = formatEventStart(new Date("2026-11-29T01:00:00Z"));
    expect(line).not.toMatch(/hs|\d\d\/\d\d\/\d{4}/);
  });
});
