import { describe, expect, it } from "vitest";
import { AppShell } from "./AppShell";
import { isBackOffice } from "./navigation";
import { renderInRouter } from "./render-in-router.test-helper";

const shell = (url: string, user: Parameters<typeof AppShell>[0]["user"] = null) =>
  renderInRouter(
    <AppShell user={user} theme="dark">
      <main>Contenido</main>
    </AppShell>,
    { url },
  );

/** The class attribute of the element with this id. */
function classOf(html: string, id: string) {
  return new RegExp(`id="${id}"[^>]*class="([^"]*)"|class="([^"]*)"[^>]*id="${id}"`).exec(html)?.slice(1).find(Boolean) ?? "";
}

describe("storefront and back office", () => {
  it("tells the back office by its path", () => {
    expect(isBackOffice("/organizacion/resumen")).toBe(true);
    expect(isBackOffice("/organizacion")).toBe(true);
    expect(isBackOffice("/admin/extracciones")).toBe(true);
    expect(isBackOffice("/organizador/landing")).toBe(false);
    expect(isBackOffice("/eventos/fiesta")).toBe(false);
    expect(isBackOffice("/")).toBe(false);
  });

  it("buyer pages: the drawer only opens from the menu button, at every width, and the content takes the whole width", async () => {
    const { html } = await shell("/eventos/fiesta");
    expect(classOf(html, "menu")).not.toContain("md:visible");
    expect(classOf(html, "menu-toggle")).not.toContain("md:hidden");
    expect(html).not.toContain("md:pl-drawer");
    expect(html).toMatch(/<label for="menu-toggle"[^>]*class="menu-button [^"]*"/);
    expect(html).not.toMatch(/<label for="menu-toggle"[^>]*class="menu-button [^"]*md:hidden/);
    // A storefront's header: search box and the account's way in.
    expect(html).toContain('role="search"');
    expect(html).toMatch(/href="\/cuenta\/iniciar-sesion"[^>]*>Ingresar</);
  });

  it("back office: the drawer stays open beside the content from md up", async () => {
    const { html } = await shell("/organizacion/resumen", { firstName: "Ana", isOrganizer: true, isAdmin: false });
    expect(classOf(html, "menu")).toContain("md:visible");
    expect(classOf(html, "menu-toggle")).toContain("md:hidden");
    expect(html).toContain("md:pl-drawer");
    expect(html).not.toContain('role="search"');
  });

  it("a signed-in buyer on a phone has Mis tickets in the header", async () => {
    const { html } = await shell("/eventos/fiesta", { firstName: "Ana", isOrganizer: false, isAdmin: false });
    expect(html).toMatch(/<a [^>]*title="Mis tickets"[^>]*href="\/cuenta\/mis-tickets"|<a [^>]*href="\/cuenta\/mis-tickets"[^>]*title="Mis tickets"/);
  });
});
