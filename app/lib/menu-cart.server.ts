import { parseCookies, serializeCookie } from "#server/auth/cookies";
import { parseSavedCart, type SavedCartItem } from "#common/saved-cart";

/**
 * The menu's cart (docs/menu.md): cookie `menu-order-{eventSlug}`, JSON like the
 * tickets' saved cart (`{"items":[{"ticketId","qty"}]}`), path /, two days,
 * HttpOnly. Only what the buyer picked; prices and stock are read again on
 * every page and by createOrder.
 */
const MAX_AGE_SECONDS = 2 * 24 * 60 * 60;

export function menuCartCookieName(eventSlug: string): string {
  return `menu-order-${eventSlug.toLowerCase()}`;
}

export function readMenuCart(request: Request, eventSlug: string): SavedCartItem[] {
  const raw = parseCookies(request.headers.get("cookie"))[menuCartCookieName(eventSlug)];
  return parseSavedCart(raw)?.items ?? [];
}

export function menuCartCookie(eventSlug: string, items: SavedCartItem[]): string {
  const kept = items.filter((i) => i.qty > 0);
  if (!kept.length) return serializeCookie(menuCartCookieName(eventSlug), "", { maxAge: 0 });
  return serializeCookie(menuCartCookieName(eventSlug), JSON.stringify({ items: kept }), { maxAge: MAX_AGE_SECONDS });
}
