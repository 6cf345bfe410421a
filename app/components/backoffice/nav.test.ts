import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BACKOFFICE_LINKS } from "./nav";

/**
 * Every section page of the back office is in its navigation (tests/e2e/layout.spec.ts then clicks through the
 * navigation at each size). It reads the route files, so it needs no browser (decision 182).
 */
describe("back-office navigation", () => {
  it("links every section page under /organizacion", () => {
    // Pages under /organizacion that are not sections: steps of a flow, downloads, or pages about one thing.
    const notSections = new Set(["/organizacion", "/organizacion/por-crear", "/organizacion/congrats-evento", "/organizacion/cupones/nuevo", "/organizacion/extracciones/crear"]);
    const downloads = /\/(exportar|descargar)$|\/plantillas\/crear$/;
    const paths = readdirSync("app/routes")
      // Test files are no routes (vite.config.ts ignoredRouteFiles).
      .filter((file) => file.startsWith("organizacion.") && file.endsWith(".tsx") && !file.includes("$") && !file.includes(".test."))
      .map((file) =>
        `/${file
          .replace(/\.tsx$/, "")
          .split(".")
          .filter((segment) => segment !== "_index")
          .map((segment) => segment.replace(/_$/, ""))
          .join("/")}`,
      );
    expect(paths.length).toBeGreaterThan(20);
    const inNav = new Set(BACKOFFICE_LINKS.map((link) => link.to));
    const missing = paths.filter((path) => !inNav.has(path) && !notSections.has(path) && !downloads.test(path));
    expect(missing).toEqual([]);
  });
});
