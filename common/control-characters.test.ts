import { describe, expect, it } from "vitest";
import { findControlCharacters } from "./control-characters";

describe("findControlCharacters (GraphQL variables)", () => {
  it("names the first field with a control character by its dotted path, arrays by index", () => {
    expect(findControlCharacters({ input: { payer: { firstName: "Sofía", email: "sofi\u0000@example.com" } } })).toBe("input.payer.email");
    expect(findControlCharacters({ items: [{ name: "ok" }, { name: "mal\u0007" }] })).toBe("items.1.name");
    expect(findControlCharacters({ input: { "cla\u0001ve": "valor" } })).toBe("input.cla\u0001ve");
    expect(findControlCharacters("suelto\u007F", ["nota"])).toBe("nota");
  });

  it("lets line breaks and tabs through (multi-line fields decide later) and finds nothing in clean input", () => {
    expect(findControlCharacters({ input: { message: "Hola,\r\n\tsegunda línea", qty: 2, ok: true, nothing: null } })).toBeNull();
    expect(findControlCharacters({})).toBeNull();
  });

  it("stops walking past 32 levels", () => {
    let deep: unknown = "mal\u0000";
    for (let i = 0; i < 40; i++) deep = { a: deep };
    expect(findControlCharacters(deep)).toBeNull();
    let shallow: unknown = "mal\u0000";
    for (let i = 0; i < 5; i++) shallow = { a: shallow };
    expect(findControlCharacters(shallow)).toBe("a.a.a.a.a");
  });
});
