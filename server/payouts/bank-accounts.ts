import type { BankAccountRow } from "#server/db/schema";
import { recordAudit } from "#server/organizations/audit";
import { and, asc, desc, eq, gt, inArray, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import { BANK_ACCOUNT_MESSAGES, bankAccountFields } from "#common/bank-accounts";
import { bankNameOf } from "#common/cbu";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { bankAccounts, billings, orders, organizations, withdrawals } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { requireSecondFactor } from "#server/accounts/two-factor";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { isUniqueViolation } from "#server/db/errors";

/**
 * An organization's bank accounts (decisions 34 and 144). Kept general: ticket
 * transfers use the one marked `forTicketTransfers` (or, when none is, the
 * oldest); withdrawals will pick any of them. Reading them needs
 * `money:manage` (owners and admins); creating, editing, deleting or marking
 * one — where money goes — also needs the second factor, like a withdrawal
 * (decision 144). An account that an open withdrawal or a pending ticket
 * transfer points to cannot change where it pays nor be deleted.
 */

export { BANK_ACCOUNT_MESSAGES };

/** Why an account cannot change now (GraphQL: CONFLICT with `extensions.reason` BANK_ACCOUNT_IN_USE). */
export const BANK_ACCOUNT_IN_USE = {
  reason: "BANK_ACCOUNT_IN_USE",
  withdrawal:
    "Esta cuenta tiene una extracción pendiente: no la podés cambiar ni borrar hasta que la paguemos o la rechacemos. Si querés cobrar en otra cuenta, agregala como cuenta nueva.",
  transfers:
    "Hay compras esperando una transferencia a esta cuenta: no la podés cambiar ni borrar hasta que las apruebes o rechaces, o venzan sus reservas. Si querés cobrar en otra cuenta, agregala como cuenta nueva y marcala para transferencias.",
} as const;

/** The fields that say where the money goes: changing any of them is changing the destination. */
const DESTINATION_FIELDS = ["bankName", "cbu", "alias", "holderName", "holderCuit"] as const;

/**
 * Locks the organization's row (as requestWithdrawal does, so a withdrawal and an edit of its account are
 * judged one after the other) and refuses when the account is in use: an open withdrawal to it, or — while
 * buyers have a transfer pending (hold not over) — it is the account they are shown.
 */
async function refuseWhenInUse(tx: DbOrTx, account: BankAccountRow, now: Date, field?: string) {
  await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, account.organizationId)).for("update");
  const fail = (message: string) => {
    const error = new Conflict(message, field ? { [field]: [message] } : {});
    error.reason = BANK_ACCOUNT_IN_USE.reason;
    return error;
  };
  const [open] = await tx
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(and(eq(withdrawals.bankAccountId, account.id), inArray(withdrawals.status, ["requested", "approved"])))
    .limit(1);
  if (open) throw fail(BANK_ACCOUNT_IN_USE.withdrawal);
  const shown = await getTicketTransferAccount(tx, account.organizationId);
  if (shown?.id !== account.id) return;
  const [pending] = await tx
    .select({ id: billings.id })
    .from(billings)
    .innerJoin(orders, eq(orders.id, billings.orderId))
    .where(and(eq(orders.organizationId, account.organizationId), eq(billings.provider, "bank_transfer"), eq(billings.status, "pending"), eq(orders.status, "draft"), gt(orders.holdExpiresAt, now)))
    .limit(1);
  if (pending) throw fail(BANK_ACCOUNT_IN_USE.transfers);
}

const uuid = z.string().uuid("Identificador inválido");
const fields = bankAccountFields;

export const createBankAccountSchema = z.object({ organizationId: uuid, ...fields });
export const updateBankAccountSchema = z.object({ id: uuid, ...fields });

function bankNameFor(input: { bankName?: string; cbu: string }): string {
  const name = input.bankName?.trim() || bankNameOf(input.cbu);
  if (!name) throw new Invalid({ bankName: [BANK_ACCOUNT_MESSAGES.bankName] }, BANK_ACCOUNT_MESSAGES.bankName);
  return name;
}

async function getAccount(ctx: Ctx, id: string): Promise<BankAccountRow> {
  if (!uuid.safeParse(id).success) throw new NotFound(BANK_ACCOUNT_MESSAGES.notFound);
  const [row] = await ctx.db.select().from(bankAccounts).where(and(eq(bankAccounts.id, id), isNull(bankAccounts.deletedAt)));
  if (!row) throw new NotFound(BANK_ACCOUNT_MESSAGES.notFound);
  return row;
}

