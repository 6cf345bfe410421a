import type { BankAccountRow } from "#server/db/schema";
import { recordAudit } from "#server/organizations/audit";
import { and, asc, desc, eq, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import { BANK_ACCOUNT_MESSAGES, bankAccountFields } from "#common/bank-accounts";
import { bankNameOf } from "#common/cbu";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { bankAccounts } from "#server/db/schema";
import { Invalid, NotFound } from "#server/errors";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { isUniqueViolation } from "#server/db/errors";

/**
 * An organization's bank accounts (DESIGN.md §4). Kept general: ticket
 * transfers use the one marked `forTicketTransfers` (or, when none is, the
 * oldest); withdrawals will pick any of them. Reading and writing them needs
 * `money:manage` (owners and admins).
 */

export { BANK_ACCOUNT_MESSAGES };

const uuid = z.string().uuid("Identificador inválido");
const fields = bankAccountFields;

export const createBankAccountSchema = z.object({ organizationId: uuid, ...fields });
export const updateBankAccountSchema = z.object({ id: uuid, ...fields });
export type BankAccountInput = z.input<typeof createBankAccountSchema>;

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

/** One account of an organization, for its members with `money:manage`. */
export async function getBankAccount(ctx: Ctx, id: string): Promise<BankAccountRow> {
  const row = await getAccount(ctx, id);
  await requireCapability(ctx, row.organizationId, "money:manage");
  return row;
}

/**
 * `createBankAccount`: the bank name comes from the CBU's bank code when not
 * typed. The organization's first account is the one for ticket transfers;
 * marking another one unmarks the previous, in the same transaction.
 */
export async function createBankAccount(ctx: Ctx, rawInput: DomainInput<typeof createBankAccountSchema>): Promise<BankAccountRow> {
  const input = parseInput(createBankAccountSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "money:manage");
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
  const bankName = bankNameFor(input);
  try {
    return await ctx.db.transaction(async (tx) => {
      // Unmarking the only marked account leaves none marked: the oldest is then used (getTicketTransferAccount).
      const forTicketTransfers = input.forTicketTransfers ?? current.forTicketTransfers;
      if (forTicketTransfers && !current.forTicketTransfers) await unmarkOthers(tx, current.organizationId, current.id, ctx.now);
      const [row] = await tx
        .update(bankAccounts)
        .set({ bankName, cbu: input.cbu, alias: input.alias ?? null, holderName: input.holderName, holderCuit: input.holderCuit, forTicketTransfers, updatedAt: ctx.now })
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
  const deleted = await ctx.db
    .update(bankAccounts)
    .set({ deletedAt: ctx.now, forTicketTransfers: false, updatedAt: ctx.now })
    .where(and(eq(bankAccounts.id, id), isNull(bankAccounts.deletedAt)))
    .returning({ id: bankAccounts.id });
  if (deleted.length) await recordAudit(ctx.db, ctx, { organizationId: row.organizationId, action: "bank-account.delete", targetId: id, data: auditedAccount(row) });
  return { id };
}

const setTicketTransferAccountSchema = z.object({ id: uuid });

/** Marks one account as the one buyers transfer to (the previous one is unmarked in the same transaction). */
export async function setTicketTransferAccount(ctx: Ctx, rawInput: DomainInput<typeof setTicketTransferAccountSchema>): Promise<BankAccountRow> {
  const { id } = parseInput(setTicketTransferAccountSchema, rawInput);
  const current = await getAccount(ctx, id);
  await requireCapability(ctx, current.organizationId, "money:manage");
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
