import { builder } from "./builder";
import { given, isoDate, money } from "./scalars";
import type { RefundRequestView } from "#server/refunds/refunds";
import * as refunds from "#server/refunds/refunds";
import { listOrganizationOrders, type SalesListItem } from "#server/refunds/sales";

const RefundRequest = builder.objectRef<RefundRequestView>("RefundRequest").implement({
  description: "A withdrawal (Botón de arrepentimiento) request and what became of it.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    code: t.exposeString("code", { nullable: false, description: "Management code the buyer quotes (DEV-…)." }),
    status: t.exposeString("status", { nullable: false, description: "pending (organizer decides), refunded or rejected." }),
    automatic: t.exposeBoolean("automatic", { nullable: false, description: "Refunded at once: asked inside the legal window." }),
    method: t.exposeString("method", { nullable: false, description: "provider (back through the payment provider) or bank_transfer (manual transfer to the buyer's CBU/CVU)." }),
    orderCode: t.exposeString("orderCode", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    amount: t.exposeInt("amount", { nullable: false, description: "Integer centavos given back." }),
    amountFormatted: t.string({ nullable: false, resolve: (r) => money(r.amount)! }),
    rejectionReason: t.exposeString("rejectionReason"),
    transferredAt: t.string({ description: "Bank-transfer refunds: when the organizer marked it transferred.", resolve: (r) => isoDate(r.transferredAt) }),
    decidedAt: t.string({ resolve: (r) => isoDate(r.decidedAt) }),
    createdAt: t.string({ nullable: false, resolve: (r) => isoDate(r.createdAt)! }),
  }),
});

const RequestRefundResult = builder
  .objectRef<{ outcome: refunds.RefundOutcome; existing: boolean; request: RefundRequestView }>("RequestRefundResult")
  .implement({
    fields: (t) => ({
      outcome: t.exposeString("outcome", { nullable: false, description: "refunded (inside the legal window) or pending (the organizer decides)." }),
      existing: t.exposeBoolean("existing", { nullable: false, description: "True when an open request for the order already existed." }),
      request: t.field({ type: RefundRequest, nullable: false, resolve: (r) => r.request }),
    }),
  });

const SalesBuyer = builder.objectRef<SalesListItem["payer"]>("SalesBuyer").implement({
  fields: (t) => ({
    firstName: t.exposeString("firstName", { nullable: false }),
    lastName: t.exposeString("lastName", { nullable: false }),
    email: t.exposeString("email", { nullable: false }),
  }),
});

const SalesOrder = builder.objectRef<SalesListItem>("SalesOrder").implement({
  description: "An order as the organization's sales list shows it.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    code: t.exposeString("code", { nullable: false }),
    status: t.exposeString("status", { nullable: false }),
    billingStatus: t.exposeString("billingStatus"),
    displayStatus: t.exposeString("displayStatus"),
    paymentMethod: t.exposeString("paymentMethod", { nullable: false }),
    gift: t.exposeBoolean("gift", { nullable: false }),
    eventId: t.exposeID("eventId", { nullable: false }),
    eventName: t.exposeString("eventName", { nullable: false }),
    buyer: t.field({ type: SalesBuyer, nullable: false, resolve: (o) => o.payer }),
    promoterNick: t.string({ description: "The promoter the sale is attributed to (their link or their sale in hand); null when none.", resolve: (o) => (o.promoterUserId ? o.referredNick : null) }),
    units: t.exposeInt("units", { nullable: false }),
    total: t.exposeInt("total", { nullable: false }),
    totalFormatted: t.string({ nullable: false, resolve: (o) => money(o.total)! }),
    pendingRefund: t.exposeBoolean("pendingRefund", { nullable: false, description: "A withdrawal request waits for the organizer." }),
    createdAt: t.string({ nullable: false, resolve: (o) => isoDate(o.createdAt)! }),
  }),
});

