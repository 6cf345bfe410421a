import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ticketTypes } from "#server/db/schema";
import { addEventDate, setEventPixel, setEventStatus, setPresaleCode } from "#server/events/events";
import { createTestUser } from "#tests/support/context";
import { createProducer, createPublishedEvent, createTransferAccount, daysFromNow, makePromoter } from "#tests/support/factories";
import { ORDER_MESSAGES } from "#server/orders/preview";
import { NO_TRANSFER_ACCOUNT } from "#server/payouts/bank-accounts";
import { cookiesAfter, formRequest, getRequest, run, type RouteResult } from "#tests/support/remix";
import * as home from "./_index";
import * as eventPage from "./eventos.$slug";
import * as referral from "./eventos.$slug.$nick";
import * as mistyped from "./eventos.$slug.$nick.$extra";
import * as payerInfo from "./checkout.payer-info.$eventSlug";
import * as orgPage from "./$orgSlug";

const TWO_DAYS = 2 * 24 * 60 * 60;
const cartCookie = (slug: string) => `incomplete-saved-order--${slug}`;

type Page = Awaited<ReturnType<typeof eventPage.loader>>["data"];

function savedCart(result: RouteResult, slug: string) {
  const cookie = result.cookies[cartCookie(slug)];
  return cookie ? JSON.parse(cookie.value) : null;
}

async function openEvent(slug: string, cookies: Record<string, string> = {}, path = `/eventos/${slug}`) {
  const params: Record<string, string> = { slug };
  const nick = path.split("/")[3];
  if (nick) params.nick = nick;
  const result = await run<Page>(eventPage.loader, getRequest(path, { cookies }), params);
  expect(result.status).toBe(200);
  return result;
}

function ticketId(page: Page, name: string) {
  const ticket = page.tickets.find((t) => t.name === name);
  if (!ticket) throw new Error(`No ticket named ${name} on the page`);
  return ticket.id;
}

async function buy(slug: string, fields: Record<string, string>, options: { cookies?: Record<string, string>; nick?: string } = {}) {
  const path = options.nick ? `/eventos/${slug}/${options.nick}` : `/eventos/${slug}`;
  const action = options.nick ? referral.action : eventPage.action;
  return run(action, formRequest(path, { intent: "comprar", ...fields }, { cookies: options.cookies }), options.nick ? { slug, nick: options.nick } : { slug });
}

