import crypto from "node:crypto";
import { authSecret } from "#server/env";

/**
 * What a ticket's QR carries: `TRB1.<code>.<sig>`, where `code` is the issued
 * product's random code and `sig` an HMAC-SHA256 of it with the app secret
 * (first 16 bytes, base64url). The door checks the signature before looking
 * the code up, so a typed or made-up code never reaches the database.
 */
export const QR_PREFIX = "TRB1";

function signatureOf(code: string): string {
  return crypto.createHmac("sha256", authSecret()).update(`ticket:${code}`).digest().subarray(0, 16).toString("base64url");
}

export function qrPayloadFor(code: string): string {
  return `${QR_PREFIX}.${code}.${signatureOf(code)}`;
}

/** The ticket code when the payload is ours and untouched, else null (constant-time compare). */
export function verifyQrPayload(payload: string | null | undefined): string | null {
  if (typeof payload !== "string") return null;
  const parts = payload.trim().split(".");
  if (parts.length !== 3 || parts[0] !== QR_PREFIX) return null;
  const [, code, sig] = parts;
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(code)) return null;
  const expected = Buffer.from(signatureOf(code));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? code : null;
}

/** qrcode loads on first use, so the server's idle memory does not carry it (decision 242). */
const loadQrCode = async () => (await import("qrcode")).default;

const QR_OPTIONS = { errorCorrectionLevel: "M" as const, margin: 4, color: { dark: "#000000", light: "#ffffff" } };

/** Black on white with a 4-module quiet zone, sized by its container (viewBox, no width/height). */
export async function qrSvg(payload: string): Promise<string> {
  const QRCode = await loadQrCode();
  const svg = await QRCode.toString(payload, { ...QR_OPTIONS, type: "svg" });
  return svg.replace(/\s(width|height)="[^"]*"/g, "");
}

/** PNG for emails (mail clients show attached PNGs; few show SVG or data URIs). */
export async function qrPng(payload: string, width = 480): Promise<Buffer> {
  const QRCode = await loadQrCode();
  return QRCode.toBuffer(payload, { ...QR_OPTIONS, type: "png", width });
}

/** A link's QR for the back office (an event's share link, a coupon's /canjear link): a 2-module quiet zone, drawn on the server. */
const LINK_QR_OPTIONS = { errorCorrectionLevel: "M" as const, margin: 2 };

export async function linkQrSvg(url: string): Promise<string> {
  const QRCode = await loadQrCode();
  return QRCode.toString(url, { ...LINK_QR_OPTIONS, type: "svg" });
}

/** The same QR as a PNG data URL, to download and print. */
export async function linkQrPngDataUrl(url: string, width: number): Promise<string> {
  const QRCode = await loadQrCode();
  return QRCode.toDataURL(url, { ...LINK_QR_OPTIONS, width });
}
