import type { BrowserContext } from "@playwright/test";
import { BACKOFFICE_GROUPS, BACKOFFICE_LINKS, BO } from "#app/components/backoffice/nav";
import { expect, test } from "./fixtures";
import { atEverySize, backofficePages, expectLayoutFits, horizontalOverflow, makeSite, newContextAtWidest, organizerPages, VIEWPORTS, type Site, type Visit } from "./pages";

/**
 * Layout on a 390 px phone and a 1366 px desktop (decision 116): no page is wider than the screen, the event
 * page's buy bar is in view on a phone, and every back-office section can be reached from the navigation. That
 * every section page is in the navigation at all needs no browser: app/components/backoffice/nav.test.ts.
 */

let site: Site;
test.beforeAll(async ({ factory }) => {
  site = await makeSite(factory);
});

type SignIn = (context: BrowserContext, user: { id: string; email: string; roles: string[] }, options?: { secondFactor?: boolean }) => Promise<void>;

async function signInAs(context: BrowserContext, signIn: SignIn, as: Visit["as"], admin?: { id: string; email: string; roles: string[] }) {
  if (as === "owner") await signIn(context, site.event.owner, { secondFactor: true });
  if (as === "admin" && admin) await signIn(context, admin, { secondFactor: true });
}

// The buyer pages and the main organizer pages get these same checks in accessibility.spec.ts, on the load axe
// uses (decision 182): this walk takes the rest of the back office.
test("ninguna página del back office es más ancha que la pantalla ni deja al navegador hablar en inglés", async ({ browser, signIn, factory }) => {
  test.slow(); // some twenty pages, each at two sizes
  const admin = await factory.user({ roles: ["admin"], firstName: "Soporte" });
  const checkedWithAxe = new Set(organizerPages(site).map((visit) => visit.path));
  const contexts = new Map<Visit["as"], BrowserContext>();
  for (const visit of backofficePages(site).filter((v) => !checkedWithAxe.has(v.path))) {
    let context = contexts.get(visit.as);
    if (!context) {
      context = await newContextAtWidest(browser);
      await signInAs(context, signIn, visit.as, admin);
      contexts.set(visit.as, context);
    }
    const page = await context.newPage();
    await page.goto(visit.path);
    await expect(page.getByRole("heading", { level: 1 }).first(), `${visit.name} (${visit.path})`).toBeVisible();
    // At every size, from one load (atEverySize, decision 143).
    await atEverySize(page, (size) => expectLayoutFits(page, visit, size));
    await page.close();
  }
  for (const context of contexts.values()) await context.close();
});

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("cada sección del back office se alcanza desde la navegación", async ({ page, context, signIn }) => {
      await signIn(context, site.event.owner, { secondFactor: true });
      await page.goto("/organizacion/resumen");
      const phone = viewport.width < 600;
      // The owner sees every section but a promoter's own sales (checked below with a promoter).
      const sections = BACKOFFICE_LINKS.filter((link) => link.capability !== "promoters:sell");
      for (const link of sections) {
        const group = BACKOFFICE_GROUPS.find((g) => g.links.includes(link))!;
        if (phone) {
          const disclosure = page.locator("[data-backoffice-nav=phone]");
          const item = disclosure.getByRole("navigation", { name: "Organización" }).getByRole("link", { name: link.label, exact: true });
          // "Secciones" closes after each navigation (it is drawn anew), and a late redraw may close it again
          // between seeing the link and clicking it: open it, click and check where it led, all retried together.
          await expect(async () => {
            if (!(await item.isVisible())) await disclosure.locator("summary").click();
            await item.click({ timeout: 1_000 });
            await expect(page).toHaveURL(new RegExp(`${link.to}(\\?|$)`), { timeout: 3_000 });
          }, `${link.label} en la navegación`).toPass();
        } else {
          const nav = page.locator("[data-backoffice-nav=wide]");
          await nav.getByRole("list").first().getByRole("link", { name: group.label, exact: true }).click();
          await expect(page).toHaveURL(new RegExp(`${group.links[0].to}(\\?|$)`));
          const item = nav.getByRole("list").nth(1).getByRole("link", { name: link.label, exact: true });
          await expect(item, `${link.label} en la navegación`).toBeVisible();
          await item.click();
        }
        await expect(page, link.label).toHaveURL(new RegExp(`${link.to}(\\?|$)`));
        await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
        const current = page.locator(`[data-backoffice-nav=${phone ? "phone" : "wide"}] [aria-current=page]`);
        if (!phone) await expect(current).toHaveText(link.label);
      }
    });

    test("un RRPP llega a sus ventas desde la navegación", async ({ page, context, signIn, factory }) => {
      const promoter = await factory.promoter(site.event, { firstName: "Romina", lastName: "Sosa", nickname: `romi${Date.now().toString(36)}` });
      await signIn(context, { ...promoter, roles: ["promoter"] });
      await page.goto("/organizacion/resumen");
      const mine = BACKOFFICE_LINKS.find((link) => link.capability === "promoters:sell")!;
      if (viewport.width < 600) await page.locator("[data-backoffice-nav=phone] summary").click();
      const nav = page.locator(`[data-backoffice-nav=${viewport.width < 600 ? "phone" : "wide"}]`);
      await nav.getByRole("link", { name: mine.label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${mine.to}(\\?|$)`));
    });
  });
}

test("la barra de compra se ve en la página del evento en un teléfono", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/eventos/${site.event.slug}`);
  const bar = page.locator("[data-buy-bar]");
  await expect(bar).toBeVisible();
  await expect(bar).toBeInViewport();
  const { scrollWidth, innerWidth } = await horizontalOverflow(page);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});

test("en un teléfono los filtros del back office empiezan cerrados: el contenido se ve desde la primera pantalla", async ({ page, context, signIn }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(context, site.event.owner, { secondFactor: true });
  await page.goto(BO.summary);
  const filters = page.locator("details[data-filters]");
  const form = filters.getByRole("form", { name: "Filtros" });
  // One line that says what is chosen, instead of the whole form.
  await expect(filters.locator("summary")).toBeInViewport();
  await expect(filters.locator("summary")).toContainText("Filtros · ");
  expect((await filters.locator("summary").boundingBox())!.height).toBeLessThan(80);
  await expect(form).toBeHidden();
  // The first figures of the summary, not the filters, share the first screen with the title.
  await expect(page.getByTestId("sales-Hoy")).toBeInViewport();
  // Still one tap away.
  await filters.locator("summary").click();
  await expect(form).toBeVisible();
  await expect(form.locator("select[name=eventId]")).toBeVisible();
});