describe("/ (home)", () => {
  it("finds events by name without accents and by province, server-rendered with the card data", async () => {
    const { ctx, organization } = await createProducer();
    await createPublishedEvent(ctx, organization.id, { name: "Peña Folklórica del Norte", province: "AR-A", days: 4 });
    await createPublishedEvent(ctx, organization.id, { name: "Cuarteto en Córdoba", province: "AR-X", days: 6 });

    const byName = await run(home.loader, getRequest("/?q=pena+folklorica"));
    expect(byName.data.events.map((e: { name: string }) => e.name)).toEqual(["Peña Folklórica del Norte"]);
    expect(byName.data.events[0]).toMatchObject({
      slug: "pena-folklorica-del-norte",
      // The final price, the 10 % service fee included (docs/prices.md).
      priceLabel: expect.stringMatching(/^Desde \$\s?16\.500,00$/),
      dateLabel: expect.stringMatching(/^21:00 - \d{2}\/\d{2}\/\d{4}$/),
      provinceLabel: "Salta",
      soldOut: false,
    });

    const byProvince = await run(home.loader, getRequest("/?provincia=AR-X"));
    expect(byProvince.data.events.map((e: { name: string }) => e.name)).toEqual(["Cuarteto en Córdoba"]);

    const nothing = await run(home.loader, getRequest("/?q=reggaeton+en+ushuaia"));
    expect(nothing.data.events).toEqual([]);
    expect(nothing.data.searching).toBe(true);
  });

  it("is publicly cacheable only for anonymous visitors", async () => {
    const anonymous = await run(home.loader, getRequest("/"));
    expect(anonymous.headers.get("Cache-Control")).toBe("public, max-age=30, stale-while-revalidate=300");
    const signedIn = await run(home.loader, getRequest("/", { cookies: { at: "x", rt: "y" } }));
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("shows sold-out events as such and paginates with plain links", async () => {
    const { ctx, organization } = await createProducer();
    await createPublishedEvent(ctx, organization.id, { name: "Agotadísimo", days: 2, ticketTypes: [{ name: "General", price: 100_000, stock: 0 }] });
    const result = await run(home.loader, getRequest("/?q=agotadisimo"));
    expect(result.data.events[0]).toMatchObject({ name: "Agotadísimo", soldOut: true });

    for (let i = 0; i < 13; i++) await createPublishedEvent(ctx, organization.id, { name: `Ciclo Paginado ${i}`, days: 20 + i });
    const first = await run(home.loader, getRequest("/?q=ciclo+paginado"));
    expect(first.data.events).toHaveLength(12);
    expect(first.data.pager).toMatchObject({ current: 1, pages: 2, previous: null, next: "/?q=ciclo+paginado&pagina=2" });
    const second = await run(home.loader, getRequest(first.data.pager.next));
    expect(second.data.events.map((e: { name: string }) => e.name)).toEqual(["Ciclo Paginado 12"]);
  });
});

describe("/ (storefront): featured event and category chips", () => {
  it("chips keep the search, drop the page and mark the current category; the home features the soonest event on sale", async () => {
    const chips = await run(home.loader, getRequest("/?q=tango&categoria=teatro&pagina=2"));
    const byValue = Object.fromEntries(chips.data.chips.map((c: { value: string; href: string; current: boolean }) => [c.value, c]));
    expect(chips.data.chips[0]).toMatchObject({ value: "", label: "Todos", href: "/?q=tango", current: false });
    expect(byValue.teatro).toMatchObject({ label: "Teatro", href: "/?q=tango&categoria=teatro", current: true });
    expect(byValue.recitales).toMatchObject({ href: "/?q=tango&categoria=recitales", current: false });
    expect(chips.data.featured).toBeNull();

    const onlyCategory = await run(home.loader, getRequest("/?categoria=recitales"));
    expect(onlyCategory.data.categoryTitle).toBe("Recitales");
    expect(onlyCategory.data.chips.find((c: { current: boolean }) => c.current).value).toBe("recitales");

    const { ctx, organization } = await createProducer();
    await createPublishedEvent(ctx, organization.id, { name: "Destacado Agotado", days: 1, ticketTypes: [{ name: "General", price: 100_000, stock: 0 }] });
    const plain = await run(home.loader, getRequest("/"));
    expect(plain.data.featured).not.toBeNull();
    expect(plain.data.featured.name).not.toBe("Destacado Agotado");
    expect(plain.data.featured).toMatchObject({ soldOut: false, longDateLabel: expect.stringMatching(/^[a-záéíóú]+ \d{1,2} de [a-z]+ · \d{2}:\d{2}$/) });
    expect(plain.data.events[0].shortDateLabel).toMatch(/^[a-záéíóú]{3} \d{1,2} [a-z]{3} · \d{2}:\d{2}$/);
    expect(plain.data.chips[0]).toMatchObject({ href: "/", current: true });
    expect((await run(home.loader, getRequest("/?pagina=2"))).data.featured).toBeNull();
  });
});

describe("/eventos/{slug} ticket picker", () => {
  it("saves exactly the tickets with quantity above 0 in the cookie and goes to the checkout", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      name: "Noche de Cumbia Picker",
      ticketTypes: [
        { name: "General", price: 1_500_000, stock: 100 },
        { name: "VIP", price: 3_000_000, stock: 20, maxPerOrder: 4 },
      ],
    });
    const { data: page } = await openEvent(event.slug);
    expect(page.tickets.map((t) => [t.name, t.selectable, t.options])).toEqual([
      ["General", true, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
      ["VIP", true, [0, 1, 2, 3, 4]],
    ]);

    const result = await buy(event.slug, { [`qty-${ticketId(page, "General")}`]: "2", [`qty-${ticketId(page, "VIP")}`]: "0" });
    expect(result.status).toBe(303);
    expect(result.location).toBe(`/checkout/payer-info/${event.slug}`);
    const cookie = result.cookies[cartCookie(event.slug)];
    expect(cookie.maxAge).toBe(TWO_DAYS);
    expect(cookie.attributes).toEqual(expect.arrayContaining(["Path=/", "SameSite=Lax"]));
    expect(savedCart(result, event.slug).items).toEqual([{ ticketId: ticketId(page, "General"), qty: 2 }]);

    // Back on the event page the saved quantity is preselected.
    const again = await openEvent(event.slug, cookiesAfter(result));
    expect(again.data.selected).toEqual({ [ticketId(page, "General")]: 2 });
  });

  it("refuses quantities over the per-order maximum, under the minimum, over what is left, and sold-out tickets, in Spanish", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      name: "Límites por compra",
      ticketTypes: [
        { name: "VIP", price: 3_000_000, stock: 20, maxPerOrder: 4 },
        { name: "Mesa", price: 5_000_000, stock: 20, minPerOrder: 2, maxPerOrder: 6 },
        { name: "Últimas", price: 1_000_000, stock: 3 },
        { name: "Campo", price: 1_000_000, stock: 0 },
      ],
    });
    const { data: page } = await openEvent(event.slug);
    const campo = page.tickets.find((t) => t.name === "Campo")!;
    expect(campo).toMatchObject({ selectable: false, stateLabel: "Agotado" });
    expect(page.tickets.find((t) => t.name === "Mesa")!.options).toEqual([0, 2, 3, 4, 5, 6]);

    const result = await buy(event.slug, {
      [`qty-${ticketId(page, "VIP")}`]: "5",
      [`qty-${ticketId(page, "Mesa")}`]: "1",
      [`qty-${ticketId(page, "Últimas")}`]: "4",
      [`qty-${campo.id}`]: "1",
    });
    expect(result.status).toBe(400);
    expect(result.cookies[cartCookie(event.slug)]).toBeUndefined();
    expect(result.data.fieldErrors).toEqual({
      [ticketId(page, "VIP")]: ["Máximo 4 entradas «VIP» por compra"],
      [ticketId(page, "Mesa")]: ["Mínimo 2 entradas «Mesa» por compra"],
      [ticketId(page, "Últimas")]: ["Quedan solo 3 entradas «Últimas»"],
      [campo.id]: ["No quedan entradas «Campo»"],
    });

    const empty = await buy(event.slug, { [`qty-${ticketId(page, "VIP")}`]: "0" });
    expect(empty.status).toBe(400);
    expect(empty.data.formErrors).toEqual(["Elegí al menos una entrada"]);
  });

  it("refuses what createOrder would, with its words: a mix of payment methods, a transfer with nowhere to receive it, a quantity that is no number", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      name: "Métodos mezclados",
      ticketTypes: [
        { name: "General", price: 1_000_000, stock: 10 },
        { name: "Por transferencia", price: 1_000_000, stock: 10, paymentMethod: "BankAccount" },
      ],
    });
    const { data: page } = await openEvent(event.slug);
    const general = ticketId(page, "General");
    const bank = ticketId(page, "Por transferencia");

    const mixed = await buy(event.slug, { [`qty-${general}`]: "1", [`qty-${bank}`]: "1" });
    expect(mixed.status).toBe(400);
    expect(mixed.data.formErrors).toEqual([ORDER_MESSAGES.mixedMethods]);

    const noAccount = await buy(event.slug, { [`qty-${bank}`]: "1" });
    expect(noAccount.status).toBe(400);
    expect(noAccount.data.formErrors).toEqual([NO_TRANSFER_ACCOUNT]);
    expect(noAccount.cookies[cartCookie(event.slug)]).toBeUndefined();

    const notANumber = await buy(event.slug, { [`qty-${general}`]: "dos" });
    expect(notANumber.status).toBe(400);
    expect(notANumber.data.fieldErrors).toEqual({ [general]: ["Elegí una cantidad válida"] });

    await createTransferAccount(ctx, organization.id);
    const ok = await buy(event.slug, { [`qty-${bank}`]: "1" });
    expect(ok.status).toBe(303);
    expect(savedCart(ok, event.slug).items).toEqual([{ ticketId: bank, qty: 1 }]);
  });

  it("asks for the date when the event has several", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Ciclo de Tango", days: 5 });
    const second = await addEventDate(ctx, { eventId: event.id, startsAt: daysFromNow(12).toISOString(), endsAt: daysFromNow(12, 23).toISOString() });
    const { data: page } = await openEvent(event.slug);
    expect(page.dates).toHaveLength(2);
    const qty = { [`qty-${ticketId(page, "General")}`]: "1" };

    const missing = await buy(event.slug, qty);
    expect(missing.status).toBe(400);
    expect(missing.data.fieldErrors.eventDateId).toEqual(["Elegí una fecha"]);

    const ok = await buy(event.slug, { ...qty, eventDateId: second.id });
    expect(ok.status).toBe(303);
    expect(savedCart(ok, event.slug)).toMatchObject({ eventDateId: second.id, items: [{ qty: 1 }] });
  });

  it("shows a paused event with nothing to choose and refuses a purchase; drafts and deleted events are 404", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Evento Pausado" });
    await setEventStatus(ctx, { id: event.id, status: "paused" });
    const { data: page } = await openEvent(event.slug);
    expect(page.event.paused).toBe(true);
    expect(page.tickets.every((t) => !t.selectable)).toBe(true);
    const result = await buy(event.slug, { [`qty-${page.tickets[0].id}`]: "1" });
    expect(result.status).toBe(400);
    expect(result.data.formErrors).toEqual(["La venta está pausada"]);

    const { event: draft } = await createPublishedEvent(ctx, organization.id, { name: "Borrador", publish: false });
    expect((await run(eventPage.loader, getRequest(`/eventos/${draft.slug}`), { slug: draft.slug })).status).toBe(404);
    await setEventStatus(ctx, { id: event.id, status: "deleted" });
    expect((await run(eventPage.loader, getRequest(`/eventos/${event.slug}`), { slug: event.slug })).status).toBe(404);
  });

  it("passes the event's ad pixel to the page", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Con Pixel" });
    await setEventPixel(ctx, { eventId: event.id, pixelId: "1234567890" });
    expect((await openEvent(event.slug)).data.pixelId).toBe("1234567890");
  });
});

