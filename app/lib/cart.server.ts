import { parseCookies, serializeCookie } from "#server/auth/cookies";
import type { PublicEvent, TicketState } from "#server/events/catalogue";
import {
  CARD_WALLET_METHOD,
  DROP_MESSAGES,
  parseSavedCart,
  restoreSavedCart,
  sameCode,
  savedCartCookieName,
  toSavedCart,
  type DropReason,
  type SavedCart,
  type SavedCartItem,
} from "#common/saved-cart";
import { DATE_FIELD, ticketIdOfField } from "#app/components/events/picker-fields";
import { checkTicketSelection, SELECTION_MESSAGES } from "#server/orders/rules";

/**
 * The buyer's saved cart in the cookie `incomplete-saved-order--{eventSlug}`
 * (spec §4 and §9): JSON, path /, two days, SameSite=Lax, HttpOnly. It holds
 * only items with quantity above 0, the codes the buyer typed and the
 * promoter's nickname, plus the chosen date (the spec's cart has no date; we
 * keep it beside the items so the checkout knows which night).
 */
export const SAVED_CART_MAX_AGE_SECONDS = 2 * 24 * 60 * 60;

export interface StoredCart extends SavedCart {
  eventDateId?: string;
}

export function readSavedCart(request: Request, eventSlug: string): StoredCart | null {
  const raw = parseCookies(request.headers.get("cookie"))[savedCartCookieName(eventSlug.toLowerCase())];
  const cart = parseSavedCart(raw);
  if (!cart) return null;
  let eventDateId: string | undefined;
  try {
    const value = JSON.parse(raw!) as { eventDateId?: unknown };
    if (typeof value.eventDateId === "string" && value.eventDateId.length <= 64) eventDateId = value.eventDateId;
  } catch {
    // parseSavedCart already accepted it; nothing more to read.
  }
  return eventDateId ? { ...cart, eventDateId } : cart;
}

/** The cart as the cookie keeps it: no empty keys, no items with quantity 0. */
export function normalizeCart(cart: StoredCart): StoredCart {
  const out: StoredCart = { items: toSavedCart(cart).items };
  if (cart.eventDateId) out.eventDateId = cart.eventDateId;
  if (cart.accessCode?.trim()) out.accessCode = cart.accessCode.trim();
  if (cart.presaleCode?.trim()) out.presaleCode = cart.presaleCode.trim();
  if (cart.referredNick?.trim()) out.referredNick = cart.referredNick.trim();
  if (cart.couponCode?.trim()) out.couponCode = cart.couponCode.trim();
  return out;
}

export function isEmptyCart(cart: StoredCart): boolean {
  return !cart.items.length && !cart.accessCode && !cart.presaleCode && !cart.referredNick && !cart.couponCode;
}

export function savedCartCookie(eventSlug: string, cart: StoredCart): string {
  const name = savedCartCookieName(eventSlug.toLowerCase());
  const value = normalizeCart(cart);
  if (isEmptyCart(value)) return serializeCookie(name, "", { maxAge: 0 });
  return serializeCookie(name, JSON.stringify(value), { maxAge: SAVED_CART_MAX_AGE_SECONDS });
}

/** Same content (no cart and an empty cart are the same). */
export function sameCart(a: StoredCart | null, b: StoredCart | null): boolean {
  const key = (cart: StoredCart | null) => {
    const value = normalizeCart(cart ?? { items: [] });
    return isEmptyCart(value) ? "" : JSON.stringify(value);
  };
  return key(a) === key(b);
}

// ---------------------------------------------------------------------------
// Restore

type RestorableEvent = Pick<PublicEvent, "cartTickets" | "ticketTypes" | "dates" | "presaleUnlocked">;

/** States in which a ticket that still exists cannot be bought at all right now. */
const NOT_FOR_SALE: TicketState[] = ["paused", "ended", "not_started"];

export type DroppedItem = { ticketId: string; name: string | null; reason: DropReason };

export function dropMessage(item: Pick<DroppedItem, "name" | "reason">): string {
  const what = item.name ? `«${item.name}»` : "una entrada";
  return `Sacamos ${what} de tu compra porque ${DROP_MESSAGES[item.reason]}`;
}

