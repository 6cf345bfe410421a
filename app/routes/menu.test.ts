import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { billings, orders } from "#server/db/schema";
import { createMenuItem, setMenuItemStatus } from "#server/menu/menu";
import { eq } from "drizzle-orm";
import { createEventWithTickets } from "#tests/support/factories";
import { cookiesAfter, formRequest, getRequest, run } from "#tests/support/remix";
import * as menu from "./menu.$slug";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

describe("/menu/{slug}", () => {
  it("picks drinks without JavaScript, keeps them in the menu-order cookie and opens the same checkout as tickets", async () => {
    const made = await createEventWithTickets();
    const fernet = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "3", maxPerOrder: "2" });
    const burger = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Hamburguesa", category: "food", price: "9000", stock: "10" });
    const path = `/menu/${made.event.slug}`;
    const params = { slug: made.event.slug };

    const page = await run(menu.loader, getRequest(path), params);
    expect(page.data.step).toBe("pick");
    expect(page.data.sections.map((s: { title: string; items: { name: string; price: string; max: number }[] }) => [s.title, s.items.map((i) => [i.name, i.max])])).toEqual([
      ["Bebidas", [["Fernet con coca", 2]]],
      ["Comidas", [["Hamburguesa", 10]]],
    ]);

    const nothing = await run(menu.action, formRequest(path, { intent: "pick", [`qty.${fernet.id}`]: "0" }), params);
    expect(nothing.status).toBe(400);
    expect(nothing.data.pickErrors).toEqual(["Elegí al menos una consumición."]);
    const tooMany = await run(menu.action, formRequest(path, { intent: "pick", [`qty.${fernet.id}`]: "3" }), params);
    expect(tooMany.data.pickErrors).toEqual(["De «Fernet con coca» podés pedir hasta 2."]);

    const picked = await run(menu.action, formRequest(path, { intent: "pick", [`qty.${fernet.id}`]: "2", [`qty.${burger.id}`]: "1" }), params);
    expect(picked.status).toBe(302);
    expect(picked.location).toBe(`${path}?paso=datos`);
    const cookie = picked.cookies[`menu-order-${made.event.slug}`];
    expect(JSON.parse(cookie.value)).toEqual({ items: [{ ticketId: fernet.id, qty: 2 }, { ticketId: burger.id, qty: 1 }] });
    const jar = cookiesAfter(picked);

    const payerStep = await run(menu.loader, getRequest(`${path}?paso=datos`, { cookies: jar }), params);
    expect(payerStep.data).toMatchObject({ step: "payer", total: expect.stringContaining("18.000") });

    const badPayer = await run(menu.action, formRequest(`${path}?paso=datos`, { intent: "pay", ...PAYER, email: "sofia@" }, { cookies: jar }), params);
    expect(badPayer.status).toBe(400);

    const paid = await run(menu.action, formRequest(`${path}?paso=datos`, { intent: "pay", ...PAYER }, { cookies: jar }), params);
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/checkout\/[0-9a-f-]{36}\?t=/);
    expect(paid.cookies[`menu-order-${made.event.slug}`].maxAge).toBe(0);
    const billingId = paid.location!.split("/")[2].split("?")[0];
    const db = await getDb();
    const [billing] = await db.select().from(billings).where(eq(billings.id, billingId));
    const [order] = await db.select().from(orders).where(eq(orders.id, billing.orderId));
    expect(order).toMatchObject({ status: "draft", subtotal: 1_800_000, paymentMethod: "MERCADO_PAGO" });

    // An item paused meanwhile drops out of a saved cart, and the buyer is told.
    await setMenuItemStatus(made.ctx, { id: burger.id, status: "paused" });
    const again = await run(menu.loader, getRequest(path, { cookies: { [`menu-order-${made.event.slug}`]: encodeURIComponent(JSON.stringify({ items: [{ ticketId: burger.id, qty: 1 }] })) } }), params);
    expect(again.data.changed).toBe(true);
    expect(await run(menu.loader, getRequest("/menu/no-existe"), { slug: "no-existe" })).toMatchObject({ status: 404 });
  });
});
