import type { BillingRow, OrderItemRow, OrderRow } from "#server/db/schema";
import crypto from "node:crypto";
import { asc, eq, inArray } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { z } from "zod";
import { attendeeSchema, payerSchema } from "#common/validation";
import { CHECKOUT_MESSAGES, customFieldAnswer, customFieldError } from "#common/checkout";
import type { Ctx } from "#server/context";
import type { Db, DbOrTx } from "#server/db/client";
import { insertRows } from "#server/db/bulk-insert";
import { paymentsMode } from "#server/env";
import {
  billings,
  jobs,
  orderItems,
  orders,
  type Attendee,
  type BillingProvider,
  type CustomFieldAnswer,
  type EventCustomFieldRow,
} from "#server/db/schema";
import { Conflict, DomainError, Forbidden, Invalid, NotFound, Unauthenticated } from "#server/errors";
import { holdStock, holdStockBatch } from "#server/stock/stock";
import { createBatcher, type Settled } from "./hold-batch";
import { enqueue, enqueueMany } from "#server/jobs/queue";
import { recordCouponUse, takeCouponUse } from "#server/coupons/coupons";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { eventIdOfSlug, ORDER_MESSAGES, previewOrderSchema, previewParsed, uuid, type OrderPreview } from "./preview";
import { isBillingAccessToken } from "#server/auth/billing-access";
import { displayStatus } from "./status";
import { isDeadlock, isUniqueViolation } from "#server/db/errors";
import { serviceFeeOf } from "#common/pricing";
import { expire, onPaid, placedStatuses } from "./lifecycle";
import { accountRequired, assertWithinAccountLimit } from "#server/tickets/account-limit";
import { claimOrderSeats, seatedOrder, seatRequestSchema, SeatTaken, type SeatedOrder } from "#server/seating/claims";
import { SEATING_MESSAGES } from "#common/seating";

export const EXPIRE_ORDER_JOB = "expire-order";
export { ORDER_MESSAGES };

/** Custom field answers keyed by field id; GraphQL's list of { fieldId, value } becomes the same record. */
export const customFieldAnswersSchema = z.preprocess(
  (v) => (Array.isArray(v) ? Object.fromEntries(v.map((a: { fieldId?: unknown; value?: unknown }) => [String(a?.fieldId ?? ""), a?.value ?? ""])) : v),
  z.record(z.string(), z.string().max(500, CHECKOUT_MESSAGES.tooLong).nullish()),
);

/** A selection (previewOrderSchema, server/orders/preview.ts) plus what only the order's write needs. */
export const createOrderSchema = previewOrderSchema.extend({
  payer: payerSchema,
  /** Optional for the checkout page: without it the order is paid the way its tickets are (GraphQL always sends one). */
  paymentMethod: z.enum(["MERCADO_PAGO", "BANK_TRANSFER"], { error: "Elegí cómo pagar" }).nullish().transform((v) => v ?? undefined),
  /** One per ticket unit; required when the event asks for one holder per ticket. */
  attendees: z.array(attendeeSchema).max(1000).nullish(),
  customFields: customFieldAnswersSchema.nullish(),
  /** Reserved seating (docs/seating.md): the seats' guids, or a best-available request; they become the items. */
  ...seatRequestSchema.shape,
});

