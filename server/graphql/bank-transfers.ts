import type { BankAccountRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate, money } from "./scalars";
import { FileScalar, fileBytes } from "./uploads";
import { MAX_RECEIPT_BYTES } from "#server/bank-transfers/receipts";
import { appUrl } from "#server/env";
import * as transfers from "#server/bank-transfers/bank-transfers";
import type { BankTransferItem } from "#server/bank-transfers/bank-transfers";
import * as accounts from "#server/payouts/bank-accounts";

/**
 * Bank accounts and bank transfers for integrators: the same domain
 * functions as /organizacion/cuentas-bancarias and
 * /organizacion/transferencias-bancarias.
 */

const BankAccount = builder.objectRef<BankAccountRow>("BankAccount").implement({
  description: "One of an organization's bank accounts: where buyers transfer (the one marked) and where withdrawals are paid.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    organizationId: t.exposeID("organizationId", { nullable: false }),
    bankName: t.exposeString("bankName", { nullable: false }),
    cbu: t.exposeString("cbu", { nullable: false, description: "CBU or CVU, 22 digits." }),
    isCvu: t.boolean({ nullable: false, description: "A payment provider's virtual account (starts with 000).", resolve: (a) => a.cbu.startsWith("000") }),
    alias: t.exposeString("alias"),
    holderName: t.exposeString("holderName", { nullable: false }),
    holderCuit: t.exposeString("holderCuit", { nullable: false, description: "11 digits." }),
    forTicketTransfers: t.exposeBoolean("forTicketTransfers", { nullable: false, description: "The account buyers of BankAccount tickets transfer to." }),
    createdAt: t.string({ nullable: false, resolve: (a) => isoDate(a.createdAt)! }),
  }),
});

const BankAccountList = builder.objectRef<{ items: BankAccountRow[]; total: number; page: number; limit: number }>("BankAccountList").implement({
  fields: (t) => ({
    items: t.field({ type: [BankAccount], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "From 0 (always 0: every account in one page)." }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

const BankTransferStatusEnum = builder.enumType("BankTransferStatus", {
  values: ["pending", "approved", "rejected", "expired", "closed"] as const,
});
const BankTransferFilterEnum = builder.enumType("BankTransferFilter", {
  values: ["pending", "approved", "rejected", "expired", "all"] as const,
});

const BankTransferReceipt = builder.objectRef<NonNullable<BankTransferItem["receipt"]>>("BankTransferReceipt").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    url: t.string({ nullable: false, description: "Readable by the organization's members (session) and the buyer.", resolve: (r) => `${appUrl()}${transfers.receiptPath(r.id)}` }),
    contentType: t.exposeString("contentType", { nullable: false, description: "application/pdf, image/jpeg or image/png." }),
    fileName: t.exposeString("originalName", { nullable: false }),
    size: t.exposeInt("size", { nullable: false, description: "Bytes." }),
    uploadedAt: t.string({ nullable: false, resolve: (r) => isoDate(r.uploadedAt)! }),
  }),
});

const BankTransferBuyer = builder.objectRef<BankTransferItem["buyer"]>("BankTransferBuyer").implement({
  fields: (t) => ({
    name: t.exposeString("name", { nullable: false }),
    email: t.exposeString("email", { nullable: false }),
    documentNumber: t.exposeString("documentNumber", { nullable: false }),
  }),
});

const BankTransferEvent = builder.objectRef<BankTransferItem["event"]>("BankTransferEvent").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    slug: t.exposeString("slug", { nullable: false }),
  }),
});

