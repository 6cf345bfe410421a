import { eq } from "drizzle-orm";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { billings } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { requestRefund } from "#server/refunds/refunds";
import { chargeBackApprovedBilling } from "#server/refunds/transitions";
import { formatMoney } from "#common/money";
import { createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import * as page from "./admin.devoluciones";

describe("/admin/devoluciones", () => {
  it("the platform's admin sees the totals, the refund requests by status and the chargebacks; organizers get a 403; a bad page or status does not fail", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 40 });
    const { getDb } = await import("#server/db/client");
    const db = await getDb();
    const buy = async (email: string) => {
      const { billing, order } = await createOrder(await ctxAs(), {
        eventSlug: made.event.slug,
        items: [{ ticketId: made.tickets.General.id, qty: 1 }],
        payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
        paymentMethod: "MERCADO_PAGO",
      });
      await payInSandbox(db, billing.id, "approved");
      return { order, billing: (await db.select().from(billings).where(eq(billings.id, billing.id)))[0] };
    };
    const refunded = await buy("devuelve@example.com");
    const charged = await buy("contracargo@example.com");
    const { request } = await requestRefund(await ctxAs(ANONYMOUS), { orderCode: refunded.order.code, email: "devuelve@example.com" });
    await db.transaction((tx) => chargeBackApprovedBilling(tx, charged.billing.id, new Date()));

    expect((await run(page.loader, getRequest("/admin/devoluciones", { cookies: await sessionCookiesFor(made.user.id) }))).status).toBe(403);

    const admin = await createTestUser({ roles: ["admin"] });
    const cookies = await sessionCookiesFor(admin.id);
    const all = await run(page.loader, getRequest("/admin/devoluciones", { cookies }));
    expect(all.status).toBe(200);
    expect(all.data.totals).toEqual({
      refundedAmount: formatMoney(refunded.billing.amount),
      refundedCount: 1,
      chargebackAmount: formatMoney(charged.billing.amount),
      chargebackCount: 1,
      pendingRequests: 0,
    });
    expect(all.data).toMatchObject({ notice: null, status: "", page: 1, pages: 1, total: 1 });
    expect(all.data.requests).toEqual([
      expect.objectContaining({
        code: request.code,
        organizationName: made.organization.name,
        eventName: made.event.name,
        orderCode: refunded.order.code,
        buyerName: "Ana Gómez",
        buyerEmail: "devuelve@example.com",
        amount: formatMoney(refunded.billing.amount),
        status: "refunded",
        automatic: true,
      }),
    ]);
    expect(all.data.chargebacks).toEqual([
      expect.objectContaining({ orderCode: charged.order.code, organizationName: made.organization.name, amount: formatMoney(charged.billing.amount) }),
    ]);
    // The refund's provider call was just queued: not a problem yet.
    expect(all.data.providerRefunds).toEqual([]);

    expect((await run(page.loader, getRequest("/admin/devoluciones?estado=pending", { cookies }))).data.requests).toEqual([]);
    expect((await run(page.loader, getRequest("/admin/devoluciones?estado=refunded", { cookies }))).data.requests).toHaveLength(1);

    const badStatus = await run(page.loader, getRequest("/admin/devoluciones?estado=cualquiera&pagina=abc", { cookies }));
    expect(badStatus.status).toBe(200);
    expect(badStatus.data).toMatchObject({ notice: "Elegí un estado válido: pendiente, devuelta o rechazada.", status: "", page: 1 });
    expect(badStatus.data.requests).toHaveLength(1);
    for (const bad of ["abc", "-5", "1e9"]) {
      const result = await run(page.loader, getRequest(`/admin/devoluciones?pagina=${bad}`, { cookies }));
      expect(result.status).toBe(200);
      expect(result.data.page).toBe(1);
    }

    const { html } = await renderInRouter(createElement(page.default), { url: "/admin/devoluciones", loader: () => all.data });
    expect(html).toContain('href="/admin/organizaciones"');
    expect(html).toContain(request.code);
    expect(html).toContain(charged.order.code);
    expect(html).toContain("Devuelta");
    expect(html).toContain("No hay devoluciones con problemas.");
  });
});
