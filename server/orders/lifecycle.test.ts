import type { OrderRow } from "#server/db/schema";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb, type Db } from "#server/db/client";
import { billings, jobs, ledgerEntries, orders, ticketTypes } from "#server/db/schema";
import { approveBankTransfer } from "#server/bank-transfers/bank-transfers";
import { issueDirectOrder, sendInvitation } from "#server/invitations/invitations";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { organizationBalance } from "#server/ledger/ledger";
import { applyPayment } from "#server/payment-notifications/webhook";
import { SEND_TICKETS_EMAIL_JOB, ticketsOfOrder } from "#server/tickets/issue";
import { ctxAs } from "#tests/support/context";
import { emailsTo } from "#tests/support/mailbox";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets, createTransferAccount } from "#tests/support/factories";
import { approvePayment, chargeBack, expire, refund, rejectTransfer, revokeGift, transferPaymentId, voidOrder } from "./lifecycle";
import { createOrder, expireOrder } from "./orders";

/*
 * The order lifecycle (docs/orders.md): every transition from every state,
 * what it does where it is allowed and that it changes nothing where it is
 * not; its consequences once under concurrency; and the ledger after a mix
 * of all of them.
 */

const PAYER = { firstName: "Lucía", lastName: "Ferrari", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
/** Past every card hold (15 minutes) and before any transfer hold (48 hours): the moment every transition runs at. */
const LATER = () => new Date(Date.now() + 2 * 3600_000);

type Made = Awaited<ReturnType<typeof makeEvent>>;
let made: Made;
let soldOutMade: Made;
let n = 0;

async function makeEvent(stock: number) {
  const event = await createEventWithTickets([
    { name: "General", price: 1_000_000, stock },
    { name: "Transferencia", price: 1_000_000, stock, paymentMethod: "BankAccount" },
    { name: "Libre", price: 0, stock },
  ]);
  await createTransferAccount(event.ctx, event.organization.id);
  return event;
}

beforeAll(async () => {
  made = await makeEvent(10_000);
  soldOutMade = await makeEvent(10_000);
});

async function buy(on: Made, ticket: "General" | "Transferencia" | "Libre", qty = 1) {
  n += 1;
  const { order, billing } = await createOrder(await ctxAs(ANONYMOUS), {
    eventSlug: on.event.slug,
    items: [{ ticketId: on.tickets[ticket].id, qty }],
    payer: { ...PAYER, email: `compra${n}@example.com` },
    paymentMethod: ticket === "Transferencia" ? "BANK_TRANSFER" : "MERCADO_PAGO",
  });
  return { orderId: order.id, billingId: billing.id, amount: billing.amount };
}

type Reached = Awaited<ReturnType<typeof buy>>;
const tx = async <T>(work: (tx: Db) => Promise<T>) => (await getDb()).transaction((t) => work(t as unknown as Db));
const payProvider = (r: Reached, now = new Date()) => tx((t) => approvePayment(t, { billingId: r.billingId, source: "provider", paymentId: `mp-${crypto.randomUUID()}`, amount: r.amount }, now));

/** How to reach each state the table starts from (orphan never outlives the transaction that made it: see docs/orders.md). */
const STATES = {
  "draft/pending (transfer, hold on)": () => buy(made, "Transferencia"),
  "draft/pending (card, hold over)": () => buy(made, "General"),
  "expired/cancelled": async () => {
    const r = await buy(made, "General");
    await tx((t) => expire(t, r.orderId, LATER()));
    return r;
  },
  "expired/cancelled (sold out since)": async () => {
    const db = await getDb();
    const general = eq(ticketTypes.id, soldOutMade.tickets.General.id);
    await db.update(ticketTypes).set({ stock: sql`${ticketTypes.sold} + 1` }).where(general);
    const r = await buy(soldOutMade, "General");
    await tx((t) => expire(t, r.orderId, LATER()));
    // What the expiry gave back is sold meanwhile.
    await db.update(ticketTypes).set({ stock: sql`${ticketTypes.sold}` }).where(general);
    return r;
  },
  "closed/cancelled (transfer rejected)": async () => {
    const r = await buy(made, "Transferencia");
    await tx((t) => rejectTransfer(t, { orderId: r.orderId, billingId: r.billingId, reason: null }, new Date()));
    return r;
  },
  "billed/approved (card)": async () => {
    const r = await buy(made, "General");
    await payProvider(r);
    return r;
  },
  "billed/refunded": async () => {
    const r = await buy(made, "General");
    await payProvider(r);
    await tx((t) => refund(t, r.billingId, { reason: "prueba", now: new Date(), providerRefund: "none" }));
    return r;
  },
  "billed/charged_back": async () => {
    const r = await buy(made, "General");
    await payProvider(r);
    await tx((t) => chargeBack(t, r.billingId, new Date()));
    return r;
  },
  "billed/approved (free sale)": () => buy(made, "Libre"),
  "billed/approved (gift)": async () => giftOrder(),
  "closed/cancelled (gift revoked)": async () => {
    const r = await giftOrder();
    await tx((t) => revokeGift(t, { id: r.orderId }, new Date()));
    return r;
  },
  "billed/approved (promoter cash)": async () => {
    const db = await getDb();
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, made.tickets.General.id));
    const outcome = await tx((t) =>
      issueDirectOrder(t, {
        event: made.event,
        date: made.date,
        ticket,
        qty: 1,
        guest: { email: `efectivo${++n}@example.com`, firstName: "Rocío", lastName: "Paz" },
        invitedByUserId: made.user.id,
        sale: { promoterUserId: made.user.id, referredNick: "rrpp", serviceFeeBps: 1000 },
        now: new Date(),
      }),
    );
    if (!("order" in outcome)) throw new Error("no promoter order");
    return reachedOf(outcome.order);
  },
} as const satisfies Record<string, () => Promise<Reached>>;

