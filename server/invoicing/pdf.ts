import { eq } from "drizzle-orm";
import type { PDFPage } from "pdf-lib";
import { brand, hexToRgbUnit } from "#common/brand";
import { formatCuit } from "#common/cuit";
import { formatMoney } from "#common/money";
import type { DbOrTx } from "#server/db/client";
import { billingTaxDetails, events, invoices, orders, type InvoiceRow } from "#server/db/schema";
import { env } from "#server/env";
import { pdfSafe, wrapPdfText } from "#server/tickets/pdf";
import { qrPng } from "#server/tickets/qr";
import { issuerDetailsFrom, type IssuerDetails } from "./config";
import { qrUrl } from "./qr";
import { DOC_TYPE, RECEIVER_IVA } from "./rules";

/*
 * The printed voucher of our service charge (docs/invoicing.md, "El PDF"): what RG 1415 and RG 4892 ask of an
 * electronic invoice or credit note — letter and code, issuer, receiver, the line, totals (VAT apart only on
 * an A), CAE and its due date, and the QR — in one A4 page with the standard fonts.
 */

/** An authorised voucher as the PDF needs it. */
export interface InvoicePdfInput {
  invoice: Pick<InvoiceRow, "kind" | "letter" | "voucherType" | "pointOfSale" | "number" | "voucherDate" | "cae" | "caeDueDate" | "total" | "net" | "vat" | "issuerCuit" | "environment" | "receiverDocType" | "receiverDocNumber" | "receiverIvaCondition">;
  /** A credit note: the invoice it cancels. */
  associated?: Pick<InvoiceRow, "letter" | "pointOfSale" | "number" | "voucherDate"> | null;
  issuer: IssuerDetails;
  /** The receiver's name: the razón social given for a CUIT, else the payer's name. */
  receiverName: string;
  /** What was charged: "Cargo por servicio · compra TRB-… · Evento". */
  description: string;
}

const KIND_LABEL = { invoice: "Factura", credit_note: "Nota de crédito" } as const;

const ISSUER_IVA_LABEL: Record<IssuerDetails["ivaCondition"], string> = {
  RESPONSABLE_INSCRIPTO: "IVA Responsable Inscripto",
  MONOTRIBUTO: "Responsable Monotributo",
  EXENTO: "IVA Sujeto Exento",
};

/** CondicionIVAReceptorId (RG 5616) as ARCA names them. */
export const RECEIVER_IVA_LABEL: Record<number, string> = {
  [RECEIVER_IVA.RESPONSABLE_INSCRIPTO]: "IVA Responsable Inscripto",
  [RECEIVER_IVA.EXENTO]: "IVA Sujeto Exento",
  [RECEIVER_IVA.CONSUMIDOR_FINAL]: "Consumidor Final",
  [RECEIVER_IVA.MONOTRIBUTO]: "Responsable Monotributo",
  [RECEIVER_IVA.MONOTRIBUTO_SOCIAL]: "Monotributista Social",
  [RECEIVER_IVA.MONOTRIBUTO_PROMOVIDO]: "Monotributo Trabajador Independiente Promovido",
  7: "Sujeto No Categorizado",
  8: "Proveedor del Exterior",
  9: "Cliente del Exterior",
  10: "IVA Liberado – Ley N° 19.640",
  15: "IVA No Alcanzado",
};

/** "0007-00000042": point of sale and number as printed vouchers show them. */
export function voucherNumberLabel(pointOfSale: number, number: number | null): string {
  return `${String(pointOfSale).padStart(4, "0")}-${String(number ?? 0).padStart(8, "0")}`;
}

/** "Factura B 0007-00000042", "Nota de crédito B 0007-00000043". */
export function voucherLabel(v: Pick<InvoiceRow, "kind" | "letter" | "pointOfSale" | "number">): string {
  return `${KIND_LABEL[v.kind]} ${v.letter} ${voucherNumberLabel(v.pointOfSale, v.number)}`;
}

/** yyyymmdd or yyyy-mm-dd → dd/mm/aaaa. */
export function voucherDay(value: string | null | undefined): string {
  const digits = (value ?? "").replace(/-/g, "");
  return /^\d{8}$/.test(digits) ? `${digits.slice(6, 8)}/${digits.slice(4, 6)}/${digits.slice(0, 4)}` : "—";
}

/** The file's name: `factura-B-0007-00000042.pdf`, `nota-de-credito-B-0007-00000043.pdf`. */
export function invoicePdfFilename(v: Pick<InvoiceRow, "kind" | "letter" | "pointOfSale" | "number">): string {
  return `${v.kind === "invoice" ? "factura" : "nota-de-credito"}-${v.letter}-${voucherNumberLabel(v.pointOfSale, v.number)}.pdf`;
}

