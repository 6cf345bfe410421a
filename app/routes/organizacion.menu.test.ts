import { describe, expect, it } from "vitest";
import { formatMoney } from "#common/money";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as page from "./organizacion.menu";

const cookiesFor = sessionCookiesFor;

describe("/organizacion/menu", () => {
  it("adds items with the form, says what is wrong next to each field, edits, pauses and reorders them", async () => {
    const made = await createEventWithTickets();
    const cookies = await cookiesFor(made.user.id);
    const path = `/organizacion/menu?eventId=${made.event.id}`;
    const bad = await run(page.action, formRequest(path, { intent: "save", name: "", category: "drink", price: "abc", stock: "10", visible: "on" }, { cookies }));
    expect(bad.status).toBe(400);
    expect(bad.data.errors.name).toEqual(["Este campo es obligatorio"]);
    expect(bad.data.errors.price?.length).toBe(1);

    expect((await run(page.action, formRequest(path, { intent: "save", name: "Fernet con coca", category: "drink", price: "4.500", stock: "100", maxPerOrder: "4", visible: "on" }, { cookies }))).status).toBe(302);
    expect((await run(page.action, formRequest(path, { intent: "save", name: "Pancho", category: "food", price: "3000", stock: "50" }, { cookies }))).status).toBe(302);
    const listed = await run(page.loader, getRequest(path, { cookies }));
    expect(listed.data.items.map((i: { name: string; visible: boolean; priceLabel: string }) => [i.name, i.visible, i.priceLabel])).toEqual([
      ["Fernet con coca", true, formatMoney(450_000)],
      ["Pancho", false, formatMoney(300_000)],
    ]);
    const [fernet, pancho] = listed.data.items;

    const editing = await run(page.loader, getRequest(`${path}&editar=${fernet.id}`, { cookies }));
    expect(editing.data.editing).toMatchObject({ name: "Fernet con coca", price: "4500", stock: "100", visible: "on" });
    expect((await run(page.action, formRequest(path, { intent: "save", itemId: fernet.id, name: "Fernet", category: "drink", price: "5000", stock: "80", visible: "on" }, { cookies }))).status).toBe(302);
    expect((await run(page.action, formRequest(path, { intent: "pause", itemId: pancho.id }, { cookies }))).status).toBe(302);
    expect((await run(page.action, formRequest(path, { intent: "up", itemId: pancho.id, order: `${fernet.id},${pancho.id}` }, { cookies }))).status).toBe(302);
    const after = await run(page.loader, getRequest(path, { cookies }));
    expect(after.data.items.map((i: { name: string; status: string; stock: number }) => [i.name, i.status, i.stock])).toEqual([
      ["Pancho", "paused", 50],
      ["Fernet", "active", 80],
    ]);
  });

  it("is closed to staff and to other organizations", async () => {
    const made = await createEventWithTickets();
    const staff = await createTestUser();
    const db = await getDb();
    await db.insert(memberships).values({ organizationId: made.organization.id, userId: staff.id, role: "staff" });
    expect((await run(page.loader, getRequest("/organizacion/menu", { cookies: await cookiesFor(staff.id) }))).status).toBe(403);
    const stranger = await createEventWithTickets();
    const result = await run(page.action, formRequest(`/organizacion/menu?eventId=${made.event.id}`, { intent: "save", name: "Fernet", category: "drink", price: "4500", stock: "1" }, { cookies: await cookiesFor(stranger.user.id) }));
    expect(result.status).toBe(403);
  });
});
