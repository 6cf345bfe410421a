import type { BillingRow, OrderRow, RefundRequestRow } from "#server/db/schema";
import crypto from "node:crypto";
import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { z } from "zod";
import { emailSchema } from "#common/validation";
import { TIME_ZONE } from "#common/dates";
import type { Ctx } from "#server/context";
import { billings, eventDates, events, issuedProducts, orders, refundRequests, resaleListings, type RefundMethod } from "#server/db/schema";
import { sendEmail } from "#server/email/send";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { takeAttempt } from "#server/auth/rate-limit";
import { recordAudit } from "#server/organizations/audit";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { isValidCbu, normalizeCbu } from "#common/cbu";
import type { PurchaseKind } from "#common/order-words";
import { purchaseKindOfOrders } from "#server/orders/purchase-kind";
import { refundPendingEmail, refundRejectedEmail, refundStatusUrl, refundTransferredEmail, type RefundEmailData } from "#server/orders/refund-emails";
import { refund } from "#server/orders/lifecycle";
import { isUniqueViolation } from "#server/db/errors";
import { liveListingsOfOrder, lockOrderForResale } from "#server/resale/listings";


/** Disposición 954/2025: 10 calendar days from delivery, and at least 24 hours before the event. */
export const WITHDRAWAL_DAYS = 10;
export const WITHDRAWAL_HOURS_BEFORE_EVENT = 24;

export const REFUND_MESSAGES = {
  notFound: "No encontramos una compra con ese código y email",
  requestNotFound: "No encontramos una gestión con ese código y email",
  free: "Esta compra fue sin cargo: no hay dinero para devolver.",
  alreadyRefunded: "Esta compra ya fue devuelta.",
  chargedBack: "Esta compra tiene un contracargo: el banco ya te devolvió el dinero.",
  redeemed: "Ya usaste al menos una entrada de esta compra en la puerta, así que no se puede devolver.",
  resold: "Una entrada de esta compra ya se vendió en la reventa oficial y te devolvimos su parte: la compra entera ya no se puede devolver.",
  resoldOrganizer:
    "Una entrada de esta compra está publicada o ya se vendió en la reventa oficial: la compra entera no se puede devolver. Si se vendió, su parte ya volvió a quien compró; rechazá el pedido explicando eso.",
  listed: "Tenés una entrada de esta compra en la reventa oficial. Mientras esté publicada no podés arrepentirte de la compra entera: si nadie la está comprando, cancelá la publicación y probá de nuevo.",
  cbuRequired: "Ingresá el CBU o CVU donde querés recibir la devolución (22 números).",
  cbuInvalid: "Ese CBU/CVU no es válido: revisá los 22 números.",
  changed: "La compra cambió mientras la procesábamos. Probá de nuevo.",
  decided: "Esta solicitud ya fue resuelta.",
  notManual: "Esta devolución no es por transferencia o ya está marcada como transferida.",
  rejectReason: "Contale al comprador por qué la rechazás.",
} as const;

