/**
 * A signed-in person whose role does not open the door (a promoter) asks for the door screen or the live view:
 * the loader answers 403, and the page drawn for it (root's ErrorBoundary: these pages have no boundary of their
 * own) says it is a refusal and what to do, never "algo salió mal". A missing event is a 404 page the same way.
 */
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "#app/root";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createProducer, createPublishedEvent, makePromoter } from "#tests/support/factories";
import { getRequest } from "#tests/support/remix";
import * as door from "./vivos.acreditacion.$slug";
import * as live from "./vivos.$slug";

/** The loader's thrown answer, drawn as Remix draws it: status and HTML of the root error page. */
async function page(loader: (args: never) => unknown, path: string, slug: string, cookies: Record<string, string>) {
  return renderInRouter(<div />, {
    url: path,
    loader: (() => loader({ request: getRequest(path, { cookies }), params: { slug }, context: {} } as never)) as () => null,
    errorElement: <ErrorBoundary />,
  });
}

describe("door pages refuse as refusals", () => {
  it("a promoter gets a 403 page with what to do on /vivos/acreditacion/{slug} and /vivos/{slug}, not a 500", async () => {
    const { ctx, organization } = await createProducer();
    const { event } = await createPublishedEvent(ctx, organization.id, { days: 0 });
    const promoter = await createTestUser({ firstName: "Romina", nickname: `romi.${Date.now()}` });
    await makePromoter(ctx, organization.id, promoter.id);
    const cookies = await sessionCookiesFor(promoter.id);

    for (const [loader, path] of [
      [door.loader, `/vivos/acreditacion/${event.slug}`],
      [live.loader, `/vivos/${event.slug}`],
    ] as const) {
      const { status, html } = await page(loader as never, path, event.slug, cookies);
      expect(status, path).toBe(403);
      expect(html, path).toContain("ERROR 403");
      expect(html, path).toContain("No tenés permiso para ver esta página");
      expect(html, path).toContain("pedíselo a quien administra la organización");
      expect(html, path).not.toContain("Algo salió mal");
      expect(html, path).not.toContain("Intentá en un rato");
      // Nothing of the event behind the refusal.
      expect(html, path).not.toContain(event.name);
    }
  });

  it("an event that does not exist is the 404 page on both", async () => {
    const { user } = await createProducer();
    const cookies = await sessionCookiesFor(user.id);
    for (const [loader, path] of [
      [door.loader, "/vivos/acreditacion/no-existe-este-evento"],
      [live.loader, "/vivos/no-existe-este-evento"],
    ] as const) {
      const { status, html } = await page(loader as never, path, "no-existe-este-evento", cookies);
      expect(status, path).toBe(404);
      expect(html, path).toContain("No encontramos esta página");
      expect(html, path).not.toContain("Algo salió mal");
    }
  });
});
