import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { seatedEvent } from "./seating";
import { uniqueEmail } from "./support";

/**
 * Reserved seating on a 390 px phone (docs/seating.md): from the event page to the map, two seats chosen by
 * touch, paid in the sandbox, and the seats printed on the tickets; and the same without JavaScript through
 * "Mejor ubicación disponible", which shows the seats it chose before the payer form.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

async function fillPayerAndPay(page: Page, email: string) {
  const main = page.locator("main");
  await main.getByLabel("Nombre", { exact: true }).fill("Valentina");
  await main.getByLabel("Apellido", { exact: true }).fill("Quiroga");
  await main.getByLabel("Email", { exact: true }).fill(email);
  await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
  await main.getByLabel("Número de documento", { exact: true }).fill("30123456");
  await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 11 5555-1234");
  await main.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=/);
  await main.getByRole("button", { name: /Pagar .* con Mercado Pago/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/mercadopago\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Aprobar" }).click();
  await expect(page).toHaveURL(/\/checkout\/status\/approved\?billingId=/);
  await page.locator("main").getByRole("link", { name: "Ver mis entradas" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}\?t=/);
}

test("on a phone: picks two seats on the map, pays in the sandbox and the tickets carry them", async ({ page, factory }) => {
  const event = await seatedEvent(factory);
  await page.goto(`/eventos/${event.slug}`);
  const main = page.locator("main");
  await main.getByRole("link", { name: "Elegir asientos" }).click();
  await expect(page).toHaveURL(new RegExp(`/asientos/${event.slug}$`));
  await expect(main.getByRole("heading", { name: "Elegí tus asientos" })).toBeVisible();

  // A tap says the seat's place and price; two taps choose two seats, listed under the map.
  await main.locator('[data-seat="A4"]').tap();
  await main.locator('[data-seat="A5"]').tap();
  await expect(main.getByTestId("chosen-seats").getByRole("listitem")).toHaveCount(2);
  await expect(main.getByTestId("chosen-seats")).toContainText("Sala · Fila A · Asiento 4");
  await expect(main.locator('[data-seat="A4"]')).toHaveAttribute("aria-checked", "true");
  await main.getByRole("button", { name: "Continuar", exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));
  await expect(main.getByTestId("payer-seats")).toContainText("Sala · Fila A · Asiento 4");
  await expect(main.getByTestId("payer-seats")).toContainText("Sala · Fila A · Asiento 5");
  await fillPayerAndPay(page, uniqueEmail("asientos-js"));
  await expect(page.locator("main")).toContainText("Fila A · Asiento 4");
  await expect(page.locator("main")).toContainText("Fila A · Asiento 5");

  // Those seats are taken now: the map shows them so.
  await page.goto(`/asientos/${event.slug}`);
  await expect(page.locator('[data-seat="A4"]')).toHaveAttribute("data-state", "sold");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("best available shows the seats it chose, then the buyer pays and the tickets carry them", async ({ page, factory }) => {
    const event = await seatedEvent(factory);
    await page.goto(`/eventos/${event.slug}`);
    const main = page.locator("main");
    await main.getByRole("link", { name: "Elegir asientos" }).click();
    await main.locator("select[name=category]").selectOption("Pullman");
    await main.locator("select[name=quantity]").selectOption("2");
    await main.getByRole("button", { name: "Buscar asientos" }).click();
    const proposal = main.getByTestId("best-proposal");
    await expect(proposal).toContainText("Te proponemos estos 2 asientos");
    // Row B has six seats: the two in the middle.
    await expect(proposal).toContainText("Sala · Fila B · Asiento 3");
    await expect(proposal).toContainText("Sala · Fila B · Asiento 4");
    await proposal.getByRole("button", { name: "Continuar con estos asientos" }).click();

    await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));
    await expect(main.getByTestId("payer-seats")).toContainText("Sala · Fila B · Asiento 3");
    await fillPayerAndPay(page, uniqueEmail("asientos-nojs"));
    await expect(page.locator("main")).toContainText("Fila B · Asiento 3");
    await expect(page.locator("main")).toContainText("Fila B · Asiento 4");
  });
});
