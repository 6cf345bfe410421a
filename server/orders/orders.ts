import type { BillingRow, OrderItemRow, OrderRow } from "#server/db/schema";
import crypto from "node:crypto";
import { and, asc, eq, inArray, lte, ne } from "drizzle-orm";
import { z } from "zod";
import { attendeeSchema, payerSchema } from "#common/validation";
import { CHECKOUT_MESSAGES, customFieldAnswer, customFieldError } from "#common/checkout";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { paymentsMode } from "#server/env";
import {
  billings,
  eventCustomFields,
  eventDates,
  events,
  orderItems,
  orders,
  ticketTypes,
  type Attendee,
  type BillingProvider,
  type CustomFieldAnswer,
  type OrderPaymentMethod,
  type PaymentMethodKind,
} from "#server/db/schema";
import { Conflict, DomainError, Forbidden, Invalid, NotFound, Unauthenticated } from "#server/errors";
import { isTicketVisible, ticketState } from "#server/events/catalogue";
import { holdStock, releaseOrderStock } from "#server/stock/stock";
import { enqueue } from "#server/jobs/queue";
import { bookApprovedPayment } from "#server/ledger/ledger";
import { requireTransferAccount } from "#server/payouts/bank-accounts";
import { issueTicketsForOrder } from "#server/tickets/issue";
import { couponForOrder, recordCouponUse, releaseCouponUse, takeCouponUse } from "#server/coupons/coupons";
import { referrerForEvent } from "#server/promoters/attribution";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { checkTicketSelection, SELECTION_MESSAGES } from "./rules";
import { isBillingAccessToken } from "./access";
import { displayStatus } from "./status";
import { isUniqueViolation } from "#server/db/errors";
import { BUYER_METHOD_OF_ACCOUNT, HOLD_MINUTES, serviceFeeOf } from "#common/pricing";

export const EXPIRE_ORDER_JOB = "expire-order";
export { HOLD_MINUTES };


const METHOD_OF_ACCOUNT: Partial<Record<PaymentMethodKind, "MERCADO_PAGO" | "BANK_TRANSFER">> = BUYER_METHOD_OF_ACCOUNT;
const METHOD_LABEL = { MERCADO_PAGO: "Mercado Pago", BANK_TRANSFER: "transferencia bancaria" } as const;

export const ORDER_MESSAGES = {
  ...SELECTION_MESSAGES,
  eventNotFound: "No encontramos el evento.",
  notOnline: (name: string) => `Por ahora «${name}» no se vende online.`,
  mixedKinds: "Las consumiciones del menú se compran aparte, en el menú del evento. Hacé una compra para las entradas y otra para el menú.",
  mixedMethods: "No podés combinar en una compra entradas que se pagan con Mercado Pago y entradas que se pagan por transferencia bancaria. Hacé una compra para cada una.",
  wrongMethod: (name: string, method: "MERCADO_PAGO" | "BANK_TRANSFER") => `«${name}» se paga con ${METHOD_LABEL[method]}.`,
  orderNotFound: "No encontramos la compra.",
  priceChanged: (name: string) => `El precio de «${name}» acaba de cambiar. Revisá tu compra y volvé a intentar.`,
} as const;

const uuid = z.string().uuid("Identificador inválido");
const optionalText = z
  .string()
  .max(200)
  .nullish()
  .transform((v) => v?.trim() || undefined);


/** The holder of one ticket unit (createOrder `attendees`, one per unit in item order). */

/** Custom field answers keyed by field id; GraphQL's list of { fieldId, value } becomes the same record. */
const customFieldAnswersSchema = z.preprocess(
  (v) => (Array.isArray(v) ? Object.fromEntries(v.map((a: { fieldId?: unknown; value?: unknown }) => [String(a?.fieldId ?? ""), a?.value ?? ""])) : v),
  z.record(z.string(), z.string().max(500, CHECKOUT_MESSAGES.tooLong).nullish()),
);

