import { createElement } from "react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { formatMoney } from "#common/money";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { savedCartCookieName } from "#common/saved-cart";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as payerInfo from "./checkout.payer-info.$eventSlug";
import * as summary from "./checkout.$billingId";

// docs/prices.md: the final price first; "Precio sin impuestos nacionales" beside it (the 21 % IVA inside the
// 10 % service charge taken out, the platform being Responsable Inscripto by default).
const PAYER = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30.123.456", phoneNumber: "+54 11 5555-1234" };

async function cartOfTwo() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 20 }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const cookies = { [savedCartCookieName(event.slug)]: encodeURIComponent(JSON.stringify({ items: [{ ticketId: ticket.id, qty: 2 }] })) };
  return { event, cookies };
}

/** The page's text, and the money figures in it in reading order. */
function figures(html: string) {
  const text = html.replace(/<[^>]+>/g, " ").replace(/&nbsp;|\u00a0/g, " ").replace(/\s+/g, " ");
  return { text, amounts: [...text.matchAll(/\$ [\d.]+,\d{2}/g)].map((m) => m[0]) };
}
const plain = (s: string) => s.replace(/\u00a0/g, " ");

// Two $ 10.000 tickets + 10 % fee: $ 22.000 final; the fee's IVA is 2000 × 21/121 = $ 347,11.
const FINAL = plain(formatMoney(2_200_000));
const WITHOUT_TAXES = plain(formatMoney(2_200_000 - 34_711));

describe("buyer pages show the final price first (docs/prices.md)", () => {
  it("the payer step: total first, then the price without national taxes, then the breakdown", async () => {
    const { event, cookies } = await cartOfTwo();
    const page = await run(payerInfo.loader, getRequest(`/checkout/payer-info/${event.slug}`, { cookies }), { eventSlug: event.slug });
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ total: formatMoney(2_200_000), withoutNationalTaxes: formatMoney(2_165_289) });
    const { html } = await renderInRouter(createElement(payerInfo.default), { url: `/checkout/payer-info/${event.slug}`, loader: () => page.data });
    const { text, amounts } = figures(html);
    expect(amounts[0]).toBe(FINAL);
    expect(amounts[1]).toBe(WITHOUT_TAXES);
    expect(text).toContain(`Precio sin impuestos nacionales ${WITHOUT_TAXES}`);
  });

  it("the summary before paying: total first, then the price without national taxes", async () => {
    const { event, cookies } = await cartOfTwo();
    const started = await run(payerInfo.action, formRequest(`/checkout/payer-info/${event.slug}`, PAYER, { cookies }), { eventSlug: event.slug });
    const url = new URL(started.location!, "http://x");
    const billingId = url.pathname.split("/").at(-1)!;
    const path = `/checkout/${billingId}?t=${url.searchParams.get("t")}`;
    const page = await run(summary.loader, getRequest(path), { billingId });
    expect(page.status).toBe(200);
    expect(page.data.order).toMatchObject({ total: formatMoney(2_200_000), withoutNationalTaxes: formatMoney(2_165_289) });
    const { html } = await renderInRouter(createElement(summary.default), { url: path, loader: () => page.data });
    const { text, amounts } = figures(html);
    expect(amounts[0]).toBe(FINAL);
    expect(amounts[1]).toBe(WITHOUT_TAXES);
    expect(text).toContain(`Precio sin impuestos nacionales ${WITHOUT_TAXES}`);
  });
});
