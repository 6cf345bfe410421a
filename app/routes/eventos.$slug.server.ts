import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { applyPublicCache } from "#app/lib/cache.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { Ctx } from "#server/context";
import { referrerForEvent } from "#server/promoters/attribution";
import { menuOnSale } from "#server/menu/menu";
import { getPublicEvent, TICKET_STATE_LABELS, type BuyerUnlock, type PublicEvent } from "#server/events/catalogue";
import { COUPON_MESSAGES, previewCoupon } from "#server/coupons/coupons";
import { couponForEventPage, type CouponPagePreview } from "#server/coupons/preview";
import { sameCode } from "#common/saved-cart";
import { formatDate, formatDateTime, formatEventStart, formatLongDay, formatTime } from "#common/dates";
import { serviceFeeRateLabel } from "#common/pricing";
import { platformIvaCondition, unitPriceFigures } from "#server/orders/price-display";
import { withoutNationalTaxesLine } from "#common/tax-display";
import { buyerMethodOfAccount, orderHold } from "#server/orders/preview";
import { withFlash } from "#app/lib/flash.server";
import { getRequestContext } from "#app/lib/session.server";
import { categoryLabel, provinceLabel } from "#app/lib/catalogue.server";
import {
  checkPickerSelection,
  isSelectable,
  normalizeCart,
  quantityOptions,
  readSavedCart,
  restoreCart,
  sameCart,
  savedCartCookie,
  type StoredCart,
} from "#app/lib/cart.server";
import { CODE_FIELD, CODE_INTENT, INTENT_FIELD } from "#app/components/events/picker-fields";
import type { EventPageActionData, EventPageData, LinkBoxData, PickerTicket } from "#app/components/events/EventPage";
import { queuePath, toQueueOnRefusal } from "#app/components/queue/redirect.server";
import { isAdmitted } from "#server/queue/queue";
import { resaleOffersOf } from "#app/components/resale/offers.server";
import { waitlistEnabled } from "#server/waitlist/waitlist";
import { cachedSeatingOfEvent } from "#server/seating/cache";

/**
 * Loader and action of the event page, shared by `/eventos/{slug}`, the
 * referral link `/eventos/{slug}/{nick}` and its mistyped variant
 * `/eventos/{slug}/{nick}/{extra}` (which only redirects).
 */

export function eventPath(slug: string, nick?: string | null) {
  return nick ? `/eventos/${encodeURIComponent(slug)}/${encodeURIComponent(nick)}` : `/eventos/${encodeURIComponent(slug)}`;
}