export const createOrderSchema = z.object({
  eventSlug: z.string().trim().min(1, "Elegí un evento").max(200),
  eventDateId: uuid.nullish().transform((v) => v ?? undefined),
  items: z
    .array(z.object({ ticketId: uuid, qty: z.number().int(ORDER_MESSAGES.invalidQty).min(1, ORDER_MESSAGES.invalidQty).max(1000, ORDER_MESSAGES.invalidQty) }))
    .min(1, ORDER_MESSAGES.atLeastOne)
    .max(50),
  payer: payerSchema,
  paymentMethod: z.enum(["MERCADO_PAGO", "BANK_TRANSFER"], { error: "Elegí cómo pagar" }),
  accessCode: optionalText,
  presaleCode: optionalText,
  referredNick: optionalText,
  /** The event's coupon (case-insensitive); applied inside the order's transaction (server/coupons). */
  couponCode: optionalText,
  /** One per ticket unit; required when the event asks for one holder per ticket. */
  attendees: z.array(attendeeSchema).max(1000).nullish(),
  customFields: customFieldAnswersSchema.nullish(),
});
export type CreateOrderInput = z.input<typeof createOrderSchema>;

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
 * `createOrder` (DESIGN.md §9): validates the payer and the chosen tickets
 * with the picker's rules, then in ONE transaction holds the stock with a
 * conditional UPDATE per ticket type (never read-then-write), and writes the
 * order (draft, price snapshots, fee, totals), its pending billing and the
 * job that expires the hold. Out of stock is a Conflict naming the ticket.
 * A free order (total 0) is billed at once with an approved "free" billing.
 */
