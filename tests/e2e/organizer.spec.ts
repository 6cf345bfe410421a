import { expect, test, type Page } from "@playwright/test";
import { fill, uniqueEmail } from "./support";

/**
 * The organizer's first day: sign up, create the organization, create an
 * event with two ticket types, accept the conditions, publish, share; then
 * the event is on sale at /eventos/{slug}. Once with JavaScript and once
 * without (every back-office form is a real form).
 */

const SUCCESS = "¡Todo genial! Guardamos tus datos";

function suffix() {
  return Math.random().toString(36).slice(2, 7);
}

async function signUp(page: Page) {
  await page.goto("/cuenta/registro");
  await fill(page, "firstName", "Valeria");
  await fill(page, "lastName", "Productora");
  await fill(page, "email", uniqueEmail("organizer"));
  await fill(page, "password", "clave-segura-1");
  await page.locator('main form [type="submit"]:visible').last().click();
  await expect(page).toHaveURL("/");
}

async function createOrganization(page: Page, name: string) {
  // Without an organization the back office sends you to create one.
  await page.goto("/organizacion/resumen");
  await expect(page).toHaveURL("/organizacion/por-crear");
  await expect(page.getByRole("heading", { name: "Creá tu organización" })).toBeVisible();
  await fill(page, "name", name);
  await fill(page, "cuit", "30-71234567-1");
  await fill(page, "contactEmail", "hola@productora.com.ar");
  await page.getByRole("button", { name: "Crear organización" }).click();
  await expect(page).toHaveURL(/\/organizacion\/resumen\?organizationId=/);
  await expect(page.getByText(SUCCESS)).toBeVisible();
  await expect(page.getByRole("heading", { name: `Resumen de ${name}` })).toBeVisible();
}

async function fillEvent(page: Page, name: string, options: { js: boolean }) {
  await page.getByRole("navigation", { name: "Organización" }).getByRole("link", { name: "Crear evento" }).click();
  await expect(page).toHaveURL(/\/organizacion\/evento\/crear/);
  await fill(page, "name", name);
  await page.locator('select[name="category"]').selectOption("recitales");
  await fill(page, "description", "Una noche de folklore con amigos.");
  // Our own date-time control: typed as dd/mm/aaaa hh:mm whatever the browser's language (never a native mm/dd/yyyy).
  await expect(page.locator('input[type="date"], input[type="datetime-local"]')).toHaveCount(0);
  await expect(page.locator('input[name="dates[0].startsAt"]')).toHaveAttribute("placeholder", "dd/mm/aaaa hh:mm");
  await fill(page, "dates[0].startsAt", "20/12/2030 21:30");
  await fill(page, "dates[0].endsAt", "21/12/2030 02:00");
  await fill(page, "venueName", "Club Atlético Fernández Fierro");
  await fill(page, "venueAddress", "Sánchez de Bustamante 772");
  await fill(page, "city", "Buenos Aires");
  await page.locator('select[name="province"]').selectOption("AR-CF");
  await fill(page, "ticketTypes[0].name", "General");
  await fill(page, "ticketTypes[0].price", "1.500,50");
  await fill(page, "ticketTypes[0].stock", "100");

  // A second ticket type: the form comes back with one more row and what was typed.
  await page.getByRole("button", { name: "Agregar otro tipo de entrada" }).click();
  await expect(page.locator('input[name="ticketTypes[1].name"]')).toBeVisible();
  await expect(page.locator('input[name="ticketTypes[0].price"]')).toHaveValue("1.500,50");
  await expect(page.locator('input[name="dates[0].startsAt"]')).toHaveValue("20/12/2030 21:30");
  await fill(page, "ticketTypes[1].name", "VIP");
  await fill(page, "ticketTypes[1].price", "5.000");
  await fill(page, "ticketTypes[1].stock", "20");
  await page.locator('select[name="ticketTypes[1].paymentMethod"]').selectOption("BankAccount");

  if (!options.js) {
    // A second date, without JavaScript too.
    await page.getByRole("button", { name: "Agregar otra fecha" }).click();
    await expect(page.locator('input[name="dates[1].startsAt"]')).toBeVisible();
    // Only the digits (a phone's numeric keypad has no "/" nor ":") and an ISO value both work.
    await fill(page, "dates[1].startsAt", "211220302130");
    await fill(page, "dates[1].endsAt", "2030-12-22T02:00");
  }
  await page.getByRole("button", { name: "Crear evento", exact: true }).click();
  await expect(page).toHaveURL(/\/organizacion\/condiciones-de-servicio\/[0-9a-f-]{36}/);
  await expect(page.getByText("Creamos tu evento. Ahora aceptá las condiciones de servicio para publicarlo.")).toBeVisible();
}

