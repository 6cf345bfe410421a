import type { BankAccountRow, BillingRow, OrderRow } from "#server/db/schema";
import { recordAudit } from "#server/organizations/audit";
import { and, asc, count, desc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { bankTransferReceipts, bankTransferReviews, billings, events, orderItems, orders, organizations } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { getBillingForBuyer } from "#server/orders/orders";
import { approvePayment, rejectTransfer, transferPaymentId, type ApprovalOutcome } from "#server/orders/lifecycle";
import { purchaseLink } from "#server/auth/billing-access";
import { requireCapability } from "#server/organizations/permissions";
import { getTicketTransferAccount } from "#server/payouts/bank-accounts";
import { parseInput, type DomainInput } from "#server/validation";
import { checkReceipt, readReceiptFile, safeFileName, storeReceiptFile, type ReceiptType } from "./receipts";

/**
 * Bank transfers (docs/orders.md): the buyer of a BANK_TRANSFER order sees the
 * organizer's account, transfers and uploads the receipt; the organizer
 * approves (the lifecycle's approvePayment, source "transfer": the tickets
 * are issued and the ledger booked once) or rejects (order closed, billing
 * cancelled, stock back once, buyer emailed) before the 48-hour hold ends.
 * Seeing transfers and receipts needs `sales:read`; deciding needs
 * `money:manage` (confirming money arrived in the organization's account).
 */

export const BANK_TRANSFER_MESSAGES = {
  notFound: "No encontramos la transferencia.",
  notBankTransfer: "Esta compra no se paga por transferencia bancaria.",
  notPending: "Esta compra ya no espera una transferencia: no hace falta subir un comprobante.",
  holdOver: "La reserva venció: las entradas volvieron a la venta.",
  uploaded: "Recibimos tu comprobante. El organizador lo revisa y te avisamos por email.",
  approved: "Aprobamos la transferencia: las entradas ya le llegan al comprador.",
  approvedLateRefund: "La reserva había vencido y ya no quedaban entradas: devolvele la transferencia al comprador desde tu cuenta. No se emitieron entradas.",
  rejected: "Rechazamos la transferencia y avisamos al comprador por email.",
  alreadyApproved: "Esta transferencia ya estaba aprobada.",
  alreadyRejected: "Esta transferencia ya estaba rechazada.",
  cannotApproveRejected: "Ya rechazaste esta transferencia: no se puede aprobar.",
  cannotRejectApproved: "Esta transferencia ya fue aprobada: si hace falta, devolvé la compra.",
  cannotRejectExpired: "La reserva ya venció: las entradas volvieron a la venta y no hay nada que rechazar.",
  reasonTooLong: "Usá hasta 500 caracteres",
} as const;

export const BANK_TRANSFER_STATUSES = ["pending", "approved", "rejected", "expired", "all"] as const;
export type BankTransferStatus = Exclude<(typeof BANK_TRANSFER_STATUSES)[number], "all"> | "closed";

const uuid = z.string().uuid("Identificador inválido");

type ReceiptRow = typeof bankTransferReceipts.$inferSelect;
type ReviewRow = typeof bankTransferReviews.$inferSelect;

/** What a transfer looks like from the outside, from its order, billing and review. */
export function transferStatus(order: Pick<OrderRow, "status" | "holdExpiresAt">, billing: Pick<BillingRow, "status">, review: Pick<ReviewRow, "decision"> | null, now: Date): BankTransferStatus {
  if (billing.status === "approved" || billing.status === "refunded" || billing.status === "charged_back") return "approved";
  if (review?.decision === "rejected") return "rejected";
  if (order.status === "expired") return "expired";
  if (order.status === "draft" && billing.status === "pending") return order.holdExpiresAt && order.holdExpiresAt <= now ? "expired" : "pending";
  return "closed";
}

async function currentReceipt(db: Ctx["db"], billingId: string): Promise<ReceiptRow | null> {
  const [row] = await db.select().from(bankTransferReceipts).where(and(eq(bankTransferReceipts.billingId, billingId), isNull(bankTransferReceipts.replacedAt)));
  return row ?? null;
}

async function reviewOf(db: Ctx["db"], billingId: string): Promise<ReviewRow | null> {
  const [row] = await db.select().from(bankTransferReviews).where(eq(bankTransferReviews.billingId, billingId));
  return row ?? null;
}

function accountView(account: BankAccountRow | null) {
  return account
    ? { bankName: account.bankName, cbu: account.cbu, alias: account.alias, holderName: account.holderName, holderCuit: account.holderCuit, isCvu: account.cbu.startsWith("000") }
    : null;
}

/**
 * `/checkout/bank-transfer/{billingId}`: for its buyer (account or the `t`
 * token) or the organization's members. The amount, the organization's
 * transfer account (null when it has none), the order code for the
 * transfer's reference, the hold's end, the current receipt and the review,
 * and where its tickets and receipt are read (`purchaseLink`: the token only
 * for whoever came with it, never minted for a member or the buyer's account).
 */
export async function getBankTransferPage(ctx: Ctx, billingId: string, options: { token?: string | null } = {}) {
  const view = await getBillingForBuyer(ctx, billingId, options);
  const { order, billing } = view;
  if (order.paymentMethod !== "BANK_TRANSFER" || billing.provider !== "bank_transfer") throw new NotFound(BANK_TRANSFER_MESSAGES.notBankTransfer);
  const [[event], [organization], account, receipt, review] = await Promise.all([
    ctx.db.select({ name: events.name, slug: events.slug }).from(events).where(eq(events.id, order.eventId)),
    ctx.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, order.organizationId)),
    getTicketTransferAccount(ctx.db, order.organizationId),
    currentReceipt(ctx.db, billing.id),
    reviewOf(ctx.db, billing.id),
  ]);
  return {
    ...view,
    event: event ?? null,
    organizationName: organization?.name ?? "",
    account: accountView(account),
    receipt,
    review,
    status: transferStatus(order, billing, review, ctx.now),
    ticketsPath: purchaseLink(ctx, `/tickets/${billing.id}`, { billingId: billing.id, token: options.token, buyerUserId: order.buyerUserId }),
    receiptPath: receipt ? purchaseLink(ctx, receiptPath(receipt.id), { billingId: billing.id, token: options.token, buyerUserId: order.buyerUserId }) : null,
  };
}