/** `bankAccounts(organizationId)`: the one used for ticket transfers first, then by creation. */
export async function listBankAccounts(ctx: Ctx, input: { organizationId: string }): Promise<BankAccountRow[]> {
  await requireCapability(ctx, input.organizationId, "money:manage");
  return ctx.db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.organizationId, input.organizationId), isNull(bankAccounts.deletedAt)))
    .orderBy(desc(bankAccounts.forTicketTransfers), asc(bankAccounts.createdAt));
}

/**
 * `createBankAccount`: the bank name comes from the CBU's bank code when not
 * typed. The organization's first account is the one for ticket transfers;
 * marking another one unmarks the previous, in the same transaction.
 */
export async function createBankAccount(ctx: Ctx, rawInput: DomainInput<typeof createBankAccountSchema>): Promise<BankAccountRow> {
  const input = parseInput(createBankAccountSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "money:manage");
  // A new place for money to go: only from a sign-in that proved the second factor (decision 144).
  await requireSecondFactor(ctx);
  const bankName = bankNameFor(input);
  try {
    return await ctx.db.transaction(async (tx) => {
      const existing = await tx
        .select({ id: bankAccounts.id })
        .from(bankAccounts)
        .where(and(eq(bankAccounts.organizationId, input.organizationId), isNull(bankAccounts.deletedAt)));
      const forTicketTransfers = input.forTicketTransfers || existing.length === 0;
      if (forTicketTransfers) await unmarkOthers(tx, input.organizationId, null, ctx.now);
      const [row] = await tx
        .insert(bankAccounts)
        .values({
          organizationId: input.organizationId,
          bankName,
          cbu: input.cbu,
          alias: input.alias ?? null,
          holderName: input.holderName,
          holderCuit: input.holderCuit,
          forTicketTransfers,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await recordAudit(tx, ctx, { organizationId: input.organizationId, action: "bank-account.create", targetId: row.id, data: auditedAccount(row) });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, "bank_accounts_org_cbu_key")) throw new Invalid({ cbu: [BANK_ACCOUNT_MESSAGES.duplicate] }, BANK_ACCOUNT_MESSAGES.duplicate);
    throw error;
  }
}

/** `updateBankAccount(input: { id, … })`: every field again (a form posts them all). */
export async function updateBankAccount(ctx: Ctx, rawInput: DomainInput<typeof updateBankAccountSchema>): Promise<BankAccountRow> {
  const input = parseInput(updateBankAccountSchema, rawInput);
  const current = await getAccount(ctx, input.id);
  await requireCapability(ctx, current.organizationId, "money:manage");
  await requireSecondFactor(ctx);
  const bankName = bankNameFor(input);
  const next = { bankName, cbu: input.cbu, alias: input.alias ?? null, holderName: input.holderName, holderCuit: input.holderCuit };
  const changed = DESTINATION_FIELDS.filter((key) => next[key] !== current[key]);
  try {
    return await ctx.db.transaction(async (tx) => {
      // Where the money goes cannot change under an open withdrawal or buyers about to transfer (decision 144).
      if (changed.length) await refuseWhenInUse(tx, current, ctx.now, changed.includes("cbu") ? "cbu" : changed[0]);
      // Unmarking the only marked account leaves none marked: the oldest is then used (getTicketTransferAccount).
      const forTicketTransfers = input.forTicketTransfers ?? current.forTicketTransfers;
      if (forTicketTransfers && !current.forTicketTransfers) await unmarkOthers(tx, current.organizationId, current.id, ctx.now);
      const [row] = await tx
        .update(bankAccounts)
        .set({ ...next, forTicketTransfers, updatedAt: ctx.now })
        .where(and(eq(bankAccounts.id, current.id), isNull(bankAccounts.deletedAt)))
        .returning();
      if (!row) throw new NotFound(BANK_ACCOUNT_MESSAGES.notFound);
      await recordAudit(tx, ctx, { organizationId: row.organizationId, action: "bank-account.update", targetId: row.id, data: { ...auditedAccount(row), cbuEndBefore: current.cbu.slice(-4) } });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, "bank_accounts_org_cbu_key")) throw new Invalid({ cbu: [BANK_ACCOUNT_MESSAGES.duplicate] }, BANK_ACCOUNT_MESSAGES.duplicate);
    throw error;
  }
}

const deleteBankAccountSchema = z.object({ id: uuid });

/**
 * `deleteBankAccount(input: { id })`: the account disappears from every list
 * but its row stays (deletedAt), so transfers and withdrawals that named it
 * keep their record. Deleting it twice is not an error.
 */
export async function deleteBankAccount(ctx: Ctx, rawInput: DomainInput<typeof deleteBankAccountSchema>): Promise<{ id: string }> {
  const { id } = parseInput(deleteBankAccountSchema, rawInput);
  const [row] = await ctx.db.select().from(bankAccounts).where(eq(bankAccounts.id, id));
  if (!row) throw new NotFound(BANK_ACCOUNT_MESSAGES.notFound);
  await requireCapability(ctx, row.organizationId, "money:manage");
  await requireSecondFactor(ctx);
  if (row.deletedAt) return { id };
  await ctx.db.transaction(async (tx) => {
    await refuseWhenInUse(tx, row, ctx.now);
    const deleted = await tx
      .update(bankAccounts)
      .set({ deletedAt: ctx.now, forTicketTransfers: false, updatedAt: ctx.now })
      .where(and(eq(bankAccounts.id, id), isNull(bankAccounts.deletedAt)))
      .returning({ id: bankAccounts.id });
    if (deleted.length) await recordAudit(tx, ctx, { organizationId: row.organizationId, action: "bank-account.delete", targetId: id, data: auditedAccount(row) });
  });
  return { id };
}

const setTicketTransferAccountSchema = z.object({ id: uuid });

/** Marks one account as the one buyers transfer to (the previous one is unmarked in the same transaction). */
export async function setTicketTransferAccount(ctx: Ctx, rawInput: DomainInput<typeof setTicketTransferAccountSchema>): Promise<BankAccountRow> {
  const { id } = parseInput(setTicketTransferAccountSchema, rawInput);
  const current = await getAccount(ctx, id);
  await requireCapability(ctx, current.organizationId, "money:manage");
  // Which account buyers pay to is a money destination too.
  await requireSecondFactor(ctx);
  return ctx.db.transaction(async (tx) => {
    await unmarkOthers(tx, current.organizationId, current.id, ctx.now);
    const [row] = await tx
      .update(bankAccounts)
      .set({ forTicketTransfers: true, updatedAt: ctx.now })
      .where(and(eq(bankAccounts.id, current.id), isNull(bankAccounts.deletedAt)))
      .returning();
    if (!row) throw new NotFound(BANK_ACCOUNT_MESSAGES.notFound);
    await recordAudit(tx, ctx, { organizationId: row.organizationId, action: "bank-account.for-transfers", targetId: row.id, data: auditedAccount(row) });
    return row;
  });
}

/** What the record says of an account: enough to recognise it, not the whole CBU (owners read it, the bank page shows it whole). */
function auditedAccount(row: BankAccountRow) {
  return { bankName: row.bankName, cbuEnd: row.cbu.slice(-4), holderName: row.holderName };
}

async function unmarkOthers(tx: DbOrTx, organizationId: string, keepId: string | null, now: Date) {
  const conditions = [eq(bankAccounts.organizationId, organizationId), eq(bankAccounts.forTicketTransfers, true)];
  if (keepId) conditions.push(ne(bankAccounts.id, keepId));
  await tx.update(bankAccounts).set({ forTicketTransfers: false, updatedAt: now }).where(and(...conditions));
}

/**
 * Where buyers of the organization's BankAccount tickets transfer: the
 * account marked for it, else the oldest one; null when it has none. Public
 * to the buyer of a pending transfer (no capability check: callers show it
 * only on that buyer's page).
 */
export async function getTicketTransferAccount(db: DbOrTx, organizationId: string): Promise<BankAccountRow | null> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.organizationId, organizationId), isNull(bankAccounts.deletedAt)))
    .orderBy(desc(bankAccounts.forTicketTransfers), asc(bankAccounts.createdAt))
    .limit(1);
  return row ?? null;
}

export const NO_TRANSFER_ACCOUNT = "Este organizador todavía no cargó una cuenta para recibir transferencias. Elegí otra entrada o probá más tarde.";

/** createOrder refuses a BANK_TRANSFER order when the organization has nowhere to receive it. */
export async function requireTransferAccount(db: DbOrTx, organizationId: string): Promise<void> {
  if (!(await getTicketTransferAccount(db, organizationId))) throw new Invalid({ paymentMethod: [NO_TRANSFER_ACCOUNT] }, NO_TRANSFER_ACCOUNT);
}