const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/** "TRB-7KQ2M9": six characters with no 0/O, 1/I/L to misread. */
export function newOrderCode(): string {
  let code = "";
  for (let i = 0; i < 6; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return `TRB-${code}`;
}

/** The fee formula lives in common/pricing.ts (the event page's live total uses it too). */
export { serviceFeeOf };

function invalid(fieldErrors: Record<string, string[]>): never {
  const first = Object.values(fieldErrors)[0]?.[0];
  throw new Invalid(fieldErrors, first);
}

/**
 * `createOrder` (docs/orders.md, "place"): validates the payer, prices and checks the
 * chosen tickets with `previewOrder` (./preview.ts: the same pre-checks and
 * totals the event page, the payer form and GraphQL show), checks the
 * custom fields and the holders, then in ONE transaction holds the stock with a
 * conditional UPDATE per ticket type (never read-then-write), and writes the
 * order (draft, price snapshots, fee, totals), its pending billing and the
 * job that expires the hold. Out of stock is a Conflict naming the ticket.
 * A free order (total 0) is billed at once with an approved "free" billing.
 */
export async function createOrder(ctx: Ctx, rawInput: DomainInput<typeof createOrderSchema>): Promise<{ order: OrderRow & { items: OrderItemRow[] }; billing: BillingRow }> {
  // Reserved seating (docs/seating.md): the seats asked for, or the best available, are what the order buys.
  const seated = await seatedOrder(ctx.db, await eventIdOfSlug(ctx, rawInput.eventSlug), { seats: rawInput.seats, bestAvailable: rawInput.bestAvailable });
  const input = parseInput(createOrderSchema, seated?.asked ? { ...rawInput, items: seated.items } : rawInput);
  // Priced and checked once, as the event page, the payer form and GraphQL previewOrder see it.
  const preview = await previewParsed(ctx, input);
  const { event, lines: priced, subtotal, discount, coupon, serviceFee, total, free, paymentMethod, referrer, onlyMenu } = preview;
  const eventDateId = preview.date.id;
  if (seated && !seated.asked && priced.some((l) => seated.seatedTypes.has(l.ticketTypeId))) invalid({ seats: [SEATING_MESSAGES.chooseSeats] });
  // The event's questions and one holder per ticket are about who gets in, not who orders a drink.
  const customFields = onlyMenu ? null : checkCustomFields(preview.customFields, input.customFields ?? {});
  const wanted = new Map(priced.map((l) => [l.ticketTypeId, l.qty]));
  const attendees = holdersOf(event.oneHolderPerTicket && !onlyMenu, wanted, input.attendees);
  const referredNick = referrer?.nick ?? null;

  const holdMinutes = preview.hold?.minutes ?? 0;
  const buyerUserId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  // Per-account limit (decision 203): checked now for a quick answer, and again under its lock where the order is written.
  const limit = onlyMenu ? null : event.maxTicketsPerAccount;
  const units = priced.reduce((sum, l) => sum + l.qty, 0);
  const accountLimit =
    limit == null
      ? null
      : (tx: DbOrTx) => {
          if (!buyerUserId) throw accountRequired(limit);
          return assertWithinAccountLimit(tx, { eventId: event.id, accountId: buyerUserId, adding: units, limit, now: ctx.now });
        };
  if (accountLimit) await accountLimit(ctx.db);

  // The order's items: price snapshots of what was previewed (the hold below checks the price it takes is this one).
  const lines = priced.map(({ ticketTypeId, qty, name, unitPrice }) => ({ ticketTypeId, qty, name, unitPrice }));
  const provider: BillingProvider = free ? "free" : paymentMethod === "BANK_TRANSFER" ? "bank_transfer" : paymentsMode() === "sandbox" ? "sandbox" : "mercadopago";

  const holdExpiresAt = free ? null : new Date(ctx.now.getTime() + holdMinutes * 60_000);
  const placed = placedStatuses(free ? "free" : "sale");
  const draft: OrderDraft = {
    order: {
      eventId: event.id,
      eventDateId: eventDateId!,
      organizationId: event.organizationId,
      buyerUserId,
      payer: input.payer,
      attendees,
      customFields,
      status: placed.order,
      paymentMethod,
      referredNick,
      promoterUserId: referrer?.userId ?? null,
      subtotal,
      serviceFee,
      discount,
      total,
      holdExpiresAt,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    },
    lines,
    billing: { status: placed.billing, provider, amount: total, createdAt: ctx.now, updatedAt: ctx.now },
    now: ctx.now,
  };
  if (seated?.asked) return placeSeated(ctx.db, draft, seated, coupon, accountLimit);
  // A plain paid order (the rush of an on-sale) joins the tick's batch; a coupon's use or a free order's tickets are written alone.
  // An event with a per-account limit writes each order alone: the limit's lock is per account, not per batch.
  if (!coupon && !free && !accountLimit) return placeInBatch(ctx.db, event.id, draft);
  return writeOrderAlone(ctx.db, draft, coupon, accountLimit);
}

/** What createOrder writes for one order, decided before any lock is taken. */
interface OrderDraft {
  order: Omit<typeof orders.$inferInsert, "id" | "code">;
  lines: { ticketTypeId: string; qty: number; name: string; unitPrice: number }[];
  billing: Omit<typeof billings.$inferInsert, "orderId">;
  now: Date;
  /** Reserved seating: which seats to claim, picked in the order's transaction (docs/seating.md). */
  seated?: SeatedOrder;
}

type PlacedOrder = { order: OrderRow & { items: OrderItemRow[] }; billing: BillingRow };

const nameOfLine = (draft: OrderDraft, ticketTypeId: string) => draft.lines.find((l) => l.ticketTypeId === ticketTypeId)?.name ?? "";

/** One order in its own transaction: the new rows first, the hot rows (ticket types, then the coupon) last. */
async function writeOrderAlone(db: Db, draft: OrderDraft, coupon: OrderPreview["coupon"], accountLimit?: ((tx: DbOrTx) => Promise<unknown>) | null): Promise<PlacedOrder> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        // Counted under the account's lock, so two orders of one account at once cannot both fit (decision 203).
        if (accountLimit) await accountLimit(tx);
        // The new rows first: they lock nothing another buyer waits for. The hot rows (ticket types, then the
        // coupon) are taken last, so their locks last only until the commit (docs/locking.md).
        const [order] = await tx
          .insert(orders)
          .values({ code: newOrderCode(), ...draft.order })
          .returning();
        // Reserved seating (docs/seating.md): the seats, before the ticket types' rows are locked; a taken one refuses the order.
        if (draft.seated) await claimOrderSeats(tx, { orderId: order.id, eventDateId: order.eventDateId, seats: await draft.seated.pick(tx, order.eventDateId), holdExpiresAt: order.holdExpiresAt, now: draft.now });
        if (coupon) await recordCouponUse(tx, { orderId: order.id, couponId: coupon.coupon.id, discount: draft.order.discount ?? 0, now: draft.now });
        // Keep the buyer's order of lines.
        const items = await tx
          .insert(orderItems)
          .values(draft.lines.map((l) => ({ orderId: order.id, ...l })))
          .returning();
        const [billing] = await tx
          .insert(billings)
          .values({ orderId: order.id, ...draft.billing })
          .returning();
        if (order.holdExpiresAt) await enqueue(tx, EXPIRE_ORDER_JOB, { orderId: order.id }, order.holdExpiresAt);

        // The stock (server/stock: conditional UPDATEs in id order, all or nothing), at the price the order says.
        const hold = await holdStock(tx, draft.lines, draft.now, { onlyActive: true });
        if ("short" in hold) throw new Conflict(ORDER_MESSAGES.notEnough(nameOfLine(draft, hold.short)));
        const changed = hold.held.find((h) => h.unitPrice !== draft.lines.find((l) => l.ticketTypeId === h.ticketTypeId)!.unitPrice);
        if (changed) throw new Conflict(ORDER_MESSAGES.priceChanged(changed.name));
        if (coupon) await takeCouponUse(tx, coupon.coupon);

        // Nothing to pay (free tickets, a 100 % coupon): placed paid, so what follows a payment happens now, in this transaction.
        if (order.status === "billed") await onPaid(tx, order, billing, draft.now);
        return { order: { ...order, items }, billing };
      });
    } catch (error) {
      if (attempt < 3 && !(error instanceof DomainError) && isUniqueViolation(error, "orders_code_key")) continue;
      // Chosen to break a deadlock (a seat claimed by a waiting-list claim that already holds the ticket type's row,
      // decision 236): rolled back whole, so run again; nested in another transaction only that one can.
      if (attempt < 3 && isDeadlock(error) && !(db instanceof PgTransaction)) continue;
      throw error;
    }
  }
}