async function giftOrder() {
  const order = await sendInvitation(made.ctx, { eventId: made.event.id, ticketTypeId: made.tickets.General.id, email: `invitada${++n}@example.com`, firstName: "Mora", lastName: "Sosa", qty: 1 });
  return reachedOf(order);
}

async function reachedOf(order: OrderRow): Promise<Reached> {
  const [billing] = await (await getDb()).select().from(billings).where(eq(billings.orderId, order.id));
  return { orderId: order.id, billingId: billing.id, amount: billing.amount };
}

const TRANSITIONS = {
  expire: (r: Reached) => tx((t) => expire(t, r.orderId, LATER())),
  "approvePayment (provider)": (r: Reached) => payProvider(r, LATER()),
  "approvePayment (transfer)": (r: Reached) => tx((t) => approvePayment(t, { billingId: r.billingId, source: "transfer", paymentId: transferPaymentId(r.billingId), amount: r.amount }, LATER())),
  refund: (r: Reached) => tx((t) => refund(t, r.billingId, { reason: "prueba", now: LATER(), providerRefund: "none" })),
  chargeBack: (r: Reached) => tx((t) => chargeBack(t, r.billingId, LATER())),
  rejectTransfer: (r: Reached) => tx((t) => rejectTransfer(t, { orderId: r.orderId, billingId: r.billingId, reason: null }, LATER())),
  voidOrder: (r: Reached) => tx((t) => voidOrder(t, r.orderId, LATER())),
  revokeGift: (r: Reached) => tx((t) => revokeGift(t, { id: r.orderId }, LATER())),
} as const;

type State = keyof typeof STATES;
type Transition = keyof typeof TRANSITIONS;
/** "—": refused, nothing changes. Otherwise the (order, billing) pair the transition leaves. */
const NO = "—";
const ALL_REFUSED: Record<Transition, string> = { expire: NO, "approvePayment (provider)": NO, "approvePayment (transfer)": NO, refund: NO, chargeBack: NO, rejectTransfer: NO, voidOrder: NO, revokeGift: NO };

