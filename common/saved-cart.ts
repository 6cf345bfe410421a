/**
 * The saved cart (decision 37): kept per event in the cookie
 * `incomplete-saved-order--{event}`, only items with quantity above 0.
 * Browser-safe: the same rules run wherever the cart is restored.
 */
export interface SavedCartItem {
  ticketId: string;
  qty: number;
}

export interface SavedCart {
  items: SavedCartItem[];
  /** What the buyer typed to see hidden tickets / unlock presale, so a restore sees the same tickets. */
  accessCode?: string;
  presaleCode?: string;
  referredNick?: string;
  /** The coupon the buyer applied (from /canjear/{couponId} or typed); createOrder checks it again. */
  couponCode?: string;
}

export interface CartTicket {
  id: string;
  name: string;
  /** stock - sold */
  available: number;
  hidden: boolean;
  paymentMethod: string;
  presale: boolean;
  accessCode: string | null;
}

export type DropReason = "gone" | "stock" | "hidden" | "payment-method" | "presale" | "access-code";

export const DROP_MESSAGES: Record<DropReason, string> = {
  gone: "ya no está a la venta",
  stock: "no quedan suficientes entradas",
  hidden: "ya no está disponible",
  "payment-method": "no se puede pagar con Mercado Pago",
  presale: "es de preventa y la preventa no está habilitada",
  "access-code": "necesita un código de acceso que no coincide",
};

export const CARD_WALLET_METHOD = "MercadoPagoAccount";

/**
 * The cart's cookie for an event. Slugs are [a-z0-9-]; whatever else comes in the URL (unicode, `;`, `=`,
 * spaces) is replaced, so a made-up address can neither break the Set-Cookie header (a 500) nor add attributes to it.
 */
export function savedCartCookieName(eventSlug: string) {
  return `incomplete-saved-order--${eventSlug.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

/** Only items with quantity above 0 are kept. */
export function toSavedCart(cart: SavedCart): SavedCart {
  return { ...cart, items: cart.items.filter((i) => Number.isInteger(i.qty) && i.qty > 0) };
}

export function sameCode(a: string | null | undefined, b: string | null | undefined) {
  return Boolean(a && b && a.trim().toLowerCase() === b.trim().toLowerCase());
}

/**
 * On restore an item is dropped, exactly as the spec lists, if: the ticket no
 * longer exists; stock is below the saved quantity; it is hidden; its payment
 * method is not the card-wallet one; it is presale and presale is not
 * unlocked; or it needs an access code that does not match (case-insensitive).
 */
export function restoreSavedCart(
  saved: SavedCart,
  tickets: CartTicket[],
  unlock: { accessCode?: string | null; presaleUnlocked: boolean },
  /** The spec's rule keeps card-wallet tickets only; the checkout right after the picker also keeps bank-transfer ones. */
  options: { paymentMethods?: readonly string[] } = {},
) {
  const methods = options.paymentMethods ?? [CARD_WALLET_METHOD];
  const byId = new Map(tickets.map((t) => [t.id, t]));
  const items: SavedCartItem[] = [];
  const dropped: { ticketId: string; name: string | null; reason: DropReason }[] = [];
  for (const item of toSavedCart(saved).items) {
    const ticket = byId.get(item.ticketId);
    const reason: DropReason | null = !ticket
      ? "gone"
      : ticket.available < item.qty
        ? "stock"
        : ticket.hidden
          ? "hidden"
          : !methods.includes(ticket.paymentMethod)
            ? "payment-method"
            : ticket.presale && !unlock.presaleUnlocked
              ? "presale"
              : ticket.accessCode && !sameCode(ticket.accessCode, unlock.accessCode)
                ? "access-code"
                : null;
    if (reason) dropped.push({ ticketId: item.ticketId, name: ticket?.name ?? null, reason });
    else items.push(item);
  }
  return { items, dropped };
}

/** Cookie value ↔ cart; a tampered or old cookie becomes an empty cart, never an error. */
export function parseSavedCart(raw: string | null | undefined): SavedCart | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as SavedCart;
    if (!value || !Array.isArray(value.items)) return null;
    const items = value.items
      .filter((i) => i && typeof i.ticketId === "string" && Number.isInteger(i.qty))
      .map((i) => ({ ticketId: i.ticketId, qty: i.qty }));
    return toSavedCart({
      items,
      accessCode: typeof value.accessCode === "string" ? value.accessCode : undefined,
      presaleCode: typeof value.presaleCode === "string" ? value.presaleCode : undefined,
      referredNick: typeof value.referredNick === "string" ? value.referredNick : undefined,
      couponCode: typeof value.couponCode === "string" && value.couponCode.length <= 60 ? value.couponCode : undefined,
    });
  } catch {
    return null;
  }
}