/**
 * Many buyers' orders in ONE transaction (server/orders/hold-batch.ts): all
 * their rows written with one INSERT per table, then the ticket types locked
 * once and shared out in arrival order (server/stock `holdStockBatch`); the
 * orders that got nothing are deleted before the commit and their buyers get
 * their own CONFLICT. If the batch itself fails (an order code drawn twice, a
 * fault), each order is retried alone, so one buyer's problem is nobody
 * else's.
 */
async function writeOrderBatch(db: Db, drafts: OrderDraft[]): Promise<Settled<PlacedOrder>[]> {
  try {
    return await db.transaction(async (tx) => {
      const ids = drafts.map(() => crypto.randomUUID());
      // One parameter per table whatever the batch's size (server/db/bulk-insert.ts: drizzle's multi-row builder costs more than the rest).
      const orderRows = await insertRows(tx, orders, drafts.map((d, i) => ({ id: ids[i], code: newOrderCode(), ...d.order })));
      // The orders first (the rows below point at them); the rest goes out at once and comes back in one round
      // trip, as postgres.js pipelines a transaction's queries: in a rush each round trip waits for the event loop
      // too, and the next batch waits for this one's commit (decision 141).
      const [itemRows, billingRows, jobIds, answers] = await Promise.all([
        insertRows(tx, orderItems, drafts.flatMap((d, i) => d.lines.map((l) => ({ orderId: ids[i], ...l })))),
        insertRows(tx, billings, drafts.map((d, i) => ({ orderId: ids[i], ...d.billing }))),
        enqueueMany(
          tx,
          EXPIRE_ORDER_JOB,
          drafts.map((d, i) => ({ payload: { orderId: ids[i] }, runAt: d.order.holdExpiresAt! })),
        ),
        holdStockBatch(
          tx,
          drafts.map((d) => ({ lines: d.lines, quotedPrice: (id: string) => d.lines.find((l) => l.ticketTypeId === id)?.unitPrice })),
          drafts.at(-1)!.now,
        ),
      ]);
      const refused = answers.flatMap((a, i) => ("held" in a ? [] : [i]));
      if (refused.length) {
        await tx.delete(jobs).where(inArray(jobs.id, refused.map((i) => jobIds[i])));
        // Items and billing go with the order (ON DELETE CASCADE).
        await tx.delete(orders).where(inArray(orders.id, refused.map((i) => ids[i])));
      }
      const itemsOf = new Map<string, typeof itemRows>();
      for (const item of itemRows) {
        const lines = itemsOf.get(item.orderId);
        if (lines) lines.push(item);
        else itemsOf.set(item.orderId, [item]);
      }
      return answers.map((answer, i): Settled<PlacedOrder> => {
        if ("short" in answer) return { error: new Conflict(ORDER_MESSAGES.notEnough(nameOfLine(drafts[i], answer.short))) };
        if ("priceChanged" in answer) return { error: new Conflict(ORDER_MESSAGES.priceChanged(nameOfLine(drafts[i], answer.priceChanged))) };
        // insertRows returns the rows in the order given: the i-th order and billing are this buyer's.
        return { ok: { order: { ...orderRows[i], items: itemsOf.get(ids[i]) ?? [] }, billing: billingRows[i] } };
      });
    });
  } catch (error) {
    if (drafts.length === 1 && !isUniqueViolation(error, "orders_code_key")) return [{ error }];
    const alone: Settled<PlacedOrder>[] = [];
    for (const draft of drafts) {
      try {
        alone.push({ ok: await writeOrderAlone(db, draft, null) });
      } catch (e) {
        alone.push({ error: e });
      }
    }
    return alone;
  }
}

