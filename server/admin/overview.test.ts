import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, ledgerEntries, memberships, organizations } from "#server/db/schema";
import { createEvent, setEventStatus } from "#server/events/events";
import { ledgerOfOrder, organizationBalance } from "#server/ledger/ledger";
import { createOrder } from "#server/orders/orders";
import { queueProviderRefund, runProviderRefund } from "#server/payments/refunds";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { requestWithdrawal } from "#server/payouts/withdrawals";
import { requestRefund } from "#server/refunds/refunds";
import { chargeBackApprovedBilling } from "#server/refunds/transitions";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithReleasedSales, createEventWithTickets, daysFromNow } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { ADMIN_MESSAGES, ADMIN_PAGE_SIZE, listPlatformOrganizations, refundsOverview } from "./overview";

const HOUR = 3600_000;
let n = 0;

type Made = Awaited<ReturnType<typeof createEventWithTickets>>;

/** A paid (sandbox) order of `qty` General tickets of the event, by a buyer of its own. */
async function paidOrder(made: Made, qty = 1) {
  n += 1;
  const db = await getDb();
  const email = `comprador${n}-${randomTag(5)}@example.com`;
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: made.event.slug,
    items: [{ ticketId: made.tickets.General.id, qty }],
    payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  const paid = await payInSandbox(db, billing.id, "approved");
  expect(paid?.result.outcome).toBe("approved");
  const [approved] = await db.select().from(billings).where(eq(billings.id, billing.id));
  return { order, billing: approved, email };
}

async function admin() {
  const user = await createTestUser({ roles: ["admin"] });
  return actorFor({ ...user, roles: ["admin"] });
}

