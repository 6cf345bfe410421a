import { describe, expect, it } from "vitest";
import { parseCatalogueSearch, SEARCH_MESSAGES } from "./catalogue.server";

const search = (query: string) => parseCatalogueSearch(new URL(`http://localhost/?${query}`));

describe("the home search's dates", () => {
  it("reads what the form sends (dd/mm/aaaa, or only the digits) and the links the app builds (yyyy-MM-dd), as Buenos Aires days", () => {
    for (const query of ["desde=20%2F12%2F2026&hasta=31%2F12%2F2026", "desde=20122026&hasta=31122026", "desde=2026-12-20&hasta=2026-12-31"]) {
      const { values, filter, notices } = search(query);
      expect(values, query).toMatchObject({ desde: "2026-12-20", hasta: "2026-12-31" });
      expect(filter.from?.toISOString(), query).toBe("2026-12-20T03:00:00.000Z");
      expect(filter.to?.toISOString(), query).toBe("2027-01-01T02:59:59.999Z");
      expect(notices, query).toEqual([]);
    }
  });

  it("searches without a date it cannot read or outside 1900–2099, and says so", () => {
    const { values, filter, notices } = search("desde=31%2F02%2F2026&hasta=01%2F01%2F2100");
    expect(values).toMatchObject({ desde: "", hasta: "" });
    expect(filter).toMatchObject({ from: null, to: null });
    expect(notices).toEqual([SEARCH_MESSAGES.badDay("Desde"), SEARCH_MESSAGES.badDay("Hasta")]);
    expect(search("desde=&hasta=").notices).toEqual([]);
  });

  it("a «Hasta» before «Desde» is dropped with the notice it had", () => {
    const { values, notices } = search("desde=20%2F12%2F2026&hasta=19%2F12%2F2026");
    expect(values).toMatchObject({ desde: "2026-12-20", hasta: "" });
    expect(notices).toEqual([SEARCH_MESSAGES.badRange]);
  });
});
