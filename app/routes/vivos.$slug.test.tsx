/**
 * The live view (`/vivos/{slug}`) as the team sees it on its phones: a scan of a numbered ticket says where the
 * person sits, under what happened; a general one says nothing more.
 */
import { describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import type { DoorAccess } from "#server/door/access";
import { redeemAtDoor } from "#server/door/redeem";
import { qrPayloadFor } from "#server/tickets/qr";
import { sessionCookiesFor } from "#tests/support/context";
import { getRequest } from "#tests/support/remix";
import { buyPaid, createSeatedEvent } from "#tests/support/seating";
import LiveNightPage, { loader } from "./vivos.$slug";

describe("/vivos/{slug}: latest scans", () => {
  it("show the seat of a numbered ticket under its line, and none for a general one", async () => {
    const made = await createSeatedEvent({ days: 0 });
    const [seated] = (await buyPaid(made, { seats: ["F12"] })).tickets;
    const [general] = (await buyPaid(made, { general: 1, email: "ana.pena@example.com" })).tickets;
    const access: DoorAccess = { event: { id: made.event.id, organizationId: made.organization.id, name: made.event.name, slug: made.event.slug }, userId: made.user.id, pinSessionId: null };
    const start = Date.now();
    await redeemAtDoor({ ...made.ctx, now: new Date(start) }, access, { code: qrPayloadFor(seated.code), door: "Puerta 1" });
    await redeemAtDoor({ ...made.ctx, now: new Date(start + 1000) }, access, { code: qrPayloadFor(general.code), door: "Puerta 2" });

    const path = `/vivos/${made.event.slug}`;
    const cookies = await sessionCookiesFor(made.user.id);
    const { status, html } = await renderInRouter(<LiveNightPage />, {
      url: path,
      loader: (() => loader({ request: getRequest(path, { cookies }), params: { slug: made.event.slug }, context: {} } as never)) as unknown as () => null,
    });
    expect(status).toBe(200);
    const latest = html.slice(html.indexOf('data-testid="live-latest"'));
    const items = latest.split("<li").slice(1);
    expect(items).toHaveLength(2);
    // Newest first: the general ticket (no seat), then the numbered one with its seat.
    expect(items[0]).toContain("Puerta 2");
    expect(items[0]).not.toContain("Asiento");
    expect(items[1]).toContain("Puerta 1");
    expect(items[1]).toContain("Platea · Fila F · Asiento 12");
  });
});
