import { describe, expect, it } from "vitest";
import { BUYER_BUDGET_BYTES, BUYER_ROUTES, checkBuyerBudget, measureBuyerPages, SHELL_BUDGET_BYTES, type RemixManifestLike } from "../../scripts/bundle-budget";

/** A manifest shaped as Remix writes it, every buyer route present, with made-up gzip sizes. */
function fixture(sizes: Record<string, number>, extra: Partial<Record<string, { module: string; imports?: string[] }>> = {}) {
  const routes: RemixManifestLike["routes"] = {
    root: { module: "/assets/root.js", imports: ["/assets/shell.js"] },
  };
  for (const [, id] of BUYER_ROUTES) routes[id] = { module: `/assets/${id}.js`, imports: ["/assets/shell.js"] };
  Object.assign(routes, extra);
  const manifest: RemixManifestLike = { entry: { module: "/assets/entry.client.js", imports: ["/assets/shell.js"] }, routes };
  const gzipBytes = (file: string) => sizes[file] ?? 1024;
  return { manifest, gzipBytes };
}

const KB = 1024;

describe("buyer pages' JavaScript budget", () => {
  it("passes when every page, shell included, is within 100 kB, and counts each page's scripts", () => {
    const { manifest, gzipBytes } = fixture({ "/assets/shell.js": 85 * KB, "/assets/root.js": 2 * KB, "/assets/entry.client.js": 1 * KB });
    const report = measureBuyerPages(manifest, gzipBytes);
    expect(report.shell.bytes).toBe(88 * KB);
    const home = report.pages.find((p) => p.url === "/")!;
    expect(home.totalBytes).toBe(89 * KB);
    // entry, shell, root and the route's own chunk.
    expect(home.requests).toBe(4);
    expect(checkBuyerBudget(report)).toMatchObject({
      ok: true,
      budgetBytes: BUYER_BUDGET_BYTES,
      shellBudgetBytes: SHELL_BUDGET_BYTES,
      shellOverBudget: null,
      overBudget: [],
      backOffice: [],
      missing: [],
    });
  });

  it("fails over budget and names the page, the shell counted in each total", () => {
    const { manifest, gzipBytes } = fixture(
      { "/assets/shell.js": 80 * KB, "/assets/zod.js": 23 * KB },
      { "routes/checkout.payer-info.$eventSlug": { module: "/assets/payer.js", imports: ["/assets/shell.js", "/assets/zod.js"] } },
    );
    const verdict = checkBuyerBudget(measureBuyerPages(manifest, gzipBytes));
    expect(verdict.ok).toBe(false);
    expect(verdict.overBudget.map((p) => p.url)).toEqual(["/checkout/payer-info/{eventSlug}"]);
    expect(verdict.overBudget[0].own[0]).toEqual({ file: "/assets/zod.js", bytes: 23 * KB });
  });

  it("fails when back-office code reaches a buyer page, even under budget", () => {
    const { manifest, gzipBytes } = fixture(
      { "/assets/shell.js": 10 * KB },
      { "routes/_index": { module: "/assets/_index.js", imports: ["/assets/shell.js", "/assets/BackofficeTable.js"] } },
    );
    const verdict = checkBuyerBudget(measureBuyerPages(manifest, gzipBytes));
    expect(verdict.ok).toBe(false);
    expect(verdict.overBudget).toEqual([]);
    expect(verdict.backOffice).toEqual(["/: /assets/BackofficeTable.js"]);
  });

  it("fails when a buyer route is missing from the build, so a rename cannot slip past the budget", () => {
    const { manifest, gzipBytes } = fixture({ "/assets/shell.js": 10 * KB }, { "routes/eventos.$slug": undefined });
    const verdict = checkBuyerBudget(measureBuyerPages(manifest, gzipBytes));
    expect(verdict.ok).toBe(false);
    expect(verdict.missing).toEqual(["/eventos/{slug} (routes/eventos.$slug)"]);
  });

  it("fails when the shared shell is over its own budget, though every page is within theirs", () => {
    const { manifest, gzipBytes } = fixture({ "/assets/shell.js": 90 * KB, "/assets/root.js": 1 * KB, "/assets/entry.client.js": 1 * KB });
    const report = measureBuyerPages(manifest, gzipBytes);
    expect(report.pages.every((page) => page.totalBytes <= BUYER_BUDGET_BYTES)).toBe(true);
    const verdict = checkBuyerBudget(report, BUYER_BUDGET_BYTES, 91 * KB);
    expect(verdict.ok).toBe(false);
    expect(verdict.shellOverBudget).toBe(92 * KB);
    expect(verdict.overBudget).toEqual([]);
  });

  it("takes a page (and a shell) at exactly the budget as within it", () => {
    const { manifest, gzipBytes } = fixture({ "/assets/shell.js": 98 * KB, "/assets/root.js": 0, "/assets/entry.client.js": 0, "/assets/routes/_index.js": 2 * KB });
    const verdict = checkBuyerBudget(measureBuyerPages(manifest, gzipBytes), BUYER_BUDGET_BYTES, 98 * KB);
    expect(verdict.overBudget.map((p) => p.url)).toEqual([]);
    expect(verdict.ok).toBe(true);
  });
});