export async function createOrder(ctx: Ctx, rawInput: DomainInput<typeof createOrderSchema>): Promise<{ order: OrderRow & { items: OrderItemRow[] }; billing: BillingRow }> {
  const input = parseInput(createOrderSchema, rawInput);
  const unlock = { accessCode: input.accessCode, presaleCode: input.presaleCode };

  const [event] = await ctx.db.select().from(events).where(eq(events.slug, input.eventSlug.toLowerCase()));
  if (!event || !event.publishedAt || event.status === "deleted") throw new NotFound(ORDER_MESSAGES.eventNotFound);
  if (event.status !== "active") invalid({ _form: [ORDER_MESSAGES.paused] });

  const dates = (
    await ctx.db
      .select()
      .from(eventDates)
      .where(and(eq(eventDates.eventId, event.id), ne(eventDates.status, "deleted")))
      .orderBy(asc(eventDates.startsAt))
  ).filter((d) => d.endsAt > ctx.now);
  if (!dates.length) invalid({ _form: [ORDER_MESSAGES.noDates] });

  // Quantities of the same ticket in two lines are one line.
  const wanted = new Map<string, number>();
  for (const item of input.items) wanted.set(item.ticketId, (wanted.get(item.ticketId) ?? 0) + item.qty);

  const tickets = await ctx.db
    .select()
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, event.id), inArray(ticketTypes.id, [...wanted.keys()])));
  const byId = new Map(tickets.map((t) => [t.id, t]));
  // Tickets and menu items (decision 106) are bought apart: the menu has its own page and its own order.
  if (new Set(tickets.map((t) => t.kind)).size > 1) invalid({ _form: [ORDER_MESSAGES.mixedKinds] });
  const onlyMenu = tickets.length > 0 && tickets.every((t) => t.kind === "menu");
  // The event's questions and one holder per ticket are about who gets in, not who orders a drink.
  const customFields = onlyMenu ? null : await checkCustomFields(ctx, event.id, input.customFields ?? {});

  // The date: the one asked for, the only one, or the one all chosen tickets are for.
  // Menu items are for the event's next date unless the buyer says which.
  let eventDateId = input.eventDateId ?? (dates.length === 1 || onlyMenu ? dates[0].id : undefined);
  if (!eventDateId) {
    const bound = new Set(tickets.map((t) => t.eventDateId));
    if (bound.size === 1 && [...bound][0]) eventDateId = [...bound][0]!;
  }
  if (!eventDateId) invalid({ eventDateId: [ORDER_MESSAGES.dateRequired] });
  const date = dates.find((d) => d.id === eventDateId);
  if (!date || date.status !== "active") invalid({ eventDateId: [ORDER_MESSAGES.dateUnavailable] });

  const fieldErrors: Record<string, string[]> = {};
  const methods = new Set<"MERCADO_PAGO" | "BANK_TRANSFER">();
  let conflict: string | undefined;
  for (const [ticketId, qty] of wanted) {
    const ticket = byId.get(ticketId);
    // Hidden without its code, presale without the presale code, deleted: as if it did not exist.
    if (!ticket || !isTicketVisible(ticket, event, unlock)) {
      fieldErrors._form = [ORDER_MESSAGES.unknownTicket];
      continue;
    }
    const failure = checkTicketSelection(
      {
        name: ticket.name,
        state: ticketState(ticket, event, date, unlock, ctx.now),
        paymentMethod: ticket.paymentMethod,
        minPerOrder: ticket.minPerOrder,
        maxPerOrder: ticket.maxPerOrder,
        available: Math.max(0, ticket.stock - ticket.sold),
        eventDateId: ticket.eventDateId,
      },
      qty,
      eventDateId,
      { allowedPaymentMethods: Object.keys(METHOD_OF_ACCOUNT), paymentMethodMessage: ORDER_MESSAGES.notOnline },
    );
    if (failure && ((failure.kind === "state" && failure.state === "sold_out") || failure.kind === "available")) {
      conflict ??= ORDER_MESSAGES.notEnough(ticket.name);
      continue;
    }
    if (failure) {
      (fieldErrors[ticket.id] ??= []).push(failure.message);
      continue;
    }
    methods.add(METHOD_OF_ACCOUNT[ticket.paymentMethod]!);
  }
  if (Object.keys(fieldErrors).length) invalid(fieldErrors);
  if (conflict) throw new Conflict(conflict);
  if (methods.size > 1) invalid({ paymentMethod: [ORDER_MESSAGES.mixedMethods] });
  const method = [...methods][0];
  const names = [...wanted.keys()].map((id) => byId.get(id)!.name);
  const wrongMethod = method && method !== input.paymentMethod ? ORDER_MESSAGES.wrongMethod(names[0], method) : undefined;
  const attendees = holdersOf(event.oneHolderPerTicket && !onlyMenu, wanted, input.attendees);
  // The referral link's promoter, when they sell this event for its organization (else the sale is just unattributed).
  const referrer = await referrerForEvent(ctx.db, event, input.referredNick);
  const referredNick = referrer?.nick ?? null;

  const holdMinutes = HOLD_MINUTES[input.paymentMethod];
  const buyerUserId = ctx.actor.kind === "user" ? ctx.actor.userId : null;

  // Prices, coupon and totals from what was read: the hold below checks the price it takes is this one.
  const lines = [...wanted].map(([ticketTypeId, qty]) => ({ ticketTypeId, qty, name: byId.get(ticketTypeId)!.name, unitPrice: byId.get(ticketTypeId)!.price }));
  const subtotal = lines.reduce((sum, i) => sum + i.qty * i.unitPrice, 0);
  // The fee is on what the buyer pays (decisions: cupones).
  const coupon = input.couponCode ? await couponForOrder(ctx.db, { eventId: event.id, code: input.couponCode, lines, now: ctx.now }) : null;
  const discount = coupon?.discount ?? 0;
  const serviceFee = serviceFeeOf(subtotal - discount, event.serviceFeeBps ?? 0);
  const total = subtotal - discount + serviceFee;
  const free = total === 0;
  // The method is checked only for orders that are paid.
  if (!free && wrongMethod) invalid({ paymentMethod: [wrongMethod] });
  // Nowhere to send a transfer to: refuse before the buyer is told to pay.
  if (!free && input.paymentMethod === "BANK_TRANSFER") await requireTransferAccount(ctx.db, event.organizationId);
  const paymentMethod: OrderPaymentMethod = free ? "FREE" : input.paymentMethod;
  const provider: BillingProvider = free ? "free" : input.paymentMethod === "BANK_TRANSFER" ? "bank_transfer" : paymentsMode() === "sandbox" ? "sandbox" : "mercadopago";

  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        // The new rows first: they lock nothing another buyer waits for. The hot rows (ticket types, then the
        // coupon) are taken last, so their locks last only until the commit (docs/locking.md).
        const holdExpiresAt = free ? null : new Date(ctx.now.getTime() + holdMinutes * 60_000);
        const [order] = await tx
          .insert(orders)
          .values({
            code: newOrderCode(),
            eventId: event.id,
            eventDateId: eventDateId!,
            organizationId: event.organizationId,
            buyerUserId,
            payer: input.payer,
            attendees,
            customFields,
            status: free ? "billed" : "draft",
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
          })
          .returning();
        if (coupon) await recordCouponUse(tx, { orderId: order.id, couponId: coupon.coupon.id, discount, now: ctx.now });
        // Keep the buyer's order of lines.
        const items = await tx
          .insert(orderItems)
          .values(lines.map((l) => ({ orderId: order.id, ...l })))
          .returning();
        const [billing] = await tx
          .insert(billings)
          .values({ orderId: order.id, status: free ? "approved" : "pending", provider, amount: total, createdAt: ctx.now, updatedAt: ctx.now })
          .returning();
        if (holdExpiresAt) await enqueue(tx, EXPIRE_ORDER_JOB, { orderId: order.id }, holdExpiresAt);

        // The stock (server/stock: conditional UPDATEs in id order, all or nothing), at the price the order says.
        const hold = await holdStock(tx, lines, ctx.now, { onlyActive: true });
        if ("short" in hold) throw new Conflict(ORDER_MESSAGES.notEnough(byId.get(hold.short)!.name));
        const changed = hold.held.find((h) => h.unitPrice !== byId.get(h.ticketTypeId)!.price);
        if (changed) throw new Conflict(ORDER_MESSAGES.priceChanged(changed.name));
        if (coupon) await takeCouponUse(tx, coupon.coupon);

        // Nothing to pay (free tickets, a 100 % coupon): the tickets are issued now, in this transaction.
        if (free) {
          await issueTicketsForOrder(tx, order, ctx.now);
          await bookApprovedPayment(tx, order, billing, ctx.now);
        }
        return { order: { ...order, items }, billing };
      });
    } catch (error) {
      if (attempt < 3 && !(error instanceof DomainError) && isUniqueViolation(error, "orders_code_key")) continue;
      throw error;
    }
  }
}

