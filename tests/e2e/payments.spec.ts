import { expect, test, type Page } from "@playwright/test";
import { fill, uniqueEmail } from "./support";

/**
 * /organizacion/metodos-de-pago on a server without Mercado Pago credentials
 * (the end-to-end server runs on the sandbox): the owner learns that the
 * connection is not configured and that payments are simulated, and finds
 * the way to the bank accounts. Without JavaScript, as every back-office page.
 */

async function signUpWithOrganization(page: Page, name: string) {
  await page.goto("/cuenta/registro");
  await fill(page, "firstName", "Valeria");
  await fill(page, "lastName", "Productora");
  await fill(page, "email", uniqueEmail("pagos"));
  await fill(page, "password", "clave-segura-1");
  await page.locator('main form [type="submit"]:visible').last().click();
  await expect(page).toHaveURL("/");
  await page.goto("/organizacion/por-crear");
  await fill(page, "name", name);
  await fill(page, "cuit", "30-71234567-1");
  await fill(page, "contactEmail", "hola@productora.com.ar");
  await page.getByRole("button", { name: "Crear organización" }).click();
  await expect(page).toHaveURL(/\/organizacion\/resumen\?organizationId=/);
}

test.describe("métodos de pago", () => {
  test.use({ javaScriptEnabled: false });

  test("sin credenciales de Mercado Pago explica que se usa el sandbox y lleva a las cuentas bancarias", async ({ page }) => {
    await signUpWithOrganization(page, `Productora Pagos ${Math.random().toString(36).slice(2, 6)}`);
    await page.goto("/organizacion/metodos-de-pago");
    await expect(page.getByRole("heading", { name: "Métodos de pago" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Mercado Pago" })).toBeVisible();
    await expect(page.getByTestId("mp-not-configured")).toContainText("La conexión con Mercado Pago no está configurada en este servidor.");
    await expect(page.getByTestId("mp-not-configured")).toContainText("sandbox");
    await expect(page.getByRole("button", { name: "Conectar Mercado Pago" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Transferencia bancaria" })).toBeVisible();
    const link = page.getByRole("link", { name: "Administrá tus cuentas bancarias" });
    await expect(link).toHaveAttribute("href", /^\/organizacion\/cuentas-bancarias/);
  });
});