const placeInBatch = createBatcher(writeOrderBatch);

/**
 * A seated order (docs/seating.md): written alone, its seats claimed in its own transaction. Best available
 * picks again when a buyer who chose that very seat got it first; the buyer's own seats are refused with
 * SEAT_TAKEN at once.
 */
async function placeSeated(db: Db, draft: OrderDraft, seated: SeatedOrder, coupon: OrderPreview["coupon"], accountLimit: ((tx: DbOrTx) => Promise<unknown>) | null): Promise<PlacedOrder> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await writeOrderAlone(db, { ...draft, seated }, coupon, accountLimit);
    } catch (error) {
      if (seated.retryable && error instanceof SeatTaken && attempt < 4) continue;
      throw error;
    }
  }
}

/**
 * The event's custom fields answered: required ones present, numbers, dates
 * (dd/mm/aaaa or YYYY-MM-DD, kept as YYYY-MM-DD) and options checked; answers to fields the event does not ask
 * are dropped. Null when the event asks nothing and nothing was answered.
 */
export function checkCustomFields(fields: EventCustomFieldRow[], answers: Record<string, string | null | undefined>): CustomFieldAnswer[] | null {
  const errors: Record<string, string[]> = {};
  const out: CustomFieldAnswer[] = [];
  for (const field of fields) {
    const raw = answers[field.id];
    const message = customFieldError(field, raw);
    if (message) errors[`customFields.${field.id}`] = [message];
    else if (raw?.trim()) out.push({ fieldId: field.id, label: field.label, value: customFieldAnswer(field, raw) });
  }
  if (Object.keys(errors).length) invalid(errors);
  return out.length ? out : null;
}

