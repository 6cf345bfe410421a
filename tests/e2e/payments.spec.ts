import { expect, test } from "./fixtures";

/**
 * /organizacion/metodos-de-pago on a server without Mercado Pago credentials
 * (the end-to-end server runs on the sandbox): the owner learns that the
 * connection is not configured and that payments are simulated, and finds
 * the way to the bank accounts. Without JavaScript, as every back-office page.
 */

test.describe("métodos de pago", () => {
  test.use({ javaScriptEnabled: false });

  test("sin credenciales de Mercado Pago explica que se usa el sandbox y lleva a las cuentas bancarias", async ({ page, factory, signIn }) => {
    const { user } = await factory.producer();
    await signIn(page.context(), { ...user, roles: ["producer"] });
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
