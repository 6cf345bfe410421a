import { eq } from "drizzle-orm";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { billingTaxDetails, orders, ticketTypes } from "#server/db/schema";
import { savedCartCookieName } from "#common/saved-cart";
import { TAX_DETAILS_MESSAGES } from "#common/invoicing";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import { PayerInfoFields } from "#app/components/checkout/PayerInfoFields";
import { getFormProps, usePayerForm, type PayerFormResult } from "#app/components/checkout/usePayerForm";
import * as payerInfo from "./checkout.payer-info.$eventSlug";

const PAYER_FORM = {
  firstName: "Ana",
  lastName: "Gómez",
  email: "ana@example.com",
  documentType: "dni",
  documentNumber: "30123456",
  phoneNumber: "+54 11 5555-1234",
};

async function eventWithTicket() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 20 }] });
  const [ticket] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const cookies = { [savedCartCookieName(event.slug)]: encodeURIComponent(JSON.stringify({ items: [{ ticketId: ticket.id, qty: 1 }] })) };
  return { event, cookies };
}

/** The payer form as the page draws it after the action's answer. */
function Form({ lastResult, facturaA }: { lastResult?: PayerFormResult; facturaA: boolean }) {
  const [form, fields] = usePayerForm({ id: "payer-info", lastResult, defaultValue: { documentType: "dni" } });
  return (
    <form {...getFormProps(form)}>
      <PayerInfoFields fields={fields} customFields={[]} holderLabels={[]} facturaA={facturaA} />
    </form>
  );
}

const path = (slug: string) => `/checkout/payer-info/${slug}`;

describe("/checkout/payer-info/{eventSlug}: Necesito factura A", () => {
  it("offers Factura A (Tribuna is Responsable Inscripto by default) with ARCA's conditions for an A; hidden when the platform issues no A", async () => {
    const { event, cookies } = await eventWithTicket();
    const page = await run(payerInfo.loader, getRequest(path(event.slug), { cookies }), { eventSlug: event.slug });
    expect(page.data.facturaA).toBe(true);
    const html = renderToString(<Form facturaA />);
    expect(html).toMatch(/<details[^>]*><summary[^>]*>¿Necesitás factura A\?<\/summary>/);
    for (const name of ["invoice.wanted", "invoice.cuit", "invoice.businessName", "invoice.ivaConditionId"]) expect(html).toContain(`name="${name}"`);
    expect(html).toContain(">Responsable Monotributo</option>");
    expect(html).not.toContain(">Consumidor Final</option>");
    // A Monotributo platform (PLATFORM_IVA_CONDITION) gets facturaA false from the loader: nothing is drawn.
    expect(renderToString(<Form facturaA={false} />)).not.toContain("factura A");
  });

  it("a wrong CUIT: the message next to the CUIT, what was typed kept, nothing held", async () => {
    const { event, cookies } = await eventWithTicket();
    const typed = { "invoice.wanted": "on", "invoice.cuit": "20-30123456-4", "invoice.businessName": "Gómez Producciones SRL", "invoice.ivaConditionId": "1" };
    const result = await run(payerInfo.action, formRequest(path(event.slug), { ...PAYER_FORM, ...typed }, { cookies }), { eventSlug: event.slug });
    expect(result.status).toBe(400);
    expect(result.data.result.error).toEqual({ "invoice.cuit": [TAX_DETAILS_MESSAGES.cuitCheckDigit] });
    expect(result.data.result.initialValue.invoice).toMatchObject({ wanted: "on", cuit: "20-30123456-4", businessName: "Gómez Producciones SRL", ivaConditionId: "1" });
    expect(await (await getDb()).select().from(orders).where(eq(orders.eventId, event.id))).toEqual([]);

    const html = renderToString(<Form lastResult={result.data.result} facturaA />);
    // Open, ticked, the CUIT as typed and the message tied to it.
    expect(html).toMatch(/<details[^>]*open=""/);
    expect(html).toMatch(/<input id="payer-info-invoice.wanted" name="invoice.wanted" type="checkbox"[^>]* checked=""/);
    const cuitInput = /<input id="payer-info-invoice.cuit"[^>]*>/.exec(html)![0];
    expect(cuitInput).toContain('value="20-30123456-4"');
    expect(cuitInput).toContain('aria-invalid="true"');
    expect(cuitInput).toMatch(/aria-describedby="[^"]*payer-info-invoice.cuit-error"/);
    expect(html).toContain(`<p id="payer-info-invoice.cuit-error" class="min-h-5 text-sm text-red-700 dark:text-red-400" aria-live="polite">${TAX_DETAILS_MESSAGES.cuitCheckDigit}</p>`);
    expect(html).toMatch(/<option value="1" selected="">IVA Responsable Inscripto<\/option>/);
  });

  it("the box unticked: what was typed is ignored and the order is a consumer's", async () => {
    const { event, cookies } = await eventWithTicket();
    const result = await run(payerInfo.action, formRequest(path(event.slug), { ...PAYER_FORM, "invoice.cuit": "123" }, { cookies }), { eventSlug: event.slug });
    expect(result.data?.result?.error).toBeUndefined();
    expect(result.status).toBe(302);
    const billingId = /^\/checkout\/([0-9a-f-]{36})/.exec(result.location!)![1];
    expect(await (await getDb()).select().from(billingTaxDetails).where(eq(billingTaxDetails.billingId, billingId))).toEqual([]);
  });

  it("a right CUIT: the order is placed with its tax details", async () => {
    const { event, cookies } = await eventWithTicket();
    const typed = { "invoice.wanted": "on", "invoice.cuit": "20-30123456-3", "invoice.businessName": "  Gómez Producciones SRL ", "invoice.ivaConditionId": "6" };
    const result = await run(payerInfo.action, formRequest(path(event.slug), { ...PAYER_FORM, ...typed }, { cookies }), { eventSlug: event.slug });
    expect(result.status).toBe(302);
    const billingId = /^\/checkout\/([0-9a-f-]{36})/.exec(result.location!)![1];
    const [details] = await (await getDb()).select().from(billingTaxDetails).where(eq(billingTaxDetails.billingId, billingId));
    expect(details).toMatchObject({ cuit: "20301234563", ivaCondition: 6, legalName: "Gómez Producciones SRL" });
  });
});