/**
 * One holder per ticket unit, in the order of the buyer's lines, each with its
 * ticket type: required when the event asks for it; when given anyway, it
 * must also be one per unit. Null: the payer holds every ticket.
 */
export function holdersOf(required: boolean, wanted: Map<string, number>, given: z.output<typeof attendeeSchema>[] | null | undefined): Attendee[] | null {
  const units = [...wanted].flatMap(([ticketTypeId, qty]) => Array.from({ length: qty }, () => ticketTypeId));
  if (!given?.length && !required) return null;
  if (given?.length !== units.length) invalid({ attendees: [CHECKOUT_MESSAGES.attendeesCount(units.length)] });
  return given!.map((a, i) => ({ ticketTypeId: units[i], ...a, email: a.email ?? undefined }));
}

/**
 * Ends an unpaid order's hold (the lifecycle's `expire`): exactly once,
 * whoever calls it (the job, a second runner, a late page) — only the caller
 * whose conditional UPDATE moves draft → expired returns the stock and
 * cancels the pending billing, in the same transaction.
 * Returns "expired", "not-due" (still draft, hold not over) or "skipped".
 */
export async function expireOrder(ctx: Ctx, orderId: string): Promise<"expired" | "not-due" | "skipped"> {
  if (!uuid.safeParse(orderId).success) return "skipped";
  const expired = await ctx.db.transaction((tx) => expire(tx, orderId, ctx.now));
  if (expired) return "expired";
  const [still] = await ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return still?.status === "draft" ? "not-due" : "skipped";
}

/** The buyer who placed it, or the organization's members who may read sales. Others: not found. */
async function requireOrderReader(ctx: Ctx, order: OrderRow, billingToken?: { billingId: string; token?: string | null }) {
  if (billingToken && isBillingAccessToken(billingToken.billingId, billingToken.token)) return;
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  if (order.buyerUserId && order.buyerUserId === ctx.actor.userId) return;
  try {
    await requireCapability(ctx, order.organizationId, "sales:read");
  } catch (error) {
    if (error instanceof Forbidden) throw new NotFound(ORDER_MESSAGES.orderNotFound);
    throw error;
  }
}

async function orderView(ctx: Ctx, order: OrderRow) {
  const [items, orderBillings] = await Promise.all([
    ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order.id)),
    ctx.db.select().from(billings).where(eq(billings.orderId, order.id)).orderBy(asc(billings.createdAt)),
  ]);
  const billing = orderBillings.at(-1) ?? null;
  return { order: { ...order, items }, billing, billings: orderBillings, displayStatus: displayStatus(order.status, billing?.status) };
}

/**
 * `billing(billingId)`: the payment attempt with its order and display status.
 * Readable by the buyer's account, the organization's members, or anyone
 * holding the checkout's access token (buyers without an account).
 */
export async function getBillingForBuyer(ctx: Ctx, billingId: string, options: { token?: string | null } = {}) {
  if (!uuid.safeParse(billingId).success) throw new NotFound(ORDER_MESSAGES.orderNotFound);
  const [row] = await ctx.db.select({ billing: billings, order: orders }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(billings.id, billingId));
  if (!row) throw new NotFound(ORDER_MESSAGES.orderNotFound);
  await requireOrderReader(ctx, row.order, { billingId, token: options.token });
  const view = await orderView(ctx, row.order);
  return { ...view, billing: row.billing, displayStatus: displayStatus(row.order.status, row.billing.status) };
}

/** One order with its items, latest billing and display status. */
export async function getOrderForBuyer(ctx: Ctx, orderId: string) {
  if (!uuid.safeParse(orderId).success) throw new NotFound(ORDER_MESSAGES.orderNotFound);
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new NotFound(ORDER_MESSAGES.orderNotFound);
  await requireOrderReader(ctx, order);
  return orderView(ctx, order);
}