describe("codes: hidden tickets and presale", () => {
  it("reveals a hidden ticket only with its access code, in any case, and keeps the code in the saved cart", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      name: "Fiesta con Invitados",
      ticketTypes: [
        { name: "General", price: 1_200_000, stock: 100 },
        { name: "Invitados RRPP", price: 0, stock: 40, hidden: true, accessCode: "AMIGOS2026", maxPerOrder: 2 },
      ],
    });
    const names = (page: Page) => page.tickets.map((t) => t.name);
    expect(names((await openEvent(event.slug)).data)).toEqual(["General"]);

    const wrong = await run(eventPage.action, formRequest(`/eventos/${event.slug}`, { intent: "codigo", codigo: "AMIGOS" }), { slug: event.slug });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toEqual({ intent: "codigo", codeError: "Ese código no es válido para este evento" });

    const right = await run(eventPage.action, formRequest(`/eventos/${event.slug}`, { intent: "codigo", codigo: "amigos2026" }), { slug: event.slug });
    expect(right.status).toBe(303);
    expect(right.location).toBe(`/eventos/${event.slug}`);
    expect(savedCart(right, event.slug)).toMatchObject({ accessCode: "amigos2026", items: [] });

    const cookies = cookiesAfter(right);
    const revealed = (await openEvent(event.slug, cookies)).data;
    expect(names(revealed)).toEqual(["General", "Invitados RRPP"]);
    expect(revealed.accessCodeApplied).toBe(true);

    // Without the code the hidden ticket cannot be bought, even by posting its id.
    const hiddenId = ticketId(revealed, "Invitados RRPP");
    const sneaky = await buy(event.slug, { [`qty-${hiddenId}`]: "1" });
    expect(sneaky.status).toBe(400);
    expect(sneaky.data.formErrors).toEqual(["Una de las entradas que elegiste ya no está a la venta. Revisá tu elección."]);

    // With it, the purchase keeps the code and survives the restore on the checkout.
    const bought = await buy(event.slug, { [`qty-${hiddenId}`]: "2" }, { cookies });
    expect(bought.status).toBe(303);
    expect(savedCart(bought, event.slug)).toMatchObject({ accessCode: "amigos2026", items: [{ ticketId: hiddenId, qty: 2 }] });
    const checkout = await run(payerInfo.loader, getRequest(`/checkout/payer-info/${event.slug}`, { cookies: cookiesAfter(bought, cookies) }), { eventSlug: event.slug });
    expect(checkout.data.items).toEqual([expect.objectContaining({ name: "Invitados RRPP", qty: 2 })]);
    expect(checkout.data.dropped).toEqual([]);
  });

  it("unlocks presale tickets with the event's presale code", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      name: "Recital con Preventa",
      ticketTypes: [
        { name: "Preventa", price: 900_000, stock: 50, presale: true },
        { name: "General", price: 1_200_000, stock: 100 },
      ],
    });
    await setPresaleCode(ctx, { eventId: event.id, presaleCode: "BRESHPRE" });
    const before = (await openEvent(event.slug)).data;
    expect(before.tickets.map((t) => t.name)).toEqual(["General"]);
    expect(before.event.hasPresale).toBe(true);

    const unlocked = await run(eventPage.action, formRequest(`/eventos/${event.slug}`, { intent: "codigo", codigo: "breshpre" }), { slug: event.slug });
    expect(unlocked.status).toBe(303);
    const after = (await openEvent(event.slug, cookiesAfter(unlocked))).data;
    expect(after.presaleUnlocked).toBe(true);
    expect(after.tickets.map((t) => t.name)).toEqual(["Preventa", "General"]);
  });
});