function receiverDocument(docType: number, docNumber: string): string {
  if (docType === DOC_TYPE.CUIT) return `CUIT: ${formatCuit(docNumber)}`;
  if (docType === DOC_TYPE.DNI) return `DNI: ${Number(docNumber).toLocaleString("es-AR")}`;
  return "Consumidor final";
}

/** One A4 page: the voucher as ARCA asks it to be printed, with the QR of RG 4892 (also a link to ARCA's page). */
export async function invoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  const { invoice, issuer } = input;
  if (!invoice.cae || !invoice.number) throw new Error("Solo un comprobante autorizado (con CAE y número) tiene PDF");
  // pdf-lib loads on first use, so the server's idle memory does not carry it (decision 242).
  const { PDFDocument, PDFName, PDFString, StandardFonts, rgb } = await import("pdf-lib");
  const ink = rgb(...hexToRgbUnit(brand.ink));
  const muted = rgb(...hexToRgbUnit(brand.surfaces.light.muted));
  const rule = rgb(...hexToRgbUnit(brand.rule));
  const white = rgb(1, 1, 1);
  const pdf = await PDFDocument.create();
  const title = voucherLabel(invoice);
  pdf.setTitle(pdfSafe(`${title} · Tribuna`));
  pdf.setAuthor(pdfSafe(issuer.legalName));
  pdf.setCreator("Tribuna");
  pdf.setLanguage("es-AR");
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page: PDFPage = pdf.addPage([595.28, 841.89]);
  const { width, height } = page.getSize();
  const margin = 36;
  const inner = width - 2 * margin;
  const mid = width / 2;
  const text = (value: string, x: number, y: number, size = 9, font = regular, color = ink) => page.drawText(pdfSafe(value), { x, y, size, font, color });
  const right = (value: string, x: number, y: number, size = 9, font = regular, color = ink) => text(value, x - font.widthOfTextAtSize(pdfSafe(value), size), y, size, font, color);
  const box = (x: number, y: number, w: number, h: number) => page.drawRectangle({ x, y, width: w, height: h, borderColor: rule, borderWidth: 1 });
  /** "Label: value" with the label in bold. */
  const field = (label: string, value: string, x: number, y: number, size = 9) => {
    text(`${label}:`, x, y, size, bold);
    text(value, x + bold.widthOfTextAtSize(pdfSafe(`${label}:`), size) + size * 0.4, y, size);
  };

  let y = height - margin;
  // ORIGINAL, as every printed copy for the receiver says.
  box(margin, y - 18, inner, 18);
  const original = "ORIGINAL";
  text(original, mid - bold.widthOfTextAtSize(original, 11) / 2, y - 13, 11, bold);
  y -= 18;

  if (invoice.environment !== "produccion") {
    // Homologación: ARCA's test service; the CAE is real-looking but worth nothing.
    const notice = "Comprobante de prueba (homologación de ARCA): no tiene validez fiscal.";
    page.drawRectangle({ x: margin, y: y - 18, width: inner, height: 18, color: rgb(...hexToRgbUnit(brand.testMode.background)) });
    text(notice, mid - bold.widthOfTextAtSize(pdfSafe(notice), 9) / 2, y - 12, 9, bold);
    y -= 18;
  }

  // The header: issuer on the left, voucher on the right, the letter box between them.
  const headerHeight = 112;
  box(margin, y - headerHeight, inner, headerHeight);
  page.drawLine({ start: { x: mid, y: y - 52 }, end: { x: mid, y: y - headerHeight }, thickness: 1, color: rule });
  page.drawRectangle({ x: mid - 26, y: y - 52, width: 52, height: 52, color: white, borderColor: ink, borderWidth: 1.2 });
  text(invoice.letter, mid - bold.widthOfTextAtSize(invoice.letter, 30) / 2, y - 33, 30, bold);
  const code = `COD. ${String(invoice.voucherType).padStart(3, "0")}`;
  text(code, mid - bold.widthOfTextAtSize(code, 7) / 2, y - 46, 7, bold);

  let left = y - 24;
  for (const line of wrapPdfText(issuer.legalName, bold, 14, mid - margin - 40)) {
    text(line, margin + 10, left, 14, bold);
    left -= 17;
  }
  left -= 6;
  const leftWidth = mid - margin - 20;
  for (const [label, value] of [
    ["Razón social", issuer.legalName],
    ["Domicilio comercial", issuer.address || "—"],
    ["Condición frente al IVA", ISSUER_IVA_LABEL[issuer.ivaCondition]],
  ] as const) {
    const lines = wrapPdfText(`${label}: ${value}`, regular, 8.5, leftWidth);
    for (const [i, line] of lines.entries()) {
      if (i === 0) field(label, line.slice(label.length + 2), margin + 10, left, 8.5);
      else text(line, margin + 10, left, 8.5);
      left -= 11;
    }
  }

  let rightY = y - 24;
  const rx = mid + 36;
  text(KIND_LABEL[invoice.kind].toUpperCase(), rx, rightY, 16, bold);
  rightY -= 20;
  field("Punto de venta y número", voucherNumberLabel(invoice.pointOfSale, invoice.number), rx, rightY);
  rightY -= 13;
  field("Fecha de emisión", voucherDay(invoice.voucherDate), rx, rightY);
  rightY -= 19;
  field("CUIT", formatCuit(invoice.issuerCuit), rx, rightY, 8.5);
  rightY -= 11;
  field("Ingresos Brutos", issuer.grossIncome ?? formatCuit(invoice.issuerCuit), rx, rightY, 8.5);
  rightY -= 11;
  field("Fecha de inicio de actividades", issuer.activityStart ?? "—", rx, rightY, 8.5);
  y -= headerHeight;

  // A service (Concepto 2): the period and the payment's due date, as sent to ARCA (the voucher's day).
  const day = voucherDay(invoice.voucherDate);
  box(margin, y - 20, inner, 20);
  field("Período facturado desde", day, margin + 10, y - 13, 8.5);
  field("Hasta", day, margin + 200, y - 13, 8.5);
  field("Fecha de vto. para el pago", day, margin + 330, y - 13, 8.5);
  y -= 20;

  // The receiver.
  const receiverHeight = input.associated ? 62 : 50;
  box(margin, y - receiverHeight, inner, receiverHeight);
  const doc = receiverDocument(invoice.receiverDocType, invoice.receiverDocNumber);
  if (doc === "Consumidor final") text(doc, margin + 10, y - 14, 9, bold);
  else field(doc.split(":")[0], doc.slice(doc.indexOf(":") + 2), margin + 10, y - 14);
  field("Condición frente al IVA", RECEIVER_IVA_LABEL[invoice.receiverIvaCondition] ?? String(invoice.receiverIvaCondition), mid, y - 14);
  field("Apellido y nombre / Razón social", input.receiverName, margin + 10, y - 28);
  field("Condición de venta", "Contado", margin + 10, y - 42);
  if (input.associated) {
    const assoc = input.associated;
    field("Comprobante asociado", `Factura ${assoc.letter} ${voucherNumberLabel(assoc.pointOfSale, assoc.number)} del ${voucherDay(assoc.voucherDate)}`, margin + 10, y - 56);
  }
  y -= receiverHeight + 14;

  // The line: one service, its quantity and price (net of VAT on an A, final on a B or C).
  const isA = invoice.letter === "A";
  const unit = isA ? invoice.net : invoice.total;
  const cols = isA
    ? { description: margin + 6, quantity: margin + 300, price: margin + 380, vat: margin + 440, subtotal: margin + inner - 6 }
    : { description: margin + 6, quantity: margin + 330, price: margin + 430, vat: 0, subtotal: margin + inner - 6 };
  page.drawRectangle({ x: margin, y: y - 18, width: inner, height: 18, color: rgb(...hexToRgbUnit(brand.surfaces.light.muted)), opacity: 0.15 });
  text("Descripción", cols.description, y - 12, 8.5, bold);
  right("Cantidad", cols.quantity, y - 12, 8.5, bold);
  right("Precio unit.", cols.price, y - 12, 8.5, bold);
  if (isA) right("% IVA", cols.vat, y - 12, 8.5, bold);
  right("Subtotal", cols.subtotal, y - 12, 8.5, bold);
  y -= 32;
  const descriptionLines = wrapPdfText(input.description, regular, 9, (isA ? 240 : 270) - 6);
  right("1,00", cols.quantity, y, 9);
  right(formatMoney(unit), cols.price, y, 9);
  if (isA) right("21 %", cols.vat, y, 9);
  right(formatMoney(unit), cols.subtotal, y, 9);
  for (const line of descriptionLines) {
    text(line, cols.description, y, 9);
    y -= 12;
  }
  y -= 8;
  page.drawLine({ start: { x: margin, y }, end: { x: margin + inner, y }, thickness: 1, color: rule });
  y -= 18;

  // Totals: VAT apart only on an A (RG 1415); a B and a C show the final amount.
  const totals: [string, string][] = isA
    ? [
        ["Importe neto gravado", formatMoney(invoice.net)],
        ["IVA 21 %", formatMoney(invoice.vat)],
      ]
    : [["Subtotal", formatMoney(invoice.total)]];
  for (const [label, value] of totals) {
    right(`${label}:`, margin + inner - 110, y, 9, bold);
    right(value, margin + inner - 6, y, 9);
    y -= 14;
  }
  right("Importe total:", margin + inner - 110, y - 2, 11, bold);
  right(formatMoney(invoice.total), margin + inner - 6, y - 2, 11, bold);
  y -= 22;
  if (invoice.letter === "B" && invoice.receiverIvaCondition === RECEIVER_IVA.CONSUMIDOR_FINAL) {
    // Ley 27.743 (Régimen de Transparencia Fiscal al Consumidor): the VAT the final price contains, as a legend.
    const legend = `Régimen de Transparencia Fiscal al Consumidor (Ley 27.743) · IVA contenido: ${formatMoney(invoice.vat)}`;
    right(legend, margin + inner - 6, y, 8, regular, muted);
    y -= 14;
  }

  // The footer: the QR (RG 4892) and the CAE with its due date.
  const qrSize = 110;
  const qrTop = Math.min(y - 10, margin + qrSize + 60);
  const url = qrUrl({
    date: invoice.voucherDate ?? "",
    issuerCuit: invoice.issuerCuit,
    pointOfSale: invoice.pointOfSale,
    voucherType: invoice.voucherType,
    number: invoice.number,
    total: invoice.total,
    receiverDocType: invoice.receiverDocType,
    receiverDocNumber: invoice.receiverDocNumber,
    cae: invoice.cae,
  });
  const png = await pdf.embedPng(await qrPng(url, 440));
  const qrY = qrTop - qrSize;
  page.drawImage(png, { x: margin, y: qrY, width: qrSize, height: qrSize });
  // Clicking the QR opens ARCA's check, as scanning it does.
  const link = pdf.context.register(
    pdf.context.obj({ Type: "Annot", Subtype: "Link", Rect: [margin, qrY, margin + qrSize, qrTop], Border: [0, 0, 0], A: { Type: "Action", S: "URI", URI: PDFString.of(url) } }),
  );
  page.node.set(PDFName.of("Annots"), pdf.context.obj([link]));
  const fx = margin + qrSize + 16;
  text("Comprobante autorizado por ARCA", fx, qrTop - 18, 10, bold);
  text("Verificalo escaneando el código QR o en www.afip.gob.ar/fe/qr", fx, qrTop - 31, 8, regular, muted);
  right(`CAE Nº: ${invoice.cae}`, margin + inner - 6, qrTop - 58, 11, bold);
  right(`Fecha de Vto. de CAE: ${voucherDay(invoice.caeDueDate)}`, margin + inner - 6, qrTop - 74, 11, bold);
  text("Tribuna factura su cargo por servicio; las entradas las vende y factura el organizador del evento.", margin, margin - 6, 7.5, regular, muted);
  return pdf.save();
}

