import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { eventDates, ledgerEntries, orders, withdrawals } from "#server/db/schema";
import { organizationBalance } from "#server/ledger/ledger";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { chargeBackApprovedBilling, refundApprovedBilling } from "#server/refunds/transitions";
import { actorFor, createTestUser, ctxAs, withSecondFactor } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets, createTransferAccount } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { approveWithdrawal, getWithdrawalBalance, listWithdrawals, markWithdrawalPaid, rejectWithdrawal, requestWithdrawal, RELEASE_HOURS, WITHDRAWAL_MESSAGES } from "./withdrawals";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** An organization with `sales` paid orders of one $10.000 ticket each (10 % fee), its event moved to `endedHoursAgo`. */
async function organizationWithSales(sales: number, endedHoursAgo: number) {
  const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
  const db = await getDb();
  const paid = [];
  for (let i = 0; i < sales; i++) {
    const { order, billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    paid.push({ order, billing });
  }
  const endsAt = new Date(Date.now() - endedHoursAgo * 3600_000);
  await db.update(eventDates).set({ startsAt: new Date(endsAt.getTime() - 5 * 3600_000), endsAt }).where(eq(eventDates.eventId, made.event.id));
  // The sales were paid before the show (money paid later waits its own hold from the payment).
  await db.update(ledgerEntries).set({ createdAt: new Date(endsAt.getTime() - 6 * 3600_000) }).where(eq(ledgerEntries.organizationId, made.organization.id));
  const account = await createTransferAccount(made.ctx, made.organization.id);
  // The owner acts from a sign-in that proved the second factor (money leaving asks for it).
  return { ...made, ctx: await withSecondFactor(made.ctx), db, paid, account };
}

describe("withdrawal balance", () => {
  it("money of an event is 'a liberar' until 72 hours after it ended, then available", async () => {
    const recent = await organizationWithSales(2, 10);
    const balance = await getWithdrawalBalance(recent.ctx, recent.organization.id);
    // Each sale leaves the organizer $10.000 (the buyer paid $11.000, our fee is $1.000).
    expect(balance).toMatchObject({ available: 0, total: 2_000_000 });
    expect(balance.pending).toEqual([{ releaseAt: new Date(new Date((await recent.db.select().from(eventDates).where(eq(eventDates.eventId, recent.event.id)))[0].endsAt).getTime() + RELEASE_HOURS * 3600_000), amount: 2_000_000 }]);
    await expect(requestWithdrawal(recent.ctx, { organizationId: recent.organization.id, bankAccountId: recent.account.id, amount: "100" })).rejects.toMatchObject({
      fieldErrors: { amount: ["Todavía no tenés dinero disponible para retirar."] },
    });

    const old = await organizationWithSales(2, RELEASE_HOURS + 1);
    expect(await getWithdrawalBalance(old.ctx, old.organization.id)).toMatchObject({ available: 2_000_000, total: 2_000_000, pending: [] });
  });
});

describe("release counts from the later of the event's end and the payment", () => {
  it("a sold date moved into the past does not release its money at once: it waits 72 hours from the payment", async () => {
    // Paid now for a show a week away; then the date is moved 10 days back (as an edit before the bound did).
    const made = await createEventWithTickets([{ name: "General", price: 2_000_000, stock: 100 }], { days: 7 });
    const db = await getDb();
    const { billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 10 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    const paidAt = new Date();
    await payInSandbox(db, billing.id, "approved", paidAt);
    const endsAt = new Date(Date.now() - 10 * 86_400_000);
    await db.update(eventDates).set({ startsAt: new Date(endsAt.getTime() - 5 * 3600_000), endsAt }).where(eq(eventDates.eventId, made.event.id));
    const account = await createTransferAccount(made.ctx, made.organization.id);
    const ctx = await withSecondFactor(made.ctx);

    const balance = await getWithdrawalBalance(ctx, made.organization.id);
    // $ 200.000 for the organizer, none of it available yet.
    expect(balance).toMatchObject({ available: 0, total: 20_000_000 });
    expect(balance.pending).toHaveLength(1);
    expect(balance.pending[0].amount).toBe(20_000_000);
    expect(Math.abs(balance.pending[0].releaseAt.getTime() - (paidAt.getTime() + RELEASE_HOURS * 3600_000))).toBeLessThan(5_000);
    await expect(requestWithdrawal(ctx, { organizationId: made.organization.id, bankAccountId: account.id, amount: "150.000" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { amount: ["Todavía no tenés dinero disponible para retirar."] },
    });
    expect(await db.select().from(withdrawals).where(eq(withdrawals.organizationId, made.organization.id))).toEqual([]);

    // 72 hours after the payment it is available.
    const later = { ...ctx, now: new Date(paidAt.getTime() + (RELEASE_HOURS + 1) * 3600_000) };
    expect(await getWithdrawalBalance(later, made.organization.id)).toMatchObject({ available: 20_000_000, pending: [] });
  });
});

describe("withdrawals", () => {
  it("requested → approved → paid, or rejected with the amount back once; every change emailed; the ledger adds up", async () => {
    const org = await organizationWithSales(4, RELEASE_HOURS + 5);
    const { db, ctx, organization, account, paid } = org;
    // One sale refunded and one charged back: each nets to zero for the organizer.
    await db.transaction((tx) => refundApprovedBilling(tx, paid[0].billing.id, { reason: "Arrepentimiento", now: new Date(), providerRefund: "none" }));
    await db.transaction((tx) => chargeBackApprovedBilling(tx, paid[1].billing.id, new Date()));
    expect((await getWithdrawalBalance(ctx, organization.id)).available).toBe(2_000_000);

    await expect(requestWithdrawal(ctx, { organizationId: organization.id, bankAccountId: account.id, amount: "25.000" })).rejects.toMatchObject({
      fieldErrors: { amount: [WITHDRAWAL_MESSAGES.tooMuch(2_000_000)] },
    });
    const first = await requestWithdrawal(ctx, { organizationId: organization.id, bankAccountId: account.id, amount: "12.000" });
    expect(first).toMatchObject({ status: "requested", amount: 1_200_000 });
    expect((await getWithdrawalBalance(ctx, organization.id)).available).toBe(800_000);

    const admin = await withSecondFactor(await ctxAs(actorFor(await createTestUser({ roles: ["admin"] }))));
    await expect(approveWithdrawal(ctx, first.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(markWithdrawalPaid(admin, { id: first.id, transferReference: "TRF-123" })).rejects.toMatchObject({ code: "CONFLICT" });
    await approveWithdrawal(admin, first.id);
    const paidOut = await markWithdrawalPaid(admin, { id: first.id, transferReference: "TRF-123" });
    expect(paidOut).toMatchObject({ status: "paid", transferReference: "TRF-123" });
    await expect(rejectWithdrawal(admin, { id: first.id, reason: "Demasiado tarde" })).rejects.toMatchObject({ code: "CONFLICT" });

    const second = await requestWithdrawal(ctx, { organizationId: organization.id, bankAccountId: account.id, amount: "8000" });
    expect((await getWithdrawalBalance(ctx, organization.id)).available).toBe(0);
    const results = await Promise.allSettled([rejectWithdrawal(admin, { id: second.id, reason: "CBU a nombre de otra persona" }), rejectWithdrawal(admin, { id: second.id, reason: "CBU a nombre de otra persona" })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await getWithdrawalBalance(ctx, organization.id)).available).toBe(800_000);
    const reversals = await db.select().from(ledgerEntries).where(and(eq(ledgerEntries.withdrawalId, second.id), eq(ledgerEntries.kind, "withdrawal_reversal")));
    expect(reversals).toHaveLength(1);

    // The ledger equals payments − fees − refunds − chargebacks − withdrawals (each sum from its own table).
    const [{ payments, fees }] = await db
      .select({ payments: sql<string>`sum(${orders.total})`, fees: sql<string>`sum(${orders.serviceFee})` })
      .from(orders)
      .where(eq(orders.organizationId, organization.id));
    const refunded = paid[0].order.total - paid[0].order.serviceFee;
    const chargedBack = paid[1].order.total - paid[1].order.serviceFee;
    const [{ withdrawn }] = await db.select({ withdrawn: sql<string>`coalesce(sum(${withdrawals.amount}) filter (where ${withdrawals.status} <> 'rejected'), 0)` }).from(withdrawals).where(eq(withdrawals.organizationId, organization.id));
    expect(await organizationBalance(db, organization.id)).toBe(Number(payments) - Number(fees) - refunded - chargedBack - Number(withdrawn));

    const owner = org.user.email;
    expect((await emailsTo(owner, "withdrawal")).map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Recibimos tu pedido de extracción de \$\s12\.000,00$/),
        expect.stringMatching(/^Aprobamos tu extracción/),
        expect.stringMatching(/^Te transferimos tu extracción/),
        expect.stringMatching(/^Rechazamos tu extracción de \$\s8\.000,00$/),
      ]),
    );
    const list = await listWithdrawals(ctx, { organizationId: organization.id });
    expect(list.map((w) => [w.status, w.amount, w.cbuEnd])).toEqual([
      ["rejected", 800_000, account.cbu.slice(-4)],
      ["paid", 1_200_000, account.cbu.slice(-4)],
    ]);
    expect((await listWithdrawals(admin, { statuses: ["requested", "approved"] })).some((w) => w.organizationId === organization.id)).toBe(false);
  });

  it("operators, strangers and other organizations' accounts are refused", async () => {
    const org = await organizationWithSales(1, RELEASE_HOURS + 1);
    const stranger = await organizationWithSales(1, RELEASE_HOURS + 1);
    await expect(requestWithdrawal(stranger.ctx, { organizationId: org.organization.id, bankAccountId: org.account.id, amount: "100" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(requestWithdrawal(org.ctx, { organizationId: org.organization.id, bankAccountId: stranger.account.id, amount: "100" })).rejects.toMatchObject({
      fieldErrors: { bankAccountId: [WITHDRAWAL_MESSAGES.account] },
    });
    const operator = await createTestUser();
    const { memberships } = await import("#server/db/schema");
    await org.db.insert(memberships).values({ organizationId: org.organization.id, userId: operator.id, role: "operator" });
    await expect(getWithdrawalBalance(await ctxAs(actorFor(operator)), org.organization.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // The owner without the second factor on, or on a sign-in that has not proved it: asked for it, nothing taken.
    await expect(requestWithdrawal(await ctxAs(actorFor(org.user)), { organizationId: org.organization.id, bankAccountId: org.account.id, amount: "100" })).rejects.toMatchObject({ code: "FORBIDDEN", reason: "SECOND_FACTOR_VERIFY" });
    const fresh = await createTestUser();
    await org.db.insert(memberships).values({ organizationId: org.organization.id, userId: fresh.id, role: "admin" });
    await expect(requestWithdrawal(await ctxAs(actorFor(fresh)), { organizationId: org.organization.id, bankAccountId: org.account.id, amount: "100" })).rejects.toMatchObject({ code: "FORBIDDEN", reason: "SECOND_FACTOR_ENROL" });
    expect((await getWithdrawalBalance(org.ctx, org.organization.id)).available).toBe(1_000_000);
  });
});

describe.runIf(hasPostgresServer)("withdrawals under contention", () => {
  it("ten requests at the same moment for 30 % each of the balance: exactly three go through, never more than there is", async () => {
    const org = await organizationWithSales(3, RELEASE_HOURS + 1);
    const { ctx, organization, account, db } = org;
    const available = (await getWithdrawalBalance(ctx, organization.id)).available;
    expect(available).toBe(3_000_000);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => requestWithdrawal(ctx, { organizationId: organization.id, bankAccountId: account.id, amount: 900_000 })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "BAD_USER_INPUT" });
    expect((await getWithdrawalBalance(ctx, organization.id)).available).toBe(300_000);
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(withdrawals).where(eq(withdrawals.organizationId, organization.id));
    expect(n).toBe(3);
  });
});