describe("referral links", () => {
  it("shows who invited the buyer and keeps the nick in the saved cart", async () => {
    const romi = await createTestUser({ nickname: "romi.test", firstName: "Romina", lastName: "Relacionista" });
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Fiesta Referida" });
    // A nickname counts only for a promoter of the event's organization.
    expect((await openEvent(event.slug, {}, `/eventos/${event.slug}/romi.test`)).data.referrer).toBeNull();
    await makePromoter(ctx, organization.id, romi.id);

    const landing = await openEvent(event.slug, {}, `/eventos/${event.slug}/romi.test`);
    expect(landing.data.referrer).toEqual({ firstName: "Romina", lastName: "Relacionista" });
    expect(landing.data.path).toBe(`/eventos/${event.slug}/romi.test`);

    const result = await buy(event.slug, { [`qty-${ticketId(landing.data, "General")}`]: "2" }, { nick: "romi.test" });
    expect(result.status).toBe(303);
    expect(savedCart(result, event.slug)).toMatchObject({ referredNick: "romi.test", items: [{ qty: 2 }] });

    const checkout = await run(payerInfo.loader, getRequest(`/checkout/payer-info/${event.slug}`, { cookies: cookiesAfter(result) }), { eventSlug: event.slug });
    expect(checkout.data.referrer).toEqual({ firstName: "Romina", lastName: "Relacionista" });
    expect(checkout.data.backTo).toBe(`/eventos/${event.slug}/romi.test`);

    // The last link wins: another promoter's link replaces Romina in the saved cart.
    const fede = await createTestUser({ nickname: "fede.test", firstName: "Federico", lastName: "Noche" });
    await makePromoter(ctx, organization.id, fede.id);
    const second = await openEvent(event.slug, cookiesAfter(result), `/eventos/${event.slug}/fede.test`);
    expect(second.data.referrer).toEqual({ firstName: "Federico", lastName: "Noche" });
    expect(savedCart(second, event.slug)).toMatchObject({ referredNick: "fede.test", items: [{ qty: 2 }] });
  });

  it("just shows the event for an unknown nick, and sends a mistyped link back to the nick", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Fiesta Sin RRPP" });
    const landing = await openEvent(event.slug, {}, `/eventos/${event.slug}/nadie-conocido`);
    expect(landing.data.referrer).toBeNull();
    const result = await buy(event.slug, { [`qty-${ticketId(landing.data, "General")}`]: "1" }, { nick: "nadie-conocido" });
    expect(savedCart(result, event.slug).referredNick).toBeUndefined();

    const redirect = await run(mistyped.loader, getRequest(`/eventos/${event.slug}/romi/whatsapp?pixelId=123`), { slug: event.slug, nick: "romi", extra: "whatsapp" });
    expect(redirect.status).toBe(302);
    expect(redirect.location).toBe(`/eventos/${event.slug}/romi?pixelId=123`);
  });
});