const TABLE: Record<State, Record<Transition, string>> = {
  "draft/pending (transfer, hold on)": { ...ALL_REFUSED, "approvePayment (provider)": "billed/approved", "approvePayment (transfer)": "billed/approved", rejectTransfer: "closed/cancelled" },
  "draft/pending (card, hold over)": {
    ...ALL_REFUSED,
    expire: "expired/cancelled",
    "approvePayment (provider)": "billed/approved",
    "approvePayment (transfer)": "billed/approved",
    rejectTransfer: "closed/cancelled",
  },
  // A late payment is honoured while the stock can be taken again, else received and refunded.
  "expired/cancelled": { ...ALL_REFUSED, "approvePayment (provider)": "billed/approved", "approvePayment (transfer)": "billed/approved" },
  "expired/cancelled (sold out since)": { ...ALL_REFUSED, "approvePayment (provider)": "billed/refunded", "approvePayment (transfer)": "billed/refunded" },
  "closed/cancelled (transfer rejected)": ALL_REFUSED,
  // Another payment of a paid billing is given back without changing it (duplicate-payment-refunded).
  "billed/approved (card)": { ...ALL_REFUSED, refund: "billed/refunded", chargeBack: "billed/charged_back" },
  "billed/refunded": ALL_REFUSED,
  "billed/charged_back": ALL_REFUSED,
  "billed/approved (free sale)": ALL_REFUSED,
  "billed/approved (gift)": { ...ALL_REFUSED, voidOrder: "closed/cancelled", revokeGift: "closed/cancelled" },
  "closed/cancelled (gift revoked)": ALL_REFUSED,
  "billed/approved (promoter cash)": { ...ALL_REFUSED, refund: "billed/refunded" },
};

async function pairOf(r: Reached) {
  const db = await getDb();
  const [row] = await db.select({ order: orders.status, billing: billings.status }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(billings.id, r.billingId));
  return `${row.order}/${row.billing}`;
}

async function footprint(r: Reached) {
  const db = await getDb();
  const tickets = await ticketsOfOrder(db, r.orderId);
  const entries = await db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.orderId, r.orderId));
  return { tickets: tickets.map((t) => t.status), entries: entries.length };
}

const CELLS = (Object.keys(TABLE) as State[]).flatMap((state) => (Object.keys(TRANSITIONS) as Transition[]).map((transition) => [state, transition, TABLE[state][transition]] as const));

describe("every transition from every state", () => {
  it.each(CELLS)("%s → %s: %s", async (state, transition, expected) => {
    const reached = await STATES[state]();
    const before = await pairOf(reached);
    const beforeFootprint = await footprint(reached);
    await TRANSITIONS[transition](reached);
    const after = await pairOf(reached);
    if (expected === NO) {
      expect(after).toBe(before);
      // Refused means refused: no ticket, no entry, nothing voided.
      expect(await footprint(reached)).toEqual(beforeFootprint);
    } else expect(after).toBe(expected);
    await assertLedgerMatches(await getDb(), reached.orderId);
  });
});

async function paidEffects(db: Db, orderId: string, billingId: string) {
  const [emailJobs, payments] = await Promise.all([
    db.select({ id: jobs.id }).from(jobs).where(sql`${jobs.kind} = ${SEND_TICKETS_EMAIL_JOB} and ${jobs.payload}->>'orderId' = ${orderId}`),
    db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(sql`${ledgerEntries.billingId} = ${billingId} and ${ledgerEntries.kind} = 'payment'`),
  ]);
  return { tickets: (await ticketsOfOrder(db, orderId)).length, emailJobs: emailJobs.length, payments: payments.length };
}

