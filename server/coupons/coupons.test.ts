import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { billings, couponRedemptions, coupons, orders, ticketTypes } from "#server/db/schema";
import type { Ctx } from "#server/context";
import { createOrder, expireOrder } from "#server/orders/orders";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets } from "#tests/support/factories";
import {
  COUPON_MESSAGES,
  couponForRedeemLink,
  createCoupon,
  listCoupons,
  previewCoupon,
  retakeCouponUse,
  setCouponStatus,
  updateCoupon,
} from "./coupons";

const PAYER = {
  firstName: "Sofía",
  lastName: "Peña",
  email: "sofia@example.com",
  documentType: "dni",
  documentNumber: "30123456",
  phoneNumber: "+54 11 5555-1234",
};

const setup = createEventWithTickets;

function at(ctx: Ctx, now: Date): Ctx {
  return { ...ctx, now };
}

async function couponRow(id: string) {
  const [row] = await (await getDb()).select().from(coupons).where(eq(coupons.id, id));
  return row;
}

async function soldOf(id: string) {
  const [row] = await (await getDb()).select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, id));
  return row.sold;
}

function buy(ctx: Ctx, eventSlug: string, items: { ticketId: string; qty: number }[], couponCode?: string) {
  return createOrder(ctx, { eventSlug, items, payer: PAYER, paymentMethod: "MERCADO_PAGO", couponCode });
}

