import { productUnit, purchaseWords } from "#common/order-words";
import type { PDFFont, PDFPage } from "pdf-lib";
import { formatDate, formatEventStart, formatLongDay, formatTime } from "#common/dates";
import { paymentsMode } from "#server/env";
import { TEST_MODE_NOTICE } from "#server/email/templates";
import { shortTicketCode } from "#common/door";
import { brand, hexToRgbUnit } from "#common/brand";
import { qrPng } from "./qr";
import { venueLabel, whenLabel, type TicketEventView, type TicketView } from "./tickets";

export interface TicketsPdfInput {
  orderCode: string;
  event: TicketEventView;
  tickets: TicketView[];
  /**
   * With the event's live QR on (decisions 207–208), when the door starts taking the static QR, if that is
   * still ahead: each entrada's page says so (`staticQrNote`). Null or absent: the QR is good already.
   */
  staticQrFrom?: Date | null;
  /** Who the PDF is for (`staticQrNote`): the buyer by default. */
  staticQrAudience?: StaticQrAudience;
}

/**
 * "El QR de este PDF vale desde el sábado 12 de diciembre a las 19:00 h; antes, …": the entradas' static
 * QR of a live-QR event counts only from the opening less the organizer's hours (decision 207), and
 * before that the door takes the live code of the ticket's page. `medium`: what holds the QR.
 */
export function staticQrNote(from: Date, medium: "pdf" | "email", audience: StaticQrAudience = "buyer"): string {
  const when = `desde el ${formatLongDay(from)} a las ${formatTime(from)} h`;
  // Someone who received a sent entrada has no purchase link to show it live from: only when its QR counts.
  if (audience === "recipient") return `${medium === "pdf" ? "El QR de este PDF" : "El QR de esta entrada, en este correo y en el PDF,"} vale en la puerta ${when}.`;
  const what = medium === "pdf" ? "El QR de este PDF" : "El QR de las entradas de este correo y del PDF";
  return `${what} vale ${when}; antes, mostrá la entrada en vivo desde Mis tickets o desde el link de tu compra.`;
}

/** Who reads the note: the buyer (who can show the entrada live) or someone it was sent to (who has only this QR). */
export type StaticQrAudience = "buyer" | "recipient";

/** The standard PDF fonts speak WinAnsi (Latin-1 and a few more): keep Spanish, drop what they cannot draw. */
export function pdfSafe(text: string): string {
  return Array.from(text.normalize("NFC"))
    .map((ch) => {
      const code = ch.codePointAt(0)!;
      if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || "€–—‘’“”•…".includes(ch)) return ch;
      const base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      return base && base !== ch && /^[\x20-\x7e]+$/.test(base) ? base : code === 0x0a || code === 0x09 ? " " : "";
    })
    .join("");
}

/** Breaks text into lines no wider than `width` (tickets and invoices). */
export function wrapPdfText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of pdfSafe(text).split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The file's name says what it holds: `entradas-TRB-….pdf`, `consumiciones-TRB-….pdf` (common/order-words.ts). */
export function ticketsPdfFilename(orderCode: string, tickets: Pick<TicketView, "kind">[]): string {
  return `${purchaseWords(tickets.map((t) => t.kind)).plural.replaceAll(" ", "-")}-${orderCode}.pdf`;
}

/**
 * One A4 page per ticket: event, date (Buenos Aires), venue, a large QR on
 * white, holder, ticket type, order code and status. Standard fonts only, so
 * the file stays small and needs nothing installed.
 */
