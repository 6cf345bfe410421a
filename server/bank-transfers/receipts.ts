import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { env } from "#server/env";
import { Invalid } from "#server/errors";
import { loadSharp, MAX_INPUT_PIXELS } from "#server/media/images";

/**
 * Transfer receipts on disk: PDF, JPG or PNG decided by the first bytes
 * (never by the name or the browser's content type) and opened whole before
 * they are kept, at most 5 MB, under
 * `${DATA_DIR}/receipts` (outside public/) with a random name, readable only
 * by this process's user. Only `/comprobantes/{id}` serves them, after
 * checking who asks (server/bank-transfers/bank-transfers.ts).
 */
export const MAX_RECEIPT_BYTES = 5 * 1024 * 1024;

export const RECEIPT_MESSAGES = {
  required: "Elegí el archivo del comprobante",
  type: "El comprobante tiene que ser un PDF, JPG o PNG",
  size: "El comprobante no puede pesar más de 5 MB",
  unreadable: "No pudimos abrir el comprobante: puede estar dañado o incompleto. Subí un PDF, JPG o PNG.",
  pixels: "La imagen del comprobante es demasiado grande (más de 50 megapíxeles). Subí una captura de pantalla o un PDF.",
} as const;

export const RECEIPT_TYPES = {
  "application/pdf": "pdf",
  "image/jpeg": "jpg",
  "image/png": "png",
} as const;
export type ReceiptType = keyof typeof RECEIPT_TYPES;

const STORED_NAME = /^[a-f0-9]{32}\.(pdf|jpg|png)$/;

function startsWith(bytes: Uint8Array, signature: number[], offset = 0) {
  return bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
}

/** PDF ("%PDF-"), JPEG or PNG by magic bytes; null for anything else. */
export function detectReceiptType(bytes: Uint8Array): ReceiptType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  return null;
}

/**
 * Whether the file opens as what its first bytes say: a PDF whose pages pdf-lib finds (an encrypted one, as some
 * banks send, only has to parse: its pages may sit in encrypted streams), an image sharp decodes to the last pixel.
 * "pixels" for an image too big to decode (a few phones take 100-megapixel photos that fit in 5 MB).
 */
async function opensAs(bytes: Uint8Array, type: ReceiptType): Promise<"yes" | "no" | "pixels"> {
  // pdf-lib and sharp load on first use, so the server's idle memory does not carry them (decision 242); outside the
  // try, so a broken install fails loudly instead of calling every receipt unreadable.
  if (type === "application/pdf") {
    const { PDFDocument } = await import("pdf-lib");
    try {
      const pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
      return pdf.isEncrypted || pdf.getPageCount() > 0 ? "yes" : "no";
    } catch {
      return "no";
    }
  }
  const sharp = await loadSharp();
  try {
    const { width = 0, height = 0 } = await sharp(bytes).metadata();
    if (width * height > MAX_INPUT_PIXELS) return "pixels";
    await sharp(bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS }).stats();
    return "yes";
  } catch {
    return "no";
  }
}

/**
 * Size first (a huge file is refused whatever it is), then the type, then the whole file opened (decision 137:
 * a file that only starts like a PDF or an image is not a receipt the organization can read). Invalid on `receipt`.
 */
export async function checkReceipt(bytes: Uint8Array | null | undefined): Promise<ReceiptType> {
  if (!bytes || bytes.length === 0) throw new Invalid({ receipt: [RECEIPT_MESSAGES.required] }, RECEIPT_MESSAGES.required);
  if (bytes.length > MAX_RECEIPT_BYTES) throw new Invalid({ receipt: [RECEIPT_MESSAGES.size] }, RECEIPT_MESSAGES.size);
  const type = detectReceiptType(bytes);
  if (!type) throw new Invalid({ receipt: [RECEIPT_MESSAGES.type] }, RECEIPT_MESSAGES.type);
  const opens = await opensAs(bytes, type);
  if (opens !== "yes") {
    const message = opens === "pixels" ? RECEIPT_MESSAGES.pixels : RECEIPT_MESSAGES.unreadable;
    throw new Invalid({ receipt: [message] }, message);
  }
  return type;
}

export function receiptsDir(): string {
  return path.resolve(env().DATA_DIR, "receipts");
}

/** Writes the bytes under a new random name; returns the name. */
export async function storeReceiptFile(bytes: Uint8Array, type: ReceiptType): Promise<string> {
  const file = `${crypto.randomBytes(16).toString("hex")}.${RECEIPT_TYPES[type]}`;
  const dir = receiptsDir();
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(dir, file), bytes, { flag: "wx", mode: 0o600 });
  return file;
}

/** A stored receipt's bytes; null when the name is not one we made or the file is gone. */
export async function readReceiptFile(file: string): Promise<Buffer | null> {
  if (!STORED_NAME.test(file)) return null;
  const full = path.join(receiptsDir(), file);
  if (path.dirname(full) !== receiptsDir()) return null;
  try {
    return await fs.readFile(full);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** A file name safe for Content-Disposition: ASCII letters, digits, dots, hyphens, underscores. */
export function safeFileName(name: string, type: ReceiptType): string {
  const base = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+|[.-]+$/g, "")
    .slice(0, 60);
  return `${base || "comprobante"}.${RECEIPT_TYPES[type]}`;
}
