import { parseCookies, serializeCookie } from "#server/auth/cookies";
import type { PublicEvent, TicketState } from "#server/events/catalogue";
import {
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
import type { Ctx } from "#server/context";
import type { DomainError } from "#server/errors";
import { ONLINE_PAYMENT_ACCOUNTS, ORDER_MESSAGES, previewOrder, type OrderPreview } from "#server/orders/preview";
import { isFormError } from "#app/lib/domain-errors.server";

/**
 * The buyer's saved cart in the cookie `incomplete-saved-order--{eventSlug}`
 * (a fixed contract, decision 37): JSON, path /, two days, SameSite=Lax, HttpOnly. It holds
 * only items with quantity above 0, the codes the buyer typed and the
 * promoter's nickname, plus the chosen date (the spec's cart has no date; we
 * keep it beside the items so the checkout knows which night).
 */
export const SAVED_CART_MAX_AGE_SECONDS = 2 * 24 * 60 * 60;

export interface StoredCart extends SavedCart {
  eventDateId?: string;
  /** Reserved seating (docs/seating.md): the seats chosen on /asientos/{slug}; the items are what they buy. */
  seats?: string[];
}

export function readSavedCart(request: Request, eventSlug: string): StoredCart | null {
  const raw = parseCookies(request.headers.get("cookie"))[savedCartCookieName(eventSlug.toLowerCase())];
  const cart = parseSavedCart(raw);
  if (!cart) return null;
  let eventDateId: string | undefined;
  let seats: string[] | undefined;
  try {
    const value = JSON.parse(raw!) as { eventDateId?: unknown; seats?: unknown };
    if (typeof value.eventDateId === "string" && value.eventDateId.length <= 64) eventDateId = value.eventDateId;
    if (Array.isArray(value.seats) && value.seats.length <= 50 && value.seats.every((g) => typeof g === "string" && g.length > 0 && g.length <= 64)) seats = value.seats as string[];
  } catch {
    // parseSavedCart already accepted it; nothing more to read.
  }
  return { ...cart, ...(eventDateId ? { eventDateId } : {}), ...(seats?.length ? { seats } : {}) };
}

/** The cart as the cookie keeps it: no empty keys, no items with quantity 0. */
export function normalizeCart(cart: StoredCart): StoredCart {
  const out: StoredCart = { items: toSavedCart(cart).items };
  if (cart.eventDateId) out.eventDateId = cart.eventDateId;
  if (cart.seats?.length && out.items.length) out.seats = cart.seats;
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
// The ticket picker and the payer form: the selection priced and checked by the domain

type PublicTicket = PublicEvent["ticketTypes"][number];

/**
 * What the picker sells: what the domain sells online (server/orders/preview.ts),
 * card-wallet (Mercado Pago) tickets and bank-transfer ones. The bank-transfer
 * ones go straight on to the checkout (`restoreCart(…, { paymentMethods:
 * PICKER_PAYMENT_METHODS })` there); a later restore on the event page still
 * drops them, as the spec's saved-cart rule says. Promoter-account tickets
 * are not sold online.
 */
export const PICKER_PAYMENT_METHODS: readonly string[] = ONLINE_PAYMENT_ACCOUNTS;

/** Whether the picker offers a quantity for this ticket (previewOrder decides whether it may be bought). */
export function isSelectable(ticket: PublicTicket, eventStatus: string): boolean {
  return (
    eventStatus === "active" &&
    ticket.state === "on_sale" &&
    PICKER_PAYMENT_METHODS.includes(ticket.paymentMethod) &&
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
  | { ok: true; items: SavedCartItem[]; eventDateId: string }
  | {
      ok: false;
      formErrors: string[];
      /** `eventDateId`, or a ticket id for the message next to that ticket. */
      fieldErrors: Record<string, string[]>;
      /** What was chosen, to show it again. */
      values: Record<string, number>;
      eventDateId: string | undefined;
    };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The picker's form read as a selection (field names and numbers only:
 * `qty-{ticketId}`, `eventDateId`); the rules are previewOrder's.
 */
function readPickerForm(form: FormData | URLSearchParams) {
  const items: SavedCartItem[] = [];
  const values: Record<string, number> = {};
  const fieldErrors: Record<string, string[]> = {};
  let unknown = false;
  for (const [name, rawValue] of form.entries()) {
    const ticketId = ticketIdOfField(name);
    if (!ticketId || typeof rawValue !== "string") continue;
    const text = rawValue.trim();
    if (text === "" || text === "0") continue;
    if (!UUID.test(ticketId)) {
      unknown = true;
      continue;
    }
    const qty = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
    if (!Number.isInteger(qty)) {
      (fieldErrors[ticketId] ??= []).push(ORDER_MESSAGES.invalidQty);
      continue;
    }
    if (qty === 0 || values[ticketId] !== undefined) continue;
    values[ticketId] = qty;
    items.push({ ticketId, qty });
  }
  const eventDateId = String(form.get(DATE_FIELD) ?? "").trim() || undefined;
  return { items, values, fieldErrors, unknown, eventDateId };
}

/**
 * The domain's refusal as the picker shows it: the date and each ticket's
 * message next to them, everything else (the event, a ticket the buyer may
 * not see, a mix of payment methods, no transfer account) above the form.
 */
function pickerErrors(error: DomainError, items: SavedCartItem[]) {
  const formErrors: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  const add = (key: string, messages: string[]) => {
    const list = (fieldErrors[key] ??= []);
    for (const m of messages) if (!list.includes(m)) list.push(m);
  };
  for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
    const item = /^items\.(\d+)\./.exec(key);
    if (key === "eventDateId") add(DATE_FIELD, messages);
    else if (item && items[Number(item[1])]) add(items[Number(item[1])].ticketId, messages);
    else if (items.some((i) => i.ticketId === key)) add(key, messages);
    else for (const m of messages) if (!formErrors.includes(m)) formErrors.push(m);
  }
  if (!formErrors.length && !Object.keys(fieldErrors).length) formErrors.push(error.message);
  return { formErrors, fieldErrors };
}

/**
 * What the buyer chose in the picker, checked by `previewOrder` (the rules
 * createOrder runs, with its words): the event on sale, the date, each
 * ticket's minimum and maximum per order and what is left, only tickets this
 * buyer may see (the codes in the saved cart), one payment method. On
 * success, the items to save and the date the order is for.
 */
export async function checkPickerSelection(
  ctx: Ctx,
  input: { eventSlug: string; form: FormData | URLSearchParams; accessCode?: string; presaleCode?: string },
): Promise<SelectionResult> {
  const read = readPickerForm(input.form);
  const fail = (errors: { formErrors: string[]; fieldErrors: Record<string, string[]> }): SelectionResult => ({
    ok: false,
    formErrors: errors.formErrors,
    fieldErrors: errors.fieldErrors,
    values: read.values,
    eventDateId: read.eventDateId,
  });
  const formErrors: string[] = read.unknown ? [ORDER_MESSAGES.unknownTicket] : [];
  if (!read.items.length) {
    if (!formErrors.length && !Object.keys(read.fieldErrors).length) formErrors.push(ORDER_MESSAGES.atLeastOne);
    return fail({ formErrors, fieldErrors: read.fieldErrors });
  }
  try {
    const preview = await previewOrder(ctx, {
      eventSlug: input.eventSlug,
      eventDateId: read.eventDateId && UUID.test(read.eventDateId) ? read.eventDateId : read.eventDateId ? NO_SUCH_DATE : undefined,
      items: read.items,
      accessCode: input.accessCode,
      presaleCode: input.presaleCode,
    });
    if (formErrors.length || Object.keys(read.fieldErrors).length) return fail({ formErrors, fieldErrors: read.fieldErrors });
    return { ok: true, items: preview.lines.map((l) => ({ ticketId: l.ticketTypeId, qty: l.qty })), eventDateId: preview.date.id };
  } catch (error) {
    if (!isFormError(error)) throw error;
    const found = pickerErrors(error, read.items);
    for (const m of found.formErrors) if (!formErrors.includes(m)) formErrors.push(m);
    return fail({ formErrors, fieldErrors: { ...read.fieldErrors, ...found.fieldErrors } });
  }
}

/** A date id that is no date: a malformed one posted is "that date is not on sale". */
const NO_SUCH_DATE = "00000000-0000-0000-0000-000000000000";

export type CartPreview =
  | {
      ok: true;
      preview: OrderPreview;
      /** Why the saved coupon was left out of the preview (it no longer applies), when it was. */
      couponProblem: string | null;
    }
  | { ok: false; error: DomainError };

/**
 * The saved cart priced and checked by `previewOrder`, as the payer form
 * shows it and posts it. With `dropBadCoupon`, a coupon that no longer
 * applies is left out (and said why) instead of failing the whole preview.
 */
export async function previewCart(
  ctx: Ctx,
  eventSlug: string,
  cart: StoredCart,
  options: { couponCode?: string | null; dropBadCoupon?: boolean } = {},
): Promise<CartPreview> {
  const input = {
    eventSlug,
    eventDateId: cart.eventDateId,
    items: cart.items,
    accessCode: cart.accessCode,
    presaleCode: cart.presaleCode,
    referredNick: cart.referredNick,
  };
  const couponCode = options.couponCode === undefined ? cart.couponCode : options.couponCode;
  try {
    return { ok: true, preview: await previewOrder(ctx, { ...input, couponCode }), couponProblem: null };
  } catch (error) {
    if (!isFormError(error)) throw error;
    if (!(couponCode && options.dropBadCoupon && error.fieldErrors.couponCode)) return { ok: false, error };
    try {
      return { ok: true, preview: await previewOrder(ctx, input), couponProblem: error.fieldErrors.couponCode[0] ?? error.message };
    } catch (again) {
      if (!isFormError(again)) throw again;
      return { ok: false, error: again };
    }
  }
}
