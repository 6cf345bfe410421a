import zlib from "node:zlib";
import jsQR from "jsqr";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFString } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { formatMoney } from "#common/money";
import { drawnText } from "#tests/support/pdf-text";
import type { IssuerDetails } from "./config";
import { invoicePdf, invoicePdfFilename, type InvoicePdfInput } from "./pdf";
import { ARCA_QR_URL, qrUrl } from "./qr";
import { amountsFor, DOC_TYPE, RECEIVER_IVA } from "./rules";

const issuer: IssuerDetails = {
  legalName: "Tribuna Tickets S.A.S.",
  address: "Av. Corrientes 1234, piso 5, CABA",
  ivaCondition: "RESPONSABLE_INSCRIPTO",
  grossIncome: "901-123456-7",
  activityStart: "01/03/2024",
};

const base: InvoicePdfInput["invoice"] = {
  kind: "invoice",
  letter: "B",
  voucherType: 6,
  pointOfSale: 7,
  number: 42,
  voucherDate: "20261128",
  cae: "76481234567890",
  caeDueDate: "2026-12-08",
  ...amountsFor("B", 150_050),
  issuerCuit: "20111111112",
  environment: "produccion",
  receiverDocType: DOC_TYPE.DNI,
  receiverDocNumber: "30123456",
  receiverIvaCondition: RECEIVER_IVA.CONSUMIDOR_FINAL,
};

/** What the page's QR image says, read back from its pixels as a phone would. */
async function scannedQr(bytes: Uint8Array): Promise<string | null> {
  const pdf = await PDFDocument.load(bytes);
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of("Subtype")) !== PDFName.of("Image")) continue;
    const width = (object.dict.get(PDFName.of("Width")) as PDFNumber).asNumber();
    const height = (object.dict.get(PDFName.of("Height")) as PDFNumber).asNumber();
    const channels = object.dict.get(PDFName.of("ColorSpace")) === PDFName.of("DeviceGray") ? 1 : 3;
    const raw = zlib.inflateSync(Buffer.from(object.contents));
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      for (let c = 0; c < 3; c++) rgba[i * 4 + c] = raw[i * channels + (channels === 1 ? 0 : c)];
      rgba[i * 4 + 3] = 255;
    }
    return jsQR(rgba, width, height)?.data ?? null;
  }
  return null;
}

/** The address the QR's link annotation opens. */
async function linkedUri(bytes: Uint8Array): Promise<string | null> {
  const pdf = await PDFDocument.load(bytes);
  const annots = pdf.getPage(0).node.lookup(PDFName.of("Annots"), PDFArray);
  const annot = annots.lookup(0, PDFDict);
  return (annot.lookup(PDFName.of("A"), PDFDict).lookup(PDFName.of("URI")) as PDFString).decodeText();
}

