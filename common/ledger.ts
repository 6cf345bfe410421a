/** The ledger's kinds as the organizer reads them (docs/wording.md), never the database's English: the sales list and the exports share them. */
export const LEDGER_KIND_NAMES = {
  payment: "Pago",
  service_fee: "Cargo por servicio",
  refund: "Devolución",
  service_fee_refund: "Cargo por servicio devuelto",
  chargeback: "Contracargo",
  withdrawal: "Extracción",
  withdrawal_reversal: "Extracción rechazada",
  direct_collection: "Cobrado fuera de Tribuna",
  direct_refund: "Devuelto fuera de Tribuna",
  resale_payout: "Devuelto al vendedor (reventa)",
  resale_payout_direct: "Devuelto al vendedor fuera de Tribuna (reventa)",
} as const satisfies Record<string, string>;

