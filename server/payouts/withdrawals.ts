import type { WithdrawalRow } from "#server/db/schema";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { RELEASE_HOURS } from "#common/payouts";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { bankAccounts, eventDates, ledgerEntries, memberships, orders, organizations, users, withdrawals, type WithdrawalStatus } from "#server/db/schema";
import { sendEmail } from "#server/email/send";
import { emailLayout, escapeHtml } from "#server/email/templates";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { requireSecondFactor } from "#server/accounts/two-factor";
import { recordAudit } from "#server/organizations/audit";
import { moneySchema } from "#server/events/schemas";
import { requireCapability, requirePlatformAdmin as requireAnyPlatformAdmin } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";

/*
 * Withdrawals (docs/payouts.md, decision 107). The ledger is the truth:
 * - what an order brought (payment, fees, refunds, chargebacks, transfers
 *   collected directly) is "a liberar" until RELEASE_HOURS after its event
 *   date ended — the buyers' refund window is over and chargebacks for a
 *   show that happened are rare — and "disponible" after;
 * - a withdrawal takes its amount out of the ledger when it is requested
 *   (so two requests can never spend the same pesos) and a rejection gives it
 *   back once (`withdrawal_reversal`, unique per withdrawal);
 * - requests are serialised per organization by locking its row, and the
 *   available balance is read inside that same transaction.
 */

export { RELEASE_HOURS };
export const WITHDRAWAL_EMAIL_KIND = "withdrawal";

export const WITHDRAWAL_MESSAGES = {
  tooMuch: (available: number) => (available > 0 ? `No tenés tanto disponible: podés retirar hasta ${formatMoney(available)}.` : "Todavía no tenés dinero disponible para retirar."),
  account: "Elegí una cuenta bancaria de la organización.",
  notFound: "No encontramos esa extracción.",
  transition: "Esa extracción ya cambió de estado: recargá la página.",
  reason: "Contá por qué la rechazás (lo lee la organización).",
  reference: "Escribí la referencia de la transferencia.",
  onlyPlatform: "Solo el equipo de Tribuna aprueba y paga extracciones.",
} as const;

const uuid = z.uuid({ error: "Identificador inválido." });

export interface Balance {
  /** What can be withdrawn now (never below 0). */
  available: number;
  /** The ledger's sum as it stands now, released or not (may be negative: fees owed). */
  total: number;
  /** Money of events not yet released, by release date (oldest first). */
  pending: { releaseAt: Date; amount: number }[];
}

/**
 * The release moment of an order's money (decision 145): RELEASE_HOURS after the later of its event date's
 * end and the moment the payment was booked (the first entry of its billing). Counting from the payment too
 * means a date moved into the past, or a sale made after the show, still waits the whole hold; every entry
 * of one billing (fee, refund, chargeback) shares that moment, so a refund before it nets out in "a liberar".
 */
const paidAtSql = sql`(select min(paid.created_at) from ${ledgerEntries} as paid where paid.billing_id = ${ledgerEntries.billingId})`;
const releaseAtSql = sql<Date>`(greatest(${eventDates.endsAt}, coalesce(${paidAtSql}, ${ledgerEntries.createdAt})) + ${sql.raw(`interval '${RELEASE_HOURS} hours'`)})`;

/** The organization's balance split into available now and to be released (read in the caller's transaction). */
export async function balanceOf(db: DbOrTx, organizationId: string, now: Date): Promise<Balance> {
  // Entries that are not of an order (withdrawals and their reversals) count at once: no release moment.
  const entries = db
    .select({ amount: ledgerEntries.amount, releaseAt: sql<Date | null>`case when ${ledgerEntries.orderId} is null then null else ${releaseAtSql} end`.as("release_at") })
    .from(ledgerEntries)
    .leftJoin(orders, eq(orders.id, ledgerEntries.orderId))
    .leftJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .where(eq(ledgerEntries.organizationId, organizationId))
    .as("entries");
  const at = sql`${now.toISOString()}::timestamptz`;
  const [[released], pendingRows] = await Promise.all([
    db
      .select({
        total: sql<string>`coalesce(sum(${entries.amount}), 0)`,
        releasedTotal: sql<string>`coalesce(sum(${entries.amount}) filter (where ${entries.releaseAt} is null or ${entries.releaseAt} <= ${at}), 0)`,
      })
      .from(entries),
    db
      .select({ releaseAt: sql<Date>`${entries.releaseAt}`.mapWith((v: string | Date) => new Date(v)), amount: sql<string>`sum(${entries.amount})` })
      .from(entries)
      .where(sql`${entries.releaseAt} > ${at}`)
      .groupBy(entries.releaseAt)
      .orderBy(entries.releaseAt),
  ]);
  return {
    available: Math.max(0, Number(released?.releasedTotal ?? 0)),
    total: Number(released?.total ?? 0),
    pending: pendingRows.map((r) => ({ releaseAt: r.releaseAt, amount: Number(r.amount) })).filter((r) => r.amount !== 0),
  };
}