describe("/checkout/payer-info/{eventSlug} restore", () => {
  it("drops an item whose stock fell below the saved quantity, says why and rewrites the cookie", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, {
      name: "Festival Restore",
      ticketTypes: [
        { name: "General", price: 1_000_000, stock: 100 },
        { name: "VIP", price: 4_000_000, stock: 10 },
      ],
    });
    const { data: page } = await openEvent(event.slug);
    const vip = ticketId(page, "VIP");
    const general = ticketId(page, "General");
    const saved = await buy(event.slug, { [`qty-${general}`]: "2", [`qty-${vip}`]: "4" });
    expect(saved.status).toBe(303);

    // Other buyers take VIP tickets: only 3 are left.
    await ctx.db.update(ticketTypes).set({ sold: 7 }).where(eq(ticketTypes.id, vip));

    const result = await run(payerInfo.loader, getRequest(`/checkout/payer-info/${event.slug}`, { cookies: cookiesAfter(saved) }), { eventSlug: event.slug });
    expect(result.status).toBe(200);
    expect(result.data.dropped).toEqual(["Sacamos «VIP» de tu compra porque no quedan suficientes entradas"]);
    expect(result.data.items).toEqual([expect.objectContaining({ name: "General", qty: 2 })]);
    expect(savedCart(result, event.slug).items).toEqual([{ ticketId: general, qty: 2 }]);

    // The event page tells the same and preselects what is left.
    const back = await openEvent(event.slug, cookiesAfter(saved));
    expect(back.data.dropped).toEqual(["Sacamos «VIP» de tu compra porque no quedan suficientes entradas"]);
    expect(back.data.selected).toEqual({ [general]: 2 });
  });

  it("shows an empty purchase with a way back when there is no saved cart", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Sin Carrito" });
    const result = await run(payerInfo.loader, getRequest(`/checkout/payer-info/${event.slug}`), { eventSlug: event.slug });
    expect(result.data.items).toEqual([]);
    expect(result.data.backTo).toBe(`/eventos/${event.slug}`);
    expect((await run(payerInfo.loader, getRequest("/checkout/payer-info/no-existe"), { eventSlug: "no-existe" })).status).toBe(404);
  });
});

describe("/{orgSlug}", () => {
  it("lists the organization's upcoming events and is 404 for an unknown slug", async () => {
    const { ctx, organization } = await createProducer();
    await createPublishedEvent(ctx, organization.id, { name: "Evento de la Productora" });
    const other = await createProducer();
    await createPublishedEvent(other.ctx, other.organization.id, { name: "Evento de Otra" });
    const result = await run(orgPage.loader, getRequest(`/${organization.slug}`), { orgSlug: organization.slug });
    expect(result.data.organization.name).toBe(organization.name);
    expect(result.data.events.map((e: { name: string }) => e.name)).toEqual(["Evento de la Productora"]);
    expect((await run(orgPage.loader, getRequest("/no-existe-esta"), { orgSlug: "no-existe-esta" })).status).toBe(404);
  });
});
