import { createElement } from "react";
import { afterAll, describe, expect, it, vi } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { formatMoney } from "#common/money";
import { env } from "#server/env";
import { getRequest, run } from "#tests/support/remix";
import { eventWithMenu, eventWithResaleListing, figures, menuCartCookies, plain, resaleSectionOf } from "#tests/support/prices";
import * as eventPage from "./eventos.$slug";
import * as menu from "./menu.$slug";

// docs/prices.md: a Monotributo platform charges no IVA it can separate, so the price without national taxes
// equals the final price and its line is not shown. The environment is read once per process (server/env.ts),
// so this file sets PLATFORM_IVA_CONDITION before anything reads it; buyer-prices.test.ts covers the default.
vi.hoisted(() => {
  process.env.PLATFORM_IVA_CONDITION = "MONOTRIBUTO";
});
afterAll(() => {
  delete process.env.PLATFORM_IVA_CONDITION;
});

describe("with PLATFORM_IVA_CONDITION=MONOTRIBUTO the final price stands alone", () => {
  it("is the platform's condition in this file", () => {
    expect(env().PLATFORM_IVA_CONDITION).toBe("MONOTRIBUTO");
  });

  it("the event page's 'Reventa oficial': the final price, no line", async () => {
    const { event } = await eventWithResaleListing(1_000_000);
    const page = await run<Awaited<ReturnType<typeof eventPage.loader>>["data"]>(eventPage.loader, getRequest(`/eventos/${event.slug}`), { slug: event.slug });
    expect(page.data.resale).toEqual([expect.objectContaining({ finalPrice: formatMoney(1_100_000), notes: [`Incluye ${formatMoney(100_000)} de cargo de servicio`] })]);
    const { html } = await renderInRouter(createElement(eventPage.default), { url: `/eventos/${event.slug}`, loader: () => page.data });
    const { text, amounts } = figures(resaleSectionOf(html));
    expect(amounts[0]).toBe(plain(1_100_000));
    expect(text).not.toContain("Precio sin impuestos nacionales");
  });

  it("the menu and its payer step: the final prices, no line", async () => {
    const made = await eventWithMenu();
    const params = { slug: made.event.slug };
    const pick = await run(menu.loader, getRequest(made.path), params);
    expect(pick.data.sections[0].items[0]).toMatchObject({ price: formatMoney(495_000), withoutNationalTaxesLine: null });
    const picked = figures((await renderInRouter(createElement(menu.default), { url: made.path, loader: () => pick.data })).html);
    expect(picked.amounts).toEqual([plain(495_000), plain(990_000)]);
    expect(picked.text).not.toContain("Precio sin impuestos nacionales");

    const cookies = await menuCartCookies(menu.action, made);
    const payer = await run(menu.loader, getRequest(`${made.path}?paso=datos`, { cookies }), params);
    expect(payer.data.money).toMatchObject({ total: formatMoney(1_980_000), withoutNationalTaxes: null });
    const { text, amounts } = figures((await renderInRouter(createElement(menu.default), { url: `${made.path}?paso=datos`, loader: () => payer.data })).html);
    expect(amounts[0]).toBe(plain(1_980_000));
    expect(text).not.toContain("Precio sin impuestos nacionales");
  });
});