export async function ticketsPdf(input: TicketsPdfInput): Promise<Uint8Array> {
  // pdf-lib loads on first use, so the server's idle memory does not carry it (decision 242).
  const { PDFDocument, StandardFonts, rgb } = await import("pdf-lib");
  const teal = rgb(...hexToRgbUnit(brand.primary[500]));
  const ink = rgb(...hexToRgbUnit(brand.ink));
  const muted = rgb(...hexToRgbUnit(brand.surfaces.light.muted));
  const pdf = await PDFDocument.create();
  const words = purchaseWords(input.tickets.map((t) => t.kind));
  pdf.setTitle(pdfSafe(`${words.plural.charAt(0).toUpperCase()}${words.plural.slice(1)} ${input.event.name} · ${input.orderCode}`));
  pdf.setAuthor("Tribuna");
  pdf.setCreator("Tribuna");
  pdf.setLanguage("es-AR");
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const { event } = input;
  const when = whenLabel(event);
  // The doors' time once ("21:00 h") the day of the show; the whole line when they open another day.
  const doors = event.doorsAt ? `Puertas: ${formatDate(event.doorsAt) === formatDate(event.startsAt) ? `${formatTime(event.doorsAt)} h` : formatEventStart(event.doorsAt)}` : null;
  const where = venueLabel(event);

  for (const [index, ticket] of input.tickets.entries()) {
    const page: PDFPage = pdf.addPage([595.28, 841.89]);
    const { width, height } = page.getSize();
    const margin = 56;
    const text = (value: string, x: number, y: number, size: number, font = regular, color = ink) =>
      page.drawText(pdfSafe(value), { x, y, size, font, color });
    let y = height - margin;

    text("Tribuna", margin, y - 18, 22, bold, teal);
    if (paymentsMode() === "sandbox") {
      // Printed where nobody can miss it: a simulated purchase is not a ticket.
      page.drawRectangle({ x: margin, y: y - 48, width: width - 2 * margin, height: 22, color: rgb(...hexToRgbUnit(brand.testMode.background)) });
      text(TEST_MODE_NOTICE, margin + 8, y - 41, 10, bold);
      y -= 30;
    }
    const unit = productUnit(ticket.kind);
    const counter = `${unit} ${index + 1} de ${input.tickets.length}`;
    text(counter, width - margin - regular.widthOfTextAtSize(counter, 11), y - 14, 11, regular, muted);
    y -= 64;
    for (const line of wrapPdfText(event.name, bold, 24, width - 2 * margin)) {
      text(line, margin, y, 24, bold);
      y -= 30;
    }
    y -= 4;
    text(when, margin, y, 13);
    y -= 18;
    if (doors) {
      text(doors, margin, y, 11, regular, muted);
      y -= 16;
    }
    for (const line of wrapPdfText(where, regular, 13, width - 2 * margin)) {
      text(line, margin, y, 13);
      y -= 18;
    }

    // The QR, big, on a white card with its quiet zone (the PNG already has 4 modules of margin).
    const size = 300;
    const png = await pdf.embedPng(await qrPng(ticket.qrPayload, 600));
    const qrX = (width - size) / 2;
    y -= size + 16;
    page.drawRectangle({ x: qrX - 8, y: y - 8, width: size + 16, height: size + 16, color: rgb(...hexToRgbUnit(brand.paper)), borderColor: rgb(...hexToRgbUnit(brand.rule)), borderWidth: 1 });
    page.drawImage(png, { x: qrX, y, width: size, height: size });
    y -= 40;

    const rows: [string, string][] = [
      ["Titular", ticket.holderName],
      // A named ticket (decision 202): the door asks for this document.
      ...(ticket.holderDocument ? [["Documento", ticket.holderDocument] as [string, string]] : []),
      [unit, ticket.ticketTypeName],
      // Reserved seating (docs/seating.md): where the holder sits; a general-admission ticket has no such line.
      ...(ticket.seat ? [["Ubicación", ticket.seat.label] as [string, string]] : []),
      ["Compra", input.orderCode],
      ["Código", shortTicketCode(ticket.code)],
      ["Estado", ticket.statusLabel],
    ];
    for (const [label, value] of rows) {
      text(label, margin, y, 11, regular, muted);
      text(value, margin + 90, y, 13, bold);
      y -= 22;
    }
    y -= 12;
    // A live-QR entrada whose printed code is not taken yet: said before how to use it.
    if (input.staticQrFrom && ticket.kind !== "menu") {
      for (const line of wrapPdfText(staticQrNote(input.staticQrFrom, "pdf", input.staticQrAudience), bold, 10, width - 2 * margin)) {
        text(line, margin, y, 10, bold);
        y -= 14;
      }
      y -= 4;
    }
    const howToUse =
      ticket.kind === "menu"
        ? "Mostrá este QR en la barra, desde el celular o impreso, y te entregan la consumición. Cada QR sirve una sola vez: no lo compartas."
        : ticket.holderDocument
          ? "Entrada nominativa: en la puerta te piden el documento, que tiene que coincidir con el de la entrada. Mostrá este QR desde el celular o impreso. Cada entrada sirve una sola vez: no la compartas."
          : "Mostrá este QR en la entrada, desde el celular o impreso. Cada entrada sirve una sola vez: no la compartas.";
    for (const line of wrapPdfText(howToUse, regular, 10, width - 2 * margin)) {
      text(line, margin, y, 10, regular, muted);
      y -= 14;
    }
  }
  return pdf.save();
}
