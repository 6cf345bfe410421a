import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { uploadBankTransferReceipt } from "#server/bank-transfers/bank-transfers";
import { billingAccessToken } from "#server/auth/billing-access";
import { ticketsOfOrder } from "#server/tickets/issue";
import { ctxAs, sessionTokensFor } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";
import { realPdf } from "#tests/support/images";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-contract-receipts-"));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const CREATE_ACCOUNT = /* GraphQL */ `
  mutation CreateBankAccount($input: CreateBankAccountInput!) {
    createBankAccount(input: $input) { id bankName cbu isCvu alias holderName holderCuit forTicketTransfers }
  }
`;
const UPDATE_ACCOUNT = /* GraphQL */ `
  mutation UpdateBankAccount($input: UpdateBankAccountInput!) {
    updateBankAccount(input: $input) { id alias holderName forTicketTransfers }
  }
`;
const DELETE_ACCOUNT = /* GraphQL */ `
  mutation DeleteBankAccount($input: DeleteBankAccountInput!) { deleteBankAccount(input: $input) { id } }
`;
const ACCOUNTS = /* GraphQL */ `
  query BankAccounts($organizationId: ID!) { bankAccounts(organizationId: $organizationId) { items { id cbu forTicketTransfers } total page limit } }
`;
const CREATE_ORDER = /* GraphQL */ `
  mutation CreateOrder($input: CreateOrderInput!) { createOrder(input: $input) { billingId paymentUrl order { id code total } } }
`;
const TRANSFERS = /* GraphQL */ `
  query BankTransfers($organizationId: ID!, $status: BankTransferFilter) {
    bankTransfers(organizationId: $organizationId, status: $status) {
      items { billingId orderCode amount amountFormatted status holdExpiresAt buyer { name email } event { slug } receipt { id url contentType fileName } rejectionReason }
      total page limit
    }
  }
`;
const APPROVE = /* GraphQL */ `
  mutation ApproveBankTransfer($input: ApproveBankTransferInput!) { approveBankTransfer(input: $input) { outcome transfer { billingId status } } }
`;
const REJECT = /* GraphQL */ `
  mutation RejectBankTransfer($input: RejectBankTransferInput!) { rejectBankTransfer(input: $input) { outcome transfer { billingId status rejectionReason } } }