/**
 * The buyer uploads (or replaces) the receipt of a pending transfer whose
 * hold is still on. Checked by size, magic bytes and opening it whole before
 * anything is written; the previous receipt, if any, stops being the current one in the
 * same transaction that records the new one.
 */
export async function uploadBankTransferReceipt(
  ctx: Ctx,
  input: { billingId: string; token?: string | null; bytes: Uint8Array | null | undefined; fileName?: string | null },
): Promise<ReceiptRow> {
  const page = await getBankTransferPage(ctx, input.billingId, { token: input.token });
  if (page.status === "expired") throw new Invalid({ receipt: [BANK_TRANSFER_MESSAGES.holdOver] }, BANK_TRANSFER_MESSAGES.holdOver);
  if (page.status !== "pending") throw new Invalid({ receipt: [BANK_TRANSFER_MESSAGES.notPending] }, BANK_TRANSFER_MESSAGES.notPending);
  const type: ReceiptType = await checkReceipt(input.bytes);
  const file = await storeReceiptFile(input.bytes!, type);
  const originalName = safeFileName(input.fileName ?? "", type);
  return ctx.db.transaction(async (tx) => {
    // Lock the billing row: two uploads at once replace one another in turn.
    await tx.execute(sql`select id from ${billings} where id = ${page.billing.id} for update`);
    await tx
      .update(bankTransferReceipts)
      .set({ replacedAt: ctx.now })
      .where(and(eq(bankTransferReceipts.billingId, page.billing.id), isNull(bankTransferReceipts.replacedAt)));
    const [row] = await tx
      .insert(bankTransferReceipts)
      .values({
        billingId: page.billing.id,
        orderId: page.order.id,
        organizationId: page.order.organizationId,
        file,
        contentType: type,
        size: input.bytes!.length,
        originalName,
        uploadedByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        createdAt: ctx.now,
      })
      .returning();
    return row;
  });
}