export const DATE_DROPPED_MESSAGE = "La fecha que habías elegido ya no está a la venta: elegí otra.";

/**
 * Runs the spec's restore rules (restoreSavedCart) against the event as it is
 * now, with the codes saved in the cart. `getPublicEvent` must have been
 * called with the cart's codes, so `presaleUnlocked` is this buyer's.
 *
 * Two readings of the rules, both on the buyer's side:
 * - "it is hidden": a hidden ticket whose access code the buyer entered is
 *   not hidden for them (the code is what reveals it); without the code it
 *   is dropped, as the spec says.
 * - "the ticket no longer exists": also a ticket that exists but is paused,
 *   ended or not yet on sale ("ya no está a la venta").
 */
export function restoreCart(publicEvent: RestorableEvent, saved: StoredCart, options: { paymentMethods?: readonly string[] } = {}) {
  const notForSale = new Set(publicEvent.ticketTypes.filter((t) => NOT_FOR_SALE.includes(t.state)).map((t) => t.id));
  const tickets = publicEvent.cartTickets
    .filter((t) => !notForSale.has(t.id))
    .map((t) => ({ ...t, hidden: t.hidden && !(t.accessCode && sameCode(t.accessCode, saved.accessCode)) }));
  const restored = restoreSavedCart(
    saved,
    tickets,
    {
      accessCode: saved.accessCode,
      presaleUnlocked: publicEvent.presaleUnlocked,
    },
    options,
  );
  const { items } = restored;
  // A ticket left out above as not for sale still has its name for the message.
  const names = new Map(publicEvent.cartTickets.map((t) => [t.id, t.name]));
  const dropped: DroppedItem[] = restored.dropped.map((d) => ({ ...d, name: d.name ?? names.get(d.ticketId) ?? null }));
  const dateStillOnSale = !saved.eventDateId || publicEvent.dates.some((d) => d.id === saved.eventDateId && d.status === "active");
  const cart = normalizeCart({ ...saved, items, eventDateId: dateStillOnSale ? saved.eventDateId : undefined });
  const messages = dropped.map(dropMessage);
  if (!dateStillOnSale) messages.push(DATE_DROPPED_MESSAGE);
  return { cart, dropped, messages, changed: !sameCart(cart, saved) };
}

// ---------------------------------------------------------------------------
// The ticket picker's submission

type SelectableEvent = Pick<PublicEvent, "event" | "dates" | "ticketTypes">;
type PublicTicket = PublicEvent["ticketTypes"][number];

export const PICKER_MESSAGES = {
  ...SELECTION_MESSAGES,
  paymentMethod: (name: string) => `Por ahora «${name}» no se vende online: ${DROP_MESSAGES["payment-method"]}`,
  mixedMethods: "No podés combinar en una compra entradas que se pagan con Mercado Pago y entradas que se pagan por transferencia bancaria. Hacé una compra para cada una.",
} as const;

/**
 * What the picker sells: card-wallet (Mercado Pago) tickets and bank-transfer
 * ones. The bank-transfer ones go straight on to the checkout
 * (`restoreCart(…, { paymentMethods: PICKER_PAYMENT_METHODS })` there); a
 * later restore on the event page still drops them, as the spec's saved-cart
 * rule says. Promoter-account tickets are not sold online.
 */
export const PICKER_PAYMENT_METHODS = [CARD_WALLET_METHOD, "BankAccount"] as const;

/** Whether the picker offers a quantity for this ticket (and the action accepts one). */
export function isSelectable(ticket: PublicTicket, eventStatus: string): boolean {
  return (
    eventStatus === "active" &&
    ticket.state === "on_sale" &&
    (PICKER_PAYMENT_METHODS as readonly string[]).includes(ticket.paymentMethod) &&
    maxSelectable(ticket) >= Math.max(1, ticket.minPerOrder)
  );
}

export function maxSelectable(ticket: Pick<PublicTicket, "maxPerOrder" | "available">): number {
  return Math.max(0, Math.min(ticket.maxPerOrder, ticket.available));
}