const BankTransfer = builder.objectRef<BankTransferItem>("BankTransfer").implement({
  description: "A BANK_TRANSFER billing as the organizer reviews it.",
  fields: (t) => ({
    billingId: t.exposeID("billingId", { nullable: false }),
    orderId: t.exposeID("orderId", { nullable: false }),
    orderCode: t.exposeString("orderCode", { nullable: false, description: "What the buyer puts in the transfer's reference." }),
    event: t.field({ type: BankTransferEvent, nullable: false, resolve: (b) => b.event }),
    buyer: t.field({ type: BankTransferBuyer, nullable: false, resolve: (b) => b.buyer }),
    amount: t.exposeInt("amount", { nullable: false, description: "Integer centavos to transfer." }),
    amountFormatted: t.string({ nullable: false, resolve: (b) => money(b.amount)! }),
    status: t.field({ type: BankTransferStatusEnum, nullable: false, resolve: (b) => b.status }),
    holdExpiresAt: t.string({ description: "Until when the tickets are held (48 h after the order).", resolve: (b) => isoDate(b.holdExpiresAt) }),
    createdAt: t.string({ nullable: false, resolve: (b) => isoDate(b.createdAt)! }),
    receipt: t.field({ type: BankTransferReceipt, description: "The current receipt; null: none uploaded yet.", resolve: (b) => b.receipt }),
    rejectionReason: t.string({ resolve: (b) => (b.review?.decision === "rejected" ? (b.review.reason ?? "") : null) }),
    reviewedAt: t.string({ resolve: (b) => isoDate(b.review?.reviewedAt) }),
  }),
});