describe("coupons in createOrder", () => {
  it("a percent coupon (any case) discounts the subtotal, the 10 % fee is on what is paid, and takes one use", async () => {
    const { ctx, event, tickets } = await setup();
    const coupon = await createCoupon(ctx, { eventId: event.id, code: "VERANO20", kind: "percent", percent: 20, maxUses: 5 });
    const buyer = await ctxAs();
    const { order, billing } = await buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 2 }], "verano20");
    expect(order).toMatchObject({ status: "draft", subtotal: 3_000_000, discount: 600_000, serviceFee: 240_000, total: 2_640_000 });
    expect(billing).toMatchObject({ status: "pending", amount: 2_640_000 });
    expect((await couponRow(coupon.id)).uses).toBe(1);
    const [redemption] = await (await getDb()).select().from(couponRedemptions).where(eq(couponRedemptions.orderId, order.id));
    expect(redemption).toMatchObject({ couponId: coupon.id, discount: 600_000, releasedAt: null });
  });

  it("a fixed coupon is capped at the subtotal of the tickets it applies to, and only those", async () => {
    const { ctx, event, tickets } = await setup([
      { name: "General", price: 1_000_000, stock: 50 },
      { name: "VIP", price: 2_500_000, stock: 10 },
    ]);
    await createCoupon(ctx, { eventId: event.id, code: "VIP-OFF", kind: "fixed", amount: "40.000", ticketTypeIds: [tickets.VIP.id] });
    const buyer = await ctxAs();
    const { order } = await buy(
      buyer,
      event.slug,
      [
        { ticketId: tickets.General.id, qty: 1 },
        { ticketId: tickets.VIP.id, qty: 1 },
      ],
      "vip-off",
    );
    // $40.000 off, but the VIP line is only $25.000: the General ticket keeps its price.
    expect(order).toMatchObject({ subtotal: 3_500_000, discount: 2_500_000, serviceFee: 100_000, total: 1_100_000 });

    await createCoupon(ctx, { eventId: event.id, code: "MIL", kind: "fixed", amount: 100_000 });
    const small = await buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 2 }], "MIL");
    expect(small.order).toMatchObject({ subtotal: 2_000_000, discount: 100_000, serviceFee: 190_000, total: 2_090_000 });
  });

  it("refuses a coupon for other ticket types, unknown, paused, not yet valid or expired, without holding stock", async () => {
    const { ctx, event, tickets } = await setup([
      { name: "General", price: 1_000_000, stock: 50 },
      { name: "VIP", price: 2_500_000, stock: 10 },
    ]);
    const now = new Date();
    await createCoupon(ctx, { eventId: event.id, code: "SOLOVIP", kind: "percent", percent: 50, ticketTypeIds: [tickets.VIP.id] });
    const paused = await createCoupon(ctx, { eventId: event.id, code: "PAUSADO", kind: "percent", percent: 50 });
    await setCouponStatus(ctx, { id: paused.id, status: "paused" });
    await createCoupon(ctx, { eventId: event.id, code: "PRONTO", kind: "percent", percent: 50, validFrom: new Date(now.getTime() + 3600_000).toISOString() });
    await createCoupon(ctx, {
      eventId: event.id,
      code: "VENCIDO",
      kind: "percent",
      percent: 50,
      validFrom: new Date(now.getTime() - 7200_000).toISOString(),
      validUntil: new Date(now.getTime() - 3600_000).toISOString(),
    });
    const buyer = await ctxAs(undefined, now);
    const general = [{ ticketId: tickets.General.id, qty: 1 }];
    const cases: [string, string | RegExp][] = [
      ["SOLOVIP", COUPON_MESSAGES.notApplicable],
      ["NOEXISTE", COUPON_MESSAGES.unknown],
      ["pausado", COUPON_MESSAGES.paused],
      ["PRONTO", /^Ese cupón se puede usar desde las \d\d:\d\d - \d\d\/\d\d\/\d{4}\.$/],
      ["VENCIDO", COUPON_MESSAGES.ended],
    ];
    for (const [code, message] of cases) {
      const error = await buy(buyer, event.slug, general, code).catch((e) => e);
      expect(error).toMatchObject({ code: "BAD_USER_INPUT" });
      expect(error.fieldErrors.couponCode[0]).toMatch(message);
    }
    expect(await soldOf(tickets.General.id)).toBe(0);
    expect(await (await getDb()).select().from(orders).where(eq(orders.eventId, event.id))).toHaveLength(0);
  });

  it("a 100 % coupon bills the order at once with its tickets, no fee and no payment", async () => {
    const { ctx, event, tickets } = await setup();
    const coupon = await createCoupon(ctx, { eventId: event.id, code: "INVITADO", kind: "percent", percent: 100, maxUses: 1 });
    const buyer = await ctxAs();
    const { order, billing } = await buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 2 }], "Invitado");
    expect(order).toMatchObject({ status: "billed", paymentMethod: "FREE", subtotal: 3_000_000, discount: 3_000_000, serviceFee: 0, total: 0, holdExpiresAt: null });
    expect(billing).toMatchObject({ status: "approved", provider: "free", amount: 0 });
    expect(await ticketsOfOrder(await getDb(), order.id)).toHaveLength(2);
    expect((await couponRow(coupon.id)).uses).toBe(1);
    const again = await buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 1 }], "INVITADO").catch((e) => e);
    expect(again).toMatchObject({ code: "CONFLICT", message: "Se agotaron los usos del cupón «INVITADO». Podés comprar sin el cupón." });
  });

  it("an unpaid order that expires gives its coupon use back exactly once", async () => {
    const { ctx, event, tickets } = await setup();
    const coupon = await createCoupon(ctx, { eventId: event.id, code: "UNO", kind: "percent", percent: 10, maxUses: 1 });
    const buyer = await ctxAs();
    const { order } = await buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 1 }], "UNO");
    expect((await couponRow(coupon.id)).uses).toBe(1);
    await expect(buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 1 }], "UNO")).rejects.toMatchObject({ code: "CONFLICT" });

    const later = at(buyer, new Date(order.holdExpiresAt!.getTime() + 1000));
    const results = await Promise.all(Array.from({ length: 4 }, () => expireOrder(later, order.id)));
    expect(results.filter((r) => r === "expired")).toHaveLength(1);
    expect(await expireOrder(later, order.id)).toBe("skipped");
    expect((await couponRow(coupon.id)).uses).toBe(0);
    const [redemption] = await (await getDb()).select().from(couponRedemptions).where(eq(couponRedemptions.orderId, order.id));
    expect(redemption.releasedAt).not.toBeNull();
    const [billing] = await (await getDb()).select().from(billings).where(eq(billings.orderId, order.id));
    expect(billing.status).toBe("cancelled");

    // The use is free again for someone else.
    const next = await buy(later, event.slug, [{ ticketId: tickets.General.id, qty: 1 }], "UNO");
    expect(next.order.discount).toBe(150_000);
    expect((await couponRow(coupon.id)).uses).toBe(1);
    // A late payment of the expired order cannot push the coupon over its limit.
    const db = await getDb();
    expect(await db.transaction((tx) => retakeCouponUse(tx, order.id))).toBe(false);
    expect((await couponRow(coupon.id)).uses).toBe(1);
    await updateCoupon(ctx, { id: coupon.id, maxUses: 2 });
    expect(await db.transaction((tx) => retakeCouponUse(tx, order.id))).toBe(true);
    expect(await db.transaction((tx) => retakeCouponUse(tx, order.id))).toBe(false);
    expect((await couponRow(coupon.id)).uses).toBe(2);
  });

  it("a payment that arrives after the hold expired is honoured and counts its coupon use again", async () => {
    const { ctx, event, tickets } = await setup();
    const coupon = await createCoupon(ctx, { eventId: event.id, code: "TARDE", kind: "percent", percent: 50, maxUses: 3 });
    const { order, billing } = await buy(await ctxAs(), event.slug, [{ ticketId: tickets.General.id, qty: 2 }], "TARDE");
    const later = new Date(order.holdExpiresAt!.getTime() + 60_000);
    expect(await expireOrder(await ctxAs(undefined, later), order.id)).toBe("expired");
    expect((await couponRow(coupon.id)).uses).toBe(0);

    const db = await getDb();
    const paid = await payInSandbox(db, billing.id, "approved", later);
    expect(paid?.result.outcome).toBe("orphan-honoured");
    expect((await couponRow(coupon.id)).uses).toBe(1);
    expect(await ticketsOfOrder(db, order.id)).toHaveLength(2);
    await assertLedgerMatches(db, order.id);
  });
});