/**
 * A receipt's file, for the buyer of its billing (account or token) or the
 * organization's members with `sales:read`; anyone else: NotFound (whether
 * it exists is not revealed). Replaced receipts stay readable to them.
 */
export async function readBankTransferReceipt(ctx: Ctx, receiptId: string, options: { token?: string | null } = {}) {
  if (!uuid.safeParse(receiptId).success) throw new NotFound(BANK_TRANSFER_MESSAGES.notFound);
  const [receipt] = await ctx.db.select().from(bankTransferReceipts).where(eq(bankTransferReceipts.id, receiptId));
  if (!receipt) throw new NotFound(BANK_TRANSFER_MESSAGES.notFound);
  // Same readers as the billing itself (server/orders/orders.ts).
  await getBillingForBuyer(ctx, receipt.billingId, options);
  const bytes = await readReceiptFile(receipt.file);
  if (!bytes) throw new NotFound(BANK_TRANSFER_MESSAGES.notFound);
  return { bytes, contentType: receipt.contentType as ReceiptType, fileName: receipt.originalName };
}

/** Where a receipt is read: with the buyer's token, or plain for members (their session). */
export function receiptPath(receiptId: string): string {
  return `/comprobantes/${receiptId}`;
}

// ───────────────────────── Organizer side ─────────────────────────