const BankTransferList = builder.objectRef<{ items: BankTransferItem[]; total: number; page: number; limit: number }>("BankTransferList").implement({
  fields: (t) => ({
    items: t.field({ type: [BankTransfer], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "From 0." }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

const BankTransferDecision = builder.objectRef<{ outcome: string; transfer: BankTransferItem }>("BankTransferDecision").implement({
  fields: (t) => ({
    outcome: t.exposeString("outcome", {
      nullable: false,
      description: "approved, orphan-honoured, orphan-refunded (late: no stock left, the payment is given back), already-approved, rejected or already-rejected.",
    }),
    transfer: t.field({ type: BankTransfer, nullable: false, resolve: (d) => d.transfer }),
  }),
});

builder.queryFields((t) => ({
  bankAccounts: t.field({
    type: BankAccountList,
    nullable: false,
    description: "An organization's bank accounts, the one for ticket transfers first. Needs money:manage.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const items = await accounts.listBankAccounts(ctx, { organizationId: String(args.organizationId) });
      return { items, total: items.length, page: 0, limit: Math.max(items.length, 1) };
    },
  }),
  bankTransfers: t.field({
    type: BankTransferList,
    nullable: false,
    description: "An organization's bank transfers (pending by default, closest hold first), optionally of one event. Needs sales:read. Paged: page from 0, limit 1–100 (default 50).",
    args: {
      organizationId: t.arg.id({ required: true }),
      status: t.arg({ type: BankTransferFilterEnum }),
      eventId: t.arg.id(),
      page: t.arg.int(),
      limit: t.arg.int(),
    },
    resolve: (_root, args, { ctx }) =>
      transfers.listBankTransfers(
        ctx,
        given({
          organizationId: String(args.organizationId),
          status: args.status ?? undefined,
          eventId: args.eventId == null ? undefined : String(args.eventId),
          page: args.page ?? undefined,
          limit: args.limit ?? undefined,
        }),
      ),
  }),
}));

const bankAccountFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, "InputObject">) => ({
  bankName: t.string({ description: "Absent: taken from the CBU's bank code when known." }),
  cbu: t.string({ required: true, description: "CBU or CVU, 22 digits (spaces and hyphens ignored); both check digits are validated." }),
  alias: t.string({ description: "6–20 letters, digits, dots or hyphens." }),
  holderName: t.string({ required: true }),
  holderCuit: t.string({ required: true, description: "11 digits, check digit validated." }),
  forTicketTransfers: t.boolean({ description: "Make it the account buyers transfer to (the organization's first account always is)." }),
});

const CreateBankAccountInput = builder.inputType("CreateBankAccountInput", {
  fields: (t) => ({ organizationId: t.id({ required: true }), ...bankAccountFields(t as never) }),
});
const UpdateBankAccountInput = builder.inputType("UpdateBankAccountInput", {
  description: "Every field again (as the form posts them); forTicketTransfers absent keeps it.",
  fields: (t) => ({ id: t.id({ required: true }), ...bankAccountFields(t as never) }),
});
const DeleteBankAccountInput = builder.inputType("DeleteBankAccountInput", { fields: (t) => ({ id: t.id({ required: true }) }) });
const ApproveBankTransferInput = builder.inputType("ApproveBankTransferInput", { fields: (t) => ({ billingId: t.id({ required: true }) }) });
const RejectBankTransferInput = builder.inputType("RejectBankTransferInput", {
  fields: (t) => ({ billingId: t.id({ required: true }), reason: t.string({ description: "Shown to the buyer (email and purchase page); up to 500 characters." }) }),
});

const DeletedBankAccount = builder.objectRef<{ id: string }>("DeletedBankAccount").implement({
  fields: (t) => ({ id: t.exposeID("id", { nullable: false }) }),
});

builder.mutationFields((t) => ({
  createBankAccount: t.field({
    type: BankAccount,
    nullable: false,
    description: "Adds a bank account to an organization. Needs money:manage.",
    args: { input: t.arg({ type: CreateBankAccountInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => accounts.createBankAccount(ctx, given({ ...input, organizationId: String(input.organizationId) })),
  }),
  updateBankAccount: t.field({
    type: BankAccount,
    nullable: false,
    description: "Changes a bank account. Needs money:manage.",
    args: { input: t.arg({ type: UpdateBankAccountInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => accounts.updateBankAccount(ctx, given({ ...input, id: String(input.id) })),
  }),
  deleteBankAccount: t.field({
    type: DeletedBankAccount,
    nullable: false,
    description: "Removes a bank account from every list (its record stays for past payments). Needs money:manage.",
    args: { input: t.arg({ type: DeleteBankAccountInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => accounts.deleteBankAccount(ctx, { id: String(input.id) }),
  }),
  approveBankTransfer: t.field({
    type: BankTransferDecision,
    nullable: false,
    description: "The transfer arrived: issues the tickets (once, however many times it is called) and books the payment. Needs money:manage.",
    args: { input: t.arg({ type: ApproveBankTransferInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => transfers.approveBankTransfer(ctx, { billingId: String(input.billingId) }),
  }),
  rejectBankTransfer: t.field({
    type: BankTransferDecision,
    nullable: false,
    description: "The transfer did not arrive: cancels the order, returns the stock and emails the buyer. Needs money:manage.",
    args: { input: t.arg({ type: RejectBankTransferInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => transfers.rejectBankTransfer(ctx, { billingId: String(input.billingId), reason: input.reason ?? null }),
  }),
}));

export { BankAccount, BankTransfer };

const UploadReceiptInput = builder.inputType("UploadBankTransferReceiptInput", {
  fields: (t) => ({
    billingId: t.id({ required: true }),
    token: t.string({ description: "The purchase's access token (`accessToken` of createOrder), for a buyer without an account." }),
    file: t.field({ type: FileScalar, required: true, description: "PDF, JPG or PNG, up to 5 MB (checked by its bytes)." }),
  }),
});

builder.mutationField("uploadBankTransferReceipt", (t) =>
  t.field({
    type: BankTransferReceipt,
    nullable: false,
    description:
      "The buyer uploads (or replaces) the receipt of a pending bank-transfer purchase, as on /checkout/bank-transfer/{billingId}. Multipart request. Errors: `BAD_USER_INPUT` with `fieldErrors.receipt` (type, size, hold over, not pending), `NOT_FOUND` without access to the billing.",
    args: { input: t.arg({ type: UploadReceiptInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const row = await transfers.uploadBankTransferReceipt(ctx, {
        billingId: String(input.billingId),
        token: input.token ?? null,
        bytes: await fileBytes(input.file, MAX_RECEIPT_BYTES),
        fileName: input.file.name,
      });
      return { id: row.id, contentType: row.contentType, originalName: row.originalName, size: row.size, uploadedAt: row.createdAt };
    },
  }),
);
