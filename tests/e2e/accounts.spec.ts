import { expect, test, type Page } from "@playwright/test";
import { fill, newestEmailText, submit, uniqueEmail } from "./support";

async function signUp(page: Page, email: string, password = "clave-segura-1") {
  await page.goto("/cuenta/registro");
  await fill(page, "firstName", "Lucía");
  await fill(page, "lastName", "Fernández");
  await fill(page, "email", email);
  await fill(page, "password", password);
  await submit(page);
}

/**
 * Signs out with the page's own "Cerrar sesión" form, wherever the layout puts it (in the header, or in the menu
 * the header opens, which slides in): where the button sits is the layout specs' business, not this one's.
 */
async function signOut(page: Page) {
  const form = page.locator('form[action="/cuenta/cerrar-sesion"]').first();
  const submitted = await form.evaluate((f: HTMLFormElement) => (f.requestSubmit(), true)).catch(() => false);
  if (!submitted) {
    // Without JavaScript: the menu opens with its label (a checkbox), then the button is clicked.
    const visible = page.locator('form[action="/cuenta/cerrar-sesion"] button:visible');
    if (!(await visible.count())) await page.locator('label[for="menu-toggle"]:visible').first().click();
    await visible.first().click();
  }
  await expect(page.locator('a[href="/cuenta/iniciar-sesion"]:visible').first()).toBeVisible();
}

async function expectSignedIn(page: Page) {
  await expect(page.locator('header a[href="/cuenta/mi-cuenta"]:visible').first()).toBeVisible();
}

async function expectSignedOut(page: Page) {
  await expect(page.locator('a[href="/cuenta/iniciar-sesion"]:visible').first()).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === "at")?.value ?? "").toBe("");
}

