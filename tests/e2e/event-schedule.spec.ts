import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** What axe-core finds on the page as it is, WCAG 2.x A and AA (as tests/e2e/accessibility.spec.ts). */
async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]).analyze();
  return results.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

/**
 * The event's edit pages save dates and ticket types through saveEventSchedule
 * and say what changed (docs/decisions/126): a status line worded from the
 * domain's change actions and a mark on the row, with and without JavaScript
 * (without it in the light theme; with it in the dark one, and axe-core, which
 * needs JavaScript in the page, on each answer).
 */
for (const javaScriptEnabled of [false, true]) {
  test.describe(javaScriptEnabled ? "edición del evento con JavaScript" : "edición del evento sin JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("adding a date, saving one as it was and editing a ticket type say what changed, next to the rows", async ({ page, factory, signIn }) => {
      const event = await factory.event({ name: "Ciclo de jazz", ticketTypes: [{ name: "General", price: 800_000, stock: 50 }] });
      await signIn(page.context(), event.owner);
      const url = new URL(test.info().project.use.baseURL!);
      await page.context().addCookies([{ name: "theme", value: javaScriptEnabled ? "dark" : "light", domain: url.hostname, path: "/" }]);
      const main = page.locator("main");

      await page.goto(`/organizacion/evento/editar/${event.slug}`);
      const adding = main.locator("form", { has: page.getByRole("button", { name: "Agregar fecha" }) });
      await adding.getByRole("textbox", { name: "Empieza" }).fill("10/01/2031 22:00");
      await adding.getByRole("textbox", { name: "Termina" }).fill("11/01/2031 03:00");
      await adding.getByRole("button", { name: "Agregar fecha" }).click();
      await expect(main.getByRole("status")).toHaveText("Fecha creada");
      // The factory's date is days away, so the new one (2031) is the second.
      await expect(main.locator("li", { hasText: "Fecha 2" }).getByText("Nueva", { exact: true })).toBeVisible();
      await expect(main.locator("li", { hasText: "Fecha 1" }).getByText("Nueva", { exact: true })).toHaveCount(0);
      if (javaScriptEnabled) expect(await violations(page)).toEqual([]);

      await main.locator("li", { hasText: "Fecha 1" }).getByRole("button", { name: "Guardar fecha" }).click();
      await expect(main.getByRole("status")).toHaveText("No había cambios para guardar");

      await page.goto(`/organizacion/evento/editar/tickets/${event.slug}`);
      const general = main.locator("details[data-ticket='General']");
      await general.locator("summary").click();
      await general.getByRole("textbox", { name: "Precio en pesos" }).fill("9.500");
      await general.getByRole("button", { name: "Guardar", exact: true }).click();
      await expect(main.getByRole("status")).toHaveText("Tipo de entrada modificado");
      await expect(general.locator("summary").getByText("Modificada", { exact: true })).toBeVisible();
      await expect(general.locator("summary")).toContainText("$ 9.500,00");
      if (javaScriptEnabled) expect(await violations(page)).toEqual([]);
    });
  });
}
