import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { coupons, users } from "#server/db/schema";
import { getEventForOrganizer } from "#server/events/events";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { formRequest, getRequest, run, type RouteResult } from "#tests/support/remix";
import * as list from "./organizacion.cupones";
import * as create from "./organizacion.cupones_.nuevo";
import * as edit from "./organizacion.cupones_.$couponId";

async function organizer() {
  const p = await createProducer();
  const { event } = await createPublishedEvent(p.ctx, p.organization.id, {
    ticketTypes: [
      { name: "General", price: 1_000_000, stock: 50 },
      { name: "VIP", price: 3_000_000, stock: 10 },
    ],
  });
  const { tickets } = await getEventForOrganizer(p.ctx, event.id);
  const [user] = await (await getDb()).select().from(users).where(eq(users.id, p.user.id));
  const tokens = await startSession(await getDb(), user, new Date());
  return { ...p, event, tickets, cookies: { at: tokens.accessToken, rt: tokens.refreshToken } };
}

/** A thrown `data(…, { status })` (403/404 pages) is a result too. */
async function page(fn: (args: any) => unknown, request: Request, params: Record<string, string> = {}): Promise<RouteResult> {
  try {
    return await run(fn, request, params);
  } catch (error) {
    const e = error as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (e?.type === "DataWithResponseInit") return { status: e.init?.status ?? 200, headers: new Headers(), location: null, cookies: {}, data: e.data };
    throw error;
  }
}

describe("/organizacion/cupones", () => {
  it("creates a coupon for some ticket types from a plain form, lists it with uses and link, edits and pauses it", async () => {
    const { event, tickets, cookies } = await organizer();
    const vip = tickets.find((t) => t.name === "VIP")!;
    const path = `/organizacion/cupones/nuevo?eventId=${event.id}`;
    const bad = await run(create.action, formRequest(path, { code: "con espacio", kind: "fixed", amount: "", percent: "", maxUses: "0" }, { cookies }));
    expect(bad.status).toBe(400);
    expect(bad.data.errors).toMatchObject({
      code: ["El código no puede tener espacios"],
      amount: ["Ingresá un monto mayor a 0 (por ejemplo 1500 o 1.500,50)"],
      maxUses: ["Ingresá un número entero entre 1 y 1.000.000, o dejalo vacío para no limitar los usos"],
    });
    expect(bad.data.values.code).toBe("con espacio");

    const saved = await run(
      create.action,
      formRequest(path, { code: "VIP2X1", kind: "percent", percent: "50", amount: "", maxUses: "10", validFrom: "", validUntil: "31/12/2099 23:59", "ticketTypeIds[1]": vip.id }, { cookies }),
    );
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`/organizacion/cupones?eventId=${event.id}`);
    const [row] = await (await getDb()).select().from(coupons).where(eq(coupons.eventId, event.id));
    expect(row).toMatchObject({ code: "VIP2X1", kind: "percent", value: 50, maxUses: 10, ticketTypeIds: [vip.id] });

    const shown = await run(list.loader, getRequest(`/organizacion/cupones?eventId=${event.id}`, { cookies }));
    expect(shown.data.coupons).toEqual([
      expect.objectContaining({ code: "VIP2X1", discount: "50 % de descuento", onlyFor: ["VIP"], uses: 0, maxUses: 10, validUntil: "23:59 - 31/12/2099", status: "active", link: `http://localhost:3000/canjear/${row.id}` }),
    ]);

    const form = await run(edit.loader, getRequest(`/organizacion/cupones/${row.id}`, { cookies }), { couponId: row.id });
    expect(form.data.coupon).toMatchObject({ code: "VIP2X1", validUntil: "31/12/2099 23:59", uses: 0 });
    expect(form.data.qrSvg).toContain("<svg");
    const edited = await run(
      edit.action,
      formRequest(`/organizacion/cupones/${row.id}`, { code: "VIP2X1", kind: "fixed", percent: "", amount: "2.500", maxUses: "", validFrom: "", validUntil: "" }, { cookies }),
      { couponId: row.id },
    );
    expect(edited.status).toBe(302);
    const [after] = await (await getDb()).select().from(coupons).where(eq(coupons.id, row.id));
    expect(after).toMatchObject({ kind: "fixed", value: 250_000, maxUses: null, validUntil: null, ticketTypeIds: [] });

    const paused = await run(list.action, formRequest("/organizacion/cupones", { intent: "pause", couponId: row.id }, { cookies }));
    expect(paused.status).toBe(302);
    const again = await run(list.loader, getRequest("/organizacion/cupones", { cookies }));
    expect(again.data.coupons[0]).toMatchObject({ code: "VIP2X1", status: "paused" });
  });

  it("another organization's member gets 403 on the coupon page and cannot change it", async () => {
    const owner = await organizer();
    const stranger = await organizer();
    const [row] = await (await getDb())
      .insert(coupons)
      .values({ organizationId: owner.organization.id, eventId: owner.event.id, code: "AJENO", kind: "percent", value: 10 })
      .returning();
    const view = await page(edit.loader, getRequest(`/organizacion/cupones/${row.id}`, { cookies: stranger.cookies }), { couponId: row.id });
    expect(view.status).toBe(403);
    const change = await page(list.action, formRequest("/organizacion/cupones", { intent: "delete", couponId: row.id }, { cookies: stranger.cookies }));
    expect(change.status).toBe(403);
    const [still] = await (await getDb()).select().from(coupons).where(eq(coupons.id, row.id));
    expect(still.status).toBe("active");
  });
});