/**
 * The event's custom fields answered: required ones present, numbers, dates
 * (dd/mm/aaaa or YYYY-MM-DD, kept as YYYY-MM-DD) and options checked; answers to fields the event does not ask
 * are dropped. Null when the event asks nothing and nothing was answered.
 */
async function checkCustomFields(ctx: Ctx, eventId: string, answers: Record<string, string | null | undefined>): Promise<CustomFieldAnswer[] | null> {
  const fields = await ctx.db.select().from(eventCustomFields).where(eq(eventCustomFields.eventId, eventId)).orderBy(asc(eventCustomFields.sortOrder));
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
function holdersOf(required: boolean, wanted: Map<string, number>, given: z.output<typeof attendeeSchema>[] | null | undefined): Attendee[] | null {
  const units = [...wanted].flatMap(([ticketTypeId, qty]) => Array.from({ length: qty }, () => ticketTypeId));
  if (!given?.length && !required) return null;
  if (given?.length !== units.length) invalid({ attendees: [CHECKOUT_MESSAGES.attendeesCount(units.length)] });
  return given!.map((a, i) => ({ ticketTypeId: units[i], ...a, email: a.email ?? undefined }));
}

/**
 * Ends an unpaid order's hold: exactly once, whoever calls it (the job, a
 * second runner, a late page) — the conditional UPDATE lets only one caller
 * flip draft → expired; only that caller returns the stock and cancels the
 * pending billing, in the same transaction.
 * Returns "expired", "not-due" (still draft, hold not over) or "skipped".
 */
export async function expireOrder(ctx: Ctx, orderId: string): Promise<"expired" | "not-due" | "skipped"> {
  if (!uuid.safeParse(orderId).success) return "skipped";
  const result = await ctx.db.transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({ status: "expired", updatedAt: ctx.now })
      .where(and(eq(orders.id, orderId), eq(orders.status, "draft"), lte(orders.holdExpiresAt, ctx.now)))
      .returning({ id: orders.id });
    if (!order) return null;
    await releaseHold(tx, order.id, ctx.now);
    return "expired" as const;
  });
  if (result) return result;
  const [still] = await ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return still?.status === "draft" ? "not-due" : "skipped";
}

/**
 * What ends an unpaid order, whatever ended it (hold expired, transfer
 * rejected): the stock back on sale, the pending billing cancelled and the
 * coupon use given back. Only for the caller whose conditional UPDATE just
 * moved the order out of `draft`, in that same transaction: so it runs once.
 */
export async function releaseHold(tx: DbOrTx, orderId: string, now: Date) {
  await releaseOrderStock(tx, orderId, now);
  await tx
    .update(billings)
    .set({ status: "cancelled", updatedAt: now })
    .where(and(eq(billings.orderId, orderId), eq(billings.status, "pending")));
  await releaseCouponUse(tx, orderId, now);
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
