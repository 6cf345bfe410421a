import { and, eq, sql } from "drizzle-orm";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { billings, invoices, jobs, orders } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ISSUE_INVOICE_JOB, requestInvoice } from "#server/invoicing/invoices";
import { RETRY_MESSAGES } from "#common/invoicing";
import type { ArcaConfig } from "#server/invoicing/config";
import { formatMoney } from "#common/money";
import { createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
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

/** An event and a helper that buys, pays and asks for the invoice as onPaid does with ARCA configured. */
async function invoicedEvent() {
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
  return { made, db, buy };
}

describe("/admin/facturas", () => {
  it("the platform's admin sees pending and rejected invoices with ARCA's reasons; organizers get a 403; a bad filter shows all", async () => {
    const { made, db, buy } = await invoicedEvent();
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

  it("«Reintentar» puts a rejected invoice back in the queue (pending, a new issue-invoice job) for the platform's admin only; anything else is refused", async () => {
    const { made, db, buy } = await invoicedEvent();
    const rejected = (await buy("reintentar@example.com"))!;
    const pending = (await buy("sigue-pendiente@example.com"))!;
    const reason = "El campo Condicion Frente al IVA del receptor no es valido para el tipo de comprobante informado.";
    await db.update(invoices).set({ status: "rejected", errors: [{ code: 10242, message: reason }] }).where(eq(invoices.id, rejected.id));
    const jobsFor = (id: string) => db.select().from(jobs).where(and(eq(jobs.kind, ISSUE_INVOICE_JOB), sql`${jobs.payload}->>'invoiceId' = ${id}`));
    const before = (await jobsFor(rejected.id)).length;
    const retry = (invoiceId: string, cookies: Record<string, string>) => run(page.action, formRequest("/admin/facturas?estado=rejected", { intent: "retry", invoiceId }, { cookies }));

    // An organizer (not the platform's team) is refused by the domain; nothing changes.
    expect((await retry(rejected.id, await sessionCookiesFor(made.user.id))).status).toBe(403);
    expect((await db.select().from(invoices).where(eq(invoices.id, rejected.id)))[0].status).toBe("rejected");

    const admin = await createTestUser({ roles: ["admin"] });
    const cookies = await sessionCookiesFor(admin.id);
    const done = await retry(rejected.id, cookies);
    expect(done.status).toBe(302);
    expect(done.location).toBe(`/admin/facturas?estado=rejected&reintentada=${rejected.id}`);
    const [row] = await db.select().from(invoices).where(eq(invoices.id, rejected.id));
    expect(row).toMatchObject({ status: "pending", number: null, errors: [], observations: [], lastError: `Rechazo anterior: 10242: ${reason}` });
    expect((await jobsFor(rejected.id)).length).toBe(before + 1);

    // The list says so; the same press again (or on one that is not rejected) is a CONFLICT shown on its row.
    const list = await run(page.loader, getRequest(done.location!, { cookies }));
    expect(list.data.retried).toBe(rejected.id);
    const { html } = await renderInRouter(createElement(page.default), { url: done.location!, loader: () => list.data });
    expect(html).toContain(RETRY_MESSAGES.queued);
    const again = await retry(rejected.id, cookies);
    expect(again.status).toBe(409);
    expect(again.data).toEqual({ invoiceId: rejected.id, error: RETRY_MESSAGES.notRejected });
    expect((await retry(pending.id, cookies)).status).toBe(409);
    expect((await jobsFor(rejected.id)).length).toBe(before + 1);

    // A rejected row shows the button.
    await db.update(invoices).set({ status: "rejected" }).where(eq(invoices.id, pending.id));
    const rejectedList = await run(page.loader, getRequest("/admin/facturas?estado=rejected", { cookies }));
    const drawn = await renderInRouter(createElement(page.default), { url: "/admin/facturas?estado=rejected", loader: () => rejectedList.data });
    expect(drawn.html).toContain(`<input type="hidden" name="invoiceId" value="${pending.id}"/>`);
    expect(drawn.html).toContain(">Reintentar</button>");
  });
});