describe("the PDF of a voucher (RG 1415, RG 4892)", () => {
  it("a Factura B to a final consumer: the CAE and its due date, the number, the total, the letter and its code, issuer and receiver, no VAT apart", async () => {
    const bytes = await invoicePdf({ invoice: base, issuer, receiverName: "Ana Gómez", description: "Cargo por servicio de Tribuna · compra TRB-ABC234 · Recital" });
    const text = await drawnText(bytes);
    expect(text).toContain("ORIGINAL");
    expect(text).toContain("FACTURA");
    expect(text).toMatch(/^B$/m);
    expect(text).toContain("COD. 006");
    expect(text).toContain("0007-00000042");
    expect(text).toContain("28/11/2026");
    expect(text).toContain("CAE Nº: 76481234567890");
    expect(text).toContain("Fecha de Vto. de CAE: 08/12/2026");
    expect(text).toContain(formatMoney(150_050)); // $ 1.500,50
    expect(formatMoney(150_050)).toMatch(/1\.500,50/);
    // Issuer.
    expect(text).toContain("Tribuna Tickets S.A.S.");
    expect(text).toContain("Av. Corrientes 1234, piso 5, CABA");
    expect(text).toContain("20-11111111-2");
    expect(text).toContain("IVA Responsable Inscripto");
    expect(text).toContain("901-123456-7");
    expect(text).toContain("01/03/2024");
    // Receiver and line.
    expect(text).toContain("DNI:");
    expect(text).toContain("30.123.456");
    expect(text).toContain("Ana Gómez");
    expect(text).toContain("Consumidor Final");
    expect(text).toContain("compra TRB-ABC234");
    // No VAT line on a B: only the legend of Ley 27.743 with the VAT it contains.
    expect(text).not.toContain("IVA 21 %");
    expect(text).not.toContain("Importe neto gravado");
    expect(text).toContain(`IVA contenido: ${formatMoney(base.vat)}`);
    expect(text).not.toContain("homologación");
    expect(invoicePdfFilename(base)).toBe("factura-B-0007-00000042.pdf");
  });

  it("the QR, scanned from the page, is ARCA's address with the voucher's data; tapping it opens the same", async () => {
    const bytes = await invoicePdf({ invoice: base, issuer, receiverName: "Ana Gómez", description: "Cargo por servicio" });
    const scanned = await scannedQr(bytes);
    expect(scanned).toBe(qrUrl({ ...base, date: base.voucherDate!, number: 42, cae: base.cae! }));
    expect(scanned!.startsWith(ARCA_QR_URL)).toBe(true);
    expect(JSON.parse(Buffer.from(scanned!.slice(ARCA_QR_URL.length), "base64").toString("utf8"))).toEqual({
      ver: 1,
      fecha: "2026-11-28",
      cuit: 20111111112,
      ptoVta: 7,
      tipoCmp: 6,
      nroCmp: 42,
      importe: 1500.5,
      moneda: "PES",
      ctz: 1,
      tipoDocRec: 96,
      nroDocRec: 30123456,
      tipoCodAut: "E",
      codAut: 76481234567890,
    });
    expect(await linkedUri(bytes)).toBe(scanned);
  });

  it("a Factura A to a Responsable Inscripto shows the net, VAT 21 % apart and the receiver's CUIT and razón social", async () => {
    const invoice = { ...base, letter: "A" as const, voucherType: 1, ...amountsFor("A", 121_000), receiverDocType: DOC_TYPE.CUIT, receiverDocNumber: "30712345671", receiverIvaCondition: RECEIVER_IVA.RESPONSABLE_INSCRIPTO };
    const text = await drawnText(await invoicePdf({ invoice, issuer, receiverName: "Productora Sur S.R.L.", description: "Cargo por servicio" }));
    expect(text).toContain("COD. 001");
    expect(text).toContain("Importe neto gravado:");
    expect(text).toContain(formatMoney(100_000));
    expect(text).toContain("IVA 21 %:");
    expect(text).toContain(formatMoney(21_000));
    expect(text).toContain(formatMoney(121_000));
    expect(text).toContain("30-71234567-1");
    expect(text).toContain("Productora Sur S.R.L.");
    expect(text).not.toContain("IVA contenido");
  });

  it("a credit note C names the invoice it cancels; a homologación voucher says it is a test", async () => {
    const note = { ...base, kind: "credit_note" as const, letter: "C" as const, voucherType: 13, number: 5, ...amountsFor("C", 150_050), environment: "homologacion", receiverDocType: DOC_TYPE.NONE, receiverDocNumber: "0" };
    const bytes = await invoicePdf({ invoice: note, associated: { letter: "C", pointOfSale: 7, number: 4, voucherDate: "20261120" }, issuer: { ...issuer, ivaCondition: "MONOTRIBUTO" }, receiverName: "Ana Gómez", description: "Cargo por servicio" });
    const text = await drawnText(bytes);
    expect(text).toContain("NOTA DE CRÉDITO");
    expect(text).toContain("COD. 013");
    expect(text).toContain("0007-00000005");
    expect(text).toContain("Factura C 0007-00000004 del 20/11/2026");
    expect(text).toContain("Consumidor final");
    expect(text).toContain("Responsable Monotributo");
    expect(text).toContain("CAE Nº: 76481234567890");
    expect(text).toContain("Fecha de Vto. de CAE: 08/12/2026");
    expect(text).toContain("homologación de ARCA");
    expect(text).not.toContain("IVA 21 %");
    expect(invoicePdfFilename(note)).toBe("nota-de-credito-C-0007-00000005.pdf");
    expect(await scannedQr(bytes)).toContain(ARCA_QR_URL);
  });

  it("a voucher without CAE has no PDF", async () => {
    await expect(invoicePdf({ invoice: { ...base, cae: null, number: null }, issuer, receiverName: "Ana", description: "x" })).rejects.toThrow(/autorizado/);
  });
});
