import type { Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures";
import { hydrated, uniqueEmail } from "./support";

/**
 * What a person types before the page's JavaScript has taken over is what the form posts after it
 * (decision 185). A hydration that succeeds keeps the server's inputs, and their text; one that fails draws the
 * document again on the client (React after a mismatch; entry.client.tsx after an error, decision 180), and the
 * new inputs used to start empty. The first two tests force that second render with a text the client draws
 * differently; the third types while a slow CPU hydrates, the race that made CI lose a typed email.
 */

/** Holds every script of the page back until `release()`, as a slow phone's network does: the person types on the server's HTML. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/**", async (route: Route) => {
    if (route.request().resourceType() === "script") await released;
    await route.continue();
  });
  return release;
}

/** Serves the HTML of the document at `path` with `from` changed to `to`: React's first render differs from it. */
async function mismatch(page: Page, path: RegExp, from: string, to: string) {
  await page.route(path, async (route: Route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch();
    const html = await response.text();
    expect(html, "the text to change is on the page").toContain(from);
    const headers = { ...response.headers() };
    delete headers["content-encoding"];
    delete headers["content-length"];
    await route.fulfill({ status: response.status(), headers, body: html.replace(from, to) });
  });
}

test("an invitation typed before hydration is sent with what was typed, though React drew the page again", async ({ page, factory, signIn }) => {
  const event = await factory.event({ name: "Noche de Invitados", days: 0, ticketTypes: [{ name: "Invitados", price: 0, stock: 10 }] });
  await signIn(page.context(), event.owner);
  const email = uniqueEmail("antes-de-hidratar");
  const reports: string[] = [];
  page.on("console", (message) => void (message.text().startsWith("Hidratación") && reports.push(message.text())));
  await mismatch(page, /\/organizacion\/invitaciones/, "Entradas sin cargo para invitados", "Entradas sin cargo para invitadas");
  const release = await holdScripts(page);

  await page.goto(`/organizacion/invitaciones?eventId=${event.eventId}`, { waitUntil: "commit" });
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Nombre", { exact: true }).fill("Julieta");
  await page.getByLabel("Apellido").fill("Venegas");
  await page.getByLabel("Cantidad").fill("2");
  // Still the server's page: no React on the button yet.
  expect(await page.getByRole("button", { name: "Mandar invitación" }).evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps")))).toBe(false);
  release();
  await hydrated(page.getByRole("button", { name: "Mandar invitación" }));
  // React drew the page again (the lead is the client's), and the fields still hold what was typed.
  await expect(page.getByText("Entradas sin cargo para invitados")).toBeVisible();
  expect(reports.some((report) => report.startsWith("Hidratación (recovered)")), reports.join("\n")).toBe(true);
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);

  await page.getByRole("button", { name: "Mandar invitación" }).click();
  await expect(page.getByText(`¡Listo! Le mandamos las entradas a ${email}.`)).toBeVisible();
  await expect(page.locator("li", { hasText: "Julieta Venegas" })).toContainText("2 × Invitados");
});

test("a buyer's payer details typed before hydration reach the summary, though React drew the page again", async ({ page, factory }) => {
  const event = await factory.event({ name: "Peña del Typeo Temprano", ticketTypes: [{ name: "Platea", price: 2_000_000, stock: 50 }] });
  const main = page.locator("main");
  await page.goto(`/eventos/${event.slug}`);
  await main.getByLabel("Cantidad de Platea").fill("2");
  await main.getByRole("button", { name: "Comprar" }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));

  // The payer page opened again on a slow phone: the buyer fills it in before its JavaScript runs.
  await mismatch(page, /\/checkout\/payer-info\//, "TU COMPRA", "TU COMPRA!");
  const release = await holdScripts(page);
  await page.goto(`/checkout/payer-info/${event.slug}`, { waitUntil: "commit" });
  const email = uniqueEmail("compradora-temprana");
  await main.getByLabel("Nombre", { exact: true }).fill("Valentina");
  await main.getByLabel("Apellido", { exact: true }).fill("Quiroga");
  await main.getByLabel("Email", { exact: true }).fill(email);
  await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
  await main.getByLabel("Número de documento", { exact: true }).fill("30.123.456");
  await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 264 555-1234");
  release();
  const pay = main.getByRole("button", { name: "Continuar al pago" });
  await hydrated(pay);
  await expect(main.getByText("TU COMPRA", { exact: true })).toBeVisible();
  await expect(main.getByLabel("Email", { exact: true })).toHaveValue(email);

  await pay.click();
  // The order was made with the payer's details: none was empty.
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=[\w-]+$/);
});

test("an organization named while a slow CPU hydrates the page keeps its name", async ({ page, factory, signIn }) => {
  await signIn(page.context(), await factory.user());
  // A phone several times slower than this machine: hydrating the page takes long enough to type during it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
  const release = await holdScripts(page);
  await page.goto("/organizacion/por-crear", { waitUntil: "commit" });
  const name = page.getByLabel("Nombre de la organización");
  const typedFirst = `Productora ${factory.uniqueWord()}`;
  await name.fill(typedFirst);
  // The person keeps typing into the focused field, a key per task, until React has taken the page.
  await name.evaluate((field) => {
    const type = () => {
      const active = document.activeElement;
      if (active instanceof HTMLInputElement && active.name === "name" && !Object.keys(active).some((key) => key.startsWith("__reactProps"))) {
        if (active.value.length < 70) active.value += "a";
        active.dispatchEvent(new Event("input", { bubbles: true }));
      }
      if (!Object.keys(document.querySelector('input[name="name"]') ?? {}).some((key) => key.startsWith("__reactProps"))) setTimeout(type, 0);
    };
    (field as HTMLInputElement).focus();
    type();
  });
  release();
  await hydrated(name);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  const typed = await name.inputValue();
  expect(typed.startsWith(typedFirst), `"${typed}" starts with what was typed before the JavaScript came`).toBe(true);

  await page.getByLabel("CUIT").fill("30-71234567-1");
  await page.getByLabel("Email de contacto").fill("hola@productora.com.ar");
  await page.getByRole("button", { name: "Crear organización" }).click();
  await expect(page).toHaveURL(/\/organizacion\/resumen\?organizationId=/);
  await expect(page.getByRole("heading", { name: `Resumen de ${typed}` })).toBeVisible();
});
