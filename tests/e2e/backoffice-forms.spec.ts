import { expect, test } from "./fixtures";

/**
 * Back-office forms with JavaScript (docs/decisions/122): Conform checks the
 * shared schema in the browser, in Spanish, and an invalid form is not posted;
 * what only the server knows (a code already taken) comes back next to its
 * field, as without JavaScript (tests/e2e/coupons.spec.ts).
 */

test("the coupon form says what is wrong before posting, and the server's answer lands next to its field", async ({ page, factory, signIn }) => {
  const event = await factory.event({ name: "Peña de invierno", ticketTypes: [{ name: "General", price: 800_000, stock: 50 }] });
  await signIn(page.context(), event.owner);
  const main = page.locator("main");
  const openForm = async () => {
    await page.goto("/organizacion/cupones/nuevo");
    await main.getByRole("link", { name: event.name }).click();
    await expect(main.getByRole("button", { name: "Crear cupón" })).toBeVisible();
  };
  await openForm();

  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });

  // On leaving the field, the schema's message (the same the domain says), and no post.
  const code = main.getByLabel("Código");
  await code.fill("con espacio");
  await code.blur();
  await expect(main.getByText("El código no puede tener espacios")).toBeVisible();
  await expect(code).toHaveAttribute("aria-invalid", "true");

  // Submitting an invalid form stays on the page with every message; nothing reaches the server.
  await main.getByLabel("Tipo de descuento").selectOption("percent");
  await main.getByRole("button", { name: "Crear cupón" }).click();
  await expect(main.getByText("Ingresá un porcentaje entre 1 y 100")).toBeVisible();
  await expect(main.getByText("El código no puede tener espacios")).toBeVisible();
  expect(posts).toEqual([]);

  // Once touched, the field is checked again while typing.
  const word = factory.uniqueWord().toUpperCase();
  await code.fill(`PENA${word}`);
  await expect(main.getByText("El código no puede tener espacios")).toBeHidden();
  await main.getByLabel("Porcentaje (1 a 100)").fill("15");
  await main.getByRole("button", { name: "Crear cupón" }).click();
  await expect(page).toHaveURL(/\/organizacion\/cupones\?eventId=[0-9a-f-]{36}$/);
  await expect(main.locator(`tr[data-coupon="PENA${word}"]`)).toBeVisible();

  // The same code again: only the server knows it is taken; its answer shows next to the field.
  await openForm();
  await main.getByLabel("Código").fill(`PENA${word}`);
  await main.getByLabel("Porcentaje (1 a 100)").fill("10");
  await main.getByRole("button", { name: "Crear cupón" }).click();
  await expect(main.getByText("Ya hay un cupón con ese código en este evento")).toBeVisible();
  await expect(main.getByLabel("Código")).toHaveAttribute("aria-invalid", "true");
  await expect(main.getByLabel("Porcentaje (1 a 100)")).toHaveValue("10");
});
