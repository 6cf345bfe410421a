import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { billings, jobs, orders, ticketTypes } from "#server/db/schema";
import { ANONYMOUS, type Ctx } from "#server/context";
import { setEventStatus } from "#server/events/events";
import { jobHandlers } from "#server/worker/handlers";
import { runDueJobs } from "#server/jobs/queue";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets, createTransferAccount } from "#tests/support/factories";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { ticketsOfOrder } from "#server/tickets/issue";
import { billingAccessToken } from "#server/auth/billing-access";
import { createOrder, EXPIRE_ORDER_JOB, expireOrder, getBillingForBuyer, getOrderForBuyer } from "./orders";

const PAYER = {
  firstName: "Sofía",
  lastName: "Peña",
  email: "Sofia@Example.com",
  documentType: "dni",
  documentNumber: "30.123.456",
  phoneNumber: "+54 11 5555-1234",
};

const setup = createEventWithTickets;

async function soldOf(id: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold, stock: ticketTypes.stock }).from(ticketTypes).where(eq(ticketTypes.id, id));
  return row;
}

function at(ctx: Ctx, now: Date): Ctx {
  return { ...ctx, now };
}

describe("createOrder", () => {
  it("holds the stock and writes the order, items, fee, totals, pending billing and expiry job", async () => {
    const { event, date, tickets } = await setup([
      { name: "General", price: 1_500_000, stock: 100 },
      { name: "VIP", price: 3_333_333, stock: 10 },
    ]);
    const buyer = await createTestUser();
    const ctx = await ctxAs(actorFor({ ...buyer, roles: [] }));
    const { order, billing } = await createOrder(ctx, {
      eventSlug: event.slug,
      items: [
        { ticketId: tickets.General.id, qty: 2 },
        { ticketId: tickets.VIP.id, qty: 1 },
      ],
      payer: PAYER,
      paymentMethod: "MERCADO_PAGO",
      referredNick: "juanrrpp",
    });
    const subtotal = 2 * 1_500_000 + 3_333_333;
    expect(order).toMatchObject({
      status: "draft",
      eventId: event.id,
      eventDateId: date.id,
      buyerUserId: buyer.id,
      paymentMethod: "MERCADO_PAGO",
      referredNick: null, // no user has that nick: dropped (server/orders/checkout.test.ts)
      subtotal,
      serviceFee: Math.round((subtotal * 1000) / 10_000),
      discount: 0,
      total: subtotal + Math.round((subtotal * 1000) / 10_000),
    });
    expect(order.code).toMatch(/^TRB-[2-9A-HJKMNP-Z]{6}$/);
    expect(order.payer).toEqual({ ...PAYER, email: "sofia@example.com", documentNumber: "30123456" });
    expect(order.items.map((i) => [i.name, i.qty, i.unitPrice])).toEqual([
      ["General", 2, 1_500_000],
      ["VIP", 1, 3_333_333],
    ]);
    expect(order.holdExpiresAt!.getTime() - ctx.now.getTime()).toBe(15 * 60_000);
    expect(billing).toMatchObject({ orderId: order.id, status: "pending", amount: order.total, provider: "sandbox" });
    expect(await soldOf(tickets.General.id)).toEqual({ sold: 2, stock: 100 });
    expect(await soldOf(tickets.VIP.id)).toEqual({ sold: 1, stock: 10 });

    const db = await getDb();
    const queued = await db.select().from(jobs).where(sql`${jobs.payload}->>'orderId' = ${order.id}`);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: EXPIRE_ORDER_JOB, runAt: order.holdExpiresAt });

    const view = await getBillingForBuyer(ctx, billing.id);
    expect(view.displayStatus).toBe("pending");
    expect(view.order.items).toHaveLength(2);
  });

  it("holds bank-transfer orders for 48 hours, only for organizations with an account to receive them", async () => {
    const { event, tickets, ctx: producerCtx, organization } = await setup([{ name: "Transferencia", price: 800_000, stock: 5, paymentMethod: "BankAccount" }]);
    const ctx = await ctxAs();
    const transferOrder = { eventSlug: event.slug, items: [{ ticketId: tickets.Transferencia.id, qty: 1 }], payer: PAYER, paymentMethod: "BANK_TRANSFER" };
    await expect(createOrder(ctx, transferOrder)).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { paymentMethod: ["Este organizador todavía no cargó una cuenta para recibir transferencias. Elegí otra entrada o probá más tarde."] },
    });
    expect(await soldOf(tickets.Transferencia.id)).toMatchObject({ sold: 0 });
    await createTransferAccount(producerCtx, organization.id);
    const { order, billing } = await createOrder(ctx, {
      eventSlug: event.slug,
      items: [{ ticketId: tickets.Transferencia.id, qty: 1 }],
      payer: PAYER,
      paymentMethod: "BANK_TRANSFER",
    });
    expect(order.buyerUserId).toBeNull();
    expect(order.holdExpiresAt!.getTime() - ctx.now.getTime()).toBe(48 * 3600_000);
    expect(billing.provider).toBe("bank_transfer");
  });

  it("bills a free order at once, with no hold", async () => {
    const db = await getDb();
    const { event, tickets } = await setup([{ name: "Gratis", price: 0, stock: 5 }]);
    const { order, billing } = await createOrder(await ctxAs(), {
      eventSlug: event.slug,
      items: [{ ticketId: tickets.Gratis.id, qty: 2 }],
      payer: PAYER,
      paymentMethod: "MERCADO_PAGO",
    });
    expect(order).toMatchObject({ status: "billed", paymentMethod: "FREE", total: 0, holdExpiresAt: null });
    expect(billing).toMatchObject({ status: "approved", provider: "free", amount: 0 });
    expect(await soldOf(tickets.Gratis.id)).toMatchObject({ sold: 2 });
    // Issued at once, with the ledger agreeing (a zero payment).
    expect(await ticketsOfOrder(db, order.id)).toHaveLength(2);
    await assertLedgerMatches(db, order.id);
  });

  it("refuses with Spanish messages and holds nothing", async () => {
    const { ctx: producerCtx, event, tickets } = await setup([
      { name: "General", price: 1_000_000, stock: 3, maxPerOrder: 4 },
      { name: "Secreta", price: 1_000_000, stock: 10, hidden: true, accessCode: "AMIGOS" },
      { name: "Transferencia", price: 1_000_000, stock: 10, paymentMethod: "BankAccount" },
    ]);
    const ctx = await ctxAs();
    const base = { eventSlug: event.slug, payer: PAYER, paymentMethod: "MERCADO_PAGO" };

    await expect(createOrder(ctx, { ...base, items: [{ ticketId: tickets.General.id, qty: 4 }] })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "No quedan suficientes entradas de «General». Elegí menos o probá otra.",
    });
    await expect(createOrder(ctx, { ...base, items: [{ ticketId: tickets.General.id, qty: 5 }] })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "Máximo 4 entradas «General» por compra",
    });
    await expect(createOrder(ctx, { ...base, items: [{ ticketId: tickets.Secreta.id, qty: 1 }] })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "Una de las entradas que elegiste ya no está a la venta. Revisá tu elección.",
    });
    await expect(
      createOrder(ctx, { ...base, items: [{ ticketId: tickets.General.id, qty: 1 }, { ticketId: tickets.Transferencia.id, qty: 1 }] }),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { paymentMethod: [expect.stringContaining("No podés combinar")] } });
    await expect(createOrder(ctx, { ...base, items: [{ ticketId: tickets.Transferencia.id, qty: 1 }] })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "«Transferencia» se paga con transferencia bancaria.",
    });
    await expect(
      createOrder(ctx, { ...base, payer: { ...PAYER, documentNumber: "12" }, items: [{ ticketId: tickets.General.id, qty: 1 }] }),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { "payer.documentNumber": ["Ingresá un número de documento válido"] } });

    // The access code (any case) reveals the hidden ticket.
    await expect(createOrder(ctx, { ...base, accessCode: "amigos", items: [{ ticketId: tickets.Secreta.id, qty: 1 }] })).resolves.toBeTruthy();

    await setEventStatus(producerCtx, { id: event.id, status: "paused" });
    await expect(createOrder(ctx, { ...base, items: [{ ticketId: tickets.General.id, qty: 1 }] })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "La venta está pausada",
    });

    expect(await soldOf(tickets.General.id)).toMatchObject({ sold: 0 });
    expect(await soldOf(tickets.Transferencia.id)).toMatchObject({ sold: 0 });
    const db = await getDb();
    const made = await db.select().from(orders).where(eq(orders.eventId, event.id));
    expect(made).toHaveLength(1);
  });

  it("holds with the conditional UPDATE: stock sold between the check and the transaction is refused, nothing written", async () => {
    const { event, tickets } = await setup([{ name: "General", price: 1_000_000, stock: 5 }]);
    const ctx = await ctxAs();
    const db = ctx.db;
    // Another buyer takes the last tickets right after createOrder read them as available.
    const racing = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== "transaction") return Reflect.get(target, prop, receiver);
        return async (fn: Parameters<typeof db.transaction>[0]) => {
          await target.update(ticketTypes).set({ sold: 5 }).where(eq(ticketTypes.id, tickets.General.id));
          return target.transaction(fn);
        };
      },
    });
    await expect(
      createOrder({ ...ctx, db: racing }, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: "No quedan suficientes entradas de «General». Elegí menos o probá otra." });
    expect(await soldOf(tickets.General.id)).toEqual({ sold: 5, stock: 5 });
    expect(await db.select().from(orders).where(eq(orders.eventId, event.id))).toHaveLength(0);
  });

  it("lets the organization's members read an order; other people get not found", async () => {
    const { ctx: producerCtx, event, tickets } = await setup();
    const buyer = await createTestUser();
    const buyerCtx = await ctxAs(actorFor({ ...buyer, roles: [] }));
    const { order, billing } = await createOrder(buyerCtx, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await expect(getOrderForBuyer(producerCtx, order.id)).resolves.toMatchObject({ displayStatus: "pending" });
    const stranger = await createTestUser();
    await expect(getBillingForBuyer(await ctxAs(actorFor({ ...stranger, roles: [] })), billing.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getBillingForBuyer(await ctxAs(), billing.id)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("lets a buyer without an account read the purchase with the checkout's token, and only that one", async () => {
    const { event, tickets } = await setup();
    const anonymous = await ctxAs();
    const first = await createOrder(anonymous, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    const second = await createOrder(anonymous, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await expect(getBillingForBuyer(anonymous, first.billing.id, { token: billingAccessToken(first.billing.id) })).resolves.toMatchObject({
      displayStatus: "pending",
      order: { code: first.order.code },
    });
    await expect(getBillingForBuyer(anonymous, second.billing.id, { token: billingAccessToken(first.billing.id) })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(getBillingForBuyer(anonymous, first.billing.id, { token: "x".repeat(32) })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe("expireOrder", () => {
  it("returns the stock exactly once, even when called concurrently", async () => {
    const { event, tickets } = await setup([{ name: "General", price: 1_000_000, stock: 10 }]);
    const ctx = await ctxAs();
    const { order, billing } = await createOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 3 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    expect(await soldOf(tickets.General.id)).toMatchObject({ sold: 3 });

    // Before the hold ends nothing happens.
    expect(await expireOrder(ctx, order.id)).toBe("not-due");
    expect(await soldOf(tickets.General.id)).toMatchObject({ sold: 3 });

    const later = at(ctx, new Date(order.holdExpiresAt!.getTime() + 1000));
    const results = await Promise.all(Array.from({ length: 5 }, () => expireOrder(later, order.id)));
    expect(results.filter((r) => r === "expired")).toHaveLength(1);
    expect(await soldOf(tickets.General.id)).toMatchObject({ sold: 0 });
    expect(await expireOrder(later, order.id)).toBe("skipped");
    expect(await soldOf(tickets.General.id)).toMatchObject({ sold: 0 });

    const buyerView = await getDb().then((db) => db.select().from(billings).where(eq(billings.id, billing.id)));
    expect(buyerView[0].status).toBe("cancelled");
    const [row] = await (await getDb()).select().from(orders).where(eq(orders.id, order.id));
    expect(row.status).toBe("expired");
  });

  it("runs through the job queue once", async () => {
    const { event, tickets } = await setup([{ name: "General", price: 1_000_000, stock: 10 }]);
    const ctx = await ctxAs();
    const db = await getDb();
    // Earlier tests in this file left due jobs (the free order's tickets email): run them first.
    await runDueJobs(db, jobHandlers, ctx.now, 1000);
    const { order } = await createOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });

    // Not due yet: nothing runs.
    const early = await runDueJobs(db, jobHandlers, ctx.now, 100);
    expect(early.claimed).toBe(0);

    const later = new Date(order.holdExpiresAt!.getTime() + 1000);
    const [a, b] = await Promise.all([runDueJobs(db, jobHandlers, later, 100), runDueJobs(db, jobHandlers, later, 100)]);
    expect(a.done + b.done).toBeGreaterThanOrEqual(1);
    expect(a.failed + b.failed).toBe(0);
    expect(await soldOf(tickets.General.id)).toMatchObject({ sold: 0 });
    const [job] = await db.select().from(jobs).where(sql`${jobs.payload}->>'orderId' = ${order.id}`);
    expect(job.attempts).toBe(1);
    expect(job.doneAt).not.toBeNull();
    expect((await runDueJobs(db, jobHandlers, new Date(later.getTime() + 3600_000), 100)).claimed).toBe(0);
    expect(await soldOf(tickets.General.id)).toMatchObject({ sold: 0 });
    const view = await getOrderForBuyer({ ...(await ctxAs()), actor: ANONYMOUS }, order.id).catch((e) => e);
    expect(view).toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe.runIf(hasPostgresServer)("createOrder under load", () => {
  it("200 buyers for the last 20 tickets: exactly 20 held, 180 refused", async () => {
    const { event, tickets } = await setup([{ name: "General", price: 1_000_000, stock: 100 }]);
    const db = await getDb();
    await db.update(ticketTypes).set({ sold: 80 }).where(eq(ticketTypes.id, tickets.General.id));
    const ctx = await ctxAs();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () =>
        createOrder(ctx, { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(180);
    for (const r of refused) {
      expect(r.reason).toMatchObject({ code: "CONFLICT", message: "No quedan suficientes entradas de «General». Elegí menos o probá otra." });
    }
    expect(await soldOf(tickets.General.id)).toEqual({ sold: 100, stock: 100 });
    const drafts = await db.select().from(orders).where(eq(orders.eventId, event.id));
    expect(drafts.filter((o) => o.status === "draft").length).toBeLessThanOrEqual(20);
    expect(drafts).toHaveLength(20);
  }, 120_000);
});