const SalesOrderList = builder
  .objectRef<{ items: SalesListItem[]; total: number; page: number; limit: number }>("SalesOrderList")
  .implement({
    fields: (t) => ({
      items: t.field({ type: [SalesOrder], nullable: false, resolve: (l) => l.items }),
      total: t.exposeInt("total", { nullable: false }),
      page: t.exposeInt("page", { nullable: false }),
      limit: t.exposeInt("limit", { nullable: false }),
    }),
  });

const OrderStatusEnum = builder.enumType("OrderStatus", { values: ["draft", "billed", "closed", "expired", "orphan"] as const });
const OrderPaymentMethodEnum = builder.enumType("OrderPaymentMethod", { values: ["MERCADO_PAGO", "BANK_TRANSFER", "FREE", "PROMOTER"] as const, description: "PROMOTER: sold in hand by a promoter (PromoterAccount ticket types)." });

const OrdersFilter = builder.inputType("OrdersFilter", {
  description: "Defaults (the sales list's): status billed, gift false, paymentMethods MERCADO_PAGO and BANK_TRANSFER, page 0, limit 10; newest first.",
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    eventId: t.id(),
    status: t.field({ type: OrderStatusEnum }),
    gift: t.boolean(),
    paymentMethods: t.field({ type: [OrderPaymentMethodEnum] }),
    promoterNick: t.string({ description: "Only the sales attributed to this promoter (nickname, any case); then paymentMethods defaults to MERCADO_PAGO, BANK_TRANSFER and PROMOTER." }),
    page: t.int(),
    limit: t.int({ description: "1 to 100." }),
  }),
});

const RequestRefundInput = builder.inputType("RequestRefundInput", {
  fields: (t) => ({
    orderCode: t.string({ required: true, description: "The purchase code (TRB-…)." }),
    email: t.string({ required: true, description: "The payer's email (any case)." }),
    reason: t.string(),
    cbu: t.string({ description: "CBU/CVU (22 digits) where to receive the money; required when the order was paid by bank transfer." }),
  }),
});

const RefundIdInput = builder.inputType("RefundIdInput", { fields: (t) => ({ id: t.id({ required: true }) }) });
const RejectRefundInput = builder.inputType("RejectRefundInput", {
  fields: (t) => ({ id: t.id({ required: true }), reason: t.string({ required: true, description: "Shown to the buyer." }) }),
});

builder.queryFields((t) => ({
  orders: t.field({
    type: SalesOrderList,
    nullable: false,
    description: "The organization's orders (sales:read).",
    args: { filter: t.arg({ type: OrdersFilter, required: true }) },
    resolve: (_root, { filter }, { ctx }) => listOrganizationOrders(ctx, given(filter)),
  }),
  refundRequest: t.field({
    type: RefundRequest,
    description: "A withdrawal request by its management code and the payer's email (no account needed).",
    args: { code: t.arg.string({ required: true }), email: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => refunds.getRefundRequest(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  requestRefund: t.field({
    type: RequestRefundResult,
    nullable: false,
    description:
      "Botón de arrepentimiento: no account needed. Inside the legal window (10 calendar days from delivery, at least 24 h before the event) the refund is immediate; otherwise the organizer decides. NOT_FOUND when the code and email name no paid order.",
    args: { input: t.arg({ type: RequestRefundInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const result = await refunds.requestRefund(ctx, given(input));
      return { ...result, request: await refunds.refundRequestView(ctx, result.request) };
    },
  }),
  approveRefund: t.field({
    type: RefundRequest,
    nullable: false,
    description: "The organizer gives a pending request's money back (money:manage).",
    args: { input: t.arg({ type: RefundIdInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => refunds.approveRefund(ctx, input),
  }),
  rejectRefund: t.field({
    type: RefundRequest,
    nullable: false,
    description: "The organizer rejects a pending request with a reason (money:manage).",
    args: { input: t.arg({ type: RejectRefundInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => refunds.rejectRefund(ctx, input),
  }),
  markRefundTransferred: t.field({
    type: RefundRequest,
    nullable: false,
    description: "A bank-transfer refund was paid by hand to the buyer's CBU/CVU (money:manage).",
    args: { input: t.arg({ type: RefundIdInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => refunds.markRefundTransferred(ctx, input),
  }),
}));
