import { describe, expect, it } from "vitest";
import { qrPayloadFor } from "#server/tickets/qr";
import { sha1, throwawayPassCertificates, unzip, verifyPassSignature } from "#tests/support/wallet";
import { buildApplePass } from "./apple-pass";
import type { AppleWalletConfig } from "./config";
import type { WalletPassData } from "./pass-data";
import { passAuthToken } from "./serial";

const certs = throwawayPassCertificates();
const config: AppleWalletConfig = { teamId: "ABCDE12345", passTypeId: "pass.ar.tribuna.test", signerCert: certs.signerCert, signerKey: certs.signerKey, signerKeyPassphrase: certs.passphrase, wwdr: certs.wwdr };

const data: WalletPassData = {
  serial: "6f1c2b9e-0c1d-4c7a-9a51-2f0b7d3e4a10-0123456789abcdef",
  ticket: { id: "6f1c2b9e-0c1d-4c7a-9a51-2f0b7d3e4a10", code: "ABCD1234EFGH", ticketTypeName: "Campo", holderName: "Sofía Peña", holderDocument: "DNI 30.123.456", seat: null },
  // 21:00 in Buenos Aires is 00:00 UTC the next day: the pass must say the local day and time.
  event: { id: "e1", name: "Los Piojos en La Plata", venueName: "Estadio Único", venueAddress: "Av. 32 y 25", city: "La Plata", colors: null, location: null, startsAt: new Date("2026-12-13T00:00:00Z"), endsAt: new Date("2026-12-13T04:00:00Z"), doorsAt: new Date("2026-12-12T22:00:00Z") },
  date: { id: "d1", first: true, startsAt: new Date("2026-12-13T00:00:00Z"), endsAt: new Date("2026-12-13T04:00:00Z"), doorsAt: new Date("2026-12-12T22:00:00Z") },
  orderCode: "TRB-7K3Q",
  voided: false,
  live: null,
};

function fieldsOf(pass: Record<string, unknown>) {
  const ticket = pass.eventTicket as Record<string, { key: string; value: string; label: string }[]>;
  return Object.fromEntries(["primaryFields", "secondaryFields", "auxiliaryFields", "backFields"].flatMap((g) => (ticket[g] ?? []).map((f) => [f.key, f.value])));
}

describe("buildApplePass", () => {
  it("makes a signed eventTicket pass: every file matches the manifest and the signature over it verifies against the CA", async () => {
    const files = unzip(await buildApplePass(config, data));
    expect([...files.keys()]).toEqual(expect.arrayContaining(["pass.json", "manifest.json", "signature", "icon.png", "icon@2x.png", "logo.png"]));
    const manifest = JSON.parse(files.get("manifest.json")!.toString("utf8")) as Record<string, string>;
    for (const [name, content] of files) {
      if (name === "manifest.json" || name === "signature") continue;
      expect(manifest[name], name).toBe(sha1(content));
    }
    expect(Object.keys(manifest).sort()).toEqual([...files.keys()].filter((n) => n !== "manifest.json" && n !== "signature").sort());
    expect(() => verifyPassSignature(files, certs.wwdr)).not.toThrow();

    // A manifest changed after signing no longer verifies.
    const tampered = new Map(files);
    tampered.set("manifest.json", Buffer.from(files.get("manifest.json")!.toString("utf8").replace(/"pass.json":"[0-9a-f]+"/, '"pass.json":"0000"')));
    expect(() => verifyPassSignature(tampered, certs.wwdr)).toThrow();
    // And another CA does not vouch for this signer.
    expect(() => verifyPassSignature(files, throwawayPassCertificates().wwdr)).toThrow();
  });

  it("pass.json carries the event in Buenos Aires time, the ticket type, the named holder, the static QR and the web service", async () => {
    const files = unzip(await buildApplePass(config, data));
    const pass = JSON.parse(files.get("pass.json")!.toString("utf8")) as Record<string, unknown>;
    expect(pass).toMatchObject({ formatVersion: 1, passTypeIdentifier: "pass.ar.tribuna.test", teamIdentifier: "ABCDE12345", serialNumber: data.serial, authenticationToken: passAuthToken(data.serial) });
    expect(String(pass.webServiceURL)).toMatch(/\/api\/wallet\/apple$/);
    expect(fieldsOf(pass)).toMatchObject({ event: "Los Piojos en La Plata", date: "Sábado 12 de diciembre de 2026", time: "21:00 h", venue: "Estadio Único", type: "Campo", holder: "Sofía Peña · DNI 30.123.456" });
    expect(pass.barcodes).toEqual([expect.objectContaining({ format: "PKBarcodeFormatQR", message: qrPayloadFor("ABCD1234EFGH") })]);
    expect(new Date(String(pass.relevantDate)).toISOString()).toBe("2026-12-12T22:00:00.000Z");
    expect(pass.voided).toBeFalsy();
  });

  it("a ticket that is not named shows no holder; a voided pass has no QR", async () => {
    const unnamed = JSON.parse(unzip(await buildApplePass(config, { ...data, ticket: { ...data.ticket, holderDocument: null } })).get("pass.json")!.toString("utf8")) as Record<string, unknown>;
    expect(fieldsOf(unnamed).holder).toBeUndefined();
    const voided = JSON.parse(unzip(await buildApplePass(config, { ...data, voided: true })).get("pass.json")!.toString("utf8")) as Record<string, unknown>;
    expect(voided.voided).toBe(true);
    expect(voided.barcodes ?? []).toEqual([]);
    expect(fieldsOf(voided).status).toMatch(/^Anulada/);
  });
});

describe("buildApplePass, reserved seating", () => {
  const seated: WalletPassData = { ...data, ticket: { ...data.ticket, seat: { section: "Platea", row: "F", number: "12", label: "Platea · Fila F · Asiento 12" } } };

  it("a seated ticket's pass shows the seat, with Apple's seat semantics; a general-admission pass has no seat field", async () => {
    const pass = JSON.parse(unzip(await buildApplePass(config, seated)).get("pass.json")!.toString("utf8")) as Record<string, unknown>;
    expect(fieldsOf(pass).seat).toBe("Platea · Fila F · Asiento 12");
    const field = (pass.eventTicket as { auxiliaryFields: { key: string; label: string; semantics?: unknown }[] }).auxiliaryFields.find((f) => f.key === "seat");
    expect(field).toMatchObject({ label: "Ubicación", semantics: { seats: [{ seatSection: "Platea", seatRow: "F", seatNumber: "12" }] } });

    const general = JSON.parse(unzip(await buildApplePass(config, data)).get("pass.json")!.toString("utf8")) as Record<string, unknown>;
    expect(fieldsOf(general).seat).toBeUndefined();
  });
});