const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/** "DEV-7KQ2M9": the management code the buyer gets at once. */
export function newRefundCode(): string {
  let code = "";
  for (let i = 0; i < 6; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return `DEV-${code}`;
}

/**
 * The legal window of a purchase: until the end of the 10th calendar day
 * (Buenos Aires) after the tickets were delivered, and never later than 24
 * hours before the event date starts.
 */
export function withdrawalDeadline(deliveredAt: Date, eventStartsAt: Date): Date {
  const tenDays = DateTime.fromJSDate(deliveredAt).setZone(TIME_ZONE).plus({ days: WITHDRAWAL_DAYS }).endOf("day").toJSDate();
  const beforeEvent = new Date(eventStartsAt.getTime() - WITHDRAWAL_HOURS_BEFORE_EVENT * 3600_000);
  return tenDays < beforeEvent ? tenDays : beforeEvent;
}

const optionalText = (max: number) =>
  z
    .string()
    .max(max, `Usá hasta ${max} caracteres`)
    .nullish()
    .transform((v) => v?.trim() || "");

export const requestRefundSchema = z.object({
  orderCode: z
    .string({ error: "Ingresá el código de compra" })
    .trim()
    .min(1, "Ingresá el código de compra")
    .max(40)
    .transform((v) => v.toUpperCase()),
  email: emailSchema,
  reason: optionalText(500),
  cbu: optionalText(40),
});

const lookupSchema = z.object({
  code: z
    .string({ error: "Ingresá el código de gestión" })
    .trim()
    .min(1, "Ingresá el código de gestión")
    .max(40)
    .transform((v) => v.toUpperCase()),
  email: emailSchema,
});

const idSchema = z.object({ id: z.string().uuid("Identificador inválido") });
const rejectSchema = idSchema.extend({ reason: z.string({ error: REFUND_MESSAGES.rejectReason }).trim().min(3, REFUND_MESSAGES.rejectReason).max(500) });

function refundKeys(email: string, ip?: string) {
  const keys = [{ key: `refund:email:${email.toLowerCase()}`, limit: 5 }];
  if (ip) keys.push({ key: `refund:ip:${ip}`, limit: 30 });
  return keys;
}


/** When the tickets were delivered: their issue time (the approval), else the billing's last change. */
async function deliveredAt(ctx: Ctx, order: OrderRow, billing: BillingRow): Promise<Date> {
  const [row] = await ctx.db
    .select({ at: sql<Date | string | null>`min(${issuedProducts.createdAt})` })
    .from(issuedProducts)
    .where(eq(issuedProducts.orderId, order.id));
  return row?.at ? new Date(row.at) : billing.updatedAt;
}

async function eventOf(ctx: Ctx, order: OrderRow) {
  const [row] = await ctx.db
    .select({ name: events.name, startsAt: eventDates.startsAt })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .where(eq(eventDates.id, order.eventDateId));
  return row;
}

async function emailData(ctx: Ctx, request: RefundRequestRow): Promise<RefundEmailData> {
  const [row] = await ctx.db
    .select({ orderId: orders.id, orderCode: orders.code, eventName: events.name, amount: billings.amount })
    .from(refundRequests)
    .innerJoin(orders, eq(orders.id, refundRequests.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(billings, eq(billings.id, refundRequests.billingId))
    .where(eq(refundRequests.id, request.id));
  return {
    code: request.code,
    orderCode: row.orderCode,
    eventName: row.eventName,
    amount: row.amount,
    method: request.method,
    statusUrl: refundStatusUrl(request.code),
    // A drink order's emails speak of consumiciones (docs/wording.md).
    kind: await purchaseKindOfOrders(ctx.db, [row.orderId]),
  };
}

async function notify(ctx: Ctx, to: string, message: { kind: string; subject: string; html: string; text: string }, organizationId: string) {
  try {
    await sendEmail(ctx.db, { to, ...message, organizationId });
  } catch (error) {
    // The refund stands; a failed email is in the log.
    console.error(error);
  }
}

export type RefundOutcome = "refunded" | "pending";

type RefundInput = z.output<typeof requestRefundSchema>;

/**
 * What a withdrawal request would do, checked in full and nothing written: the open request when there is one,
 * else the paid order, its billing, how the money goes back and whether it is inside the legal window. The
 * attempt counts against the rate limit until the order code and email are proven.
 */
async function assessRefund(ctx: Ctx, input: RefundInput) {
  const email = input.email.toLowerCase();
  const limit = await takeAttempt(ctx.db, refundKeys(email, ctx.ip), ctx.now);

  const [order] = await ctx.db.select().from(orders).where(eq(orders.code, input.orderCode));
  if (!order || order.payer.email.toLowerCase() !== email || order.status !== "billed") throw new NotFound(REFUND_MESSAGES.notFound);
  // Asking again answers with the open request (the same management code).
  const [open] = await ctx.db.select().from(refundRequests).where(and(eq(refundRequests.orderId, order.id), inArray(refundRequests.status, ["pending", "refunded"])));
  if (open) {
    await limit.release();
    return { kind: "open" as const, request: open };
  }
  const orderBillings = await ctx.db.select().from(billings).where(eq(billings.orderId, order.id)).orderBy(desc(billings.createdAt));
  const billing = orderBillings.find((b) => b.status === "approved");
  if (!billing) {
    if (orderBillings.some((b) => b.status === "charged_back")) throw new Conflict(REFUND_MESSAGES.chargedBack);
    if (orderBillings.some((b) => b.status === "refunded")) throw new Conflict(REFUND_MESSAGES.alreadyRefunded);
    throw new NotFound(REFUND_MESSAGES.notFound);
  }
  // From here on the person proved the purchase: forget the attempt.
  await limit.release();

  if (order.gift || billing.provider === "free" || billing.amount === 0) throw new Conflict(REFUND_MESSAGES.free);
  const redeemed = await ctx.db.select({ id: issuedProducts.id }).from(issuedProducts).where(and(eq(issuedProducts.orderId, order.id), eq(issuedProducts.status, "redeemed"))).limit(1);
  if (redeemed.length) throw new Conflict(REFUND_MESSAGES.redeemed);
  // A resold ticket's money already went back to this buyer (docs/resale.md): refunding the whole order would pay it twice.
  const listings = await ctx.db
    .select({ status: resaleListings.status })
    .from(resaleListings)
    .where(and(eq(resaleListings.sellerOrderId, order.id), inArray(resaleListings.status, ["active", "held", "sold"])));
  if (listings.some((l) => l.status === "sold")) throw new Conflict(REFUND_MESSAGES.resold);
  if (listings.length) throw new Conflict(REFUND_MESSAGES.listed);

  const method: RefundMethod = billing.provider === "bank_transfer" ? "bank_transfer" : "provider";
  let cbu: string | null = null;
  if (method === "bank_transfer") {
    if (!input.cbu) throw new Invalid({ cbu: [REFUND_MESSAGES.cbuRequired] }, REFUND_MESSAGES.cbuRequired);
    if (!isValidCbu(input.cbu)) throw new Invalid({ cbu: [REFUND_MESSAGES.cbuInvalid] }, REFUND_MESSAGES.cbuInvalid);
    cbu = normalizeCbu(input.cbu);
  }

  const event = await eventOf(ctx, order);
  const deadline = withdrawalDeadline(await deliveredAt(ctx, order, billing), event.startsAt);
  const automatic = ctx.now.getTime() <= deadline.getTime();
  return { kind: "new" as const, email, order, billing, method, cbu, event, deadline, automatic };
}

/** What the buyer confirms before a withdrawal: the purchase, the money and the tickets that stop working. */
export interface RefundPreview {
  orderCode: string;
  eventName: string;
  startsAt: Date;
  amount: number;
  tickets: number;
  /** What those are, for the words the buyer reads: entradas, consumiciones or both (common/order-words.ts). */
  kind: PurchaseKind;
  method: RefundMethod;
  /** Inside the legal window: refunded at once on confirming; otherwise the organization decides. */
  automatic: boolean;
  deadline: Date;
}

/**
 * `previewRefund`: the first step of the withdrawal form (nothing happens yet). The same checks as
 * requestRefund; an order that already has an open request answers with it instead.
 */
export async function previewRefund(ctx: Ctx, rawInput: DomainInput<typeof requestRefundSchema>): Promise<{ open: RefundRequestRow } | { preview: RefundPreview }> {
  const input = parseInput(requestRefundSchema, rawInput);
  const assessed = await assessRefund(ctx, input);
  if (assessed.kind === "open") return { open: assessed.request };
  const [{ n }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(issuedProducts)
    .where(and(eq(issuedProducts.orderId, assessed.order.id), eq(issuedProducts.status, "redeemable")));
  return {
    preview: {
      orderCode: assessed.order.code,
      eventName: assessed.event.name,
      startsAt: assessed.event.startsAt,
      amount: assessed.billing.amount,
      tickets: Number(n),
      kind: await purchaseKindOfOrders(ctx.db, [assessed.order.id]),
      method: assessed.method,
      automatic: assessed.automatic,
      deadline: assessed.deadline,
    },
  };
}

/**
 * `requestRefund` ("Botón de arrepentimiento", docs/orders.md): no account
 * needed. The order code and the payer's email must name a paid order
 * (otherwise one generic message, never which part is wrong); attempts are
 * rate limited like sign-in. Inside the legal window the refund happens now,
 * in one transaction (billing refunded, tickets voided, ledger, provider
 * refund queued or manual transfer to the buyer's CBU/CVU); outside it the
 * request waits for the organizer. Asking again returns the open request.
 * The page asks for confirmation first (previewRefund); the API acts at once.
 */
export async function requestRefund(ctx: Ctx, rawInput: DomainInput<typeof requestRefundSchema>): Promise<{ request: RefundRequestRow; outcome: RefundOutcome; existing: boolean }> {
  const input = parseInput(requestRefundSchema, rawInput);
  const assessed = await assessRefund(ctx, input);
  if (assessed.kind === "open") return { request: assessed.request, outcome: assessed.request.status === "refunded" ? "refunded" : "pending", existing: true };
  const { email, order, billing, method, cbu, automatic } = assessed;

  let request: RefundRequestRow;
  try {
    request = await ctx.db.transaction(async (tx) => {
      // A resale listing of this purchase at the same moment (decision 216): one waits for the other and sees it.
      await lockOrderForResale(tx, order.id);
      const listed = await liveListingsOfOrder(tx, order.id);
      if (listed.length) throw new Conflict(listed.some((l) => l.status === "sold") ? REFUND_MESSAGES.resold : REFUND_MESSAGES.listed);
      const [row] = await tx
        .insert(refundRequests)
        .values({
          code: newRefundCode(),
          orderId: order.id,
          billingId: billing.id,
          organizationId: order.organizationId,
          email,
          reason: input.reason,
          status: automatic ? "refunded" : "pending",
          automatic,
          method,
          cbu,
          decidedAt: automatic ? ctx.now : null,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      if (automatic) {
        const done = await refund(tx, billing.id, {
          reason: "arrepentimiento dentro del plazo legal",
          now: ctx.now,
          providerRefund: method === "provider" ? "queue" : "none",
        });
        if (!done) throw new Conflict(REFUND_MESSAGES.changed);
      }
      return row;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Two requests at the same moment: the other one won; answer with it.
    const [other] = await ctx.db.select().from(refundRequests).where(and(eq(refundRequests.orderId, order.id), inArray(refundRequests.status, ["pending", "refunded"])));
    if (!other) throw error;
    return { request: other, outcome: other.status === "refunded" ? "refunded" : "pending", existing: true };
  }
  // An automatic refund's email follows the transition (the lifecycle's onRefunded); a waiting request's is sent here.
  if (!automatic) await notify(ctx, email, refundPendingEmail(await emailData(ctx, request)), request.organizationId);
  return { request, outcome: automatic ? "refunded" : "pending", existing: false };
}

/** What the buyer (and the organizer) see of a request. */
export async function refundRequestView(ctx: Ctx, request: RefundRequestRow) {
  const [row] = await ctx.db
    .select({ order: orders, eventName: events.name, billing: billings })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(billings, eq(billings.id, request.billingId))
    .where(eq(orders.id, request.orderId));
  return {
    ...request,
    orderCode: row.order.code,
    eventName: row.eventName,
    amount: row.billing.amount,
    billingStatus: row.billing.status,
    buyerName: `${row.order.payer.firstName} ${row.order.payer.lastName}`.trim(),
    /** Tickets, menu items or both: the buyer's words follow it (common/order-words.ts). */
    kind: await purchaseKindOfOrders(ctx.db, [request.orderId]),
  };
}
export type RefundRequestView = Awaited<ReturnType<typeof refundRequestView>>;

/** `refundRequest(code, email)`: the buyer looks a request up by its management code and email (rate limited). */
export async function getRefundRequest(ctx: Ctx, rawInput: DomainInput<typeof lookupSchema>): Promise<RefundRequestView> {
  const input = parseInput(lookupSchema, rawInput);
  const email = input.email.toLowerCase();
  const limit = await takeAttempt(ctx.db, refundKeys(email, ctx.ip), ctx.now);
  const [request] = await ctx.db.select().from(refundRequests).where(eq(refundRequests.code, input.code));
  if (!request || request.email !== email) throw new NotFound(REFUND_MESSAGES.requestNotFound);
  await limit.release();
  return refundRequestView(ctx, request);
}

async function loadForOrganizer(ctx: Ctx, id: string, capability: "money:manage" | "sales:read") {
  const [request] = await ctx.db.select().from(refundRequests).where(eq(refundRequests.id, id));
  if (!request) throw new NotFound("No encontramos la solicitud de devolución.");
  await requireCapability(ctx, request.organizationId, capability);
  return request;
}

function deciderId(ctx: Ctx) {
  return ctx.actor.kind === "user" ? ctx.actor.userId : null;
}

/**
 * `approveRefund`: the organizer gives a pending request's money back (any
 * time: organizers may be more generous than the law). Same path as the
 * automatic refund, in one transaction. Needs money:manage.
 */
export async function approveRefund(ctx: Ctx, rawInput: DomainInput<typeof idSchema>): Promise<RefundRequestView> {
  const { id } = parseInput(idSchema, rawInput);
  const pending = await loadForOrganizer(ctx, id, "money:manage");
  const request = await ctx.db.transaction(async (tx) => {
    // A ticket of this purchase resold (its money already went back) or listed: no whole refund (decision 216).
    await lockOrderForResale(tx, pending.orderId);
    if ((await liveListingsOfOrder(tx, pending.orderId)).length) throw new Conflict(REFUND_MESSAGES.resoldOrganizer);
    const [row] = await tx
      .update(refundRequests)
      .set({ status: "refunded", decidedByUserId: deciderId(ctx), decidedAt: ctx.now, updatedAt: ctx.now })
      .where(and(eq(refundRequests.id, pending.id), eq(refundRequests.status, "pending")))
      .returning();
    if (!row) throw new Conflict(REFUND_MESSAGES.decided);
    const done = await refund(tx, row.billingId, {
      reason: "aprobada por la organización",
      now: ctx.now,
      providerRefund: row.method === "provider" ? "queue" : "none",
    });
    if (!done) throw new Conflict(REFUND_MESSAGES.changed);
    await recordAudit(tx, ctx, { organizationId: row.organizationId, action: "refund.approve", targetId: row.id, data: { code: row.code } });
    return row;
  });
  // The buyer's "done" email follows the transition (the lifecycle's onRefunded).
  return refundRequestView(ctx, request);
}

/** `rejectRefund`: the organizer says no, with a reason the buyer reads. Tickets stay valid. Needs money:manage. */
export async function rejectRefund(ctx: Ctx, rawInput: DomainInput<typeof rejectSchema>): Promise<RefundRequestView> {
  const input = parseInput(rejectSchema, rawInput);
  const pending = await loadForOrganizer(ctx, input.id, "money:manage");
  const [request] = await ctx.db
    .update(refundRequests)
    .set({ status: "rejected", rejectionReason: input.reason, decidedByUserId: deciderId(ctx), decidedAt: ctx.now, updatedAt: ctx.now })
    .where(and(eq(refundRequests.id, pending.id), eq(refundRequests.status, "pending")))
    .returning();
  if (!request) throw new Conflict(REFUND_MESSAGES.decided);
  await recordAudit(ctx.db, ctx, { organizationId: request.organizationId, action: "refund.reject", targetId: request.id, data: { code: request.code, reason: input.reason } });
  await notify(ctx, request.email, refundRejectedEmail(await emailData(ctx, request), input.reason), request.organizationId);
  return refundRequestView(ctx, request);
}

/** `markRefundTransferred`: a bank-transfer refund was paid by hand to the buyer's CBU/CVU. Needs money:manage. */
export async function markRefundTransferred(ctx: Ctx, rawInput: DomainInput<typeof idSchema>): Promise<RefundRequestView> {
  const { id } = parseInput(idSchema, rawInput);
  const found = await loadForOrganizer(ctx, id, "money:manage");
  const [request] = await ctx.db
    .update(refundRequests)
    .set({ transferredAt: ctx.now, updatedAt: ctx.now })
    .where(and(eq(refundRequests.id, found.id), eq(refundRequests.status, "refunded"), eq(refundRequests.method, "bank_transfer"), sql`${refundRequests.transferredAt} is null`))
    .returning();
  if (!request) throw new Conflict(REFUND_MESSAGES.notManual);
  await notify(ctx, request.email, refundTransferredEmail(await emailData(ctx, request)), request.organizationId);
  return refundRequestView(ctx, request);
}

/**
 * The organization's requests that need someone: `pending` (approve or
 * reject) and `transfer` (refunded by bank transfer, not transferred yet).
 */
export async function listRefundRequests(ctx: Ctx, input: { organizationId: string; eventId?: string | null; status: "pending" | "transfer" }) {
  await requireCapability(ctx, input.organizationId, "sales:read");
  const conditions = [eq(refundRequests.organizationId, input.organizationId)];
  if (input.status === "pending") conditions.push(eq(refundRequests.status, "pending"));
  else conditions.push(eq(refundRequests.status, "refunded"), eq(refundRequests.method, "bank_transfer"), sql`${refundRequests.transferredAt} is null`);
  if (input.eventId) conditions.push(eq(orders.eventId, input.eventId));
  const rows = await ctx.db
    .select({ request: refundRequests })
    .from(refundRequests)
    .innerJoin(orders, eq(orders.id, refundRequests.orderId))
    .where(and(...conditions))
    .orderBy(asc(refundRequests.createdAt))
    .limit(100);
  return Promise.all(rows.map((r) => refundRequestView(ctx, r.request)));
}

/** The requests of one order, newest first (for the organizer's order detail). */
export async function refundRequestsOfOrder(ctx: Ctx, orderId: string) {
  const rows = await ctx.db.select().from(refundRequests).where(eq(refundRequests.orderId, orderId)).orderBy(desc(refundRequests.createdAt));
  return Promise.all(rows.map((r) => refundRequestView(ctx, r)));
}

/**
 * The signed-in buyer's paid orders that could still be withdrawn (paid, not
 * free, no open request), with their legal deadline: /cuenta/devoluciones
 * lists them with a one-click request.
 */
export async function listMyRefundableOrders(ctx: Ctx) {
  if (ctx.actor.kind !== "user") return [];
  const rows = await ctx.db
    .select({ order: orders, billing: billings, eventName: events.name, startsAt: eventDates.startsAt })
    .from(orders)
    .innerJoin(billings, and(eq(billings.orderId, orders.id), eq(billings.status, "approved")))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .where(
      and(
        eq(orders.status, "billed"),
        eq(orders.gift, false),
        sql`${orders.total} > 0`,
        // Their own purchases only: matching the payer's email would show other people's order codes to
        // anyone who registers with that address (accounts do not verify their email).
        eq(orders.buyerUserId, ctx.actor.userId),
        gt(eventDates.startsAt, ctx.now),
        sql`not exists (select 1 from refund_requests r where r.order_id = ${orders.id} and r.status <> 'rejected')`,
      ),
    )
    .orderBy(asc(eventDates.startsAt))
    .limit(50);
  const out = [];
  for (const r of rows) {
    const deadline = withdrawalDeadline(await deliveredAt(ctx, r.order, r.billing), r.startsAt);
    out.push({
      orderId: r.order.id,
      orderCode: r.order.code,
      email: r.order.payer.email,
      eventName: r.eventName,
      startsAt: r.startsAt,
      total: r.order.total,
      paymentMethod: r.order.paymentMethod,
      deadline,
      inWindow: ctx.now.getTime() <= deadline.getTime(),
    });
  }
  return out;
}
