import type { Browser, Page } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";
import { uniqueEmail } from "./support";

/**
 * Coupons end to end, without JavaScript (every step is a real form):
 * a producer creates a coupon in /organizacion/cupones for their
 * "Fiesta Bresh" (General at $ 12.000), a buyer opens its /canjear link, sees the discount on the
 * event page and buys through the checkout pages with the sandbox; a 100 %
 * coupon ends with tickets and no payment.
 */
test.use({ javaScriptEnabled: false });

const EVENT_NAME = "Fiesta Bresh";

function fiestaBresh(factory: Factory) {
  return factory.event({ name: EVENT_NAME, ticketTypes: [{ name: "General", price: 1_200_000, stock: 300 }] });
}

/** Creates a coupon from the back office and returns its /canjear link. */
async function createCoupon(page: Page, fields: { code: string; percent: string; maxUses: string }) {
  await page.goto("/organizacion/cupones/nuevo");
  await page.getByRole("link", { name: EVENT_NAME }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Crear cupón para ${EVENT_NAME}`);
  const main = page.locator("main");
  // First a mistake: the message shows next to the field and what was typed stays.
  await main.getByLabel("Código").fill("con espacio");
  await main.getByLabel("Porcentaje (1 a 100)").fill(fields.percent);
  await main.getByRole("button", { name: "Crear cupón" }).click();
  await expect(main.getByText("El código no puede tener espacios")).toBeVisible();
  await expect(main.getByLabel("Porcentaje (1 a 100)")).toHaveValue(fields.percent);

  await main.getByLabel("Código").fill(fields.code);
  await main.getByLabel("Tipo de descuento").selectOption("percent");
  await main.getByLabel("Límite de usos").fill(fields.maxUses);
  await main.getByRole("button", { name: "Crear cupón" }).click();
  await expect(page).toHaveURL(/\/organizacion\/cupones\?eventId=[0-9a-f-]{36}$/);
  const row = main.locator(`tr[data-coupon="${fields.code}"]`);
  await expect(row).toContainText(`${fields.percent} % de descuento`);
  await expect(row.locator("[data-uses]")).toHaveText(`0 / ${fields.maxUses}`);
  const link = await row.getByLabel(`Link de canje de ${fields.code}`).inputValue();
  expect(link).toMatch(/\/canjear\/[0-9a-f-]{36}$/);
  return new URL(link).pathname;
}

async function buyerPage(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires" });
  return context.newPage();
}

async function pickGeneralAndFillPayer(page: Page, slug: string, redeemPath: string, code: string, qty: string) {
  await page.goto(redeemPath);
  await expect(page).toHaveURL(new RegExp(`/eventos/${slug}$`));
  const main = page.locator("main");
  await expect(main.locator(`[data-coupon="${code}"]`)).toContainText(`Cupón ${code} aplicado`);
  await main.getByLabel("Cantidad de General").fill(qty);
  await main.getByRole("button", { name: "Comprar" }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${slug}$`));
  // The coupon travels in the saved cart to the checkout.
  await expect(main.locator('[name="couponCode"]')).toHaveValue(code);
  await main.getByLabel("Nombre", { exact: true }).fill("Valentina");
  await main.getByLabel("Apellido", { exact: true }).fill("Quiroga");
  await main.getByLabel("Email", { exact: true }).fill(uniqueEmail("cupon"));
  await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
  await main.getByLabel("Número de documento", { exact: true }).fill("30.123.456");
  await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 264 555-1234");
  await main.getByRole("button", { name: "Continuar al pago" }).click();
}

test("coupon purchase: created in the back office, applied by its link, paid with the discount", async ({ page, browser, factory, signIn }) => {
  const event = await fiestaBresh(factory);
  const code = `E2E${factory.uniqueWord().toUpperCase()}`;
  await signIn(page.context(), event.owner);
  const redeemPath = await createCoupon(page, { code, percent: "20", maxUses: "5" });

  const buyer = await buyerPage(browser);
  await buyer.goto(redeemPath);
  const main = buyer.locator("main");
  await expect(main.locator(`[data-coupon="${code}"]`)).toContainText(`Cupón ${code} aplicado: 20 % de descuento`);
  // General: $ 12.000 → $ 9.600 with the coupon, shown as its final price with the 10 % service fee (docs/prices.md).
  await expect(main.locator("li").filter({ hasText: "General" }).locator("[data-discounted-price]")).toHaveText(/\$\s?10\.560,00/);

  await pickGeneralAndFillPayer(buyer, event.slug, redeemPath, code, "2");
  await expect(buyer).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=[\w-]+$/);
  // 2 × $ 12.000 = $ 24.000 − 20 % = $ 19.200, plus the 10 % fee on what is paid ($ 1.920).
  await expect(main.locator("[data-total]")).toHaveText(/\$\s?21\.120,00/);
  await expect(main).toContainText("Descuento por cupón");
  await main.getByRole("button", { name: /Pagar .* con Mercado Pago/ }).click();
  await expect(buyer).toHaveURL(/\/sandbox\/mercadopago\/[0-9a-f-]{36}$/);
  await buyer.getByRole("button", { name: "Aprobar" }).click();
  await expect(buyer).toHaveURL(/\/checkout\/status\/approved\?billingId=[0-9a-f-]{36}&t=/);

  await page.goto("/organizacion/cupones");
  await expect(page.locator(`tr[data-coupon="${code}"] [data-uses]`)).toHaveText("1 / 5");
  await buyer.context().close();
});

test("a 100 % coupon issues the tickets without payment", async ({ page, browser, factory, signIn }) => {
  const event = await fiestaBresh(factory);
  const code = `GRATIS${factory.uniqueWord().toUpperCase()}`;
  await signIn(page.context(), event.owner);
  const redeemPath = await createCoupon(page, { code, percent: "100", maxUses: "1" });

  const buyer = await buyerPage(browser);
  await pickGeneralAndFillPayer(buyer, event.slug, redeemPath, code, "1");
  // Nothing to pay: straight to the confirmation, no provider page.
  await expect(buyer).toHaveURL(/\/checkout\/status\/approved\?billingId=[0-9a-f-]{36}&t=/);
  const main = buyer.locator("main");
  await main.getByRole("link", { name: "Ver mis entradas" }).click();
  await expect(main).toContainText("General");

  await page.goto("/organizacion/cupones");
  await expect(page.locator(`tr[data-coupon="${code}"] [data-uses]`)).toHaveText("1 / 1");
  // The link now explains that its uses ran out.
  const again = await buyerPage(browser);
  await again.goto(redeemPath);
  await expect(again).toHaveURL(new RegExp(`/eventos/${event.slug}$`));
  await expect(again.getByText(`Se agotaron los usos del cupón «${code}»`).first()).toBeVisible();
  await buyer.context().close();
  await again.context().close();
});
