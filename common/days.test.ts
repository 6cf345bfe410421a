import { describe, expect, it } from "vitest";
import { customFieldAnswer, customFieldError, CHECKOUT_MESSAGES } from "./checkout";
import { parseDateTime } from "./dates";
import { DATE_INPUT_PATTERN, DATE_TIME_INPUT_PATTERN } from "./day-input";
import {
  DATE_RANGE_MESSAGE,
  isDayWithinRange,
  parseDay,
  parseSpanishWallTime,
  parseTime,
  toDateInput,
  toDateTimeInput,
} from "./days";

// As a browser compiles an input's pattern: anchored, with the `v` flag.
const matches = (pattern: string, value: string) => new RegExp(`^(?:${pattern})$`, "v").test(value);

describe("parseDay (the date control: dd/mm/aaaa, or ISO)", () => {
  it("reads day first, with any usual separator or none, and ISO", () => {
    for (const text of ["20/12/2026", " 20/12/2026 ", "20-12-2026", "20.12.2026", "20 12 2026", "20 / 12 / 2026", "20122026", "2026-12-20"]) {
      expect(parseDay(text), text).toBe("2026-12-20");
    }
    expect(parseDay("5/3/2026")).toBe("2026-03-05");
    expect(parseDay("29/02/2028")).toBe("2028-02-29");
  });

  it("refuses what is not a real calendar day, month-first guesses included", () => {
    for (const text of ["", "31/02/2026", "29/02/2027", "12/31/2026", "00/01/2026", "20/12/26", "20/12", "hoy", "2026-13-01", "2026/12/20", "2012202"]) {
      expect(parseDay(text), text).toBeNull();
    }
  });

  it("keeps the range apart: the spec's 1900-01-01 to 2099-12-31", () => {
    expect(isDayWithinRange(parseDay("01/01/1900")!)).toBe(true);
    expect(isDayWithinRange(parseDay("31/12/2099")!)).toBe(true);
    expect(isDayWithinRange(parseDay("31/12/1899")!)).toBe(false);
    expect(isDayWithinRange(parseDay("01/01/2100")!)).toBe(false);
  });
});

describe("parseTime", () => {
  it("reads the ways people write an hour", () => {
    for (const text of ["21:30", "21.30", "21h30", "2130", "21:30 hs", "21.30hs"]) expect(parseTime(text), text).toEqual([21, 30]);
    expect(parseTime("930")).toEqual([9, 30]);
    expect(parseTime("21")).toEqual([21, 0]);
    expect(parseTime("21 hs")).toEqual([21, 0]);
    expect(parseTime("0:05")).toEqual([0, 5]);
  });
  it("refuses impossible times", () => {
    for (const text of ["24:00", "21:60", "", "21:3", "nueve"]) expect(parseTime(text), text).toBeNull();
  });
});

describe("parseDateTime (the date-time control and ISO, Buenos Aires time)", () => {
  it("reads dd/mm/aaaa hh:mm as Buenos Aires time (UTC-3)", () => {
    const expected = "2026-12-21T00:30:00.000Z";
    for (const text of ["20/12/2026 21:30", "20/12/2026, 21:30", "20-12-2026 21.30", "20/12/2026 21:30 hs", "20122026 2130", "201220262130", " 20/12/2026   21:30 "]) {
      expect(parseDateTime(text)?.toISOString(), text).toBe(expected);
    }
    expect(parseDateTime("1/3/2027 9")?.toISOString()).toBe("2027-03-01T12:00:00.000Z");
  });

  it("still reads what integrators and old forms send: ISO with an offset and datetime-local", () => {
    expect(parseDateTime("2026-12-20T21:30")?.toISOString()).toBe("2026-12-21T00:30:00.000Z");
    expect(parseDateTime("2026-12-21T00:30:00.000Z")?.toISOString()).toBe("2026-12-21T00:30:00.000Z");
    expect(parseDateTime("2026-12-20T21:30:00-03:00")?.toISOString()).toBe("2026-12-21T00:30:00.000Z");
  });

  it("answers null for a day-first text that names no real day or time, and for nonsense", () => {
    for (const text of ["31/02/2026 21:30", "20/12/2026 25:00", "20/12/2026", "12/31/2026 10:00", "mañana a las 9", ""]) {
      expect(parseDateTime(text), text).toBeNull();
    }
    expect(parseSpanishWallTime("2026-12-20T21:30")).toBeUndefined();
  });
});

describe("what the controls show", () => {
  it("a saved day or instant as dd/mm/aaaa [hh:mm], Buenos Aires time; typed text as it came", () => {
    expect(toDateInput("2026-12-20")).toBe("20/12/2026");
    expect(toDateInput(new Date("2026-12-21T00:30:00Z"))).toBe("20/12/2026");
    expect(toDateInput("20/12/2026")).toBe("20/12/2026");
    expect(toDateInput("cualquier cosa")).toBe("cualquier cosa");
    expect(toDateInput(null)).toBe("");
    expect(toDateTimeInput(new Date("2026-12-21T00:30:00Z"))).toBe("20/12/2026 21:30");
    expect(toDateTimeInput("2026-12-21T00:30:00.000Z")).toBe("20/12/2026 21:30");
    expect(toDateTimeInput("2026-12-20T21:30")).toBe("20/12/2026 21:30");
    expect(toDateTimeInput("20/12/2026 9")).toBe("20/12/2026 9");
    expect(toDateTimeInput(undefined)).toBe("");
  });

  it("what they show reads back to the same value", () => {
    const at = new Date("2031-07-09T13:05:00Z");
    expect(parseDateTime(toDateTimeInput(at))?.toISOString()).toBe(at.toISOString());
    expect(parseDay(toDateInput("1900-01-01"))).toBe("1900-01-01");
  });

  it("the patterns (as a browser compiles them) let through every shape the server reads", () => {
    for (const text of ["20/12/2026", "5/3/2026", "20-12-2026", "20.12.2026", "20 12 2026", "20122026", "2026-12-20"]) expect(matches(DATE_INPUT_PATTERN, text), text).toBe(true);
    for (const text of ["hoy", "20/12/2026 21:30", "dd/mm/aaaa"]) expect(matches(DATE_INPUT_PATTERN, text), text).toBe(false);
    for (const text of ["20/12/2026 21:30", "20/12/2026, 21:30", "20-12-2026 21.30", "20/12/2026 21 hs", "20122026 2130", "201220262130", "2026-12-20T21:30"]) {
      expect(matches(DATE_TIME_INPUT_PATTERN, text), text).toBe(true);
    }
    for (const text of ["mañana", "20/12/2026 a las 9"]) expect(matches(DATE_TIME_INPUT_PATTERN, text), text).toBe(false);
  });
});

describe("custom date answers of the payer form", () => {
  const field = { kind: "date" as const, options: [], required: true };
  it("take dd/mm/aaaa or ISO, inside the range, and are kept as yyyy-MM-dd", () => {
    expect(customFieldError(field, "07/05/1990")).toBeNull();
    expect(customFieldError(field, "1990-05-07")).toBeNull();
    expect(customFieldAnswer(field, " 07/05/1990 ")).toBe("1990-05-07");
    expect(customFieldAnswer(field, "1990-05-07")).toBe("1990-05-07");
    expect(customFieldError(field, "31/02/1990")).toBe(CHECKOUT_MESSAGES.date);
    expect(customFieldError(field, "01/01/1850")).toBe(DATE_RANGE_MESSAGE);
    expect(customFieldAnswer({ kind: "text" }, " 07/05/1990 ")).toBe("07/05/1990");
  });
});
