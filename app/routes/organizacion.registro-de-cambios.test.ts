import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { createCoupon } from "#server/coupons/coupons";
import { addTicketStock, setEventStatus, updateTicketType } from "#server/events/events";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import * as audit from "./organizacion.registro-de-cambios";

const PATH = "/organizacion/registro-de-cambios";

describe("/organizacion/registro-de-cambios", () => {
  it("shows the owners who changed prices, stock, coupons and an event's status; admins and other organizations are refused", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const ticket = made.tickets.General;
    await updateTicketType(made.ctx, { id: ticket.id, name: "General", price: "12.000", stock: 100, minPerOrder: 1, maxPerOrder: 10 });
    await addTicketStock(made.ctx, { id: ticket.id, quantity: 50 });
    await createCoupon(made.ctx, { eventId: made.event.id, code: "AMIGOS", kind: "percent", percent: 10 });
    await setEventStatus(made.ctx, { id: made.event.id, status: "paused" });

    const page = await run(audit.loader, getRequest(PATH, { cookies: await sessionCookiesFor(made.user.id) }));
    expect(page.status).toBe(200);
    // (The changes share the context's clock, so their order on the page is not checked.)
    const lines = page.data.items.map((i: { label: string; detail: string }) => [i.label, i.detail]);
    expect(lines).toHaveLength(5);
    expect(lines).toEqual(
      expect.arrayContaining([
        ["Publicó un evento", made.event.name],
        ["Cambió el estado de un evento", `${made.event.name} · activo → pausado`],
        ["Creó un cupón", "AMIGOS"],
        ["Agregó entradas", "General · +50"],
        ["Editó un tipo de entrada", expect.stringMatching(/^General · precio \$\s10\.000,00 → \$\s12\.000,00$/)],
      ]),
    );

    const admin = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: made.organization.id, userId: admin.id, role: "admin" });
    expect((await run(audit.loader, getRequest(PATH, { cookies: await sessionCookiesFor(admin.id) }))).status).toBe(403);
    const stranger = await createEventWithTickets();
    expect((await run(audit.loader, getRequest(`${PATH}?organizationId=${made.organization.id}`, { cookies: await sessionCookiesFor(stranger.user.id) }))).status).toBe(403);
  });
});
