import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { eventDates, ticketTypes, users } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { requestRefund } from "#server/refunds/refunds";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { formRequest, getRequest, run, type RouteResult } from "#tests/support/remix";
import * as list from "./organizacion.resumen-de-ventas";
import * as detail from "./organizacion.resumen-de-ventas_.$orderId";

async function producer() {
  const p = await createProducer();
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, p.user.id));
  const tokens = await startSession(db, user, new Date());
  return { ...p, cookies: { at: tokens.accessToken, rt: tokens.refreshToken } };
}

/** Like `run`, but a thrown `data(…, { status })` (403/404 pages) is a result too. */
async function page<T = any>(fn: (args: any) => unknown, request: Request, params: Record<string, string> = {}): Promise<RouteResult<T>> {
  try {
    return await run<T>(fn, request, params);
  } catch (error) {
    const e = error as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (e?.type === "DataWithResponseInit") return { status: e.init?.status ?? 200, headers: new Headers(e.init?.headers), location: null, cookies: {}, data: e.data as T };
    throw error;
  }
}

describe("/organizacion/resumen-de-ventas", () => {
  it("lists the sales and the pending withdrawal; the order page rejects without a reason, then approves; strangers get 403", async () => {
    const org = await producer();
    const { event } = await createPublishedEvent(org.ctx, org.organization.id, { days: 5, ticketTypes: [{ name: "General", price: 900_000, stock: 10 }] });
    const db = await getDb();
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const email = `ventas-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const { order, billing } = await createOrder(await ctxAs(), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(db, billing.id, "approved");
    // Asked 12 hours before the event: the organizer decides.
    const [date] = await db.select().from(eventDates).where(eq(eventDates.eventId, event.id));
    const asked = await requestRefund(await ctxAs(undefined, new Date(date.startsAt.getTime() - 12 * 3600_000)), { orderCode: order.code, email });
    expect(asked.outcome).toBe("pending");

    const listed = await page(list.loader, getRequest("/organizacion/resumen-de-ventas", { cookies: org.cookies }));
    expect(listed.status).toBe(200);
    expect(listed.data.orders.map((o: { code: string }) => o.code)).toEqual([order.code]);
    expect(listed.data.orders[0]).toMatchObject({ displayStatus: "approved", pendingRefund: true });
    expect(listed.data.pending.map((r: { code: string }) => r.code)).toEqual([asked.request.code]);
    // The owner sees the balance: the ticket price of the sale (the fee is ours).
    expect(listed.data.ledger).toMatchObject({ total: 2 });
    expect(listed.data.ledger.balance).toMatch(/\$\s?9\.000,00/);

    const path = `/organizacion/resumen-de-ventas/${order.id}`;
    const shown = await page(detail.loader, getRequest(path, { cookies: org.cookies }), { orderId: order.id });
    expect(shown.data).toMatchObject({ displayStatus: "approved", canDecide: true, refunds: [{ code: asked.request.code, status: "pending" }] });

    const noReason = await page(detail.action, formRequest(path, { intent: "reject", requestId: asked.request.id, reason: "" }, { cookies: org.cookies }), { orderId: order.id });
    expect(noReason.status).toBe(400);
    expect(noReason.data.errors.reason).toEqual(["Contale al comprador por qué la rechazás."]);

    const stranger = await producer();
    expect((await page(detail.loader, getRequest(path, { cookies: stranger.cookies }), { orderId: order.id })).status).toBe(403);
    expect((await page(detail.action, formRequest(path, { intent: "approve", requestId: asked.request.id }, { cookies: stranger.cookies }), { orderId: order.id })).status).toBe(403);

    const approved = await page(detail.action, formRequest(path, { intent: "approve", requestId: asked.request.id }, { cookies: org.cookies }), { orderId: order.id });
    expect(approved.status).toBe(302);
    expect(approved.location).toBe(path);
    const after = await page(detail.loader, getRequest(path, { cookies: org.cookies }), { orderId: order.id });
    expect(after.data.displayStatus).toBe("refunded");
    expect(after.data.tickets.map((t: { status: string }) => t.status)).toEqual(["voided"]);
    expect(after.data.ledger.map((e: { kind: string }) => e.kind)).toEqual(["payment", "service_fee", "refund", "service_fee_refund"]);
  });

  it("“Sin consumiciones” leaves the menu's orders out and “Solo consumiciones” shows only them", async () => {
    const org = await producer();
    const { event } = await createPublishedEvent(org.ctx, org.organization.id, { days: 5, ticketTypes: [{ name: "General", price: 900_000, stock: 10 }] });
    const db = await getDb();
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const { createMenuItem } = await import("#server/menu/menu");
    const drink = await createMenuItem(org.ctx, { eventId: event.id, name: "Fernet", category: "drink", price: "5000", stock: "10" });
    const payer = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    const codes: string[] = [];
    for (const ticketId of [ticket.id, drink.id]) {
      const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO" });
      await payInSandbox(db, billing.id, "approved");
      codes.push(order.code);
    }
    const [ticketOrder, drinkOrder] = codes;
    const listed = async (query: string) => (await page(list.loader, getRequest(`/organizacion/resumen-de-ventas${query}`, { cookies: org.cookies }))).data;
    expect((await listed("")).orders.map((o: { code: string }) => o.code).sort()).toEqual([ticketOrder, drinkOrder].sort());
    const withoutMenu = await listed("?contenido=entradas");
    expect(withoutMenu.orders.map((o: { code: string }) => o.code)).toEqual([ticketOrder]);
    expect(withoutMenu).toMatchObject({ content: "entradas", total: 1 });
    expect((await listed("?contenido=consumiciones")).orders.map((o: { code: string }) => o.code)).toEqual([drinkOrder]);
    // Something unknown shows everything, as without it.
    expect((await listed("?contenido=cualquiera")).total).toBe(2);
  });
});
