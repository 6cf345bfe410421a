import { describe, expect, it } from "vitest";
import { buildCbu } from "#common/cbu";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { isDomainError } from "#server/errors";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer } from "#tests/support/factories";
import {
  BANK_ACCOUNT_MESSAGES,
  createBankAccount,
  deleteBankAccount,
  getTicketTransferAccount,
  listBankAccounts,
  setTicketTransferAccount,
  updateBankAccount,
} from "./bank-accounts";

const MACRO = "2850590940090418135201";
const NACION = buildCbu("011", "0123", "4567890123456");

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error("expected a domain error");
}

describe("bank accounts", () => {
  it("creates the first account as the one for ticket transfers, naming the bank from the CBU", async () => {
    const { ctx, organization } = await createProducer();
    const account = await createBankAccount(ctx, { organizationId: organization.id, cbu: "2850590-9 40090418135201", alias: "feria.vinos", holderName: "Feria Natural SRL", holderCuit: "30-71234567-1" });
    expect(account).toMatchObject({ bankName: "Banco Macro", cbu: MACRO, alias: "feria.vinos", holderCuit: "30712345671", forTicketTransfers: true });
    expect((await getTicketTransferAccount(ctx.db, organization.id))?.id).toBe(account.id);
  });

  it("explains every invalid field in Spanish", async () => {
    const { ctx, organization } = await createProducer();
    const error = await errorOf(createBankAccount(ctx, { organizationId: organization.id, cbu: "2850590940090418135202", alias: "ño", holderName: "", holderCuit: "20-12345678-0" }));
    expect(error.code).toBe("BAD_USER_INPUT");
    expect(error.fieldErrors.cbu).toEqual([BANK_ACCOUNT_MESSAGES.cbu]);
    expect(error.fieldErrors.alias).toEqual([BANK_ACCOUNT_MESSAGES.alias]);
    expect(error.fieldErrors.holderName?.[0]).toBeTruthy();
    expect(error.fieldErrors.holderCuit).toEqual([BANK_ACCOUNT_MESSAGES.cuit]);
    // An unknown bank code needs the bank's name.
    const unknown = await errorOf(createBankAccount(ctx, { organizationId: organization.id, cbu: buildCbu("999", "1", "1"), holderName: "Ana", holderCuit: "30-71234567-1" }));
    expect(unknown.fieldErrors.bankName).toEqual([BANK_ACCOUNT_MESSAGES.bankName]);
  });

  it("refuses the same CBU twice in one organization, marks one account at a time and deletes softly", async () => {
    const { ctx, organization } = await createProducer();
    const first = await createBankAccount(ctx, { organizationId: organization.id, cbu: MACRO, holderName: "Ana Paz", holderCuit: "30-71234567-1" });
    const dup = await errorOf(createBankAccount(ctx, { organizationId: organization.id, cbu: MACRO, holderName: "Ana Paz", holderCuit: "30-71234567-1" }));
    expect(dup.fieldErrors.cbu).toEqual([BANK_ACCOUNT_MESSAGES.duplicate]);

    const second = await createBankAccount(ctx, { organizationId: organization.id, cbu: NACION, bankName: "Nación", holderName: "Ana Paz", holderCuit: "30-71234567-1" });
    expect(second.forTicketTransfers).toBe(false);
    await setTicketTransferAccount(ctx, { id: second.id });
    expect((await listBankAccounts(ctx, { organizationId: organization.id })).map((a) => [a.id, a.forTicketTransfers])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    const edited = await updateBankAccount(ctx, { id: first.id, cbu: MACRO, alias: "ana.paz.macro", holderName: "Ana María Paz", holderCuit: "30712345671", forTicketTransfers: true });
    expect(edited).toMatchObject({ alias: "ana.paz.macro", holderName: "Ana María Paz", forTicketTransfers: true });
    expect((await getTicketTransferAccount(ctx.db, organization.id))?.id).toBe(first.id);

    await deleteBankAccount(ctx, { id: first.id });
    await deleteBankAccount(ctx, { id: first.id });
    expect((await listBankAccounts(ctx, { organizationId: organization.id })).map((a) => a.id)).toEqual([second.id]);
    // None marked any more: the remaining one is used.
    expect((await getTicketTransferAccount(ctx.db, organization.id))?.id).toBe(second.id);
    // A deleted CBU can be added again.
    await createBankAccount(ctx, { organizationId: organization.id, cbu: MACRO, holderName: "Ana Paz", holderCuit: "30-71234567-1" });
  });

  it("is only for owners and admins of the organization", async () => {
    const { ctx, organization } = await createProducer();
    const account = await createBankAccount(ctx, { organizationId: organization.id, cbu: MACRO, holderName: "Ana Paz", holderCuit: "30-71234567-1" });
    const stranger = await createProducer();
    expect((await errorOf(listBankAccounts(stranger.ctx, { organizationId: organization.id }))).code).toBe("FORBIDDEN");
    expect((await errorOf(updateBankAccount(stranger.ctx, { id: account.id, cbu: NACION, holderName: "X Y", holderCuit: "30712345671" }))).code).toBe("FORBIDDEN");
    expect((await errorOf(deleteBankAccount(stranger.ctx, { id: account.id }))).code).toBe("FORBIDDEN");
    const operator = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: organization.id, userId: operator.id, role: "operator" });
    const operatorCtx = await ctxAs(actorFor({ ...operator, roles: [] }));
    expect((await errorOf(createBankAccount(operatorCtx, { organizationId: organization.id, cbu: NACION, holderName: "X Y", holderCuit: "30712345671" }))).code).toBe("FORBIDDEN");
    expect((await errorOf(listBankAccounts(await ctxAs(), { organizationId: organization.id }))).code).toBe("UNAUTHENTICATED");
  });
});
