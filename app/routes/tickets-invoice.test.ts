import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { billingAccessToken } from "#server/auth/billing-access";
import { getDb } from "#server/db/client";
import { invoices, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { drawnText } from "#tests/support/pdf-text";
import { getRequest, run } from "#tests/support/remix";
import * as myTickets from "./cuenta.mis-tickets";
import * as purchasePage from "./tickets.$billingId";
import * as invoicePdf from "./tickets.$billingId.factura.$invoiceId.pdf";

async function paidPurchase(user: { id: string; email: string; roles: string[] }) {
  const { ctx, organization } = await createProducer();
  const { event } = await createPublishedEvent(ctx, organization.id, { name: "Fiesta Facturada" });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const payer = { firstName: "Lucía", lastName: "Ríos", email: user.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
  const { order, billing } = await createOrder(await ctxAs(actorFor(user)), { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }], payer, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  return { order, billing };
}

let number = Math.floor(Math.random() * 1_000_000);
/** A voucher as the issue job leaves it once ARCA answered (this file runs without ARCA configured). */
async function voucher(purchase: Awaited<ReturnType<typeof paidPurchase>>, values: Partial<typeof invoices.$inferInsert> = {}) {
  number += 1;
  const [row] = await (await getDb())
    .insert(invoices)
    .values({
      kind: "invoice", orderId: purchase.order.id, billingId: purchase.billing.id, environment: "homologacion", issuerCuit: "20111111112", pointOfSale: 3, letter: "B", voucherType: 6, number,
      status: "authorised", total: 12_100, net: 10_000, vat: 2_100, receiverDocType: 96, receiverDocNumber: "30123456", receiverIvaCondition: 5, voucherDate: "20261128", cae: "76000000000999", caeDueDate: "2026-12-08",
      ...values,
    })
    .returning();
  return row;
}

async function cookiesOf(user: { id: string; email: string; roles: string[] }) {
  const tokens = await startSession(await getDb(), user, new Date());
  return { at: tokens.accessToken, rt: tokens.refreshToken };
}

describe("the invoice's download links and route", () => {
  it("the purchase page and Mis tickets link the authorised invoice; the route serves its PDF by the purchase's access rule", async () => {
    const buyer = await createTestUser();
    const purchase = await paidPurchase(buyer);
    const { billing } = purchase;
    const cookies = await cookiesOf(buyer);
    const token = billingAccessToken(billing.id);

    // Before ARCA authorises it: no link anywhere.
    const pending = await voucher(purchase, { status: "pending", number: null, cae: null, caeDueDate: null });
    expect((await run(purchasePage.loader, getRequest(`/tickets/${billing.id}?t=${token}`), { billingId: billing.id })).data.invoices).toEqual([]);
    expect((await run(invoicePdf.loader, getRequest(`/tickets/${billing.id}/factura/${pending.id}/pdf?t=${token}`), { billingId: billing.id, invoiceId: pending.id })).status).toBe(404);
    await (await getDb()).delete(invoices).where(eq(invoices.id, pending.id));

    const invoice = await voucher(purchase);
    const page = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}?t=${token}`), { billingId: billing.id });
    const path = `/tickets/${billing.id}/factura/${invoice.id}/pdf?t=${token}`;
    expect(page.data.invoices).toEqual([{ id: invoice.id, kind: "invoice", label: "Descargar factura", path }]);
    // The buyer's own account needs no token in its links.
    const own = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}`, { cookies }), { billingId: billing.id });
    expect(own.data.invoices.map((i: { path: string }) => i.path)).toEqual([`/tickets/${billing.id}/factura/${invoice.id}/pdf`]);
    const list = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }));
    for (const card of list.data.upcoming) expect(card.invoices).toEqual([{ id: invoice.id, kind: "invoice", label: "Descargar factura", path: `/tickets/${billing.id}/factura/${invoice.id}/pdf` }]);

    const ok = await invoicePdf.loader({ request: getRequest(path), params: { billingId: billing.id, invoiceId: invoice.id }, context: {} } as never);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/pdf");
    expect(ok.headers.get("content-disposition")).toBe(`attachment; filename="factura-B-0003-${String(invoice.number).padStart(8, "0")}.pdf"`);
    const text = await drawnText(new Uint8Array(await ok.arrayBuffer()));
    expect(text).toContain("CAE Nº: 76000000000999");
    expect(text).toContain("Fecha de Vto. de CAE: 08/12/2026");

    const byAccount = await run(invoicePdf.loader, getRequest(`/tickets/${billing.id}/factura/${invoice.id}/pdf`, { cookies }), { billingId: billing.id, invoiceId: invoice.id });
    expect(byAccount.status).toBe(200);
    const anonymous = await run(invoicePdf.loader, getRequest(`/tickets/${billing.id}/factura/${invoice.id}/pdf`), { billingId: billing.id, invoiceId: invoice.id });
    expect(anonymous.status).toBe(302);
    const stranger = await createTestUser();
    const refused = await run(invoicePdf.loader, getRequest(`/tickets/${billing.id}/factura/${invoice.id}/pdf`, { cookies: await cookiesOf(stranger) }), { billingId: billing.id, invoiceId: invoice.id });
    expect(refused.status).toBe(404);
    const garbage = await run(invoicePdf.loader, getRequest(`/tickets/${billing.id}/factura/no-es-un-id/pdf?t=${token}`), { billingId: billing.id, invoiceId: "no-es-un-id" });
    expect(garbage.status).toBe(404);
  });

  it("a refunded purchase links its invoice and its credit note", async () => {
    const buyer = await createTestUser();
    const purchase = await paidPurchase(buyer);
    const invoice = await voucher(purchase);
    const note = await voucher(purchase, { kind: "credit_note", voucherType: 8, invoiceId: invoice.id });
    const page = await run(purchasePage.loader, getRequest(`/tickets/${purchase.billing.id}`, { cookies: await cookiesOf(buyer) }), { billingId: purchase.billing.id });
    expect(page.data.invoices.map((i: { label: string }) => i.label)).toEqual(["Descargar factura", "Descargar nota de crédito"]);
    const ok = await invoicePdf.loader({ request: getRequest(`/tickets/${purchase.billing.id}/factura/${note.id}/pdf?t=${billingAccessToken(purchase.billing.id)}`), params: { billingId: purchase.billing.id, invoiceId: note.id }, context: {} } as never);
    const text = await drawnText(new Uint8Array(await ok.arrayBuffer()));
    expect(text).toContain("NOTA DE CRÉDITO");
    expect(text).toContain(`Factura B 0003-${String(invoice.number).padStart(8, "0")}`);
  });
});
