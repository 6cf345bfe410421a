import { devices } from "@playwright/test";
import { expect, test } from "./fixtures";
import { uniqueEmail } from "./support";

test.describe("the menu and the bar", () => {
  test("a buyer orders two drinks on a phone without JavaScript, pays in the sandbox, and the bar serves each once", async ({ browser, page, factory, signIn }) => {
    const event = await factory.event({ name: "Noche de Barra", days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
    const [{ createMenuItem }, { ctxAs, actorFor }] = await Promise.all([import("#server/menu/menu"), import("#tests/support/context")]);
    const owner = await ctxAs(actorFor(event.owner));
    await createMenuItem(owner, { eventId: event.eventId, name: "Fernet con coca", description: "Vaso de 500 ml", category: "drink", price: "4500", stock: "50" });
    await createMenuItem(owner, { eventId: event.eventId, name: "Pancho", category: "food", price: "3000", stock: "50" });

    const phone = await browser.newContext({ ...devices["Pixel 5"], viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const buyer = await phone.newPage();
    // The event page links to its menu, whole on a 390 px phone.
    await buyer.goto(`/eventos/${event.slug}`);
    const main = buyer.locator("main");
    const menuLink = main.getByRole("region", { name: "Menú de la barra" }).getByRole("link", { name: "Ver el menú" });
    await expect(menuLink).toBeVisible();
    expect(await buyer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await menuLink.click();
    await expect(buyer).toHaveURL(new RegExp(`/menu/${event.slug}$`));
    await expect(main.getByRole("heading", { name: "Bebidas" })).toBeVisible();
    await main.getByLabel("Cantidad de Fernet con coca").fill("2");
    await main.getByRole("button", { name: "Continuar" }).click();

    await expect(buyer).toHaveURL(new RegExp(`/menu/${event.slug}\\?paso=datos$`));
    await expect(main.getByRole("region", { name: "Tu compra" })).toContainText("Fernet con coca");
    // The service fee and the total before paying, as the checkout will charge them ($ 9.000 + 10 %).
    await expect(main.getByRole("region", { name: "Tu compra" })).toContainText("Cargo de servicio (10 %)");
    await expect(main.getByRole("region", { name: "Tu compra" }).locator("[data-total]")).toHaveText(/9\.900,00/);
    await main.getByLabel("Nombre", { exact: true }).fill("Valentina");
    await main.getByLabel("Apellido", { exact: true }).fill("Quiroga");
    await main.getByLabel("Email", { exact: true }).fill(uniqueEmail("barra"));
    await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
    await main.getByLabel("Número de documento", { exact: true }).fill("30123456");
    await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 264 555-1234");
    await main.getByRole("button", { name: "Continuar al pago" }).click();

    await expect(buyer).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=[\w-]+$/);
    await main.getByRole("button", { name: /Pagar .* con Mercado Pago/ }).click();
    await expect(buyer).toHaveURL(/\/sandbox\/mercadopago\/[0-9a-f-]{36}$/);
    await buyer.getByRole("button", { name: "Aprobar" }).click();
    await expect(buyer).toHaveURL(/\/checkout\/status\/approved\?billingId=[0-9a-f-]{36}&t=/);
    await main.getByRole("link", { name: "Ver mis consumiciones" }).click();
    await expect(main).toContainText("Fernet con coca");
    const codes = await main.getByLabel(/^Código: /).evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")!.replace("Código: ", "")));
    expect(codes).toHaveLength(2);
    await phone.close();

    // The bar without JavaScript (an old phone behind the bar): it serves the first drink and stays in bar mode for the next one.
    const barPhone = await browser.newContext({ ...devices["Pixel 5"], javaScriptEnabled: false });
    await signIn(barPhone, event.owner);
    const bar = await barPhone.newPage();
    await bar.goto(`/vivos/acreditacion/${event.slug}?modo=barra`);
    await bar.getByLabel("Código de la consumición").fill(codes[0]);
    await bar.getByRole("button", { name: "Canjear" }).click();
    await expect(bar.getByRole("alert")).toContainText("Entregala");
    await expect(bar.getByRole("alert")).toContainText("Fernet con coca");
    await bar.getByRole("link", { name: "Escanear otra" }).click();
    await expect(bar).toHaveURL(new RegExp(`/vivos/acreditacion/${event.slug}\\?modo=barra$`));
    await expect(bar.getByLabel("Código de la consumición")).toBeVisible();
    await barPhone.close();

    // The bar with JavaScript, with the owner's session: the second drink once, the first one is already served.
    await signIn(page.context(), event.owner);
    await page.goto(`/vivos/acreditacion/${event.slug}?modo=barra`);
    await page.getByLabel("Código de la consumición").fill(codes[1]);
    await page.getByRole("button", { name: "Canjear" }).click();
    await expect(page.getByRole("alert")).toContainText("Entregala");
    await expect(page.getByRole("alert")).toContainText("Fernet con coca");
    await page.getByRole("button", { name: /Escanear otra|Siguiente/ }).or(page.getByRole("link", { name: "Escanear otra" })).first().click();
    for (const code of codes) {
      await page.getByLabel("Código de la consumición").fill(code);
      await page.getByRole("button", { name: "Canjear" }).click();
      await expect(page.getByRole("alert")).toContainText("Ya se canjeó");
      await page.getByRole("button", { name: /Escanear otra|Siguiente/ }).or(page.getByRole("link", { name: "Escanear otra" })).first().click();
    }
  });
});