/** `withdrawalBalance`: owners and admins read it (money:manage). */
export async function getWithdrawalBalance(ctx: Ctx, organizationId: string): Promise<Balance> {
  await requireCapability(ctx, organizationId, "money:manage");
  return balanceOf(ctx.db, organizationId, ctx.now);
}

const requestSchema = z.object({
  organizationId: uuid,
  bankAccountId: z.uuid({ error: WITHDRAWAL_MESSAGES.account }),
  amount: moneySchema.refine((v) => v > 0, "Ingresá un monto mayor a cero."),
});

/**
 * `requestWithdrawal`: part of the available balance to one of the
 * organization's bank accounts. The organization's row is locked for the
 * transaction, so two requests at the same moment are judged one after the
 * other against the balance the first one left.
 */
export async function requestWithdrawal(ctx: Ctx, rawInput: DomainInput<typeof requestSchema>): Promise<WithdrawalRow> {
  const input = parseInput(requestSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "money:manage");
  // Money leaving: only from a sign-in that proved the second factor (docs/api.md, two-factor sign-in).
  await requireSecondFactor(ctx);
  const created = await ctx.db.transaction(async (tx) => {
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organizationId)).for("update");
    const [account] = await tx
      .select()
      .from(bankAccounts)
      .where(and(eq(bankAccounts.id, input.bankAccountId), eq(bankAccounts.organizationId, input.organizationId), isNull(bankAccounts.deletedAt)));
    if (!account) throw new Invalid({ bankAccountId: [WITHDRAWAL_MESSAGES.account] });
    const { available } = await balanceOf(tx, input.organizationId, ctx.now);
    if (input.amount > available) throw new Invalid({ amount: [WITHDRAWAL_MESSAGES.tooMuch(available)] });
    const [row] = await tx
      .insert(withdrawals)
      .values({
        organizationId: input.organizationId,
        bankAccountId: account.id,
        // Paid to the account as it is now (decision 144): a later edit of the account never redirects it.
        bankName: account.bankName,
        cbu: account.cbu,
        alias: account.alias,
        holderName: account.holderName,
        holderCuit: account.holderCuit,
        amount: input.amount,
        requestedByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        requestedAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning();
    await tx.insert(ledgerEntries).values({
      organizationId: input.organizationId,
      withdrawalId: row.id,
      kind: "withdrawal",
      amount: -input.amount,
      description: `Extracción a la cuenta ${account.bankName} terminada en ${account.cbu.slice(-4)}`,
      createdAt: ctx.now,
    });
    await recordAudit(tx, ctx, { organizationId: input.organizationId, action: "withdrawal.request", targetId: row.id, data: { amount: input.amount, cbuEnd: account.cbu.slice(-4) } });
    return row;
  });
  await notify(ctx, created, "requested");
  return created;
}

const requirePlatformAdmin = (ctx: Ctx) => requireAnyPlatformAdmin(ctx, WITHDRAWAL_MESSAGES.onlyPlatform);

/** One conditional UPDATE per transition: of two admins clicking at once, one changes it and the other is told. */
async function transition(
  tx: DbOrTx,
  id: string,
  from: WithdrawalStatus[],
  values: Partial<WithdrawalRow>,
): Promise<WithdrawalRow> {
  if (!uuid.safeParse(id).success) throw new NotFound(WITHDRAWAL_MESSAGES.notFound);
  const [row] = await tx
    .update(withdrawals)
    .set(values)
    .where(and(eq(withdrawals.id, id), inArray(withdrawals.status, from)))
    .returning();
  if (row) return row;
  const [exists] = await tx.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.id, id));
  if (!exists) throw new NotFound(WITHDRAWAL_MESSAGES.notFound);
  throw new Conflict(WITHDRAWAL_MESSAGES.transition);
}

/** `approveWithdrawal` (platform admins): requested → approved. */
export async function approveWithdrawal(ctx: Ctx, id: string): Promise<WithdrawalRow> {
  requirePlatformAdmin(ctx);
  await requireSecondFactor(ctx);
  const row = await transition(ctx.db, id, ["requested"], { status: "approved", approvedAt: ctx.now, decidedByUserId: actorId(ctx), updatedAt: ctx.now });
  await recordAudit(ctx.db, ctx, { organizationId: row.organizationId, action: "withdrawal.approve", targetId: row.id, data: { amount: row.amount } });
  await notify(ctx, row, "approved");
  return row;
}

const markWithdrawalPaidSchema = z.object({ id: z.string(), transferReference: z.string().trim().min(3, WITHDRAWAL_MESSAGES.reference).max(100) });

/** `markWithdrawalPaid` (platform admins): approved → paid, with the bank transfer's reference. */
export async function markWithdrawalPaid(ctx: Ctx, rawInput: DomainInput<typeof markWithdrawalPaidSchema>): Promise<WithdrawalRow> {
  requirePlatformAdmin(ctx);
  await requireSecondFactor(ctx);
  const input = parseInput(markWithdrawalPaidSchema, rawInput);
  const row = await transition(ctx.db, input.id, ["approved"], { status: "paid", paidAt: ctx.now, transferReference: input.transferReference, decidedByUserId: actorId(ctx), updatedAt: ctx.now });
  await recordAudit(ctx.db, ctx, { organizationId: row.organizationId, action: "withdrawal.paid", targetId: row.id, data: { amount: row.amount, transferReference: input.transferReference } });
  await notify(ctx, row, "paid");
  return row;
}

