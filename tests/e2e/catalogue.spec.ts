import { expect, test, type Page } from "@playwright/test";

/**
 * Buyer side of the catalogue against the demo seed: find an event, pick
 * tickets and reach the checkout's first step, with and without JavaScript,
 * and the promoter's referral link.
 */
const CART_COOKIE = "incomplete-saved-order--fiesta-bresh";

async function savedCart(page: Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === CART_COOKIE);
  return cookie ? JSON.parse(decodeURIComponent(cookie.value)) : null;
}

async function findFiestaBresh(page: Page) {
  await page.goto("/");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Próximos eventos");
  await main.getByRole("searchbox", { name: "Buscar por nombre" }).fill("bresh");
  await main.getByRole("button", { name: "Buscar", exact: true }).click();
  await expect(page).toHaveURL(/[?&]q=bresh/);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Resultados de tu búsqueda");
  const cards = main.getByRole("article");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("Niceto Club");
  await cards.first().getByRole("link", { name: "Fiesta Bresh" }).click();
  await expect(page).toHaveURL(/\/eventos\/fiesta-bresh$/);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Fiesta Bresh");
}

async function pickTwoGeneralAndContinue(page: Page) {
  const main = page.locator("main");
  await main.getByLabel("Cantidad de General").selectOption("2");
  await main.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/checkout\/payer-info\/fiesta-bresh$/);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Fiesta Bresh");
  await expect(main.locator('[data-ticket="General"]')).toContainText("2 × General");
  await expect(main.getByRole("button", { name: "Continuar al pago" })).toBeVisible();
  expect((await savedCart(page))?.items).toEqual([{ ticketId: expect.any(String), qty: 2 }]);
}

test.describe("buyer with JavaScript", () => {
  test("finds Fiesta Bresh, picks 2 General tickets and reaches the checkout", async ({ page }) => {
    await findFiestaBresh(page);
    await pickTwoGeneralAndContinue(page);

    // Back on the event, the saved quantity is still chosen.
    await page.locator("main").getByRole("link", { name: "Cambiar entradas" }).click();
    await expect(page.locator("main").getByLabel("Cantidad de General")).toHaveValue("2");
  });

  test("the picker says what is wrong, next to the tickets", async ({ page }) => {
    await page.goto("/eventos/fiesta-bresh");
    const main = page.locator("main");
    await main.getByRole("button", { name: "Continuar" }).click();
    await expect(main.getByRole("alert")).toContainText("Revisá tu elección");
    await expect(main.getByRole("alert")).toContainText("Elegí al menos una entrada");
    await expect(main.locator("#entradas-errores")).toHaveText("Elegí al menos una entrada");
    await expect(page).toHaveURL(/\/eventos\/fiesta-bresh$/);
  });
});

test.describe("buyer without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("finds Fiesta Bresh, picks 2 General tickets and reaches the checkout", async ({ page }) => {
    await findFiestaBresh(page);
    await pickTwoGeneralAndContinue(page);
  });

  test("an access code reveals the hidden ticket, whatever the case", async ({ page }) => {
    await page.goto("/eventos/fiesta-bresh");
    const main = page.locator("main");
    await expect(main).not.toContainText("Invitados RRPP");
    const code = main.getByLabel("Código", { exact: true });
    // The box starts open when the event has a presale; otherwise it opens with its summary.
    if (!(await code.isVisible())) await main.getByText("¿Tenés un código?").click();
    await code.fill("amigosbresh");
    await main.getByRole("button", { name: "Aplicar" }).click();
    await expect(main.getByRole("heading", { name: "Invitados RRPP" })).toBeVisible();
    expect((await savedCart(page))?.accessCode).toBe("amigosbresh");
  });
});

test.describe("referral link", () => {
  test("shows the promoter and keeps the nick up to the checkout", async ({ page }) => {
    await page.goto("/eventos/fiesta-bresh/romi");
    const main = page.locator("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Fiesta Bresh");
    await expect(main).toContainText("Te invitó Romina Relacionista");
    await pickTwoGeneralAndContinue(page);
    await expect(main).toContainText("Te invitó Romina Relacionista");
    expect((await savedCart(page))?.referredNick).toBe("romi");
  });

  test("a mistyped link lands on the event keeping the nick; an unknown nick just shows the event", async ({ page }) => {
    await page.goto("/eventos/fiesta-bresh/romi/algo-de-mas");
    await expect(page).toHaveURL(/\/eventos\/fiesta-bresh\/romi$/);
    await expect(page.locator("main")).toContainText("Te invitó Romina Relacionista");

    await page.context().clearCookies();
    const response = await page.goto("/eventos/fiesta-bresh/nadie-con-este-nick");
    expect(response?.status()).toBe(200);
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Fiesta Bresh");
    await expect(page.locator("main")).not.toContainText("Te invitó");
  });
});

test.describe("organization pages", () => {
  test("an organization's page lists its events and an unknown one is a 404", async ({ page }) => {
    await page.goto("/eventos/fiesta-bresh");
    await page.locator("main").getByRole("link", { name: "Producciones del Plata" }).click();
    await expect(page).toHaveURL(/\/producciones-del-plata$/);
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Producciones del Plata");
    await expect(page.locator("main").getByRole("link", { name: "Fiesta Bresh" })).toBeVisible();

    const missing = await page.goto("/no-existe-esta-productora");
    expect(missing?.status()).toBe(404);
    await expect(page.locator("main")).toContainText("No encontramos esta página");
  });
});
