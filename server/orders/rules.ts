import type { TicketState } from "#server/events/catalogue";
import type { PaymentMethodKind } from "#server/db/schema";

/**
 * The per-order rules for a ticket a buyer chose, run by previewOrder
 * (./preview.ts), on which the ticket picker, the payer form, GraphQL and
 * createOrder all rely, so pages and GraphQL refuse the same things with the
 * same words.
 */
export const SELECTION_MESSAGES = {
  paused: "La venta está pausada",
  noDates: "Este evento no tiene fechas a la venta",
  atLeastOne: "Elegí al menos una entrada",
  dateRequired: "Elegí una fecha",
  dateUnavailable: "Esa fecha no está a la venta, elegí otra",
  invalidQty: "Elegí una cantidad válida",
  unknownTicket: "Una de las entradas que elegiste ya no está a la venta. Revisá tu elección.",
  min: (name: string, min: number) => `Mínimo ${min} entradas «${name}» por compra`,
  max: (name: string, max: number) => `Máximo ${max} ${max === 1 ? "entrada" : "entradas"} «${name}» por compra`,
  available: (name: string, available: number) =>
    available === 1 ? `Queda 1 sola entrada «${name}»` : `Quedan solo ${available} entradas «${name}»`,
  otherDate: (name: string) => `«${name}» es para otra fecha del evento`,
  state: (name: string, state: TicketState): string => {
    switch (state) {
      case "sold_out":
        return `No quedan entradas «${name}»`;
      case "paused":
        return `La venta de «${name}» está pausada`;
      case "not_started":
        return `«${name}» todavía no está a la venta`;
      case "ended":
        return `La venta de «${name}» ya terminó`;
      case "needs_code":
        return `«${name}» necesita un código de acceso`;
      default:
        return `«${name}» no está a la venta`;
    }
  },
  /** createOrder: the stock ran out (before or during the order's transaction). */
  notEnough: (name: string) => `No quedan suficientes entradas de «${name}». Elegí menos o probá otra.`,
} as const;

export interface SelectableTicket {
  name: string;
  state: TicketState;
  paymentMethod: PaymentMethodKind | string;
  minPerOrder: number;
  maxPerOrder: number;
  available: number;
  eventDateId: string | null;
}

export type TicketRuleFailure =
  | { kind: "state"; message: string; state: TicketState }
  | { kind: "payment-method"; message: string }
  | { kind: "min" | "max" | "other-date"; message: string }
  | { kind: "available"; message: string; available: number };

/**
 * One chosen ticket against the rules, in order: on sale, sold by an allowed
 * payment method, within min/max per order, enough left, for the chosen date.
 * Null when it may be bought.
 */
export function checkTicketSelection(
  ticket: SelectableTicket,
  qty: number,
  eventDateId: string | undefined,
  options: { allowedPaymentMethods: readonly string[]; paymentMethodMessage: (name: string) => string },
): TicketRuleFailure | null {
  if (ticket.state !== "on_sale") return { kind: "state", state: ticket.state, message: SELECTION_MESSAGES.state(ticket.name, ticket.state) };
  if (!options.allowedPaymentMethods.includes(ticket.paymentMethod)) return { kind: "payment-method", message: options.paymentMethodMessage(ticket.name) };
  if (qty < ticket.minPerOrder) return { kind: "min", message: SELECTION_MESSAGES.min(ticket.name, ticket.minPerOrder) };
  if (qty > ticket.maxPerOrder) return { kind: "max", message: SELECTION_MESSAGES.max(ticket.name, ticket.maxPerOrder) };
  if (qty > ticket.available) return { kind: "available", available: ticket.available, message: SELECTION_MESSAGES.available(ticket.name, ticket.available) };
  if (ticket.eventDateId && eventDateId && ticket.eventDateId !== eventDateId) return { kind: "other-date", message: SELECTION_MESSAGES.otherDate(ticket.name) };
  return null;
}
