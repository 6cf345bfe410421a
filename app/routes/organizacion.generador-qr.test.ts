import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { users } from "#server/db/schema";
import { appUrl } from "#server/env";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import * as page from "./organizacion.generador-qr";
import * as download from "./organizacion.generador-qr_.descargar";

async function organizer() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id);
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, producer.user.id));
  const session = await startSession(db, user, new Date());
  return { ...producer, event, cookies: { at: session.accessToken, rt: session.refreshToken } };
}

const file = async (path: string, cookies: Record<string, string>) =>
  (await download.loader({ request: getRequest(path, { cookies }), params: {}, context: {} } as never)) as Response;

describe("/organizacion/generador-qr", () => {
  it("draws the QR of the organization's event link and downloads it as PNG and SVG", async () => {
    const { event, cookies } = await organizer();
    const link = `${appUrl()}/eventos/${event.slug}`;
    const empty = await run(page.loader, getRequest("/organizacion/generador-qr", { cookies }));
    expect(empty.data.suggestions).toContainEqual({ label: event.name, url: link });

    const shown = await run(page.loader, getRequest(`/organizacion/generador-qr?link=${encodeURIComponent(link)}`, { cookies }));
    expect(shown.data.qr.url).toBe(link);
    expect(shown.data.qr.svg).toContain("<svg");
    // A path is a Tribuna link too.
    const byPath = await run(page.loader, getRequest(`/organizacion/generador-qr?link=${encodeURIComponent(`/eventos/${event.slug}/nico`)}`, { cookies }));
    expect(byPath.data.qr.url).toBe(`${link}/nico`);

    const png = await file(`/organizacion/generador-qr/descargar?formato=png&link=${encodeURIComponent(link)}`, cookies);
    expect(png.headers.get("Content-Type")).toBe("image/png");
    expect(png.headers.get("Content-Disposition")).toBe('attachment; filename="qr-tribuna.png"');
    expect([...new Uint8Array(await png.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const svg = await file(`/organizacion/generador-qr/descargar?formato=svg&link=${encodeURIComponent(link)}`, cookies);
    expect(svg.headers.get("Content-Type")).toBe("image/svg+xml");
    expect(await svg.text()).toContain("<svg");
  });

  it("refuses links of other sites with a Spanish message, and strangers", async () => {
    const { cookies, organization } = await organizer();
    for (const bad of ["https://example.com/x", "javascript:alert(1)", "//example.com/x"]) {
      const shown = await run(page.loader, getRequest(`/organizacion/generador-qr?link=${encodeURIComponent(bad)}`, { cookies }));
      expect(shown.status).toBe(400);
      expect(shown.data.error).toBe("Solo generamos QR de links de Tribuna (por ejemplo, la página de tu evento o tu link de RRPP).");
    }
    const refused = await file(`/organizacion/generador-qr/descargar?formato=png&link=${encodeURIComponent("https://example.com/x")}`, cookies);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Solo generamos QR de links de Tribuna");
    const badFormat = await file(`/organizacion/generador-qr/descargar?formato=gif&link=/`, cookies);
    expect(badFormat.status).toBe(400);

    const anonymous = await run(page.loader, getRequest("/organizacion/generador-qr"));
    expect(anonymous.status).toBe(302);
    const stranger = await organizer();
    const foreign = await run(page.loader, getRequest(`/organizacion/generador-qr?organizationId=${organization.id}`, { cookies: stranger.cookies }));
    expect(foreign.status).toBe(403);
  });
});
