import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { random } from "./random";

/** A real image (a flat teal picture) that sharp, browsers and the upload check read. */
export async function realImage(format: "png" | "jpeg" | "webp" = "png", width = 64, height = 36): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 20, g: 184, b: 166 } } })
    .toFormat(format)
    .toBuffer();
  return new Uint8Array(bytes);
}

const SIGNATURES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  webp: [...Buffer.from("RIFF"), 0x24, 0, 0, 0, ...Buffer.from("WEBPVP8 ")],
} as const;

/** Not an image: the first bytes of one (what a type check by magic bytes sees), then `length` random bytes. */
export function fakeImage(format: keyof typeof SIGNATURES = "png", length = 2048): Uint8Array<ArrayBuffer> {
  const noise = Array.from({ length }, () => Math.floor(random() * 256));
  return Uint8Array.from([...SIGNATURES[format], ...noise]);
}

/** A real one-page PDF, as a bank's transfer receipt would be (pdf-lib and browsers open it). */
export async function realPdf(text = "Comprobante de transferencia"): Promise<Uint8Array<ArrayBuffer>> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([300, 200]);
  page.drawText(text, { x: 20, y: 150, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return new Uint8Array(await pdf.save());
}
