import { describe, expect, it } from "vitest";
import type { PublicEvent } from "#server/events/catalogue";
import { parseSetCookies } from "#tests/support/remix";
import { readSavedCart, restoreCart, savedCartCookie } from "./cart.server";

type Ticket = PublicEvent["ticketTypes"][number];
type CartTicket = PublicEvent["cartTickets"][number];

const ticket = (over: Partial<Ticket> = {}): Ticket => ({
  id: "general",
  eventDateId: null,
  name: "General",
  description: "",
  price: 1_000_000,
  available: 10,
  minPerOrder: 1,
  maxPerOrder: 10,
  hidden: false,
  presale: false,
  paymentMethod: "MercadoPagoAccount",
  requiresAccessCode: false,
  state: "on_sale",
  ...over,
});

const date = (id: string, status: "active" | "paused" = "active") => ({
  id,
  startsAt: new Date("2030-01-10T00:00:00Z"),
  endsAt: new Date("2030-01-10T05:00:00Z"),
  doorsAt: null,
  status,
});

// The picker's rules (date, per-ticket, payment method) are previewOrder's: server/orders/preview.test.ts and the
// event page's route tests (app/routes/catalogue.test.ts) check them.

describe("restoreCart", () => {
  const cartTicket = (over: Partial<CartTicket> = {}): CartTicket => ({
    id: "general",
    name: "General",
    available: 10,
    hidden: false,
    paymentMethod: "MercadoPagoAccount",
    presale: false,
    accessCode: null,
    ...over,
  });
  const event = (cartTickets: CartTicket[], ticketTypes: Ticket[] = [], dates = [date("d1")]) => ({ cartTickets, ticketTypes, dates, presaleUnlocked: false });

  it("keeps a hidden ticket for the buyer who entered its code, drops it for anyone else", () => {
    const hidden = cartTicket({ id: "rrpp", name: "Invitados", hidden: true, accessCode: "AMIGOS" });
    const saved = { items: [{ ticketId: "rrpp", qty: 1 }] };
    expect(restoreCart(event([hidden]), { ...saved, accessCode: "amigos" }).messages).toEqual([]);
    expect(restoreCart(event([hidden]), saved).messages).toEqual(["Sacamos «Invitados» de tu compra porque ya no está disponible"]);
  });

  it("drops a ticket that is paused now, and a date that is no longer on sale", () => {
    const result = restoreCart(event([cartTicket()], [ticket({ state: "paused" })], [date("d1", "paused")]), {
      items: [{ ticketId: "general", qty: 2 }],
      eventDateId: "d1",
    });
    expect(result.messages).toEqual([
      "Sacamos «General» de tu compra porque ya no está a la venta",
      "La fecha que habías elegido ya no está a la venta: elegí otra.",
    ]);
    expect(result.cart).toEqual({ items: [] });
    expect(result.changed).toBe(true);
  });
});

describe("saved cart cookie", () => {
  it("round-trips the cart with its date, and clears the cookie when nothing is left", () => {
    const set = savedCartCookie("fiesta", { items: [{ ticketId: "a", qty: 2 }, { ticketId: "b", qty: 0 }], eventDateId: "d1", referredNick: "romi" });
    const cookie = parseSetCookies(new Headers([["Set-Cookie", set]]))["incomplete-saved-order--fiesta"];
    expect(JSON.parse(cookie.value)).toEqual({ items: [{ ticketId: "a", qty: 2 }], eventDateId: "d1", referredNick: "romi" });
    const request = new Request("http://x/", { headers: { cookie: `incomplete-saved-order--fiesta=${cookie.raw}` } });
    expect(readSavedCart(request, "fiesta")).toEqual({ items: [{ ticketId: "a", qty: 2 }], eventDateId: "d1", referredNick: "romi" });

    const cleared = parseSetCookies(new Headers([["Set-Cookie", savedCartCookie("fiesta", { items: [] })]]))["incomplete-saved-order--fiesta"];
    expect(cleared.maxAge).toBe(0);
  });
});
