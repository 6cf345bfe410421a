import type { Page } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";
import { uniqueEmail } from "./support";

/**
 * A buyer without an account buys an event with the sandbox provider:
 * event page → tickets → payer info → summary → sandbox approve → status.
 * Runs with JavaScript and without it: every step is a real form.
 */
const EVENT_NAME = "Noche de Cuarteto Sanjuanina";

/** An event of its own: Platea at $ 20.000. */
function cuarteto(factory: Factory) {
  return factory.event({ name: EVENT_NAME, ticketTypes: [{ name: "Platea", price: 2_000_000, stock: 50 }] });
}

async function pickAndContinue(page: Page, slug: string) {
  await page.goto(`/eventos/${slug}`);
  const main = page.locator("main");
  await main.getByLabel("Cantidad de Platea").fill("2");
  await main.getByRole("button", { name: "Comprar" }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${slug}$`));
  await expect(main.locator('[data-ticket="Platea"]')).toContainText("2 × Platea");
}

async function fillPayer(page: Page, email: string, documentNumber = "30.123.456") {
  const main = page.locator("main");
  await main.getByLabel("Nombre", { exact: true }).fill("Valentina");
  await main.getByLabel("Apellido", { exact: true }).fill("Quiroga");
  await main.getByLabel("Email", { exact: true }).fill(email);
  await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
  await main.getByLabel("Número de documento", { exact: true }).fill(documentNumber);
  await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 264 555-1234");
}

/** Pays on the summary page with the sandbox and ends on the tickets; returns their link and the order code. */
async function summaryToApproved(page: Page): Promise<{ ticketsUrl: string; orderCode: string }> {
  const main = page.locator("main");
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=[\w-]+$/);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(EVENT_NAME);
  // 2 × $ 20.000 + 10 % service fee.
  await expect(page.getByTestId("test-mode-banner")).toBeVisible();
  await expect(main.locator("[data-total]")).toHaveText(/\$\s?44\.000,00/);
  await expect(main.locator("[data-service-fee]")).toHaveText(/\$\s?4\.000,00/);
  await expect(main).toContainText("Cargo de servicio (10 %)");
  await expect(main).toContainText(/Tu reserva vence a las \d{2}:\d{2}/);
  await expect(main).toContainText("Estas entradas no se pagan por transferencia");
  await main.getByRole("button", { name: /Pagar .* con Mercado Pago/ }).click();

  await expect(page).toHaveURL(/\/sandbox\/mercadopago\/[0-9a-f-]{36}$/);
  // The e2e server simulates payments (PAYMENTS_SANDBOX=true): every page says so, this one too.
  await expect(page.getByTestId("test-mode-banner")).toHaveText("Modo de prueba: los pagos son simulados");
  await page.getByRole("button", { name: "Aprobar" }).click();

  await expect(page).toHaveURL(/\/checkout\/status\/approved\?billingId=[0-9a-f-]{36}&t=/);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("¡Listo! Tu pago fue aprobado");
  await expect(main.getByRole("link", { name: "Ver mis entradas" })).toHaveAttribute("href", /\/tickets\/[0-9a-f-]{36}\?t=/);
  // The confirmation with the tickets, readable without an account thanks to the token.
  await main.getByRole("link", { name: "Ver mis entradas" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}\?t=/);
  await expect(page.locator("main")).toContainText(EVENT_NAME);
  const orderCode = (await page.locator("main").getByText(/Compra TRB-[0-9A-Z]{6}/).first().innerText()).match(/TRB-[0-9A-Z]{6}/)![0];
  return { ticketsUrl: page.url(), orderCode };
}

/** The purchase's tickets are in the signed-in buyer's "Mis tickets". */
async function expectInMyTickets(page: Page, orderCode: string) {
  await page.goto("/cuenta/mis-tickets");
  const mine = page.getByTestId("ticket").filter({ hasText: orderCode });
  await expect(mine).toHaveCount(2);
  await expect(mine.first()).toContainText("Válida");
}

test.describe("checkout with JavaScript", () => {
  test("buys two tickets with the sandbox and lands on the approved page", async ({ page, context, factory, signIn }) => {
    const event = await cuarteto(factory);
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await pickAndContinue(page, event.slug);
    await fillPayer(page, uniqueEmail("checkout-js"));
    await page.locator("main").getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=/);
    // The island counts down the hold.
    await expect(page.locator("[data-countdown]")).toHaveText(/^1[45]:\d{2}$/);
    // Decision 46: no public key configured here, so the page says so in the console.
    await expect.poll(() => errors.some((e) => e.includes("Missing payment public key"))).toBe(true);
    const { ticketsUrl, orderCode } = await summaryToApproved(page);

    // Bought without an account: opening the tickets link signed in keeps them in "Mis tickets".
    await signIn(context, await factory.user());
    await page.goto(ticketsUrl);
    await expectInMyTickets(page, orderCode);
  });
});

test.describe("checkout without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("shows the server's messages next to the fields, then a signed-in buyer buys with the sandbox and finds the tickets in Mis tickets", async ({ page, context, factory, signIn }) => {
    const event = await cuarteto(factory);
    await signIn(context, await factory.user());
    await pickAndContinue(page, event.slug);
    const main = page.locator("main");
    await fillPayer(page, "valen@", "12");
    await main.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));
    await expect(main.locator("#payer-info-email-error, [id$='-email-error']").first()).toHaveText("Este campo debe ser un email válido");
    await expect(main.getByText("Ingresá un número de documento válido", { exact: true })).toBeVisible();
    // …and, at the top, the summary that links each of them.
    await expect(main.locator("[data-error-summary]")).toContainText("Número de documento: Ingresá un número de documento válido");
    // What was typed is still there.
    await expect(main.getByLabel("Apellido", { exact: true })).toHaveValue("Quiroga");

    await main.getByLabel("Email", { exact: true }).fill(uniqueEmail("checkout-nojs"));
    await main.getByLabel("Número de documento", { exact: true }).fill("30123456");
    await main.getByRole("button", { name: "Continuar al pago" }).click();
    const { orderCode } = await summaryToApproved(page);
    await expectInMyTickets(page, orderCode);
  });
});