async function acceptAndPublish(page: Page) {
  await expect(page.getByText("cargo de servicio del 10 %").first()).toBeVisible();
  await page.getByLabel(/Leí y acepto las condiciones de servicio/).check();
  await page.getByRole("button", { name: "Aceptar y publicar más tarde" }).click();
  await expect(page.getByRole("heading", { name: "Publicar el evento" })).toBeVisible();
  await page.getByRole("button", { name: "Publicar evento" }).click();
  await expect(page).toHaveURL(/\/organizacion\/congrats-evento\?.*eventId=/);
  await expect(page.getByRole("heading", { name: "¡Tu evento está publicado!" })).toBeVisible();
}

async function expectOnSale(page: Page, shareUrl: string, name: string) {
  await page.goto(shareUrl);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const main = page.locator("main");
  await expect(main.getByText("General", { exact: true }).first()).toBeVisible();
  await expect(main.getByText("VIP", { exact: true }).first()).toBeVisible();
  await expect(main.getByText(/1\.650,55/).first()).toBeVisible();
}

test.describe("organizer with JavaScript", () => {
  test("signs up, creates the organization and an event with two ticket types, publishes it and it is on sale", async ({ page, baseURL }) => {
    const id = suffix();
    const name = `Peña Federal ${id}`;
    await signUp(page);
    await createOrganization(page, `Productora ${id}`);
    await fillEvent(page, name, { js: true });
    await acceptAndPublish(page);

    const shareUrl = await page.locator("#share-url").inputValue();
    expect(shareUrl).toBe(`${baseURL}/eventos/pena-federal-${id}`);
    await expect(page.getByRole("img", { name: /Código QR que abre/ }).locator("svg")).toBeVisible();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copiar link" }).click();
    await expect(page.getByRole("button", { name: "¡Copiado!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);

    // The list shows it as active with its stock.
    await page.getByRole("navigation", { name: "Organización" }).getByRole("link", { name: "Mis eventos" }).click();
    const row = page.locator(`tr[data-event="pena-federal-${id}"]`);
    await expect(row.getByText("Activo")).toBeVisible();
    await expect(row.getByText("0 / 120")).toBeVisible();

    await expectOnSale(page, shareUrl, name);

    // A buyer (another browser, no session) finds it from the home page by searching and picks tickets.
    const buyer = await page.context().browser()!.newPage();
    await buyer.goto(`${baseURL}/`);
    const main = buyer.locator("main");
    await main.getByRole("searchbox", { name: "Buscar por nombre" }).fill(`pena federal ${id}`);
    // With the event's day as the range, typed as dd/mm/aaaa (and only the digits).
    await main.getByText("Filtros", { exact: true }).click();
    await main.getByLabel("Desde", { exact: true }).fill("20/12/2030");
    await main.getByLabel("Hasta", { exact: true }).fill("20122030");
    await main.getByRole("button", { name: "Buscar", exact: true }).click();
    await expect(main.getByLabel("Desde", { exact: true })).toHaveValue("20/12/2030");
    await expect(main.getByLabel("Hasta", { exact: true })).toHaveValue("20/12/2030");
    await main.getByRole("article").first().getByRole("link", { name }).click();
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(name);
    await main.getByLabel("Cantidad de General").fill("2");
    await main.getByRole("button", { name: "Comprar" }).click();
    await expect(buyer).toHaveURL(`${baseURL}/checkout/payer-info/pena-federal-${id}`);
    await expect(main.getByText("General").first()).toBeVisible();
    await buyer.close();
  });
});

test.describe("organizer without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("does the same with plain forms, adding a second date", async ({ page }) => {
    const id = suffix();
    const name = `Chamamé Sin Script ${id}`;
    await signUp(page);
    await createOrganization(page, `Productora Sin JS ${id}`);
    await fillEvent(page, name, { js: false });
    await acceptAndPublish(page);
    const shareUrl = await page.locator("#share-url").inputValue();
    await expectOnSale(page, shareUrl, name);
    // Both dates are there.
    await expect(page.locator("main").getByText(/20 de diciembre de 2030/).first()).toBeVisible();
    await expect(page.locator("main").getByText(/21 de diciembre de 2030/).first()).toBeVisible();
  });
});
