import { LIVE_QR_DIGITS, LIVE_QR_PERIOD_MS, LIVE_QR_PREFIX } from "#common/live-qr";
import { qrPayloadFor } from "#server/tickets/qr";
import type { WalletPassData } from "./pass-data";

export interface WalletBarcode {
  /** What the QR carries. */
  message: string;
  /** Shown under the code (Apple) / as alternate text (Google). */
  altText: string;
}

/** The ticket's static QR, the same as the page without JavaScript and the PDF. */
export function walletBarcodeFor(ticket: { code: string }): WalletBarcode {
  return { message: qrPayloadFor(ticket.code), altText: ticket.code };
}

/**
 * Apple Wallet's QR: the static code, except for a live-QR event before its
 * reveal time (decision 207: the static code gets in only from then, and an
 * Apple pass cannot rotate it). Null: no QR yet.
 */
export function appleBarcodeFor(data: Pick<WalletPassData, "ticket" | "live">, now: Date): WalletBarcode | null {
  if (data.live && now < data.live.staticFrom) return null;
  return walletBarcodeFor(data.ticket);
}

/**
 * Google Wallet's barcode: for a live-QR event, a rotating barcode Google
 * computes on the phone with the ticket's TOTP secret, so the code equals the
 * ticket page's and the door's (`TLQ1.<ref>.<8 digits>`, common/live-qr.ts);
 * otherwise the static code.
 */
export function googleBarcodeFields(data: Pick<WalletPassData, "ticket" | "live">) {
  if (!data.live) {
    const barcode = walletBarcodeFor(data.ticket);
    return { barcode: { type: "QR_CODE", value: barcode.message, alternateText: barcode.altText } };
  }
  return {
    rotatingBarcode: {
      type: "QR_CODE",
      valuePattern: `${LIVE_QR_PREFIX}.${data.live.ticketRef}.{totp_value_0}`,
      alternateText: "QR dinámico: cambia cada 15 segundos",
      totpDetails: { periodMillis: String(LIVE_QR_PERIOD_MS), algorithm: "TOTP_SHA1", parameters: [{ key: data.live.secretHex, valueLength: LIVE_QR_DIGITS }] },
    },
  };
}