describe.runIf(hasPostgresServer)("onPaid under concurrency", () => {
  it("a provider webhook, transfer approvals and expiries at once: the tickets, their email and the payment happen exactly once", async () => {
    const db = await getDb();
    for (let round = 0; round < 4; round++) {
      const r = await buy(made, "Transferencia", 2);
      // Expiry runs as if the hold were over (a late approval is honoured then), on its own connections.
      const afterHold = new Date(Date.now() + 49 * 3600_000);
      const settled = await Promise.allSettled([
        applyPayment(db, { id: `mp-${round}`, status: "approved", externalReference: r.billingId, amount: r.amount }, new Date()),
        approveBankTransfer(made.ctx, { billingId: r.billingId }),
        approveBankTransfer(made.ctx, { billingId: r.billingId }),
        expireOrder(await ctxAs(ANONYMOUS, afterHold), r.orderId),
        expireOrder(await ctxAs(ANONYMOUS, afterHold), r.orderId),
      ]);
      for (const s of settled) if (s.status === "rejected") throw s.reason;
      expect(await pairOf(r)).toBe("billed/approved");
      expect(await paidEffects(db, r.orderId, r.billingId)).toEqual({ tickets: 2, emailJobs: 1, payments: 1 });
      await assertLedgerMatches(db, r.orderId);
    }
  });
});

describe("the ledger after a scripted mix of every transition", () => {
  it("every order's ledger agrees with its billings and tickets, and the balance is what the approved sales leave", async () => {
    const db = await getDb();
    const mix = await makeEvent(100);
    const later = LATER();
    const script: Reached[] = [];
    const step = async (r: Reached, work?: (r: Reached) => Promise<unknown>) => {
      if (work) await work(r);
      script.push(r);
    };
    const pay = (r: Reached) => payProvider(r);
    // Paid; paid twice (duplicate refunded); refunded; charged back; a transfer approved then refunded; a transfer rejected.
    await step(await buy(mix, "General"), pay);
    await step(await buy(mix, "General"), async (r) => {
      await pay(r);
      await pay(r);
    });
    await step(await buy(mix, "General"), async (r) => {
      await pay(r);
      await tx((t) => refund(t, r.billingId, { reason: "arrepentimiento", now: later, providerRefund: "queue" }));
    });
    await step(await buy(mix, "General"), async (r) => {
      await pay(r);
      await tx((t) => chargeBack(t, r.billingId, later));
    });
    await step(await buy(mix, "Transferencia"), async (r) => {
      await approveBankTransfer(mix.ctx, { billingId: r.billingId });
      await tx((t) => refund(t, r.billingId, { reason: "arrepentimiento", now: later, providerRefund: "none" }));
    });
    await step(await buy(mix, "Transferencia"), (r) => tx((t) => rejectTransfer(t, { orderId: r.orderId, billingId: r.billingId, reason: null }, later)));
    // Expired and never paid; expired then paid and honoured; expired, sold out, paid and refunded.
    await step(await buy(mix, "General"), (r) => tx((t) => expire(t, r.orderId, later)));
    await step(await buy(mix, "General"), async (r) => {
      await tx((t) => expire(t, r.orderId, later));
      await payProvider(r, later);
    });
    const late = await buy(mix, "General");
    await tx((t) => expire(t, late.orderId, later));
    await db.update(ticketTypes).set({ stock: sql`${ticketTypes.sold}` }).where(eq(ticketTypes.id, mix.tickets.General.id));
    await step(late, (r) => payProvider(r, later));
    // A free sale; a gift, and a revoked gift; a promoter's sale in hand.
    await step(await buy(mix, "Libre"));
    const gift = await sendInvitation(mix.ctx, { eventId: mix.event.id, ticketTypeId: mix.tickets.Libre.id, email: "regalo@example.com", firstName: "Ema", lastName: "Paz", qty: 1 });
    await step(await reachedOf(gift));
    const revoked = await sendInvitation(mix.ctx, { eventId: mix.event.id, ticketTypeId: mix.tickets.Libre.id, email: "revocada@example.com", firstName: "Ian", lastName: "Paz", qty: 1 });
    await step(await reachedOf(revoked), (r) => tx((t) => revokeGift(t, { id: r.orderId }, later)));
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, mix.tickets.Transferencia.id));
    const cash = await tx((t) =>
      issueDirectOrder(t, {
        event: mix.event,
        date: mix.date,
        ticket,
        qty: 1,
        guest: { email: "efectivo@example.com", firstName: "Juan", lastName: "Paz" },
        invitedByUserId: mix.user.id,
        sale: { promoterUserId: mix.user.id, referredNick: "rrpp", serviceFeeBps: 1000 },
        now: later,
      }),
    );
    if (!("order" in cash)) throw new Error("no promoter order");
    await step(await reachedOf(cash.order));

    for (const r of script) await assertLedgerMatches(db, r.orderId);
    // What the organizer keeps: an approved card sale, its total less our fee; a collected-in-hand one owes us the fee; the rest nets zero.
    const rows = await db.select({ order: orders, billing: billings }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(orders.organizationId, mix.organization.id));
    const expected = rows.reduce((sum, { order, billing }) => {
      if (billing.status !== "approved" || order.gift) return sum;
      if (billing.provider === "bank_transfer" || billing.provider === "promoter") return sum - order.serviceFee;
      return sum + billing.amount - order.serviceFee;
    }, 0);
    expect(await organizationBalance(db, mix.organization.id)).toBe(expected);
    const display = Object.fromEntries(await Promise.all(script.map(async (r, i) => [i, await pairOf(r)])));
    expect(Object.values(display)).toEqual([
      "billed/approved",
      "billed/approved",
      "billed/refunded",
      "billed/charged_back",
      "billed/refunded",
      "closed/cancelled",
      "expired/cancelled",
      "billed/approved",
      "billed/refunded",
      "billed/approved",
      "billed/approved",
      "closed/cancelled",
      "billed/approved",
    ]);
  });
});

