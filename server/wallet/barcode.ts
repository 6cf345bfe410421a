import { qrPayloadFor } from "#server/tickets/qr";

export interface WalletBarcode {
  /** What the QR carries. */
  message: string;
  /** Shown under the code (Apple) / as alternate text (Google). */
  altText: string;
}

/**
 * The one place that decides what a wallet pass's QR carries (Apple and
 * Google alike): today the ticket's static QR, the same as the page and the
 * PDF. `event` is here for a later switch to another kind of code.
 */
export function walletBarcodeFor(ticket: { code: string }, _event: { id: string }): WalletBarcode {
  return { message: qrPayloadFor(ticket.code), altText: ticket.code };
}
