import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { formatMoney } from "#common/money";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import * as eventPage from "./eventos.$slug";
import * as home from "./_index";
import * as menu from "./menu.$slug";
import * as resalePage from "./reventa.$listingId";
import { eventWithMenu, eventWithResaleListing, figures, menuCartCookies, plain, resaleSectionOf } from "#tests/support/prices";

// docs/prices.md: wherever a buyer sees a price, the final price (service fee included) comes first and
// "Precio sin impuestos nacionales" beside it. Published events charge the 10 % fee, and the platform is
// Responsable Inscripto by default, so the 21 % IVA inside the fee is what comes out.

// One $ 10.000 ticket + 10 % fee: $ 11.000 final; the fee's IVA is 1000 × 21/121 = $ 173,55.
const UNIT_FINAL = plain(1_100_000);
const UNIT_WITHOUT_TAXES = plain(1_100_000 - 17_355);

describe("the event page's ticket picker", () => {
  it("shows each ticket's final price first, the price without national taxes beside it, also without JavaScript", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
      ticketTypes: [
        { name: "General", price: 1_000_000, stock: 20 },
        { name: "VIP", price: 2_000_000, stock: 5 },
      ],
    });
    const page = await run<Awaited<ReturnType<typeof eventPage.loader>>["data"]>(eventPage.loader, getRequest(`/eventos/${event.slug}`), { slug: event.slug });
    expect(page.status).toBe(200);
    expect(page.data.tickets.find((t) => t.name === "General")).toMatchObject({
      price: 1_000_000,
      priceLabel: formatMoney(1_100_000),
      withoutNationalTaxesLine: `Precio sin impuestos nacionales: ${formatMoney(1_082_645)}`,
    });
    const { html } = await renderInRouter(createElement(eventPage.default), { url: `/eventos/${event.slug}`, loader: () => page.data });
    const { text, amounts } = figures(html);
    expect(amounts.slice(0, 4)).toEqual([UNIT_FINAL, UNIT_WITHOUT_TAXES, plain(2_200_000), plain(2_200_000 - 34_711)]);
    expect(text).toContain(`Precio sin impuestos nacionales: ${UNIT_WITHOUT_TAXES}`);
    // The buy bar's "Desde" is the cheapest final price too, and the face value alone is shown nowhere.
    expect(text).toContain(`Desde ${UNIT_FINAL}`);
    expect(amounts).not.toContain(plain(1_000_000));
  });
});

describe("the home's event cards", () => {
  it("say 'Desde' the final price of the cheapest ticket still left, with the price without national taxes beside it", async () => {
    const producer = await createProducer();
    await createPublishedEvent(producer.ctx, producer.organization.id, {
      name: "Cheapest Sold Out",
      ticketTypes: [
        { name: "Anticipada", price: 500_000, stock: 0 },
        { name: "General", price: 1_000_000, stock: 20 },
        { name: "VIP", price: 2_000_000, stock: 5 },
      ],
    });
    const page = await run<Awaited<ReturnType<typeof home.loader>>["data"]>(home.loader, getRequest("/?q=cheapest+sold+out"));
    expect(page.data.events).toHaveLength(1);
    expect(page.data.events[0]).toMatchObject({ priceLabel: `Desde ${formatMoney(1_100_000)}`, withoutNationalTaxesLine: `Precio sin impuestos nacionales: ${formatMoney(1_082_645)}` });
    const { html } = await renderInRouter(createElement(home.default), { url: "/?q=cheapest+sold+out", loader: () => page.data });
    const { text, amounts } = figures(html);
    expect(amounts.slice(0, 2)).toEqual([UNIT_FINAL, UNIT_WITHOUT_TAXES]);
    expect(text).toContain(`Desde ${UNIT_FINAL} Precio sin impuestos nacionales: ${UNIT_WITHOUT_TAXES}`);
  });
});

describe("the event page's 'Reventa oficial' list", () => {
  it("shows each listing's final price (resale price + the service fee its buyer pays) first, the line beside it", async () => {
    // A $ 10.000 listing: its buyer pays $ 11.000, the same as /reventa/{listingId} charges.
    const { event, listing } = await eventWithResaleListing(1_000_000);
    const page = await run<Awaited<ReturnType<typeof eventPage.loader>>["data"]>(eventPage.loader, getRequest(`/eventos/${event.slug}`), { slug: event.slug });
    expect(page.data.resale).toEqual([
      expect.objectContaining({
        id: listing.id,
        finalPrice: formatMoney(1_100_000),
        notes: [`Precio sin impuestos nacionales: ${formatMoney(1_082_645)}`, `Incluye ${formatMoney(100_000)} de cargo de servicio`],
        buyLabel: `Comprar General de reventa a ${formatMoney(1_100_000)}`,
      }),
    ]);
    const resaleBuyer = await run(resalePage.loader, getRequest(`/reventa/${listing.id}`), { listingId: listing.id });
    expect(resaleBuyer.data.offer).toMatchObject({ total: page.data.resale[0].finalPrice, withoutNationalTaxes: formatMoney(1_082_645) });

    const { html } = await renderInRouter(createElement(eventPage.default), { url: `/eventos/${event.slug}`, loader: () => page.data });
    const { text, amounts } = figures(resaleSectionOf(html));
    expect(amounts).toEqual([UNIT_FINAL, UNIT_WITHOUT_TAXES, plain(100_000)]);
    expect(text).toContain(`${UNIT_FINAL} Precio sin impuestos nacionales: ${UNIT_WITHOUT_TAXES}`);
    expect(html).toContain(`aria-label="Comprar General de reventa a ${formatMoney(1_100_000)}"`);
  });
});

describe("the menu page (/menu/{slug})", () => {
  it("lists each item at its final price with the line, and the payer step puts the total first, then the line, then the breakdown", async () => {
    const made = await eventWithMenu();
    const params = { slug: made.event.slug };
    // $ 4.500 + 10 % = $ 4.950; the fee's IVA: 450 × 21/121 = $ 78,10.
    const pick = await run(menu.loader, getRequest(made.path), params);
    expect(pick.data.sections[0].items[0]).toMatchObject({ name: "Fernet con coca", price: formatMoney(495_000), withoutNationalTaxesLine: `Precio sin impuestos nacionales: ${formatMoney(487_190)}` });
    const picked = await renderInRouter(createElement(menu.default), { url: made.path, loader: () => pick.data });
    const pickPage = figures(picked.html);
    expect(pickPage.amounts).toEqual([plain(495_000), plain(487_190), plain(990_000), plain(990_000 - 15_620)]);
    expect(pickPage.text).toContain(`Fernet con coca ${plain(495_000)} Precio sin impuestos nacionales: ${plain(487_190)}`);

    // Two drinks and a burger: $ 18.000 + $ 1.800 = $ 19.800; the fee's IVA is $ 312,40.
    const cookies = await menuCartCookies(menu.action, made);
    const payer = await run(menu.loader, getRequest(`${made.path}?paso=datos`, { cookies }), params);
    expect(payer.data.money).toMatchObject({ total: formatMoney(1_980_000), withoutNationalTaxes: formatMoney(1_948_760), subtotal: formatMoney(1_800_000) });
    const { html } = await renderInRouter(createElement(menu.default), { url: `${made.path}?paso=datos`, loader: () => payer.data });
    const { text, amounts } = figures(html);
    expect(amounts.slice(0, 3)).toEqual([plain(1_980_000), plain(1_948_760), plain(1_800_000)]);
    expect(text).toContain(`Total ${plain(1_980_000)} Precio sin impuestos nacionales ${plain(1_948_760)}`);
  });
});