`;

const payer = { firstName: "Joaquín", lastName: "Muñoz", email: "joaco@example.com", documentType: "dni", documentNumber: "30.123.456", phoneNumber: "+54 9 11 5555-1234" };

async function organizer() {
  const producer = await createProducer();
  // A sign-in that proved the second factor: bank accounts are money destinations (decision 144).
  const { accessToken, refreshToken } = await sessionTokensFor(producer.user.id, { secondFactor: true });
  return { ...producer, tokens: { accessToken, refreshToken } };
}

describe("bank accounts over GraphQL", () => {
  it("creates, lists, updates and deletes, with check digits validated and members only", async () => {
    const { organization, tokens } = await organizer();
    const created = await gql<{ createBankAccount: { id: string; bankName: string; isCvu: boolean; forTicketTransfers: boolean } }>(CREATE_ACCOUNT, {
      tokens,
      variables: { input: { organizationId: organization.id, cbu: "2850590940090418135201", alias: "feria.vinos", holderName: "Feria Natural SRL", holderCuit: "30-71234567-1" } },
    });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data!.createBankAccount).toMatchObject({ bankName: "Banco Macro", isCvu: false, forTicketTransfers: true });
    const id = created.body.data!.createBankAccount.id;

    const bad = await gql(CREATE_ACCOUNT, { tokens, variables: { input: { organizationId: organization.id, cbu: "2850590940090418135202", holderName: "Ana", holderCuit: "30712345671" } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");

    const updated = await gql<{ updateBankAccount: { alias: string } }>(UPDATE_ACCOUNT, {
      tokens,
      variables: { input: { id, cbu: "2850590940090418135201", alias: "feria.nueva", holderName: "Feria Natural SRL", holderCuit: "30712345671" } },
    });
    expect(updated.body.data!.updateBankAccount).toMatchObject({ alias: "feria.nueva", holderName: "Feria Natural SRL", forTicketTransfers: true });

    const list = await gql<{ bankAccounts: { items: { id: string }[]; total: number } }>(ACCOUNTS, { tokens, variables: { organizationId: organization.id } });
    expect(list.body.data!.bankAccounts).toMatchObject({ total: 1, page: 0, items: [{ id }] });

    const stranger = await organizer();
    expect(errorCode(await gql(ACCOUNTS, { tokens: stranger.tokens, variables: { organizationId: organization.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(DELETE_ACCOUNT, { tokens: stranger.tokens, variables: { input: { id } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(ACCOUNTS, { variables: { organizationId: organization.id } }))).toBe("UNAUTHENTICATED");

    const deleted = await gql<{ deleteBankAccount: { id: string } }>(DELETE_ACCOUNT, { tokens, variables: { input: { id } } });
    expect(deleted.body.data!.deleteBankAccount.id).toBe(id);
    expect((await gql<{ bankAccounts: { total: number } }>(ACCOUNTS, { tokens, variables: { organizationId: organization.id } })).body.data!.bankAccounts.total).toBe(0);
  });
});

describe("bank transfers over GraphQL", () => {
  async function pendingTransfer() {
    const org = await organizer();
    await gql(CREATE_ACCOUNT, { tokens: org.tokens, variables: { input: { organizationId: org.organization.id, cbu: "2850590940090418135201", holderName: "Feria Natural SRL", holderCuit: "30712345671" } } });
    const { event } = await createPublishedEvent(org.ctx, org.organization.id, { ticketTypes: [{ name: "Transferencia", price: 1_000_000, stock: 5, paymentMethod: "BankAccount" }] });
    const [ticket] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const created = await gql<{ createOrder: { billingId: string; paymentUrl: string; order: { id: string; code: string; total: number } } }>(CREATE_ORDER, {
      variables: { input: { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }], payer, paymentMethod: "BANK_TRANSFER" } },
    });
    expect(created.body.errors).toBeUndefined();
    const { billingId, paymentUrl, order } = created.body.data!.createOrder;
    expect(paymentUrl).toBe(`http://localhost:3000/checkout/bank-transfer/${billingId}?t=${billingAccessToken(billingId)}`);
    return { ...org, event, billingId, order };
  }

  it("lists pending transfers with the receipt, approves once and issues the tickets", async () => {
    const { organization, tokens, billingId, order, event } = await pendingTransfer();
    await uploadBankTransferReceipt(await ctxAs(), { billingId, token: billingAccessToken(billingId), bytes: await realPdf(), fileName: "transferencia.pdf" });
    const list = await gql<{ bankTransfers: { items: Record<string, unknown>[]; total: number } }>(TRANSFERS, { tokens, variables: { organizationId: organization.id } });
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data!.bankTransfers.total).toBe(1);
    expect(list.body.data!.bankTransfers.items[0]).toMatchObject({
      billingId,
      orderCode: order.code,
      amount: order.total,
      status: "pending",
      buyer: { name: "Joaquín Muñoz", email: "joaco@example.com" },
      event: { slug: event.slug },
      receipt: { contentType: "application/pdf", fileName: "transferencia.pdf" },
      rejectionReason: null,
    });
    expect((list.body.data!.bankTransfers.items[0].receipt as { url: string }).url).toMatch(/^http:\/\/localhost:3000\/comprobantes\/[0-9a-f-]{36}$/);

    const stranger = await organizer();
    expect(errorCode(await gql(TRANSFERS, { tokens: stranger.tokens, variables: { organizationId: organization.id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(APPROVE, { tokens: stranger.tokens, variables: { input: { billingId } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(APPROVE, { variables: { input: { billingId } } }))).toBe("UNAUTHENTICATED");

    const approved = await gql<{ approveBankTransfer: { outcome: string; transfer: { status: string } } }>(APPROVE, { tokens, variables: { input: { billingId } } });
    expect(approved.body.data!.approveBankTransfer).toEqual({ outcome: "approved", transfer: { billingId, status: "approved" } });
    const again = await gql<{ approveBankTransfer: { outcome: string } }>(APPROVE, { tokens, variables: { input: { billingId } } });
    expect(again.body.data!.approveBankTransfer.outcome).toBe("already-approved");
    expect(await ticketsOfOrder(await getDb(), order.id)).toHaveLength(2);
    expect(errorCode(await gql(REJECT, { tokens, variables: { input: { billingId } } }))).toBe("CONFLICT");
    const approvedList = await gql<{ bankTransfers: { total: number } }>(TRANSFERS, { tokens, variables: { organizationId: organization.id, status: "approved" } });
    expect(approvedList.body.data!.bankTransfers.total).toBe(1);
  });

  it("rejects with a reason the buyer sees; approving it afterwards is a CONFLICT", async () => {
    const { tokens, billingId } = await pendingTransfer();
    const rejected = await gql<{ rejectBankTransfer: { outcome: string; transfer: { status: string; rejectionReason: string } } }>(REJECT, {
      tokens,
      variables: { input: { billingId, reason: "El monto no coincide" } },
    });
    expect(rejected.body.data!.rejectBankTransfer).toEqual({ outcome: "rejected", transfer: { billingId, status: "rejected", rejectionReason: "El monto no coincide" } });
    expect(errorCode(await gql(APPROVE, { tokens, variables: { input: { billingId } } }))).toBe("CONFLICT");
    expect(errorCode(await gql(REJECT, { tokens, variables: { input: { billingId: "no-es-un-id" } } }))).toBe("BAD_USER_INPUT");
  });
});