describe("platform admin overview", () => {
  it("lists organizations with the numbers the ledger, events, members and withdrawals say; refunds, provider problems and chargebacks across the platform", async () => {
    const db = await getDb();
    const now = new Date();

    // Organization A: one paid order (2 × $10.000) released, a withdrawal waiting, a deleted event, an operator.
    const a = await createEventWithReleasedSales(2);
    await requestWithdrawal(a.ctx, { organizationId: a.organization.id, bankAccountId: a.account.id, amount: 500_000 });
    const { event: gone } = await createEvent(a.ctx, {
      organizationId: a.organization.id,
      name: "Fecha suspendida",
      description: "No se hace.",
      category: "fiestas",
      venueName: "Club",
      venueAddress: "Calle 1",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [{ startsAt: daysFromNow(20).toISOString(), endsAt: new Date(daysFromNow(20).getTime() + 3 * HOUR).toISOString() }],
      ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }],
    });
    await setEventStatus(a.ctx, { id: gone.id, status: "deleted" });
    const operator = await createTestUser();
    await db.insert(memberships).values({ organizationId: a.organization.id, userId: operator.id, role: "operator" });
    await db.update(organizations).set({ cuit: "30998877665" }).where(eq(organizations.id, a.organization.id));

    // Organization B: five paid orders: one refunded at once, one charged back, one refund waiting for the organizer,
    // one provider refund that failed and one the provider keeps refusing.
    const b = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 40 });
    const refunded = await paidOrder(b, 1);
    const charged = await paidOrder(b, 2);
    const waiting = await paidOrder(b, 1);
    const failing = await paidOrder(b, 1);
    const retrying = await paidOrder(b, 3);
    const automatic = await requestRefund(await ctxAs(ANONYMOUS, now), { orderCode: refunded.order.code, email: refunded.email, reason: "No puedo ir" });
    expect(automatic.outcome).toBe("refunded");
    await db.transaction((tx) => chargeBackApprovedBilling(tx, charged.billing.id, now));
    const pending = await requestRefund(await ctxAs(ANONYMOUS, new Date(now.getTime() + 12 * 24 * HOUR)), { orderCode: waiting.order.code, email: waiting.email });
    expect(pending.outcome).toBe("pending");
    const failed = await db.transaction((tx) =>
      queueProviderRefund(tx, { billingId: failing.billing.id, providerPaymentId: "404404", amount: failing.billing.amount, reason: "prueba", now }).then((queued) => queued!)
    );
    await expect(runProviderRefund(db, failed.id, { now, finalAttempt: true })).rejects.toThrow();
    const retried = await db.transaction((tx) =>
      queueProviderRefund(tx, { billingId: retrying.billing.id, providerPaymentId: "404404", amount: retrying.billing.amount, reason: "prueba", now }).then((queued) => queued!)
    );
    await expect(runProviderRefund(db, retried.id, { now })).rejects.toThrow();

    const adminActor = await admin();
    const later = await ctxAs(adminActor, new Date(now.getTime() + 2 * HOUR));

    // --- Organizations
    const list = await listPlatformOrganizations(later, {});
    expect(list.page).toBe(1);
    const byId = new Map(list.items.map((o) => [o.id, o]));
    // Newest first.
    expect(list.items.findIndex((o) => o.id === b.organization.id)).toBeLessThan(list.items.findIndex((o) => o.id === a.organization.id));

    const [aPayment] = (await ledgerOfOrder(db, a.order.id)).filter((e) => e.kind === "payment");
    expect(byId.get(a.organization.id)).toMatchObject({
      name: a.organization.name,
      slug: a.organization.slug,
      cuit: "30998877665",
      contactEmail: "hola@productora.com.ar",
      members: 2,
      events: 1,
      paidOrders: 1,
      grossSold: aPayment.amount,
      balance: await organizationBalance(db, a.organization.id),
      pendingWithdrawals: 1,
    });
    expect(aPayment.amount).toBe(a.order.total);
    // What the order left for the organizer, minus the $5.000 withdrawal.
    expect(byId.get(a.organization.id)!.balance).toBe(a.order.total - a.order.serviceFee - 500_000);

    const bOrders = [refunded, charged, waiting, failing, retrying];
    const bGross = bOrders.reduce((sum, o) => sum + o.billing.amount, 0);
    // Refunded and charged back orders net to zero; the other three leave price minus our fee.
    const bNet = [waiting, failing, retrying].reduce((sum, o) => sum + o.order.total - o.order.serviceFee, 0);
    expect(byId.get(b.organization.id)).toMatchObject({ members: 1, events: 1, paidOrders: 5, grossSold: bGross, balance: bNet, pendingWithdrawals: 0 });
    expect(await organizationBalance(db, b.organization.id)).toBe(bNet);

    // Search by slug, by name and by CUIT with or without dashes.
    expect((await listPlatformOrganizations(later, { search: b.organization.slug })).items.map((o) => o.id)).toEqual([b.organization.id]);
    expect((await listPlatformOrganizations(later, { search: a.organization.name.toUpperCase() })).items.map((o) => o.id)).toEqual([a.organization.id]);
    expect((await listPlatformOrganizations(later, { search: "30998877665" })).items.map((o) => o.id)).toEqual([a.organization.id]);
    expect((await listPlatformOrganizations(later, { search: "30-99887766" })).items.map((o) => o.id)).toEqual([a.organization.id]);
    expect((await listPlatformOrganizations(later, { search: "%" })).total).toBe(0);

    // --- Refunds
    const overview = await refundsOverview(later, {});
    expect(overview.totals).toMatchObject({
      refundedAmount: refunded.billing.amount,
      refundedCount: 1,
      chargebackAmount: charged.billing.amount,
      chargebackCount: 1,
      pendingRequests: 1,
    });
    const ledgerRefunds = await db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, "refund"));
    expect(ledgerRefunds.map((e) => -e.amount)).toEqual([refunded.billing.amount]);
    expect(overview.status).toBeNull();
    expect(overview.requests.total).toBe(2);
    // Newest first: the pending one was asked 12 days later.
    expect(overview.requests.items.map((r) => r.code)).toEqual([pending.request.code, automatic.request.code]);
    expect(overview.requests.items[1]).toMatchObject({
      organizationName: b.organization.name,
      eventName: b.event.name,
      orderCode: refunded.order.code,
      buyerName: "Ana Gómez",
      buyerEmail: refunded.email.toLowerCase(),
      amount: refunded.billing.amount,
      status: "refunded",
      automatic: true,
    });
    expect(overview.requests.items[1].decidedAt).toBeInstanceOf(Date);
    expect(overview.requests.items[0]).toMatchObject({ status: "pending", automatic: false, decidedAt: null, amount: waiting.billing.amount });

    const onlyPending = await refundsOverview(later, { status: "pending" });
    expect(onlyPending.requests.items.map((r) => r.code)).toEqual([pending.request.code]);
    expect((await refundsOverview(later, { status: "rejected" })).requests.total).toBe(0);
    expect((await refundsOverview(later, { status: "todos" })).requests.total).toBe(2);

    // The automatic refund's provider refund has waited 2 hours without being tried: stuck.
    const problems = Object.fromEntries(overview.providerRefunds.map((r) => [r.orderCode, r]));
    expect(Object.keys(problems).sort()).toEqual([refunded.order.code, failing.order.code, retrying.order.code].sort());
    expect(problems[failing.order.code]).toMatchObject({ problem: "failed", status: "failed", amount: failing.billing.amount, organizationName: b.organization.name });
    expect(problems[failing.order.code].lastError).toMatch(/inexistente/);
    expect(problems[retrying.order.code]).toMatchObject({ problem: "retrying", status: "pending" });
    expect(problems[refunded.order.code]).toMatchObject({ problem: "stuck", status: "pending", lastError: null });
    // Right after the refund, a pending one without errors is not a problem yet.
    const rightAway = await refundsOverview(await ctxAs(adminActor, now), {});
    expect(rightAway.providerRefunds.map((r) => r.orderCode).sort()).toEqual([failing.order.code, retrying.order.code].sort());

    expect(overview.chargebacks).toEqual([
      {
        billingId: charged.billing.id,
        organizationName: b.organization.name,
        eventName: b.event.name,
        orderCode: charged.order.code,
        provider: "sandbox",
        amount: charged.billing.amount,
        chargedBackAt: now,
      },
    ]);

    // 31 days later the totals are empty; the pending request still counts.
    const monthLater = await refundsOverview(await ctxAs(adminActor, new Date(now.getTime() + 31 * 24 * HOUR)), {});
    expect(monthLater.totals).toMatchObject({ refundedAmount: 0, refundedCount: 0, chargebackAmount: 0, chargebackCount: 0, pendingRequests: 1 });

    // --- Only the platform's team
    await expect(listPlatformOrganizations(a.ctx, {})).rejects.toMatchObject({ code: "FORBIDDEN", message: ADMIN_MESSAGES.onlyPlatform });
    await expect(refundsOverview(b.ctx, {})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listPlatformOrganizations(await ctxAs(), {})).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(refundsOverview(await ctxAs(), {})).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("pages 25 at a time and never fails on a bad page or search; a bad status is a Spanish field error", async () => {
    const db = await getDb();
    const ctx = await ctxAs(await admin());
    const tag = `Paginada ${randomTag(6)}`;
    const base = Date.now() - 1000 * HOUR;
    await db.insert(organizations).values(
      Array.from({ length: 30 }, (_, i) => ({
        name: `${tag} ${String(i).padStart(2, "0")}`,
        slug: `${tag.replace(/\W+/g, "-").toLowerCase()}-${i}`,
        createdAt: new Date(base + i * HOUR),
      }))
    );
    const first = await listPlatformOrganizations(ctx, { search: tag });
    expect(first).toMatchObject({ total: 30, page: 1, pages: 2, pageSize: ADMIN_PAGE_SIZE });
    expect(first.items).toHaveLength(25);
    expect(first.items[0].name).toBe(`${tag} 29`);
    expect(first.items[0]).toMatchObject({ members: 0, events: 0, paidOrders: 0, grossSold: 0, balance: 0, pendingWithdrawals: 0 });
    const second = await listPlatformOrganizations(ctx, { search: `  ${tag}  `, page: "2" });
    expect(second.items.map((o) => o.name)).toEqual([4, 3, 2, 1, 0].map((i) => `${tag} 0${i}`));
    expect((await listPlatformOrganizations(ctx, { search: tag, page: 99 })).page).toBe(2);
    for (const page of ["abc", "-3", "0", "1.5e400", null, { x: 1 }]) {
      expect((await listPlatformOrganizations(ctx, { search: tag, page })).page).toBe(1);
    }
    expect((await listPlatformOrganizations(ctx, { search: 42 })).search).toBe("");
    expect((await listPlatformOrganizations(ctx, { search: `${tag}\u0000` })).total).toBe(30);
    expect((await listPlatformOrganizations(ctx, { search: "x".repeat(5000) })).search).toHaveLength(100);
    expect((await listPlatformOrganizations(ctx, undefined)).page).toBe(1);

    expect((await refundsOverview(ctx, { page: "abc" })).requests.page).toBe(1);
    await expect(refundsOverview(ctx, { status: "nope" })).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { status: [ADMIN_MESSAGES.status] } });
    await expect(refundsOverview(ctx, { status: 7 })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });
});