const rejectWithdrawalSchema = z.object({ id: z.string(), reason: z.string().trim().min(5, WITHDRAWAL_MESSAGES.reason).max(500) });

/** `rejectWithdrawal` (platform admins): requested or approved → rejected; the amount goes back to the balance once. */
export async function rejectWithdrawal(ctx: Ctx, rawInput: DomainInput<typeof rejectWithdrawalSchema>): Promise<WithdrawalRow> {
  requirePlatformAdmin(ctx);
  const input = parseInput(rejectWithdrawalSchema, rawInput);
  const row = await ctx.db.transaction(async (tx) => {
    const rejected = await transition(tx, input.id, ["requested", "approved"], { status: "rejected", rejectedAt: ctx.now, rejectionReason: input.reason, decidedByUserId: actorId(ctx), updatedAt: ctx.now });
    await tx.insert(ledgerEntries).values({
      organizationId: rejected.organizationId,
      withdrawalId: rejected.id,
      kind: "withdrawal_reversal",
      amount: rejected.amount,
      description: `Extracción rechazada: ${input.reason}`,
      createdAt: ctx.now,
    });
    await recordAudit(tx, ctx, { organizationId: rejected.organizationId, action: "withdrawal.reject", targetId: rejected.id, data: { amount: rejected.amount, reason: input.reason } });
    return rejected;
  });
  await notify(ctx, row, "rejected");
  return row;
}

function actorId(ctx: Ctx) {
  return ctx.actor.kind === "user" ? ctx.actor.userId : null;
}

export interface WithdrawalView extends WithdrawalRow {
  /** Last 4 digits of the CBU/CVU it is paid to (the snapshot taken when it was requested). */
  cbuEnd: string;
  organizationName: string;
}

const listSchema = z.object({
  organizationId: uuid.optional(),
  statuses: z.array(z.enum(["requested", "approved", "paid", "rejected"])).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * `withdrawals`: an organization's (money:manage), or — for platform admins
 * without an organization — every organization's queue, newest first.
 */
export async function listWithdrawals(ctx: Ctx, rawInput: DomainInput<typeof listSchema>): Promise<WithdrawalView[]> {
  const input = parseInput(listSchema, rawInput);
  if (input.organizationId) await requireCapability(ctx, input.organizationId, "money:manage");
  else requirePlatformAdmin(ctx);
  const rows = await ctx.db
    .select({ w: withdrawals, organizationName: organizations.name })
    .from(withdrawals)
    .innerJoin(organizations, eq(organizations.id, withdrawals.organizationId))
    .where(and(input.organizationId ? eq(withdrawals.organizationId, input.organizationId) : undefined, input.statuses?.length ? inArray(withdrawals.status, input.statuses) : undefined))
    .orderBy(desc(withdrawals.requestedAt))
    .limit(input.limit);
  // The account as it was when requested (decision 144), not the live one: that is where the platform pays.
  return rows.map((r) => ({ ...r.w, cbuEnd: r.w.cbu.slice(-4), organizationName: r.organizationName }));
}

const STATUS_WORDS: Record<WithdrawalStatus, string> = {
  requested: "Recibimos tu pedido de extracción",
  approved: "Aprobamos tu extracción",
  paid: "Te transferimos tu extracción",
  rejected: "Rechazamos tu extracción",
};

/** The organization's owners and admins hear of every change (after the change committed; the email log keeps it). */
async function notify(ctx: Ctx, row: WithdrawalRow, status: WithdrawalStatus) {
  const recipients = await ctx.db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, row.organizationId), inArray(memberships.role, ["owner", "admin"])));
  const amount = formatMoney(row.amount);
  const detail =
    status === "paid"
      ? `Referencia de la transferencia: ${row.transferReference ?? "—"}.`
      : status === "rejected"
        ? `Motivo: ${row.rejectionReason ?? "—"}. El monto volvió a tu saldo disponible.`
        : status === "approved"
          ? "La vamos a transferir en los próximos días hábiles."
          : `Pedida el ${formatDateTime(row.requestedAt)}. Te avisamos cuando la aprobemos.`;
  const title = `${STATUS_WORDS[status]} de ${amount}`;
  for (const { email } of recipients) {
    await sendEmail(ctx.db, {
      to: email,
      kind: WITHDRAWAL_EMAIL_KIND,
      organizationId: row.organizationId,
      subject: title,
      html: emailLayout(title, `<p>${escapeHtml(detail)}</p>`, "Te escribimos porque sos dueño/a o administrador/a de la organización en Tribuna."),
      text: `${title}\n${detail}`,
    });
  }
}