/** The quantities a buyer can pick: 0, then from the minimum per order up to what is allowed and left. */
export function quantityOptions(ticket: Pick<PublicTicket, "minPerOrder" | "maxPerOrder" | "available">): number[] {
  const top = maxSelectable(ticket);
  const options = [0];
  for (let q = Math.max(1, ticket.minPerOrder); q <= top; q++) options.push(q);
  return options;
}

export type SelectionResult =
  | { ok: true; items: SavedCartItem[]; eventDateId: string | undefined }
  | {
      ok: false;
      formErrors: string[];
      /** `eventDateId`, or a ticket id for the message next to that ticket. */
      fieldErrors: Record<string, string[]>;
      /** What was chosen, to show it again. */
      values: Record<string, number>;
      eventDateId: string | undefined;
    };

/**
 * Validates what the buyer chose in the picker: at least one ticket, each
 * quantity within the ticket's minimum and maximum per order and what is
 * left, only tickets on sale, and a date when the event has several.
 */
export function validateSelection(publicEvent: SelectableEvent, form: FormData | URLSearchParams): SelectionResult {
  const formErrors: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  const values: Record<string, number> = {};
  const addFieldError = (key: string, message: string) => {
    (fieldErrors[key] ??= []).push(message);
  };

  const rawDate = String(form.get(DATE_FIELD) ?? "").trim();
  const { dates } = publicEvent;
  let eventDateId: string | undefined = dates.length === 1 ? dates[0].id : rawDate || undefined;

  const fail = (): SelectionResult => ({ ok: false, formErrors, fieldErrors, values, eventDateId: rawDate || undefined });

  if (publicEvent.event.status !== "active") {
    formErrors.push(PICKER_MESSAGES.paused);
    return fail();
  }
  if (!dates.length) {
    formErrors.push(PICKER_MESSAGES.noDates);
    return fail();
  }

  const date = dates.find((d) => d.id === eventDateId);
  if (!eventDateId) addFieldError(DATE_FIELD, PICKER_MESSAGES.dateRequired);
  else if (!date || date.status !== "active") {
    addFieldError(DATE_FIELD, PICKER_MESSAGES.dateUnavailable);
    eventDateId = undefined;
  }

  const byId = new Map(publicEvent.ticketTypes.map((t) => [t.id, t]));
  const items: SavedCartItem[] = [];
  for (const [name, rawValue] of form.entries()) {
    const ticketId = ticketIdOfField(name);
    if (!ticketId || typeof rawValue !== "string") continue;
    const text = rawValue.trim();
    if (text === "" || text === "0") continue;
    const qty = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
    const ticket = byId.get(ticketId);
    if (!ticket) {
      if (!formErrors.includes(PICKER_MESSAGES.unknownTicket)) formErrors.push(PICKER_MESSAGES.unknownTicket);
      continue;
    }
    if (!Number.isInteger(qty) || qty < 0) {
      addFieldError(ticket.id, PICKER_MESSAGES.invalidQty);
      continue;
    }
    if (qty === 0) continue;
    values[ticket.id] = qty;
    if (items.some((i) => i.ticketId === ticket.id)) continue;
    // The same per-order rules as createOrder (server/orders/rules.ts); the picker sells card-wallet and bank-transfer tickets.
    const failure = checkTicketSelection(ticket, qty, eventDateId, {
      allowedPaymentMethods: PICKER_PAYMENT_METHODS,
      paymentMethodMessage: PICKER_MESSAGES.paymentMethod,
    });
    if (failure) addFieldError(ticket.id, failure.message);
    items.push({ ticketId: ticket.id, qty });
  }
  if (!items.length && !Object.keys(fieldErrors).some((k) => k !== DATE_FIELD) && !formErrors.length) {
    formErrors.push(PICKER_MESSAGES.atLeastOne);
  }
  // One payment method per purchase (createOrder refuses a mix with the same words).
  const methods = new Set(items.map((i) => byId.get(i.ticketId)?.paymentMethod));
  if (methods.size > 1) formErrors.push(PICKER_MESSAGES.mixedMethods);
  if (formErrors.length || Object.keys(fieldErrors).length) return fail();
  return { ok: true, items, eventDateId };
}
