import { describe, expect, it } from "vitest";
import { createCoupon, setCouponStatus } from "#server/coupons/coupons";
import { getEventForOrganizer } from "#server/events/events";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { cookiesAfter, formRequest, getRequest, run } from "#tests/support/remix";
import * as redeem from "./canjear.$couponId";
import * as eventPage from "./eventos.$slug";
import { purchaseTotals } from "#common/pricing";

const cartCookie = (slug: string) => `incomplete-saved-order--${slug}`;

async function setup() {
  const { ctx, organization } = await createProducer();
  const { event } = await createPublishedEvent(ctx, organization.id, {
    ticketTypes: [
      { name: "General", price: 1_000_000, stock: 50 },
      { name: "VIP", price: 3_000_000, stock: 10 },
    ],
  });
  const { tickets } = await getEventForOrganizer(ctx, event.id);
  const byName = Object.fromEntries(tickets.map((t) => [t.name, t]));
  return { ctx, event, tickets: byName };
}

describe("/canjear/{couponId}", () => {
  it("saves the coupon in the event's cart and the event page shows it with the discounted prices and totals", async () => {
    const { ctx, event, tickets } = await setup();
    const coupon = await createCoupon(ctx, { eventId: event.id, code: "Verano20", kind: "percent", percent: 20 });
    const result = await run(redeem.loader, getRequest(`/canjear/${coupon.id}`), { couponId: coupon.id });
    expect(result.status).toBe(302);
    expect(result.location).toBe(`/eventos/${event.slug}`);
    expect(JSON.parse(result.cookies[cartCookie(event.slug)].value)).toEqual({ items: [], couponCode: "Verano20" });
    expect(JSON.parse(result.cookies.flash.value)).toEqual({ type: "success", message: "¡Listo! Cupón Verano20 aplicado: 20 % de descuento" });

    const cookies = cookiesAfter(result);
    const page = await run(eventPage.loader, getRequest(`/eventos/${event.slug}`, { cookies }), { slug: event.slug });
    expect(page.data.coupon).toEqual({ code: "Verano20", label: "20 % de descuento", onlyFor: null, rule: { kind: "percent", value: 20, ticketTypeIds: [] } });
    const general = page.data.tickets.find((t: { name: string }) => t.name === "General");
    // Final prices, the 10 % service fee included (docs/prices.md).
    expect(general).toMatchObject({ priceLabel: "$\u00a011.000,00", discountedPriceLabel: "$\u00a08.800,00" });

    // Choosing tickets keeps the coupon in the cart through to the checkout, and the page shows the totals.
    const chosen = await run(
      eventPage.action,
      formRequest(`/eventos/${event.slug}`, { intent: "comprar", [`qty-${tickets.General.id}`]: "2" }, { cookies }),
      { slug: event.slug },
    );
    expect(chosen.location).toBe(`/checkout/payer-info/${event.slug}`);
    const cart = JSON.parse(chosen.cookies[cartCookie(event.slug)].value);
    expect(cart).toMatchObject({ couponCode: "Verano20", items: [{ ticketId: tickets.General.id, qty: 2 }] });
    const again = await run(eventPage.loader, getRequest(`/eventos/${event.slug}`, { cookies: cookiesAfter(chosen, cookies) }), { slug: event.slug });
    // The picker's live total from the page's data (the browser runs the same common/pricing.ts): $20.000 − 20 % = $16.000, plus the 10 % fee on what is paid.
    const lines = again.data.tickets
      .filter((t: { id: string }) => again.data.selected[t.id])
      .map((t: { id: string; price: number }) => ({ ticketTypeId: t.id, qty: again.data.selected[t.id], unitPrice: t.price }));
    expect(purchaseTotals(lines, again.data.event.serviceFeeBps, again.data.coupon.rule)).toEqual({ subtotal: 2_000_000, discount: 400_000, serviceFee: 160_000, total: 1_760_000 });
  });

  it("a paused coupon goes to the event with the reason and drops out of the cart; an unknown id is a friendly 404", async () => {
    const { ctx, event } = await setup();
    const coupon = await createCoupon(ctx, { eventId: event.id, code: "PAUSA", kind: "fixed", amount: 100_000 });
    const applied = await run(redeem.loader, getRequest(`/canjear/${coupon.id}`), { couponId: coupon.id });
    await setCouponStatus(ctx, { id: coupon.id, status: "paused" });

    const page = await run(eventPage.loader, getRequest(`/eventos/${event.slug}`, { cookies: cookiesAfter(applied) }), { slug: event.slug });
    expect(page.data.coupon).toBeNull();
    expect(page.data.dropped).toContain("Sacamos el cupón PAUSA: Ese cupón está pausado por ahora.");
    expect(page.cookies[cartCookie(event.slug)].maxAge).toBe(0);

    const paused = await run(redeem.loader, getRequest(`/canjear/${coupon.id}`), { couponId: coupon.id });
    expect(paused.location).toBe(`/eventos/${event.slug}`);
    expect(JSON.parse(paused.cookies.flash.value)).toEqual({ type: "error", message: "Ese cupón está pausado por ahora." });

    const unknown = await run(redeem.loader, getRequest("/canjear/no-existe"), { couponId: "no-existe" });
    expect(unknown.status).toBe(404);
    expect(unknown.data.message).toBe("El link no corresponde a ningún cupón vigente.");
  });

  it("the event's code form also applies a coupon, and says why a known one cannot be used", async () => {
    const { ctx, event } = await setup();
    await createCoupon(ctx, { eventId: event.id, code: "AMIGOS", kind: "percent", percent: 10, validUntil: new Date(Date.now() - 60_000).toISOString(), validFrom: new Date(Date.now() - 3600_000).toISOString() });
    await createCoupon(ctx, { eventId: event.id, code: "HOY", kind: "percent", percent: 15 });
    const ok = await run(eventPage.action, formRequest(`/eventos/${event.slug}`, { intent: "codigo", codigo: "hoy" }), { slug: event.slug });
    expect(ok.status).toBe(303);
    expect(JSON.parse(ok.cookies[cartCookie(event.slug)].value)).toMatchObject({ couponCode: "HOY" });
    // "Quitar cupón" takes it out of the cart.
    const removed = await run(eventPage.action, formRequest(`/eventos/${event.slug}`, { intent: "quitar-cupon" }, { cookies: cookiesAfter(ok) }), { slug: event.slug });
    expect(removed.status).toBe(303);
    expect(removed.cookies[cartCookie(event.slug)].maxAge).toBe(0);
    const expired = await run(eventPage.action, formRequest(`/eventos/${event.slug}`, { intent: "codigo", codigo: "AMIGOS" }), { slug: event.slug });
    expect(expired.status).toBe(400);
    expect(expired.data).toEqual({ intent: "codigo", codeError: "Ese cupón ya venció." });
    const unknown = await run(eventPage.action, formRequest(`/eventos/${event.slug}`, { intent: "codigo", codigo: "NADA" }), { slug: event.slug });
    expect(unknown.data).toEqual({ intent: "codigo", codeError: "Ese código no es válido para este evento" });
  });
});