describe("coupons in the back office", () => {
  it("creates, lists, edits, pauses and deletes; codes are unique per event whatever the case", async () => {
    const { ctx, event, organization, tickets } = await setup();
    const coupon = await createCoupon(ctx, {
      eventId: event.id,
      code: " Primavera ",
      kind: "percent",
      percent: "15",
      maxUses: "",
      validFrom: "",
      validUntil: "2099-12-31T23:59",
    });
    expect(coupon).toMatchObject({ code: "Primavera", kind: "percent", value: 15, maxUses: null, uses: 0, status: "active", validFrom: null, ticketTypeIds: [] });
    await expect(createCoupon(ctx, { eventId: event.id, code: "PRIMAVERA", kind: "fixed", amount: 1000 })).rejects.toMatchObject({
      fieldErrors: { code: [COUPON_MESSAGES.codeTaken] },
    });
    await expect(createCoupon(ctx, { eventId: event.id, code: "DOS PALABRAS", kind: "percent", percent: 0, validFrom: "2030-01-02T10:00", validUntil: "2030-01-01T10:00" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { code: [COUPON_MESSAGES.codeSpaces], percent: [COUPON_MESSAGES.percent] },
    });
    await expect(createCoupon(ctx, { eventId: event.id, code: "FIJO", kind: "fixed" })).rejects.toMatchObject({ fieldErrors: { amount: [COUPON_MESSAGES.amount] } });
    await expect(createCoupon(ctx, { eventId: event.id, code: "VENTANA", kind: "percent", percent: 5, validFrom: "02/01/2030 10:00", validUntil: "01/01/2030 10:00" })).rejects.toMatchObject({
      fieldErrors: { validUntil: [COUPON_MESSAGES.window] },
    });

    const updated = await updateCoupon(ctx, { id: coupon.id, kind: "fixed", amount: "2.000", maxUses: 3, ticketTypeIds: [tickets.General.id] });
    expect(updated).toMatchObject({ code: "Primavera", kind: "fixed", value: 200_000, maxUses: 3, ticketTypeIds: [tickets.General.id] });

    // The limit cannot go under the uses already taken.
    const buyer = await ctxAs();
    await buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 1 }], "primavera");
    await buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 1 }], "primavera");
    await expect(updateCoupon(ctx, { id: coupon.id, maxUses: 1 })).rejects.toMatchObject({ fieldErrors: { maxUses: [COUPON_MESSAGES.maxBelowUses(2)] } });

    const list = await listCoupons(ctx, { organizationId: organization.id });
    expect(list).toMatchObject({ total: 1, page: 0 });
    expect(list.items[0]).toMatchObject({ id: coupon.id, uses: 2, maxUses: 3, event: { slug: event.slug } });
    expect((await listCoupons(ctx, { eventId: event.id })).total).toBe(1);

    expect((await setCouponStatus(ctx, { id: coupon.id, status: "paused" })).status).toBe("paused");
    expect(await couponForRedeemLink(ctx, coupon.id)).toMatchObject({ ok: false, message: COUPON_MESSAGES.paused, eventSlug: event.slug });
    expect((await setCouponStatus(ctx, { id: coupon.id, status: "active" })).status).toBe("active");
    expect(await couponForRedeemLink(ctx, coupon.id)).toMatchObject({ ok: true, code: "Primavera", eventSlug: event.slug, label: "$\u00a02.000,00 de descuento" });
    expect(await previewCoupon(ctx.db, { eventId: event.id, code: "PRIMAVERA", now: ctx.now })).toMatchObject({ ok: true, label: "$\u00a02.000,00 de descuento" });

    await setCouponStatus(ctx, { id: coupon.id, status: "deleted" });
    await expect(setCouponStatus(ctx, { id: coupon.id, status: "active" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await listCoupons(ctx, { organizationId: organization.id })).total).toBe(0);
    expect(await couponForRedeemLink(ctx, coupon.id)).toMatchObject({ ok: false, message: COUPON_MESSAGES.unknown });
    // A deleted coupon frees its code.
    await expect(createCoupon(ctx, { eventId: event.id, code: "primavera", kind: "percent", percent: 5 })).resolves.toMatchObject({ code: "primavera" });
  });

  it("refuses ticket types of another event, and everything to members of other organizations (FORBIDDEN)", async () => {
    const { ctx, event, organization } = await setup();
    const other = await setup();
    await expect(createCoupon(ctx, { eventId: event.id, code: "AJENO", kind: "percent", percent: 10, ticketTypeIds: [other.tickets.General.id] })).rejects.toMatchObject({
      fieldErrors: { ticketTypeIds: [COUPON_MESSAGES.ticketTypes] },
    });
    const coupon = await createCoupon(ctx, { eventId: event.id, code: "MIO", kind: "percent", percent: 10 });
    const stranger = other.ctx;
    await expect(createCoupon(stranger, { eventId: event.id, code: "INTRUSO", kind: "percent", percent: 10 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updateCoupon(stranger, { id: coupon.id, percent: 90 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(setCouponStatus(stranger, { id: coupon.id, status: "paused" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listCoupons(stranger, { organizationId: organization.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listCoupons(stranger, { eventId: event.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const buyer = await createTestUser();
    await expect(listCoupons(await ctxAs(actorFor({ ...buyer, roles: [] })), { organizationId: organization.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listCoupons(await ctxAs(), { organizationId: organization.id })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect((await couponRow(coupon.id)).value).toBe(10);
  });
});

describe.runIf(hasPostgresServer)("coupon use limit under load", () => {
  it("200 concurrent createOrder with a coupon limited to 20 uses: exactly 20 orders get it, 180 CONFLICT", async () => {
    const { ctx, event, tickets } = await setup([{ name: "General", price: 1_000_000, stock: 1000 }]);
    const coupon = await createCoupon(ctx, { eventId: event.id, code: "ULTIMOS20", kind: "percent", percent: 30, maxUses: 20 });
    const buyer = await ctxAs();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => buy(buyer, event.slug, [{ ticketId: tickets.General.id, qty: 1 }], "ultimos20")),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(180);
    for (const r of refused) {
      expect(r.reason).toMatchObject({ code: "CONFLICT", message: "Se agotaron los usos del cupón «ULTIMOS20». Podés comprar sin el cupón." });
    }
    expect((await couponRow(coupon.id)).uses).toBe(20);
    const db = await getDb();
    const placed = await db.select().from(orders).where(eq(orders.eventId, event.id));
    expect(placed).toHaveLength(20);
    expect(placed.every((o) => o.discount === 300_000)).toBe(true);
    expect(await db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, coupon.id))).toHaveLength(20);
    // Refused orders returned their stock with the rollback.
    expect(await soldOf(tickets.General.id)).toBe(20);
  }, 120_000);
});