test.describe("accounts with JavaScript", () => {
  test("sign up, sign out and sign in again with email and password", async ({ page }) => {
    const email = uniqueEmail("alta");
    await signUp(page, email);
    await expect(page).toHaveURL("/");
    await expectSignedIn(page);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "at")).toMatchObject({ httpOnly: true, path: "/", sameSite: "Lax" });
    expect(cookies.find((c) => c.name === "rt")).toMatchObject({ httpOnly: true, path: "/" });

    await signOut(page);
    await expectSignedOut(page);

    await page.goto("/cuenta/iniciar-sesion/email");
    await fill(page, "email", email);
    await fill(page, "password", "clave-equivocada");
    await submit(page);
    await expect(page.getByText("El email o la contraseña no son correctos.").first()).toBeVisible();
    await fill(page, "password", "clave-segura-1");
    await submit(page);
    await expect(page).toHaveURL("/");
    await expectSignedIn(page);
  });

  test("shows the spec's messages next to the fields", async ({ page }) => {
    await page.goto("/cuenta/registro");
    await fill(page, "firstName", " Ana");
    await fill(page, "lastName", "Pérez");
    await fill(page, "email", "ana@sin-dominio");
    await fill(page, "password", "corta");
    await submit(page);
    await expect(page.getByText("Este campo no puede contener espacios al inicio o al final")).toBeVisible();
    await expect(page.getByText("Este campo debe ser un email válido")).toBeVisible();
    await expect(page.getByText("Este campo debe tener al menos 8 caracteres")).toBeVisible();
    await expect(page).toHaveURL(/\/cuenta\/registro/);
  });

  test("a protected page forces the login and comes back to it afterwards", async ({ page }) => {
    const email = uniqueEmail("forzado");
    await signUp(page, email);
    await signOut(page);

    await page.goto("/cuenta/mi-cuenta");
    await expect(page).toHaveURL("/cuenta/iniciar-sesion/email?forcedLogin=true");
    await expect(page.getByText("Para continuar necesitás iniciar sesión.")).toBeVisible();
    await fill(page, "email", email);
    await fill(page, "password", "clave-segura-1");
    await submit(page);
    await expect(page).toHaveURL("/cuenta/mi-cuenta");
    await expect(page.locator('input[name="email"]')).toHaveValue(email);
    const callback = (await page.context().cookies()).find((c) => c.name === "loggin-callback");
    expect(callback?.value ?? "").toBe("");
  });

  test("recovers the password with the code from the dev mailbox", async ({ page }) => {
    const email = uniqueEmail("recupero");
    await signUp(page, email);
    await signOut(page);

    await page.goto("/cuenta/solicitar-recuperacion");
    await fill(page, "email", email);
    await submit(page);
    await expect(page).toHaveURL(/\/cuenta\/recuperar/);
    // No SMTP (and no ENABLE_DEV_MAILBOX): the page says where the code is, and the mailbox opens from this machine.
    await expect(page.getByTestId("aviso-buzon")).toContainText("Como no hay un servidor de correo configurado");

    const text = await newestEmailText(page, email);
    const code = text.match(/\b(\d{6})\b/)?.[1];
    expect(code).toBeTruthy();

    await page.goto(`/cuenta/recuperar?email=${encodeURIComponent(email)}`);
    await fill(page, "email", email);
    await fill(page, "code", code!);
    await fill(page, "password", "nueva-clave-9");
    await submit(page);
    await expect(page).toHaveURL("/");
    await expectSignedIn(page);

    await signOut(page);
    await page.goto("/cuenta/iniciar-sesion/email");
    await fill(page, "email", email);
    await fill(page, "password", "nueva-clave-9");
    await submit(page);
    await expectSignedIn(page);
  });

  test("signs in with a link sent by email", async ({ page }) => {
    await page.goto("/cuenta/iniciar-sesion");
    const email = uniqueEmail("enlace");
    await fill(page, "email", email);
    await submit(page);
    await expect(page.getByText(email).first()).toBeVisible();

    await newestEmailText(page, email);
    const href = await page.locator('main a[href*="/cuenta/enlace"]').first().getAttribute("href");
    expect(href).toBeTruthy();
    await page.goto(new URL(href!).pathname + new URL(href!).search);
    await fill(page, "firstName", "Tomás");
    await fill(page, "lastName", "Gómez");
    await submit(page);
    await expectSignedIn(page);
  });

  test("the theme choice survives a reload", async ({ page }) => {
    await page.goto("/ayuda");
    await expect(page.locator("html")).toHaveClass(/dark/);
    // Hydrated, the switch is optimistic: the page turns light at once and the cookie comes with the fetcher's answer (200).
    // Clicked before hydration (the JavaScript arrives after the first paint), the form posts and the answer is a 303 back
    // with the cookie. Either way, reload after the answer.
    const saved = page.waitForResponse((response) => response.url().includes("/preferencias/tema") && response.request().method() === "POST");
    await page.locator('form[action="/preferencias/tema"] button[value="light"]').first().click();
    await expect(page.locator("html")).toHaveClass(/light/);
    expect((await saved).status()).toBeLessThan(400);
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/light/);
    await expect(page.locator("html")).not.toHaveClass(/dark/);
  });
});

test.describe("accounts without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign up and sign in work as plain HTML forms", async ({ page }) => {
    const email = uniqueEmail("sinjs");
    await signUp(page, email);
    await expect(page).toHaveURL("/");
    await expectSignedIn(page);
    await signOut(page);
    await expectSignedOut(page);

    await page.goto("/cuenta/iniciar-sesion/email");
    await fill(page, "email", email);
    await fill(page, "password", "clave-segura-1");
    await submit(page);
    await expect(page).toHaveURL("/");
    await expectSignedIn(page);
  });

  test("field errors come back from the server in Spanish", async ({ page }) => {
    await page.goto("/cuenta/iniciar-sesion/email");
    await fill(page, "email", "no-es-un-email");
    await fill(page, "password", "algo");
    await submit(page);
    await expect(page.getByText("Este campo debe ser un email válido")).toBeVisible();
  });
});
