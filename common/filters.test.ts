import { describe, expect, it } from "vitest";
import {
  defaultFilters,
  filterQuery,
  filtersReducer,
  fromDateStart,
  fromSearchParams,
  lastWeekDate,
  toSearchParams,
  type FilterState,
} from "./filters";

// 2026-03-10 01:30 UTC is still 2026-03-09 22:30 in Buenos Aires (UTC-3).
const NOW = new Date("2026-03-10T01:30:00Z");

const picked: FilterState = {
  organizationId: "org-1",
  userId: "user-1",
  eventId: "event-1",
  eventDateId: "date-1",
  opts: { fromDate: "2026-03-02" },
};

describe("lastWeekDate", () => {
  it("is seven days before today in Buenos Aires, not in UTC", () => {
    expect(lastWeekDate(NOW)).toBe("2026-03-02");
    expect(lastWeekDate(new Date("2026-03-10T03:00:00Z"))).toBe("2026-03-03");
  });
});

describe("filtersReducer", () => {
  it("clear goes back to the defaults (nothing picked, window from seven days ago)", () => {
    const next = filtersReducer({ ...picked, opts: { fromDate: "" } }, { type: "clear", now: NOW });
    expect(next).toEqual({ organizationId: "", userId: "", eventId: "", eventDateId: "", opts: { fromDate: "2026-03-02" } });
    expect(next).toEqual(defaultFilters(NOW));
  });

  it("set organization sets only its id", () => {
    expect(filtersReducer(picked, { type: "setOrganization", organizationId: "org-2" })).toEqual({ ...picked, organizationId: "org-2" });
  });

  it("set user sets only its id", () => {
    expect(filtersReducer(picked, { type: "setUser", userId: "user-2" })).toEqual({ ...picked, userId: "user-2" });
  });

  it("set event sets only its id", () => {
    expect(filtersReducer(picked, { type: "setEvent", eventId: "event-2" })).toEqual({ ...picked, eventId: "event-2" });
  });

  it("set event date sets only its id", () => {
    expect(filtersReducer(picked, { type: "setEventDate", eventDateId: "date-2" })).toEqual({ ...picked, eventDateId: "date-2" });
  });

  it("toggle last week flips fromDate between empty and seven days ago", () => {
    const cleared = filtersReducer(picked, { type: "toggleLastWeek", now: NOW });
    expect(cleared.opts.fromDate).toBe("");
    expect(cleared.eventId).toBe("event-1");
    const again = filtersReducer(cleared, { type: "toggleLastWeek", now: NOW });
    expect(again.opts.fromDate).toBe("2026-03-02");
    // Whatever date was there, toggling from a set date empties it.
    expect(filtersReducer({ ...picked, opts: { fromDate: "2020-01-01" } }, { type: "toggleLastWeek", now: NOW }).opts.fromDate).toBe("");
  });

  it("set values merges the given fields and keeps the rest (opts included)", () => {
    const next = filtersReducer(picked, { type: "setValues", values: { eventId: "event-9", eventDateId: "" } });
    expect(next).toEqual({ ...picked, eventId: "event-9", eventDateId: "" });
    // opts cannot be replaced through set values.
    const sneaky = filtersReducer(picked, { type: "setValues", values: { opts: { fromDate: "" } } as never });
    expect(sneaky.opts.fromDate).toBe("2026-03-02");
  });

  it("set opts merges opts", () => {
    expect(filtersReducer(picked, { type: "setOpts", opts: { fromDate: "2026-01-01" } })).toEqual({ ...picked, opts: { fromDate: "2026-01-01" } });
    expect(filtersReducer(picked, { type: "setOpts", opts: {} })).toEqual(picked);
  });

  it("never mutates the state it gets", () => {
    const frozen = Object.freeze({ ...picked, opts: Object.freeze({ ...picked.opts }) });
    expect(() => filtersReducer(frozen, { type: "toggleLastWeek", now: NOW })).not.toThrow();
    expect(() => filtersReducer(frozen, { type: "setOpts", opts: { fromDate: "" } })).not.toThrow();
    expect(frozen.opts.fromDate).toBe("2026-03-02");
  });
});

describe("URL query", () => {
  it("round-trips every field", () => {
    const state = { ...picked, opts: { fromDate: "2026-01-15" } };
    const params = toSearchParams(state, NOW);
    expect(Object.fromEntries(params)).toEqual({
      organizationId: "org-1",
      userId: "user-1",
      eventId: "event-1",
      eventDateId: "date-1",
      fromDate: "2026-01-15",
    });
    expect(fromSearchParams(params, NOW)).toEqual(state);
  });

  it("keeps links clean: empty ids and the default window are left out", () => {
    expect(toSearchParams(defaultFilters(NOW), NOW).toString()).toBe("");
    expect(filterQuery(defaultFilters(NOW), NOW)).toBe("");
    expect(filterQuery({ ...defaultFilters(NOW), eventId: "e1" }, NOW, { tab: "x" })).toBe("?eventId=e1&tab=x");
  });

  it("a cleared window survives the trip as fromDate= (no lower bound)", () => {
    const all = filtersReducer(defaultFilters(NOW), { type: "toggleLastWeek", now: NOW });
    const params = toSearchParams(all, NOW);
    expect(params.toString()).toBe("fromDate=");
    expect(fromSearchParams(params, NOW).opts.fromDate).toBe("");
  });

  it("without fromDate in the URL the window is the last week of the day the page is opened", () => {
    expect(fromSearchParams(new URLSearchParams(""), NOW).opts.fromDate).toBe("2026-03-02");
    expect(fromSearchParams(new URLSearchParams(""), new Date("2026-04-01T15:00:00Z")).opts.fromDate).toBe("2026-03-25");
  });

  it("drops malformed values", () => {
    const state = fromSearchParams(new URLSearchParams("organizationId=<script>&eventId=%20&fromDate=ayer"), NOW);
    expect(state).toEqual(defaultFilters(NOW));
    expect(fromSearchParams(new URLSearchParams("fromDate=2026-02-30"), NOW).opts.fromDate).toBe("2026-03-02");
  });
});

describe("fromDateStart", () => {
  it("is midnight in Buenos Aires", () => {
    expect(fromDateStart("2026-03-02")?.toISOString()).toBe("2026-03-02T03:00:00.000Z");
    expect(fromDateStart("")).toBeNull();
  });
});
