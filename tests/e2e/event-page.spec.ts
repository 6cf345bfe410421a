import type { Locator, Page } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";
import { uniqueEmail } from "./support";

/**
 * The buying screens as a phone sees them: the event page's buy bar and live
 * total, the money lines with a coupon in the order they are computed, and
 * the payer form's error summary in view after a bad submit (with and
 * without JavaScript).
 */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** General at $ 12.000; the factory's events charge a 10 % service fee. */
function peña(factory: Factory) {
  return factory.event({ name: `Peña de la Barra ${factory.uniqueWord()}`, ticketTypes: [{ name: "General", price: 1_200_000, stock: 100 }] });
}

/** The `data-line` of each money line, top to bottom. */
function lineOrder(lines: Locator) {
  return lines.locator("[data-line]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-line")));
}

async function fillPayer(page: Page) {
  const main = page.locator("main");
  await main.getByLabel("Nombre", { exact: true }).fill("Valentina");
  await main.getByLabel("Apellido", { exact: true }).fill("Quiroga");
  await main.getByLabel("Email", { exact: true }).fill(uniqueEmail("orden"));
  await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
  await main.getByLabel("Número de documento", { exact: true }).fill("30123456");
  await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 264 555-1234");
}

test.describe("event page on a 390 px phone", () => {
  test.use(PHONE);

  test("the buy bar is in view from the first screen and its total, service fee included, follows the steppers", async ({ page, factory }) => {
    const event = await peña(factory);
    await page.goto(`/eventos/${event.slug}`);
    const main = page.locator("main");
    const bar = page.locator("[data-buy-bar]");
    await expect(bar).toBeInViewport();
    await expect(bar.getByRole("button", { name: "Comprar" })).toBeInViewport();
    // The final price first (docs/prices.md): $ 12.000 plus the 10 % service fee.
    await expect(bar).toContainText(/Desde \$\s?13\.200,00/);

    const more = main.getByRole("button", { name: "Agregar una entrada de General" });
    await more.click();
    await more.click();
    await expect(main.getByLabel("Cantidad de General")).toHaveValue("2");
    // 2 × $ 12.000 + 10 %.
    await expect(bar.locator("[data-live-total]")).toHaveText(/\$\s?26\.400,00/);
    await main.getByRole("button", { name: "Quitar una entrada de General" }).click();
    await expect(bar.locator("[data-live-total]")).toHaveText(/\$\s?13\.200,00/);
    await expect(bar).toBeInViewport();

    await bar.getByRole("button", { name: "Comprar" }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));
    await expect(main.locator("[data-total]")).toHaveText(/\$\s?13\.200,00/);
  });

  // The JavaScript arrives after the first paint (decision 132): a quantity typed before that is kept once the page hydrates.
  test("a quantity typed before the page hydrates stays, and the live total counts it", async ({ page, factory }) => {
    const event = await peña(factory);
    let release!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/*.js", async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    // The held scripts hold back the load event too.
    await page.goto(`/eventos/${event.slug}`, { waitUntil: "domcontentloaded" });
    const main = page.locator("main");
    await main.getByLabel("Cantidad de General").fill("2");
    release();
    // Only after hydration: the stepper's buttons and the live total.
    await expect(main.getByRole("button", { name: "Agregar una entrada de General" })).toBeVisible();
    await expect(main.getByLabel("Cantidad de General")).toHaveValue("2");
    await expect(page.locator("[data-buy-bar] [data-live-total]")).toHaveText(/\$\s?26\.400,00/);
  });

  test("with a coupon the money reads the total first, then subtotal, discount and fee on what is left, up to the summary before paying", async ({ page, factory }) => {
    const event = await peña(factory);
    const [{ createCoupon }, { actorFor, ctxAs }] = await Promise.all([import("#server/coupons/coupons"), import("#tests/support/context")]);
    const coupon = await createCoupon(await ctxAs(actorFor(event.owner)), { eventId: event.eventId, code: `ORDEN${factory.uniqueWord().toUpperCase()}`, kind: "percent", percent: 20 });
    await page.goto(`/canjear/${coupon.id}`);
    await expect(page).toHaveURL(new RegExp(`/eventos/${event.slug}$`));
    const main = page.locator("main");
    await main.getByLabel("Cantidad de General").fill("2");
    const live = main.locator("[data-money-lines]");
    // The live lines appear once the page hydrates (its JavaScript comes after the first paint, decision 132).
    // $ 24.000 − 20 % = $ 19.200, plus 10 % of that.
    await expect(live.locator("[data-total]")).toHaveText(/\$\s?21\.120,00/);
    // The final price first (docs/prices.md), then the breakdown.
    expect(await lineOrder(live)).toEqual(["total", "without-national-taxes", "subtotal", "discount", "service-fee"]);
    await expect(page.locator("[data-buy-bar] [data-live-total]")).toHaveText(/\$\s?21\.120,00/);

    // The "Cupón … aplicado" message floats above the bar, not over its button: it can be pressed at once.
    await page.locator("[data-buy-bar]").getByRole("button", { name: "Comprar" }).click({ timeout: 3000 });
    await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));
    // The final price first, then the price without national taxes (the fee's 21 % IVA, $ 333,22, out), then the breakdown.
    expect(await lineOrder(main.locator("[data-money-lines]"))).toEqual(["total", "without-national-taxes", "subtotal", "discount", "service-fee"]);
    await expect(main.locator("[data-without-national-taxes]")).toHaveText(/\$\s?20\.786,78/);
    await expect(main.locator("[data-total]")).toHaveText(/\$\s?21\.120,00/);

    await fillPayer(page);
    await main.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=[\w-]+$/);
    const summary = main.locator("[data-money-lines]");
    expect(await lineOrder(summary)).toEqual(["total", "without-national-taxes", "subtotal", "discount", "service-fee"]);
    await expect(summary.locator("[data-without-national-taxes]")).toHaveText(/\$\s?20\.786,78/);
    await expect(summary.locator("[data-discount]")).toHaveText(/−\$\s?4\.800,00/);
    await expect(summary.locator("[data-service-fee]")).toHaveText(/\$\s?1\.920,00/);
    await expect(summary.locator("[data-total]")).toHaveText(/\$\s?21\.120,00/);
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`payer form on a 390 px phone ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ ...PHONE, javaScriptEnabled });

    test("after a bad submit the error summary is in view, links each field and, with JavaScript, has the focus", async ({ page, factory }) => {
      const event = await peña(factory);
      await page.goto(`/eventos/${event.slug}`);
      const main = page.locator("main");
      await main.getByLabel("Cantidad de General").fill("1");
      await page.locator("[data-buy-bar]").getByRole("button", { name: "Comprar" }).click();
      await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));
      await main.getByLabel("Email", { exact: true }).fill("valen@");
      const submit = main.getByRole("button", { name: "Continuar al pago" });
      await submit.scrollIntoViewIfNeeded();
      // Full width on a phone.
      const width = (await submit.boundingBox())?.width ?? 0;
      expect(width).toBeGreaterThan(340);
      await submit.click();

      const summary = main.locator("[data-error-summary]");
      await expect(summary).toBeInViewport();
      await expect(summary).toContainText("Upppsss... parece que te faltó cargar algunos datos.");
      await expect(summary.getByRole("link", { name: "Nombre: Este campo es obligatorio" })).toBeVisible();
      await expect(summary.getByRole("link", { name: "Email: Este campo debe ser un email válido" })).toHaveAttribute("href", /#payer-info-email$/);
      if (javaScriptEnabled) await expect(summary).toBeFocused();

      await summary.getByRole("link", { name: /^Teléfono: / }).click();
      await expect(main.getByLabel("Teléfono", { exact: true })).toBeInViewport();
    });
  });
}
