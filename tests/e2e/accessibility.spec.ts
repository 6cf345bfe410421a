import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { atEverySize, buyerPages, makeSite, moreBuyerPages, newContextAtWidest, organizerPages, THEMES, VIEWPORTS, type Site, type Visit } from "./pages";

/**
 * axe-core on every buyer page and the main organizer pages (issue 13), error pages included, in both themes (the
 * `theme` cookie) and on a 1366 × 768 desktop and a 390 × 844 phone: WCAG 2.0, 2.1 and 2.2, levels A and AA, no violations.
 */

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

let site: Site;
test.beforeAll(async ({ factory }) => {
  site = await makeSite(factory);
});

async function violations(page: Page) {
  // An email's preview is a sandboxed iframe without scripts: axe cannot run inside it (it waited forever), and it is the email, not the page.
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).exclude("iframe[srcdoc]").analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")} — ${n.failureSummary?.split("\n").slice(1).join(" ")}`) }));
}

function pagesOf(audience: "compra" | "organización") {
  return (s: Site): Visit[] => (audience === "compra" ? [...buyerPages(s), ...moreBuyerPages(s)] : organizerPages(s));
}

/** The pages' names, known before the data exists (only their paths need it). */
const PLACEHOLDER = { event: { slug: "-", organizationSlug: "-", owner: {} }, buyer: {}, paidOrderId: "-", paidBillingId: "-", pendingBillingId: "-", transferBillingId: "-" } as unknown as Site;

/**
 * Cases left to the engineers who own those files right now (issue 13), each naming its violation: they
 * are marked `fixme` until fixed there.
 */
const KNOWN: Record<string, { themes: readonly string[]; why: string }> = {};

// One load per page and theme, checked at every size by resizing it (atEverySize, decision 143).
for (const audience of ["compra", "organización"] as const) {
  for (const theme of THEMES) {
    test.describe(`páginas de ${audience}: tema ${theme === "light" ? "claro" : "oscuro"}, ${VIEWPORTS.map((v) => v.name).join(" y ")}`, () => {
      for (const name of pagesOf(audience)(PLACEHOLDER).map((v) => v.name)) {
        const known = KNOWN[name]?.themes.includes(theme) ? KNOWN[name] : undefined;
        test(name, async ({ browser, signIn }) => {
          test.fixme(Boolean(known), known?.why);
          const visit = pagesOf(audience)(site).find((v) => v.name === name)!;
          const context = await newContextAtWidest(browser);
          const url = new URL(test.info().project.use.baseURL!);
          await context.addCookies([{ name: "theme", value: theme, domain: url.hostname, path: "/" }]);
          if (visit.as === "buyer") await signIn(context, site.buyer);
          if (visit.as === "owner") await signIn(context, site.event.owner, { secondFactor: true });
          const page = await context.newPage();
          if (visit.reach) await visit.reach(page);
          else await page.goto(visit.path);
          await expect(page.locator("main").first()).toBeVisible();
          await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
          const found: Record<string, Awaited<ReturnType<typeof violations>>> = {};
          await atEverySize(page, async (size) => {
            if (visit.prepare) await visit.prepare(page);
            found[size.name] = await violations(page);
          });
          expect(found, `${visit.name} (${visit.path})`).toEqual(Object.fromEntries(VIEWPORTS.map((size) => [size.name, []])));
          await context.close();
        });
      }
    });
  }
}
