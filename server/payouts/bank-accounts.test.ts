import { describe, expect, it } from "vitest";
import { buildCbu } from "#common/cbu";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { isDomainError } from "#server/errors";
import { eq } from "drizzle-orm";
import { ANONYMOUS } from "#server/context";
import { bankAccounts, orders, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { approveWithdrawal, listWithdrawals, markWithdrawalPaid, rejectWithdrawal, requestWithdrawal } from "#server/payouts/withdrawals";
import { actorFor, createTestUser, ctxAs, withSecondFactor } from "#tests/support/context";
import { createEventWithReleasedSales, createProducer as createProducerWithout2fa, createPublishedEvent } from "#tests/support/factories";
import {
  BANK_ACCOUNT_IN_USE,
  BANK_ACCOUNT_MESSAGES,
  createBankAccount,
  deleteBankAccount,
  getTicketTransferAccount,
  listBankAccounts,
  setTicketTransferAccount,
  updateBankAccount,
} from "./bank-accounts";

/** An owner acting from a sign-in that proved the second factor (money destinations ask for it, decision 144). */
async function createProducer() {
  const made = await createProducerWithout2fa();
  return { ...made, ctx: await withSecondFactor(made.ctx) };
}

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

describe("bank accounts are money destinations: second factor, and no change under a pending payment (decision 144)", () => {
  it("an admin who never turned the second factor on cannot create, edit, mark or delete an account; the owner must prove it in this sign-in", async () => {
    const { ctx, organization, user } = await createProducer();
    const account = await createBankAccount(ctx, { organizationId: organization.id, cbu: MACRO, holderName: "Ana Paz", holderCuit: "30-71234567-1" });
    const admin = await createTestUser();
    const db = await getDb();
    await db.insert(memberships).values({ organizationId: organization.id, userId: admin.id, role: "admin" });
    const adminCtx = await ctxAs(actorFor({ ...admin, roles: [] }));
    const enrol = { code: "FORBIDDEN", reason: "SECOND_FACTOR_ENROL" };
    expect(await errorOf(createBankAccount(adminCtx, { organizationId: organization.id, cbu: NACION, bankName: "Nación", holderName: "Otro Titular", holderCuit: "20-12345678-6" }))).toMatchObject(enrol);
    expect(await errorOf(updateBankAccount(adminCtx, { id: account.id, cbu: NACION, bankName: "Nación", holderName: "Otro Titular", holderCuit: "20-12345678-6" }))).toMatchObject(enrol);
    expect(await errorOf(setTicketTransferAccount(adminCtx, { id: account.id }))).toMatchObject(enrol);
    expect(await errorOf(deleteBankAccount(adminCtx, { id: account.id }))).toMatchObject(enrol);
    // The owner has it on, but this sign-in has not proved it.
    const unverified = await ctxAs(actorFor({ ...user, roles: ["producer"] }));
    expect(await errorOf(updateBankAccount(unverified, { id: account.id, cbu: NACION, bankName: "Nación", holderName: "Otro Titular", holderCuit: "20-12345678-6" }))).toMatchObject({ code: "FORBIDDEN", reason: "SECOND_FACTOR_VERIFY" });
    // Nothing changed: one account, the same CBU.
    expect((await db.select().from(bankAccounts).where(eq(bankAccounts.organizationId, organization.id))).map((a) => [a.cbu, a.deletedAt])).toEqual([[MACRO, null]]);
    // The admin who proves it may.
    const verified = await withSecondFactor(adminCtx);
    expect(await updateBankAccount(verified, { id: account.id, cbu: MACRO, alias: "ana.paz", holderName: "Ana Paz", holderCuit: "30-71234567-1" })).toMatchObject({ alias: "ana.paz" });
  });

  it("a withdrawal is paid to the account as it was when requested; while it is open the account cannot change or go", async () => {
    const made = await createEventWithReleasedSales(2);
    const { ctx, organization, account } = made;
    const withdrawal = await requestWithdrawal(ctx, { organizationId: organization.id, bankAccountId: account.id, amount: "5.000" });
    expect(withdrawal).toMatchObject({ cbu: account.cbu, alias: account.alias, holderName: account.holderName, holderCuit: account.holderCuit, bankName: account.bankName });

    const changed = await errorOf(updateBankAccount(ctx, { id: account.id, cbu: NACION, bankName: "Nación", holderName: "Otro Titular", holderCuit: "20-12345678-6" }));
    expect(changed).toMatchObject({ code: "CONFLICT", reason: BANK_ACCOUNT_IN_USE.reason, message: BANK_ACCOUNT_IN_USE.withdrawal, fieldErrors: { cbu: [BANK_ACCOUNT_IN_USE.withdrawal] } });
    expect(await errorOf(deleteBankAccount(ctx, { id: account.id }))).toMatchObject({ code: "CONFLICT", reason: BANK_ACCOUNT_IN_USE.reason });
    // Marking it for ticket transfers is not a change of where it pays.
    expect(await updateBankAccount(ctx, { id: account.id, cbu: account.cbu, alias: account.alias ?? undefined, holderName: account.holderName, holderCuit: account.holderCuit, forTicketTransfers: true })).toMatchObject({ cbu: account.cbu });

    // Paid: the account may change now, and the record still says where that money went.
    const admin = await withSecondFactor(await ctxAs(actorFor(await createTestUser({ roles: ["admin"] }))));
    await approveWithdrawal(admin, withdrawal.id);
    await markWithdrawalPaid(admin, { id: withdrawal.id, transferReference: "TRF-9" });
    await updateBankAccount(ctx, { id: account.id, cbu: NACION, bankName: "Nación", holderName: "Otro Titular", holderCuit: "20-12345678-6" });
    const [paid] = await listWithdrawals(admin, { organizationId: organization.id });
    expect(paid).toMatchObject({ id: withdrawal.id, cbu: account.cbu, cbuEnd: account.cbu.slice(-4), holderName: account.holderName, bankName: account.bankName });

    // Even an account changed behind our back (straight in the database) leaves the platform's queue on the snapshot.
    const second = await requestWithdrawal(ctx, { organizationId: organization.id, bankAccountId: account.id, amount: "1.000" });
    await (await getDb()).update(bankAccounts).set({ cbu: MACRO, holderName: "Intruso" }).where(eq(bankAccounts.id, account.id));
    const queue = await listWithdrawals(admin, { statuses: ["requested"] });
    expect(queue.find((w) => w.id === second.id)).toMatchObject({ cbu: NACION, holderName: "Otro Titular" });
    await rejectWithdrawal(admin, { id: second.id, reason: "Prueba de la cola" });
  });

  it("the account buyers are told to transfer to cannot change or go while one of them has a transfer pending", async () => {
    const { ctx, organization } = await createProducer();
    const account = await createBankAccount(ctx, { organizationId: organization.id, cbu: MACRO, alias: "feria.vinos", holderName: "Feria Natural SRL", holderCuit: "30-71234567-1" });
    const spare = await createBankAccount(ctx, { organizationId: organization.id, cbu: NACION, bankName: "Nación", holderName: "Feria Natural SRL", holderCuit: "30-71234567-1" });
    const { event } = await createPublishedEvent(ctx, organization.id, { ticketTypes: [{ name: "Transferencia", price: 1_000_000, stock: 10, paymentMethod: "BankAccount" }] });
    const [ticket] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const { order } = await createOrder(await ctxAs(ANONYMOUS), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "ana.transfiere@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "BANK_TRANSFER",
    });

    const edit = { id: account.id, cbu: buildCbu("017", "0329", "1234567890123"), bankName: "BBVA", holderName: "Otra Persona", holderCuit: "20-12345678-6" };
    expect(await errorOf(updateBankAccount(ctx, edit))).toMatchObject({ code: "CONFLICT", reason: BANK_ACCOUNT_IN_USE.reason, fieldErrors: { cbu: [BANK_ACCOUNT_IN_USE.transfers] } });
    expect(await errorOf(deleteBankAccount(ctx, { id: account.id }))).toMatchObject({ code: "CONFLICT", message: BANK_ACCOUNT_IN_USE.transfers });
    expect((await getTicketTransferAccount((await getDb()), organization.id))).toMatchObject({ id: account.id, cbu: MACRO });
    // Another account (not the one shown) can change.
    await updateBankAccount(ctx, { id: spare.id, cbu: NACION, bankName: "Nación", alias: "feria.nacion", holderName: "Feria Natural SRL", holderCuit: "30-71234567-1" });
    // Once the hold is over, nobody is about to transfer: it can change.
    await (await getDb()).update(orders).set({ holdExpiresAt: new Date(Date.now() - 60_000) }).where(eq(orders.id, order.id));
    expect(await updateBankAccount(ctx, edit)).toMatchObject({ holderName: "Otra Persona" });
  });
});
