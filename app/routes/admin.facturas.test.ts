import { eq } from "drizzle-orm";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { billings, invoices, orders } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { requestInvoice } from "#server/invoicing/invoices";
import type { ArcaConfig } from "#server/invoicing/config";
import { formatMoney } from "#common/money";
import { createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import * as page from "./admin.facturas";

const CONFIG: ArcaConfig = {
  environment: "homologacion",
  cuit: "20111111112",
  pointOfSale: 9,
  cert: "",
  key: "",
  timeoutMs: 1000,
  ivaCondition: "RESPONSABLE_INSCRIPTO",
  urls: { wsaa: "https://wsaahomo.afip.gov.ar/ws/services/LoginCms", wsfe: "https://wswhomo.afip.gov.ar/wsfev1/service.asmx" },
};

describe("/admin/facturas", () => {
  it("the platform's admin sees pending and rejected invoices with ARCA's reasons; organizers get a 403; a bad filter shows all", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 10 }], { days: 40 });
    const { getDb } = await import("#server/db/client");
    const db = await getDb();
    const buy = async (email: string) => {
      const { billing } = await createOrder(await ctxAs(), {
        eventSlug: made.event.slug,
        items: [{ ticketId: made.tickets.General.id, qty: 1 }],
        payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
        paymentMethod: "MERCADO_PAGO",
      });
      await payInSandbox(db, billing.id, "approved");
      const [row] = await db.select({ order: orders, billing: billings }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(billings.id, billing.id));
      // What onPaid does when ARCA is configured (this file does not configure it: the invoice is asked for here).
      return db.transaction((tx) => requestInvoice(tx, row.order, row.billing, new Date(), CONFIG));
    };
    const pending = (await buy("pendiente@example.com"))!;
    const rejected = (await buy("rechazada@example.com"))!;
    const reason = "El campo Condicion Frente al IVA del receptor resulta obligatorio conforme lo reglamentado por la Resolución General N° 5616.";
    // The job's outcome for a rejection, as issueVoucher records it.
    await db.update(invoices).set({ status: "rejected", observations: [{ code: 10242, message: reason }] }).where(eq(invoices.id, rejected.id));

    expect((await run(page.loader, getRequest("/admin/facturas", { cookies: await sessionCookiesFor(made.user.id) }))).status).toBe(403);

    const admin = await createTestUser({ roles: ["admin"] });
    const cookies = await sessionCookiesFor(admin.id);
    const onlyRejected = await run(page.loader, getRequest("/admin/facturas?estado=rejected", { cookies }));
    expect(onlyRejected.status).toBe(200);
    expect(onlyRejected.data.items.map((i: { id: string }) => i.id)).toContain(rejected.id);
    expect(onlyRejected.data.items.map((i: { id: string }) => i.id)).not.toContain(pending.id);
    const row = onlyRejected.data.items.find((i: { id: string }) => i.id === rejected.id);
    expect(row).toMatchObject({ voucher: "Factura B", number: "00009-…", total: formatMoney(rejected.total), reasons: [`10242: ${reason}`], organizationName: made.organization.name });

    const all = await run(page.loader, getRequest("/admin/facturas?estado=cualquiera&pagina=abc", { cookies }));
    expect(all.status).toBe(200);
    expect(all.data).toMatchObject({ status: "", page: 1 });
    expect(all.data.items.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([pending.id, rejected.id]));

    const { html } = await renderInRouter(createElement(page.default), { url: "/admin/facturas", loader: () => all.data });
    expect(html).toContain('href="/admin/facturas"');
    expect(html).toContain("Rechazada");
    expect(html).toContain("Pendiente");
    expect(html).toContain("10242: El campo Condicion Frente al IVA del receptor");
  });
});
