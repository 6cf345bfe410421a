import { describe, expect, it } from "vitest";
import { holderDocumentLabel, verdictDetail } from "./door";
import { judgeOffline, type DoorManifestEntry } from "./door-manifest";

describe("a named ticket's document at the door (decision 202)", () => {
  it("reads as staff say it: DNI with dots, other documents as typed, nothing without a number", () => {
    expect(holderDocumentLabel("dni", "30123456")).toBe("DNI 30.123.456");
    expect(holderDocumentLabel("dni", "7123456")).toBe("DNI 7.123.456");
    expect(holderDocumentLabel("passport", "AB123456")).toBe("Pasaporte AB123456");
    expect(holderDocumentLabel("cuit", "20301234567")).toBe("CUIT 20301234567");
    expect(holderDocumentLabel(null, "30123456")).toBe("Documento 30123456");
    expect(holderDocumentLabel("dni", null)).toBeNull();
    expect(holderDocumentLabel("dni", " ")).toBeNull();
  });

  it("goes in the verdict's sentence after the name, and in the 'ya ingresó' line", () => {
    const named = { productKind: "ticket" as const, holderName: "Ana Gómez", holderDocument: "DNI 30.123.456", ticketTypeName: "Campo" };
    expect(verdictDetail({ outcome: "admitted", ...named })).toBe("Ana Gómez · DNI 30.123.456 · Campo");
    const now = new Date("2026-12-12T01:30:00Z");
    expect(verdictDetail({ outcome: "already_in", ...named, redeemedAt: "2026-12-12T01:14:00Z", redeemedDoor: "Puerta 2" }, now)).toBe("Ya ingresó a las 22:14 por Puerta 2: Ana Gómez (DNI 30.123.456).");
    expect(verdictDetail({ outcome: "admitted", productKind: "ticket", holderName: "Ana Gómez", ticketTypeName: "Campo" })).toBe("Ana Gómez · Campo");
  });

  it("an offline door shows it from the manifest too", () => {
    const entry: DoorManifestEntry = { k: "k", s: "s", n: "Ana Gómez", doc: "DNI 30.123.456", t: "Campo", d: "date-1", st: "redeemable", at: null, door: null };
    expect(judgeOffline(entry, { doorDateId: "date-1", dates: { "date-1": "2026-12-12T00:00:00Z" } })).toMatchObject({ outcome: "admitted", holderName: "Ana Gómez", holderDocument: "DNI 30.123.456" });
    const { doc: _doc, ...plain } = entry;
    expect(judgeOffline(plain, { doorDateId: "date-1", dates: {} })).toMatchObject({ outcome: "admitted", holderDocument: null });
  });
});