/** The PDF of an authorised voucher, read from the database (no access check: the caller did it, or is the email job). */
export async function invoiceDocument(db: DbOrTx, invoice: InvoiceRow): Promise<{ filename: string; content: Uint8Array }> {
  const [[row], [details], associated] = await Promise.all([
    db.select({ code: orders.code, payer: orders.payer, eventName: events.name }).from(orders).innerJoin(events, eq(events.id, orders.eventId)).where(eq(orders.id, invoice.orderId)),
    db.select({ legalName: billingTaxDetails.legalName }).from(billingTaxDetails).where(eq(billingTaxDetails.billingId, invoice.billingId)),
    invoice.invoiceId ? db.select().from(invoices).where(eq(invoices.id, invoice.invoiceId)).then((rows) => rows[0] ?? null) : Promise.resolve(null),
  ]);
  const payerName = `${row.payer.firstName} ${row.payer.lastName}`.trim();
  const content = await invoicePdf({
    invoice,
    associated,
    issuer: issuerDetailsFrom(env()),
    receiverName: (invoice.receiverDocType === DOC_TYPE.CUIT ? details?.legalName : null) || payerName || "Consumidor final",
    description: `Cargo por servicio de Tribuna · compra ${row.code} · ${row.eventName}`,
  });
  return { filename: invoicePdfFilename(invoice), content };
}