/** "jueves 3 de diciembre" → "Jueves 3 de diciembre" */
export function longDay(date: Date): string {
  const text = formatLongDay(date);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function payerInfoPath(slug: string) {
  return `/checkout/payer-info/${encodeURIComponent(slug)}`;
}

const COUPON_UNKNOWN: string = COUPON_MESSAGES.unknown;
/** The event page's "Quitar cupón" button. */
export const REMOVE_COUPON_INTENT = "quitar-cupon";

export const CODE_MESSAGES = {
  empty: "Ingresá el código que te pasaron",
  invalid: "Ese código no es válido para este evento",
  presale: "¡Listo! Ya podés elegir entradas de preventa.",
  access: "¡Listo! Tu código habilitó entradas nuevas.",
} as const;

/** A missing, draft or deleted event is the 404 page. */
export async function loadPublicEventOr404(ctx: Ctx, slug: string, unlock: BuyerUnlock) {
  try {
    return await getPublicEvent(ctx, slug, unlock);
  } catch (error) {
    throw pageErrorResponse(error);
  }
}

/** The promoter behind a referral nick for this event, or null (unknown, malformed, or not a promoter of it): never an error. */
export function findReferrer(ctx: Ctx, publicEvent: Pick<PublicEvent, "event" | "organization">, nick: string | null | undefined) {
  return referrerForEvent(ctx.db, { id: publicEvent.event.id, organizationId: publicEvent.organization.id }, nick);
}

/** `/eventos/{slug}/{nick}/{anything}`: back to the referral link, keeping the query (pixelId…). */
export function redirectMistypedReferral(request: Request, params: { slug?: string; nick?: string }): never {
  const url = new URL(request.url);
  throw redirect(`${eventPath(params.slug ?? "", params.nick)}${url.search}`, request.method === "GET" || request.method === "HEAD" ? 302 : 303);
}

function ticketNote(ticket: PublicEvent["ticketTypes"][number]): string | null {
  const method = buyerMethodOfAccount(ticket.paymentMethod);
  if (method === "BANK_TRANSFER") {
    // Bought here; the account to transfer to is shown after the buyer's details (the domain's hold: 48 hours).
    return `Se paga por transferencia bancaria: te mostramos la cuenta después de tus datos y tenés ${orderHold("BANK_TRANSFER").label} para transferir.`;
  }
  if (!method) return "Se paga directamente al relacionista público.";
  if (ticket.state === "on_sale" && ticket.available < Math.max(1, ticket.minPerOrder)) {
    return "Quedan menos entradas que el mínimo por compra.";
  }
  const notes: string[] = [];
  if (ticket.minPerOrder > 1) notes.push(`Mínimo ${ticket.minPerOrder} por compra`);
  if (ticket.state === "on_sale" && ticket.maxPerOrder < 10) notes.push(`Máximo ${ticket.maxPerOrder} por compra`);
  return notes.length ? notes.join(" · ") : null;
}

function mapsUrl(venue: PublicEvent["event"]["venue"]) {
  const query = [venue.name, venue.address, venue.city, provinceLabel(venue.province), "Argentina"].filter(Boolean).join(", ");
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** "Viernes 20 de diciembre", with " de 2030" when it is not this year. */
function dayWithYear(date: Date, now: Date): string {
  const year = formatDate(date).slice(-4);
  return year === formatDate(now).slice(-4) ? longDay(date) : `${longDay(date)} de ${year}`;
}

/** The doors time said once: "20:00" the day of the show, with the date only when the doors open another day. */
function doorsLabel(doorsAt: Date, startsAt: Date): string {
  return formatDate(doorsAt) === formatDate(startsAt) ? formatTime(doorsAt) : formatDateTime(doorsAt);
}

const lineOf = (formatted: string | null) => (formatted === null ? null : withoutNationalTaxesLine(formatted));

export function toEventPageData(
  publicEvent: PublicEvent,
  cart: StoredCart | null,
  extra: { referrer: EventPageData["referrer"]; dropped: string[]; path: string; coupon?: CouponPagePreview | null; now?: Date },
): EventPageData {
  const { event, organization, dates, ticketTypes, presaleUnlocked } = publicEvent;
  const dateLabels = new Map(dates.map((d) => [d.id, formatDateTime(d.startsAt)]));
  const fee = event.serviceFeeBps;
  const tickets: PickerTicket[] = ticketTypes.map((t) => {
    // Each ticket's final price, service fee included, comes first (docs/prices.md); with a coupon, the price it leaves.
    const full = unitPriceFigures(t.price, fee);
    const discountedPrice = extra.coupon?.discountedPrices[t.id];
    const discounted = discountedPrice !== undefined ? unitPriceFigures(discountedPrice, fee) : null;
    return {
      id: t.id,
      name: t.name,
      description: t.description,
      price: t.price,
      priceLabel: full.final,
      discountedPriceLabel: discounted?.final ?? null,
      withoutNationalTaxesLine: lineOf((discounted ?? full).withoutNationalTaxes),
      state: t.state,
      stateLabel: TICKET_STATE_LABELS[t.state],
      selectable: isSelectable(t, event.status),
      options: quantityOptions(t),
      note: ticketNote(t),
      dateLabel: t.eventDateId && dates.length > 1 ? (dateLabels.get(t.eventDateId) ?? null) : null,
      presale: t.presale,
      unlocked: t.hidden || t.requiresAccessCode,
    };
  });
  const selected: Record<string, number> = {};
  for (const item of cart?.items ?? []) selected[item.ticketId] = item.qty;
  // The fee grows with the price, so the cheapest ticket has the lowest final price.
  const cheapest = tickets.filter((t) => t.selectable).sort((a, b) => a.price - b.price)[0];
  return {
    event: {
      slug: event.slug,
      name: event.name,
      description: event.description,
      imageUrl: event.imageUrl,
      category: event.category,
      categoryLabel: categoryLabel(event.category),
      minAge: event.minAge,
      paused: event.status !== "active",
      venue: { name: event.venue.name, address: event.venue.address, city: event.venue.city, provinceLabel: provinceLabel(event.venue.province) },
      mapsUrl: mapsUrl(event.venue),
      hasPresale: event.hasPresale,
      serviceFeeBps: fee,
      serviceFeeLabel: serviceFeeRateLabel(fee),
      ivaCondition: platformIvaCondition(),
    },
    organization: { name: organization.name, slug: organization.slug },
    dates: dates.map((d) => ({
      id: d.id,
      dayLabel: dayWithYear(d.startsAt, extra.now ?? new Date()),
      startsLabel: formatEventStart(d.startsAt),
      timeLabel: formatTime(d.startsAt),
      startsIso: d.startsAt.toISOString(),
      doorsLabel: d.doorsAt ? doorsLabel(d.doorsAt, d.startsAt) : null,
      onSale: d.status === "active" && event.status === "active",
    })),
    tickets,
    fromLabel: cheapest ? (cheapest.price === 0 ? "Gratis" : `Desde ${cheapest.priceLabel}`) : null,
    selected,
    eventDateId: cart?.eventDateId ?? null,
    presaleUnlocked,
    accessCodeApplied: Boolean(cart?.accessCode && publicEvent.cartTickets.some((t) => t.accessCode && sameCode(t.accessCode, cart.accessCode))),
    referrer: extra.referrer,
    dropped: extra.dropped,
    pixelId: event.pixelId && /^\d+$/.test(event.pixelId) ? event.pixelId : null,
    path: extra.path,
    coupon: extra.coupon ? couponView(extra.coupon) : null,
  };
}

/** The applied coupon as the page shows it; its rule feeds the picker's live total. */
function couponView(coupon: CouponPagePreview): NonNullable<EventPageData["coupon"]> {
  return { code: coupon.code, label: coupon.label, onlyFor: coupon.onlyFor, rule: coupon.rule };
}

/**
 * The event page: the event with the tickets this buyer may see (the codes
 * saved in their cart reveal hidden and presale ones), the saved quantities
 * preselected after running the restore rules (the cookie is rewritten when
 * something was dropped) and the promoter of a referral link.
 */
export async function eventPageLoader({ request, params }: LoaderFunctionArgs) {
  if (params.extra !== undefined) redirectMistypedReferral(request, params);
  const slug = (params.slug ?? "").toLowerCase();
  const { ctx, headers } = await getRequestContext(request);
  const saved = readSavedCart(request, slug);
  const publicEvent = await loadPublicEventOr404(ctx, slug, { accessCode: saved?.accessCode, presaleCode: saved?.presaleCode });
  // While the event's queue is on, the picker is for admitted people; anyone else waits in /fila/{slug}.
  if (!(await isAdmitted(ctx, publicEvent.event.id))) throw redirect(queuePath(publicEvent.event.slug), { headers });

  let cart: StoredCart | null = saved;
  let dropped: string[] = [];
  if (saved) {
    const restored = restoreCart(publicEvent, saved);
    cart = restored.cart;
    dropped = restored.messages;
  }

  // The link's promoter wins; otherwise the one saved in the cart (if still a promoter).
  const fromLink = params.nick ? await findReferrer(ctx, publicEvent, params.nick) : null;
  const referrer = fromLink ?? (cart?.referredNick ? await findReferrer(ctx, publicEvent, cart.referredNick) : null);

  // The coupon saved by /canjear/{id} or the code form: shown with its prices, or dropped with the reason.
  let coupon: CouponPagePreview | null = null;
  if (cart?.couponCode) {
    const found = await couponForEventPage(ctx.db, {
      event: publicEvent.event,
      tickets: publicEvent.ticketTypes,
      code: cart.couponCode,
      now: ctx.now,
    });
    if (found.ok) coupon = found;
    else dropped = [...dropped, `Sacamos el cupón ${cart.couponCode}: ${found.message}`];
  }
  const next: StoredCart = normalizeCart({ ...(cart ?? { items: [] }), referredNick: referrer?.nick, couponCode: coupon?.code });
  if (!sameCart(next, saved)) headers.append("Set-Cookie", savedCartCookie(publicEvent.event.slug, next));

  const page = toEventPageData(publicEvent, next, {
    referrer: referrer ? { firstName: referrer.firstName, lastName: referrer.lastName } : null,
    dropped,
    path: eventPath(publicEvent.event.slug, params.nick ? params.nick : null),
    coupon,
    now: ctx.now,
  });
  // The menu's link only while it has something to order (docs/menu.md); a paused event sells nothing.
  page.menuHref = publicEvent.event.status === "active" && (await menuOnSale(ctx, publicEvent.event.id)) ? `/menu/${publicEvent.event.slug}` : null;
  await pointSeatedTicketsToTheMap(ctx, publicEvent, page);
  // Something sold out and the organizer turned the waiting list on: the page offers it (docs/waitlist.md).
  const soldOut = page.tickets.filter((t) => t.state === "sold_out");
  page.waitlistHref =
    soldOut.length && publicEvent.event.status === "active" && (await waitlistEnabled(ctx, publicEvent.event.id))
      ? `/lista-de-espera/${publicEvent.event.slug}${soldOut.length === page.tickets.length ? "" : `?entrada=${soldOut[0].id}`}`
      : null;
  page.linkBoxes = linkBoxesOf(page);
  // The plain page (no saved cart, no promoter link) is the same for every anonymous visitor: public, so the
  // browser, a CDN and the server's micro-cache may keep it a few seconds. Anything personal: private.
  if (!saved && !params.nick) applyPublicCache(request, headers);
  else headers.set("Cache-Control", "private, no-cache");
  // Resale hook (docs/resale.md): the event's "Reventa oficial" listings.
  return data({ ...page, resale: await resaleOffersOf(ctx, publicEvent.event.slug) }, { headers });
}

/**
 * Tickets sold by seat are bought on the map (`/asientos/{slug}`, docs/seating.md): the picker shows their price
 * but no quantity, and the page links to the map while any of them is on sale.
 */
async function pointSeatedTicketsToTheMap(ctx: Ctx, publicEvent: PublicEvent, page: EventPageData) {
  // From memory (server/seating/cache.ts): every visit to the page asks, and the answer rarely changes.
  const found = await cachedSeatingOfEvent(ctx.db, publicEvent.event.id);
  if (!found) return;
  const seated = new Set(Object.values(found.seating.categories));
  let onSale = false;
  for (const ticket of page.tickets) {
    if (!seated.has(ticket.id)) continue;
    onSale ||= ticket.selectable;
    if (ticket.selectable) ticket.note = "Con asiento numerado: elegilo en el mapa.";
    ticket.selectable = false;
    ticket.options = [];
  }
  page.seatsHref = onSale && !page.event.paused ? `/asientos/${publicEvent.event.slug}` : null;
}

/** The boxes beside the picker and under the details, with their words (kept out of the page's JavaScript). */
function linkBoxesOf(page: EventPageData): LinkBoxData[] {
  const boxes: LinkBoxData[] = [];
  if (page.seatsHref) {
    boxes.push({ id: "asientos-del-evento", title: "Asientos numerados", text: "Elegí tus lugares en el mapa o pedí la mejor ubicación disponible.", href: page.seatsHref, action: "Elegir asientos", primary: true });
  }
  if (page.menuHref) {
    boxes.push({ id: "menu-del-evento", title: "Menú de la barra", text: "Pedí tus consumiciones desde el celular y retiralas en la barra con su QR.", href: page.menuHref, action: "Ver el menú" });
  }
  return boxes;
}

/**
 * Two forms post here: the ticket picker (save the cart, go to the checkout)
 * and "¿Tenés un código?" (save the code in the cart, show the page again).
 */
export async function eventPageAction({ request, params }: ActionFunctionArgs) {
  if (params.extra !== undefined) redirectMistypedReferral(request, params);
  const slug = (params.slug ?? "").toLowerCase();
  const form = await request.formData();
  const { ctx, headers } = await getRequestContext(request);
  const saved: StoredCart = readSavedCart(request, slug) ?? { items: [] };

  if (form.get(INTENT_FIELD) === REMOVE_COUPON_INTENT) {
    headers.append("Set-Cookie", savedCartCookie(slug, { ...saved, couponCode: undefined }));
    const url = new URL(request.url);
    return redirect(`${url.pathname}${url.search}`, { status: 303, headers: withFlash(headers, { type: "success", message: "Sacamos el cupón de tu compra." }) });
  }

  if (form.get(INTENT_FIELD) === CODE_INTENT) {
    const code = String(form.get(CODE_FIELD) ?? "").trim().slice(0, 60);
    if (!code) return data<EventPageActionData>({ intent: "codigo", codeError: CODE_MESSAGES.empty }, { status: 400, headers });
    const probe = await loadPublicEventOr404(ctx, slug, { accessCode: code, presaleCode: code });
    const unlocksPresale = probe.presaleUnlocked && probe.event.hasPresale;
    const unlocksTickets = probe.cartTickets.some((t) => t.accessCode && sameCode(t.accessCode, code));
    if (!unlocksPresale && !unlocksTickets) {
      // Not an access or presale code: maybe one of the event's coupons.
      const coupon = await previewCoupon(ctx.db, { eventId: probe.event.id, code, now: ctx.now });
      if (!coupon.ok) {
        const known = coupon.message !== COUPON_UNKNOWN;
        return data<EventPageActionData>({ intent: "codigo", codeError: known ? coupon.message : CODE_MESSAGES.invalid }, { status: 400, headers });
      }
      headers.append("Set-Cookie", savedCartCookie(probe.event.slug, { ...saved, couponCode: coupon.coupon.code }));
      const url = new URL(request.url);
      return redirect(`${url.pathname}${url.search}`, {
        status: 303,
        headers: withFlash(headers, { type: "success", message: `¡Listo! Cupón ${coupon.coupon.code} aplicado: ${coupon.label}` }),
      });
    }
    const cart: StoredCart = {
      ...saved,
      presaleCode: unlocksPresale ? code : saved.presaleCode,
      accessCode: unlocksTickets ? code : saved.accessCode,
    };
    headers.append("Set-Cookie", savedCartCookie(probe.event.slug, cart));
    const url = new URL(request.url);
    return redirect(`${url.pathname}${url.search}`, {
      status: 303,
      headers: withFlash(headers, { type: "success", message: unlocksTickets ? CODE_MESSAGES.access : CODE_MESSAGES.presale }),
    });
  }

  const publicEvent = await loadPublicEventOr404(ctx, slug, { accessCode: saved.accessCode, presaleCode: saved.presaleCode });
  // Checked by the domain (previewOrder), with the codes saved in the cart: the rules and words createOrder uses.
  const result = await checkPickerSelection(ctx, {
    eventSlug: publicEvent.event.slug,
    form,
    accessCode: saved.accessCode,
    presaleCode: saved.presaleCode,
  }).catch(toQueueOnRefusal(publicEvent.event.slug, headers));
  if (!result.ok) {
    const { ok: _ok, ...errors } = result;
    return data<EventPageActionData>({ intent: "comprar", ...errors }, { status: 400, headers });
  }
  const fromLink = params.nick ? await findReferrer(ctx, publicEvent, params.nick) : null;
  const referrer = fromLink ?? (saved.referredNick ? await findReferrer(ctx, publicEvent, saved.referredNick) : null);
  const cart: StoredCart = {
    items: result.items,
    eventDateId: result.eventDateId,
    accessCode: saved.accessCode,
    presaleCode: saved.presaleCode,
    referredNick: referrer?.nick,
    couponCode: saved.couponCode,
  };
  headers.append("Set-Cookie", savedCartCookie(publicEvent.event.slug, cart));
  return redirect(payerInfoPath(publicEvent.event.slug), { status: 303, headers });
}
