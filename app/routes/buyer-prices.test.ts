import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { formatMoney } from "#common/money";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import * as eventPage from "./eventos.$slug";
import * as home from "./_index";

// docs/prices.md: wherever a buyer sees a price, the final price (service fee included) comes first and
// "Precio sin impuestos nacionales" beside it. Published events charge the 10 % fee, and the platform is
// Responsable Inscripto by default, so the 21 % IVA inside the fee is what comes out.

/** The page's text, and the money figures in it in reading order. */
function figures(html: string) {
  const text = html
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;|\u00a0/g, " ")
    .replace(/\s+/g, " ");
  return { text, amounts: [...text.matchAll(/\$ [\d.]+,\d{2}/g)].map((m) => m[0]) };
}
const plain = (cents: number) => formatMoney(cents).replace(/\u00a0/g, " ");

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
