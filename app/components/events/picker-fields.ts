/**
 * Names of the ticket picker's form fields, shared by the form (browser) and
 * the action that validates it (app/lib/cart.server.ts).
 */
export const INTENT_FIELD = "intent";
export const BUY_INTENT = "comprar";
export const CODE_INTENT = "codigo";
export const CODE_FIELD = "codigo";
export const DATE_FIELD = "eventDateId";
const QTY_PREFIX = "qty-";

/** `qty-{ticketId}`: one quantity select per ticket on sale. */
export function qtyFieldName(ticketId: string): string {
  return `${QTY_PREFIX}${ticketId}`;
}

export function ticketIdOfField(name: string): string | null {
  return name.startsWith(QTY_PREFIX) ? name.slice(QTY_PREFIX.length) : null;
}
