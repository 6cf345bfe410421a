/*
 * The resale's rules and words (docs/resale.md, decision 200): pure, so the
 * pages show exactly what the domain enforces.
 */

export interface ResaleRules {
  enabled: boolean;
  /** Highest price, in basis points of the face value (10000 = the face value). */
  capBps: number;
  /** The organizer's fee, in basis points of the price, kept from the seller's money. */
  feeBps: number;
}

/** What one ticket may be listed for: never above the face value the seller paid, nor the organizer's lower cap. */
export function resaleTerms(faceValue: number, rules: ResaleRules) {
  const maxPrice = Math.min(faceValue, Math.floor((faceValue * Math.min(rules.capBps, 10_000)) / 10_000));
  return { faceValue, maxPrice, feeBps: rules.feeBps, feeAt: (price: number) => Math.round((price * rules.feeBps) / 10_000) };
}

export const RESALE_MESSAGES = {
  notFound: "No encontramos esa entrada entre tus compras.",
  listingNotFound: "No encontramos esa publicación de reventa.",
  voided: "Esta entrada fue anulada: no se puede revender.",
  used: "Esta entrada ya se usó: no se puede revender.",
  started: "El evento ya empezó: las entradas se revenden solo antes del inicio.",
  free: "Las entradas gratis o de invitación no se revenden: si no podés ir, avisale a quien te la dio.",
  transferred: "Esta entrada ya la enviaste a otra persona: no se puede revender.",
  notTicket: "Solo se revenden entradas, no consumiciones.",
  disabled: "El organizador no habilitó la reventa oficial para este evento.",
  alreadyListed: "Esta entrada ya está publicada en la reventa oficial.",
  refundPending: "Pediste la devolución de esta compra: mientras la gestión esté abierta, sus entradas no se revenden.",
  alreadyCancelled: "Ya cancelaste esta publicación.",
  notCancellable: "Alguien la está comprando o ya la compró: la publicación ya no se puede cancelar.",
  priceRequired: "Escribí el precio en pesos, sin centavos negativos.",
  aboveCap: (max: string) => `El precio no puede superar ${max}: en la reventa oficial nadie cobra más de lo que pagó.`,
  capRange: "El tope va de 1 % a 100 % del valor de la entrada.",
  feeRange: "El cargo por reventa va de 0 % a 50 % del precio.",
  listingGone: "Esa entrada de reventa ya no está disponible: alguien la compró o la publicación se canceló.",
  resaleMercadoPago: "Las entradas de reventa se pagan con Mercado Pago.",
  payoutNotManual: "Esta devolución no se hace a mano o ya figura como hecha.",
  payoutNotFailed: "Solo se reintenta una devolución por Mercado Pago que falló.",
} as const;