export const listBankTransfersSchema = z.object({
  organizationId: uuid,
  status: z.enum(BANK_TRANSFER_STATUSES, { error: "Elegí un estado" }).default("pending"),
  eventId: uuid.nullish().transform((v) => v ?? undefined),
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export interface BankTransferItem {
  billingId: string;
  orderId: string;
  orderCode: string;
  organizationId: string;
  event: { id: string; name: string; slug: string };
  buyer: { name: string; email: string; documentNumber: string };
  amount: number;
  holdExpiresAt: Date | null;
  createdAt: Date;
  status: BankTransferStatus;
  receipt: { id: string; contentType: string; originalName: string; size: number; uploadedAt: Date } | null;
  review: { decision: string; reason: string | null; reviewedAt: Date } | null;
  items: { name: string; qty: number }[];
}

/**
 * `bankTransfers(organizationId, status)`: the organization's transfers
 * (pending by default, the closest hold first), optionally of one event.
 */
export async function listBankTransfers(ctx: Ctx, rawInput: DomainInput<typeof listBankTransfersSchema>): Promise<{ items: BankTransferItem[]; total: number; page: number; limit: number }> {
  const input = parseInput(listBankTransfersSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "sales:read");
  const conditions: SQL[] = [eq(orders.organizationId, input.organizationId), eq(orders.paymentMethod, "BANK_TRANSFER"), eq(billings.provider, "bank_transfer")];
  if (input.eventId) conditions.push(eq(orders.eventId, input.eventId));
  if (input.status === "pending") conditions.push(eq(orders.status, "draft"), eq(billings.status, "pending"), gt(orders.holdExpiresAt, ctx.now));
  if (input.status === "approved") conditions.push(inArray(billings.status, ["approved", "refunded", "charged_back"]));
  if (input.status === "rejected") conditions.push(eq(bankTransferReviews.decision, "rejected"));
  if (input.status === "expired") conditions.push(or(eq(orders.status, "expired"), and(eq(orders.status, "draft"), lte(orders.holdExpiresAt, ctx.now)))!);
  const where = and(...conditions);

  const base = ctx.db
    .select({ order: orders, billing: billings, review: bankTransferReviews, receipt: bankTransferReceipts, event: { id: events.id, name: events.name, slug: events.slug } })
    .from(orders)
    .innerJoin(billings, eq(billings.orderId, orders.id))
    .innerJoin(events, eq(events.id, orders.eventId))
    .leftJoin(bankTransferReviews, eq(bankTransferReviews.billingId, billings.id))
    .leftJoin(bankTransferReceipts, and(eq(bankTransferReceipts.billingId, billings.id), isNull(bankTransferReceipts.replacedAt)));
  const [rows, [{ total }]] = await Promise.all([
    base
      .where(where)
      .orderBy(...(input.status === "pending" ? [asc(orders.holdExpiresAt)] : [desc(orders.createdAt)]), asc(orders.id))
      .limit(input.limit)
      .offset(input.page * input.limit),
    ctx.db
      .select({ total: count() })
      .from(orders)
      .innerJoin(billings, eq(billings.orderId, orders.id))
      .leftJoin(bankTransferReviews, eq(bankTransferReviews.billingId, billings.id))
      .where(where),
  ]);
  const lines = rows.length
    ? await ctx.db
        .select({ orderId: orderItems.orderId, name: orderItems.name, qty: orderItems.qty })
        .from(orderItems)
        .where(inArray(orderItems.orderId, rows.map((r) => r.order.id)))
    : [];
  const items = rows.map(({ order, billing, review, receipt, event }) =>
    toItem(order, billing, review, receipt, event, lines.filter((l) => l.orderId === order.id).map((l) => ({ name: l.name, qty: l.qty })), ctx.now),
  );
  return { items, total: Number(total), page: input.page, limit: input.limit };
}

/** One transfer as the list shows it (after a decision). */
export async function getBankTransfer(ctx: Ctx, billingId: string): Promise<BankTransferItem> {
  const { order, billing } = await loadForOrganizer(ctx, billingId, "sales:read");
  const [receipt, review, [event], lines] = await Promise.all([
    currentReceipt(ctx.db, billingId),
    reviewOf(ctx.db, billingId),
    ctx.db.select({ id: events.id, name: events.name, slug: events.slug }).from(events).where(eq(events.id, order.eventId)),
    ctx.db.select({ name: orderItems.name, qty: orderItems.qty }).from(orderItems).where(eq(orderItems.orderId, order.id)),
  ]);
  return toItem(order, billing, review, receipt, event, lines, ctx.now);
}

function toItem(
  order: OrderRow,
  billing: BillingRow,
  review: ReviewRow | null,
  receipt: ReceiptRow | null,
  event: BankTransferItem["event"],
  lines: BankTransferItem["items"],
  now: Date,
): BankTransferItem {
  return {
    billingId: billing.id,
    orderId: order.id,
    orderCode: order.code,
    organizationId: order.organizationId,
    event,
    buyer: { name: `${order.payer.firstName} ${order.payer.lastName}`, email: order.payer.email, documentNumber: order.payer.documentNumber },
    amount: billing.amount,
    holdExpiresAt: order.holdExpiresAt,
    createdAt: order.createdAt,
    status: transferStatus(order, billing, review, now),
    receipt: receipt ? { id: receipt.id, contentType: receipt.contentType, originalName: receipt.originalName, size: receipt.size, uploadedAt: receipt.createdAt } : null,
    review: review ? { decision: review.decision, reason: review.reason, reviewedAt: review.reviewedAt } : null,
    items: lines,
  };
}

async function loadForOrganizer(ctx: Ctx, billingId: string, capability: "sales:read" | "money:manage") {
  if (!uuid.safeParse(billingId).success) throw new NotFound(BANK_TRANSFER_MESSAGES.notFound);
  const [row] = await ctx.db.select({ billing: billings, order: orders }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(billings.id, billingId));
  if (!row || row.billing.provider !== "bank_transfer") throw new NotFound(BANK_TRANSFER_MESSAGES.notFound);
  await requireCapability(ctx, row.order.organizationId, capability);
  return row;
}

export type ApproveOutcome = "approved" | "orphan-honoured" | "orphan-refunded" | "already-approved";

const approveBankTransferSchema = z.object({ billingId: uuid });

/**
 * `approveBankTransfer`: the money arrived. The lifecycle's approvePayment
 * with source "transfer" (the same transition as a provider's approval), so
 * the tickets are issued once and the ledger books it once however many
 * times (or at the same moment) it is called; after the hold expired the
 * late-payment rules apply (honoured if stock remains, else refunded). A
 * rejected transfer cannot be approved.
 */
export async function approveBankTransfer(ctx: Ctx, rawInput: DomainInput<typeof approveBankTransferSchema>): Promise<{ outcome: ApproveOutcome; transfer: BankTransferItem }> {
  const { billingId } = parseInput(approveBankTransferSchema, rawInput);
  const { billing, order } = await loadForOrganizer(ctx, billingId, "money:manage");
  const review = await reviewOf(ctx.db, billingId);
  if (review?.decision === "rejected") throw new Conflict(BANK_TRANSFER_MESSAGES.cannotApproveRejected);
  const result: ApprovalOutcome = await ctx.db.transaction((tx) =>
    approvePayment(tx, { billingId, source: "transfer", paymentId: transferPaymentId(billingId), amount: billing.amount }, ctx.now),
  );
  let outcome: ApproveOutcome;
  switch (result) {
    case "approved":
    case "orphan-honoured":
    case "orphan-refunded":
      outcome = result;
      break;
    case "already-applied":
      outcome = "already-approved";
      break;
    default: {
      // The order was closed meanwhile (rejected at the same moment) or never payable.
      const again = await reviewOf(ctx.db, billingId);
      throw new Conflict(again?.decision === "rejected" ? BANK_TRANSFER_MESSAGES.cannotApproveRejected : BANK_TRANSFER_MESSAGES.notPending);
    }
  }
  if (outcome !== "already-approved") {
    await ctx.db
      .insert(bankTransferReviews)
      .values({ billingId, decision: "approved", reviewedByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null, reviewedAt: ctx.now })
      .onConflictDoNothing();
    await recordAudit(ctx.db, ctx, { organizationId: order.organizationId, action: "bank-transfer.approve", targetId: billingId, data: { code: order.code, amount: billing.amount, outcome } });
  }
  return { outcome, transfer: await getBankTransfer(ctx, billingId) };
}

export const rejectBankTransferSchema = z.object({
  billingId: uuid,
  reason: z
    .string()
    .trim()
    .max(500, BANK_TRANSFER_MESSAGES.reasonTooLong)
    .nullish()
    .transform((v) => v || null),
});

/**
 * `rejectBankTransfer`: no money (or not the right amount). The lifecycle's
 * rejectTransfer moves the order draft → closed; only the caller that made it
 * gets the stock back, the billing cancelled, the coupon use given back and
 * the buyer's email (the lifecycle's onTransferRejected), and records the
 * reason, in the same transaction.
 * Rejecting again is a no-op; rejecting an approved or expired one is a
 * Conflict.
 */
export async function rejectBankTransfer(ctx: Ctx, rawInput: DomainInput<typeof rejectBankTransferSchema>): Promise<{ outcome: "rejected" | "already-rejected"; transfer: BankTransferItem }> {
  const input = parseInput(rejectBankTransferSchema, rawInput);
  const { order } = await loadForOrganizer(ctx, input.billingId, "money:manage");
  const closed = await ctx.db.transaction(async (tx) => {
    const row = await rejectTransfer(tx, { orderId: order.id, billingId: input.billingId, reason: input.reason }, ctx.now);
    if (!row) return null;
    await tx
      .insert(bankTransferReviews)
      .values({ billingId: input.billingId, decision: "rejected", reason: input.reason, reviewedByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null, reviewedAt: ctx.now })
      .onConflictDoNothing();
    await recordAudit(tx, ctx, { organizationId: row.organizationId, action: "bank-transfer.reject", targetId: input.billingId, data: { code: row.code, reason: input.reason } });
    return row;
  });
  if (!closed) {
    const [[current], review] = await Promise.all([
      ctx.db.select({ order: orders, billing: billings }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(billings.id, input.billingId)),
      reviewOf(ctx.db, input.billingId),
    ]);
    const status = transferStatus(current.order, current.billing, review, ctx.now);
    if (status === "rejected") return { outcome: "already-rejected", transfer: await getBankTransfer(ctx, input.billingId) };
    if (status === "approved") throw new Conflict(BANK_TRANSFER_MESSAGES.cannotRejectApproved);
    if (status === "expired") throw new Conflict(BANK_TRANSFER_MESSAGES.cannotRejectExpired);
    throw new Conflict(BANK_TRANSFER_MESSAGES.notPending);
  }
  return { outcome: "rejected", transfer: await getBankTransfer(ctx, input.billingId) };
}
