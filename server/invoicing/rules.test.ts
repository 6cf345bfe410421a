import { describe, expect, it } from "vitest";
import { parseEnv, startupProblems } from "#server/env";
import { requestInvoice } from "./invoices";
import { arcaConfigFrom } from "./config";
import { qrUrl, ARCA_QR_URL } from "./qr";
import { amountsFor, DOC_TYPE, isValidCuit, letterFor, RECEIVER_IVA, receiverFor, VOUCHER_TYPE } from "./rules";

const finalConsumer = receiverFor(null, { documentType: "dni", documentNumber: "30.123.456" });

describe("which voucher", () => {
  it("a Responsable Inscripto issues A to an RI or Monotributo with CUIT and B to anyone else; Monotributo and Exento issue C", () => {
    const ri = receiverFor({ cuit: "30712345671", ivaCondition: RECEIVER_IVA.RESPONSABLE_INSCRIPTO }, finalConsumerPayer());
    const mono = receiverFor({ cuit: "20301234565", ivaCondition: RECEIVER_IVA.MONOTRIBUTO }, finalConsumerPayer());
    const exento = receiverFor({ cuit: "30712345671", ivaCondition: RECEIVER_IVA.EXENTO }, finalConsumerPayer());
    expect(letterFor("RESPONSABLE_INSCRIPTO", ri)).toBe("A");
    expect(letterFor("RESPONSABLE_INSCRIPTO", mono)).toBe("A");
    expect(letterFor("RESPONSABLE_INSCRIPTO", exento)).toBe("B");
    expect(letterFor("RESPONSABLE_INSCRIPTO", finalConsumer)).toBe("B");
    for (const issuer of ["MONOTRIBUTO", "EXENTO"] as const) {
      for (const receiver of [ri, mono, exento, finalConsumer]) expect(letterFor(issuer, receiver)).toBe("C");
    }
    expect(VOUCHER_TYPE.A).toEqual({ invoice: 1, credit_note: 3 });
    expect(VOUCHER_TYPE.B).toEqual({ invoice: 6, credit_note: 8 });
    expect(VOUCHER_TYPE.C).toEqual({ invoice: 11, credit_note: 13 });
  });

  it("the receiver: CUIT when given, else the payer's DNI, else an unidentified final consumer", () => {
    expect(finalConsumer).toEqual({ docType: DOC_TYPE.DNI, docNumber: "30123456", ivaCondition: 5 });
    expect(receiverFor(null, { documentType: "pasaporte", documentNumber: "AB123456" })).toEqual({ docType: 99, docNumber: "0", ivaCondition: 5 });
    expect(receiverFor({ cuit: "20301234565", ivaCondition: 6 }, finalConsumerPayer())).toEqual({ docType: 80, docNumber: "20301234565", ivaCondition: 6 });
  });

  it("splits a price with IVA into net and 21 % (summing exactly), and a C carries none", () => {
    for (const total of [1, 99, 12_100, 150_000, 123_457]) {
      const { net, vat } = amountsFor("B", total);
      expect(net + vat).toBe(total);
      expect(Math.abs(vat - net * 0.21)).toBeLessThanOrEqual(1);
    }
    expect(amountsFor("A", 12_100)).toEqual({ total: 12_100, net: 10_000, vat: 2_100 });
    expect(amountsFor("C", 12_100)).toEqual({ total: 12_100, net: 12_100, vat: 0 });
  });

  it("checks a CUIT's check digit", () => {
    expect(isValidCuit("20-11111111-2")).toBe(true);
    expect(isValidCuit("30712345671")).toBe(true);
    expect(isValidCuit("20111111113")).toBe(false);
    expect(isValidCuit("2011111111")).toBe(false);
  });
});

describe("configuration", () => {
  const pem = "-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----";
  const full = { ARCA_CUIT: "20-11111111-2", ARCA_POINT_OF_SALE: "3", ARCA_CERT: pem, ARCA_KEY: pem };

  it("is off unless CUIT, point of sale, certificate and key are all set; then nothing is invoiced", async () => {
    expect(arcaConfigFrom(parseEnv({}))).toBeNull();
    expect(arcaConfigFrom(parseEnv({ ...full, ARCA_KEY: "" }))).toBeNull();
    // Off: the lifecycle's hook does nothing (it never touches the transaction).
    expect(await requestInvoice(null as never, { gift: false, serviceFee: 100 } as never, {} as never, new Date(), null)).toBeNull();
    const config = arcaConfigFrom(parseEnv(full));
    expect(config).toMatchObject({ environment: "homologacion", cuit: "20111111112", pointOfSale: 3, timeoutMs: 30_000, ivaCondition: "RESPONSABLE_INSCRIPTO", urls: { wsfe: "https://wswhomo.afip.gov.ar/wsfev1/service.asmx" } });
    expect(config?.cert).toContain("\n");
    expect(arcaConfigFrom(parseEnv({ ...full, ARCA_ENVIRONMENT: "produccion" }))?.urls).toEqual({ wsaa: "https://wsaa.afip.gov.ar/ws/services/LoginCms", wsfe: "https://servicios1.afip.gov.ar/wsfev1/service.asmx" });
  });

  it("refuses a half configuration in production, and a wrong CUIT or environment anywhere", () => {
    const prod = { NODE_ENV: "production", DATABASE_URL: "postgres://x@db/x", PAYMENTS_SANDBOX: "true", AUTH_SECRET: "s".repeat(40) };
    expect(startupProblems(parseEnv({ ...prod, ARCA_CUIT: "20111111112" })).join("\n")).toContain("ARCA_POINT_OF_SALE");
    expect(startupProblems(parseEnv({ ...prod, ...full }))).toEqual([]);
    expect(startupProblems(parseEnv(prod))).toEqual([]);
    expect(() => parseEnv({ ARCA_CUIT: "2011" })).toThrow(/ARCA_CUIT/);
    expect(() => parseEnv({ ARCA_ENVIRONMENT: "test" })).toThrow(/ARCA_ENVIRONMENT/);
    expect(() => parseEnv({ PLATFORM_IVA_CONDITION: "OTRA" })).toThrow(/PLATFORM_IVA_CONDITION/);
  });
});

describe("the QR of RG 4892", () => {
  it("encodes the voucher as base64 JSON after ARCA's address", () => {
    const url = qrUrl({ date: "20261128", issuerCuit: "20111111112", pointOfSale: 7, voucherType: 6, number: 42, total: 150_050, receiverDocType: 96, receiverDocNumber: "30123456", cae: "76000000000123" });
    expect(url.startsWith(ARCA_QR_URL)).toBe(true);
    const decoded: unknown = JSON.parse(Buffer.from(url.slice(ARCA_QR_URL.length), "base64").toString("utf8"));
    expect(decoded).toEqual({ ver: 1, fecha: "2026-11-28", cuit: 20111111112, ptoVta: 7, tipoCmp: 6, nroCmp: 42, importe: 1500.5, moneda: "PES", ctz: 1, tipoDocRec: 96, nroDocRec: 30123456, tipoCodAut: "E", codAut: 76000000000123 });
  });
});

function finalConsumerPayer() {
  return { documentType: "dni", documentNumber: "30123456" };
}
