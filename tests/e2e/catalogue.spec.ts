import type { Page } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";

/**
 * Buyer side of the catalogue: find an event, pick tickets and reach the
 * checkout's first step, with and without JavaScript, and the promoter's
 * referral link. The tests share one "Fiesta Bresh" per run of this file (they only pick tickets, which stay in
 * each browser's own cart cookie, and add promoters with nicknames of their own).
 */
const VENUE = "Club Atlético Fernández Fierro";

type Bresh = Awaited<ReturnType<Factory["event"]>> & { word: string };

async function fiestaBresh(factory: Factory): Promise<Bresh> {
  const word = factory.uniqueWord();
  const event = await factory.event({
    name: `Fiesta Bresh ${word}`,
    ticketTypes: [
      { name: "General", price: 1_200_000, stock: 300 },
      { name: "Invitados RRPP", price: 0, stock: 40, hidden: true, accessCode: "AMIGOSBRESH", maxPerOrder: 2 },
    ],
  });
  return { ...event, word };
}

let bresh: Bresh;
test.beforeAll(async ({ factory }) => {
  bresh = await fiestaBresh(factory);
});

function cartCookie(event: Bresh) {
  return `incomplete-saved-order--${event.slug}`;
}

async function savedCart(page: Page, event: Bresh) {
  const cookie = (await page.context().cookies()).find((c) => c.name === cartCookie(event));
  return cookie ? JSON.parse(decodeURIComponent(cookie.value)) : null;
}

async function findFiestaBresh(page: Page, event: Bresh) {
  await page.goto("/");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Próximos eventos");
  await main.getByRole("searchbox", { name: "Buscar por nombre" }).fill(event.word);
  await main.getByRole("button", { name: "Buscar", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${event.word}`));
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Resultados de tu búsqueda");
  const cards = main.getByRole("article");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(VENUE);
  await cards.first().getByRole("link", { name: event.name }).click();
  await expect(page).toHaveURL(new RegExp(`/eventos/${event.slug}$`));
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(event.name);
}

async function pickTwoGeneralAndContinue(page: Page, event: Bresh) {
  const main = page.locator("main");
  await main.getByLabel("Cantidad de General").fill("2");
  await main.getByRole("button", { name: "Comprar" }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(event.name);
  await expect(main.locator('[data-ticket="General"]')).toContainText("2 × General");
  await expect(main.getByRole("button", { name: "Continuar al pago" })).toBeVisible();
  expect((await savedCart(page, event))?.items).toEqual([{ ticketId: event.tickets.General.id, qty: 2 }]);
}

test.describe("buyer with JavaScript", () => {
  test("finds Fiesta Bresh, picks 2 General tickets and reaches the checkout", async ({ page }) => {
    const event = bresh;
    await findFiestaBresh(page, event);
    await pickTwoGeneralAndContinue(page, event);

    // Back on the event, the saved quantity is still chosen.
    await page.locator("main").getByRole("link", { name: "Cambiar entradas" }).click();
    await expect(page.locator("main").getByLabel("Cantidad de General")).toHaveValue("2");
  });

  test("the picker says what is wrong, next to the tickets", async ({ page }) => {
    const event = bresh;
    await page.goto(`/eventos/${event.slug}`);
    const main = page.locator("main");
    await main.getByRole("button", { name: "Comprar" }).click();
    await expect(main.getByRole("alert")).toContainText("Revisá tu elección");
    await expect(main.getByRole("alert")).toContainText("Elegí al menos una entrada");
    await expect(main.locator("#entradas-errores")).toHaveText("Elegí al menos una entrada");
    await expect(page).toHaveURL(new RegExp(`/eventos/${event.slug}$`));
  });
});

test.describe("buyer without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("finds Fiesta Bresh, picks 2 General tickets and reaches the checkout", async ({ page }) => {
    const event = bresh;
    await findFiestaBresh(page, event);
    await pickTwoGeneralAndContinue(page, event);
  });

  test("an access code reveals the hidden ticket, whatever the case", async ({ page }) => {
    const event = bresh;
    await page.goto(`/eventos/${event.slug}`);
    const main = page.locator("main");
    await expect(main).not.toContainText("Invitados RRPP");
    const code = main.getByLabel("Código", { exact: true });
    // The box starts open when the event has a presale; otherwise it opens with its summary.
    if (!(await code.isVisible())) await main.getByText("¿Tenés un código?").click();
    await code.fill("amigosbresh");
    await main.getByRole("button", { name: "Aplicar" }).click();
    await expect(main.getByRole("heading", { name: "Invitados RRPP" })).toBeVisible();
    expect((await savedCart(page, event))?.accessCode).toBe("amigosbresh");
  });
});

test.describe("referral link", () => {
  test("shows the promoter and keeps the nick up to the checkout", async ({ page, factory }) => {
    const event = bresh;
    const nick = `romi${factory.uniqueWord()}`;
    await factory.promoter(event, { firstName: "Romina", lastName: "Relacionista", nickname: nick });
    await page.goto(`/eventos/${event.slug}/${nick}`);
    const main = page.locator("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(event.name);
    await expect(main).toContainText("Te invitó Romina Relacionista");
    await pickTwoGeneralAndContinue(page, event);
    await expect(main).toContainText("Te invitó Romina Relacionista");
    expect((await savedCart(page, event))?.referredNick).toBe(nick);
  });

  test("a mistyped link lands on the event keeping the nick; an unknown nick just shows the event", async ({ page, factory }) => {
    const event = bresh;
    const nick = `romi${factory.uniqueWord()}`;
    await factory.promoter(event, { firstName: "Romina", lastName: "Relacionista", nickname: nick });
    await page.goto(`/eventos/${event.slug}/${nick}/algo-de-mas`);
    await expect(page).toHaveURL(new RegExp(`/eventos/${event.slug}/${nick}$`));
    await expect(page.locator("main")).toContainText("Te invitó Romina Relacionista");

    await page.context().clearCookies();
    const response = await page.goto(`/eventos/${event.slug}/nadie-con-este-nick`);
    expect(response?.status()).toBe(200);
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText(event.name);
    await expect(page.locator("main")).not.toContainText("Te invitó");
  });
});

test.describe("organization pages", () => {
  test("an organization's page lists its events and an unknown one is a 404", async ({ page }) => {
    const event = bresh;
    await page.goto(`/eventos/${event.slug}`);
    await page.locator("main").getByRole("link", { name: event.organizationName }).click();
    await expect(page).toHaveURL(new RegExp(`/${event.organizationSlug}$`));
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText(event.organizationName);
    await expect(page.locator("main").getByRole("link", { name: event.name })).toBeVisible();

    const missing = await page.goto("/no-existe-esta-productora");
    expect(missing?.status()).toBe(404);
    await expect(page.locator("main")).toContainText("No encontramos esta página");
  });
});