describe("the buyer's emails that follow a transition (effects.ts)", () => {
  const buyerEmails = async (r: Reached) => {
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.id, r.orderId));
    return (await emailsTo(order.payer.email)).map((m) => m.kind).sort();
  };

  it("each transition writes its email once; a transition that never applies writes none", async () => {
    const rejected = await buy(made, "Transferencia");
    const reject = () => tx((t) => rejectTransfer(t, { orderId: rejected.orderId, billingId: rejected.billingId, reason: "No llegó" }, LATER()));
    expect(await reject()).not.toBeNull();
    expect(await reject()).toBeNull();
    expect(await buyerEmails(rejected)).toEqual(["bank-transfer-rejected"]);

    const refunded = await buy(made, "General");
    await payProvider(refunded);
    const billingOf = async (r: Reached) => (await (await getDb()).select().from(billings).where(eq(billings.id, r.billingId)))[0];
    const undo = () => tx((t) => refund(t, refunded.billingId, { reason: "prueba", now: LATER(), providerRefund: "none" }));
    expect(await undo()).not.toBeNull();
    expect(await undo()).toBeNull();
    expect((await buyerEmails(refunded)).filter((k) => k !== "tickets")).toEqual(["payment-refunded"]);
    expect((await billingOf(refunded)).status).toBe("refunded");

    const chargedBack = await buy(made, "General");
    await payProvider(chargedBack);
    expect(await tx((t) => chargeBack(t, chargedBack.billingId, LATER()))).not.toBeNull();
    expect(await tx((t) => chargeBack(t, chargedBack.billingId, LATER()))).toBeNull();
    expect((await buyerEmails(chargedBack)).filter((k) => k !== "tickets")).toEqual(["payment-charged-back"]);
  });

  it("a transition rolled back leaves no email behind", async () => {
    const r = await buy(made, "Transferencia");
    await expect(
      tx(async (t) => {
        await rejectTransfer(t, { orderId: r.orderId, billingId: r.billingId, reason: null }, LATER());
        throw new Error("después de la transición");
      }),
    ).rejects.toThrow("después de la transición");
    expect(await buyerEmails(r)).toEqual([]);
    const [order] = await (await getDb()).select().from(orders).where(eq(orders.id, r.orderId));
    expect(order.status).toBe("draft");
  });
});
