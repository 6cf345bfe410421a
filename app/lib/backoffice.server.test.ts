import { describe, expect, it } from "vitest";
import { data, redirect } from "@remix-run/node";
import { NotFound } from "#server/errors";
import { capabilitiesOf, failedReply, formToObject, removeRow, renumberRows, rowIndexes } from "./backoffice.server";

describe("formToObject", () => {
  it("turns the form's names into the domain's nested input", () => {
    expect(
      formToObject({
        name: "Fiesta",
        "dates[0].startsAt": "2030-01-01T21:00",
        "dates[1].startsAt": "2030-01-02T21:00",
        "ticketTypes[0].price": "1.500,50",
        "venue.city": "Rosario",
      }),
    ).toEqual({
      name: "Fiesta",
      dates: [{ startsAt: "2030-01-01T21:00" }, { startsAt: "2030-01-02T21:00" }],
      ticketTypes: [{ price: "1.500,50" }],
      venue: { city: "Rosario" },
    });
  });

  it("closes gaps in rows and ignores names that could reach the prototype", () => {
    const out = formToObject({ "dates[0].a": "x", "dates[3].a": "y", "__proto__.polluted": "yes", "constructor.prototype.x": "1" });
    expect(out).toEqual({ dates: [{ a: "x" }, { a: "y" }] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("formToObject with a name used both as a field and as a group", () => {
  it("keeps the group, whichever came first, instead of crashing on a string (found by tests/contract/form-fuzz.test.ts)", () => {
    expect(formToObject({ intent: "save", "intent[1].price": "10" })).toEqual({ intent: [{ price: "10" }] });
    expect(formToObject({ "intent[1].price": "10", intent: "save" })).toEqual({ intent: [{ price: "10" }] });
    expect(formToObject({ "venue.city": "Rosario", venue: "x", "venue.city.name": "y" })).toEqual({ venue: { city: { name: "y" } } });
  });
});

describe("failedReply", () => {
  const thrown = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    return null;
  };

  it("lets a page already decided (the 404 an inner failedReply threw, a redirect) through instead of a 500 (found by tests/contract/form-fuzz.test.ts)", () => {
    const page = thrown(() => failedReply(new NotFound("No encontramos la fecha."), {})) as { type: string; init: ResponseInit };
    expect(page.init.status).toBe(404);
    // The outer catch of an action gets that same thrown page.
    expect(thrown(() => failedReply(page, {}))).toBe(page);
    const away = redirect("/organizacion");
    expect(thrown(() => failedReply(away, {}))).toBe(away);
    const forbidden = data({ message: "No" }, { status: 403 });
    expect(thrown(() => failedReply(forbidden, {}))).toBe(forbidden);
  });
});

describe("formToObject with a hostile row index", () => {
  it("drops a row past the limit instead of allocating an array that long (2 s of CPU for 10^8 before the limit)", () => {
    const started = performance.now();
    const parsed = formToObject({ code: "HOLA", "ticketTypeIds[100000000]": "x", "ticketTypeIds[4294967294]": "z", "ticketTypeIds[3]": "y" });
    expect(parsed).toEqual({ code: "HOLA", ticketTypeIds: ["y"] });
    // Generous bound: the point is milliseconds against seconds.
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("rows", () => {
  const values = { "dates[0].s": "a", "dates[1].s": "b", "dates[2].s": "c", name: "n" };

  it("removes one row and renumbers the following ones", () => {
    expect(removeRow(values, "dates", 1)).toEqual({ "dates[0].s": "a", "dates[1].s": "c", name: "n" });
    expect(rowIndexes(removeRow(values, "dates", 0), "dates")).toEqual([0, 1]);
  });

  it("renumbers rows the browser sent with gaps", () => {
    expect(renumberRows({ "fields[2].label": "x", "fields[5].label": "y" }, "fields")).toEqual({ "fields[0].label": "x", "fields[1].label": "y" });
  });
});

describe("capabilitiesOf", () => {
  it("follows the domain's table per membership role", () => {
    expect(capabilitiesOf("owner")).toMatchObject({ "organization:manage": true, "events:manage": true, "door:operate": true });
    expect(capabilitiesOf("operator")).toMatchObject({ "organization:manage": false, "events:manage": true, "sales:read": true });
    expect(capabilitiesOf("staff")).toMatchObject({ "events:manage": false, "sales:read": false, "door:operate": true });
    expect(Object.values(capabilitiesOf(null)).every((v) => v === false)).toBe(true);
    expect(Object.values(capabilitiesOf("platform-admin")).every((v) => v === true)).toBe(true);
  });
});
