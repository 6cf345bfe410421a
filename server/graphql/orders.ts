import type { BillingRow, OrderItemRow, OrderRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate, money } from "./scalars";
import * as ordersDomain from "#server/orders/orders";
import type { Attendee, CustomFieldAnswer } from "#server/db/schema";
import { displayStatus } from "#server/orders/status";
import { startCheckout, type CheckoutStarted } from "#server/orders/checkout";
import { previewOrder, type OrderPreview, type PreviewLine } from "#server/orders/preview";

type OrderWithItems = OrderRow & { items: OrderItemRow[] };

const OrderItem = builder.objectRef<OrderItemRow>("OrderItem").implement({
  fields: (t) => ({
    ticketId: t.exposeID("ticketTypeId", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    qty: t.exposeInt("qty", { nullable: false }),
    unitPrice: t.exposeInt("unitPrice", { nullable: false, description: "Integer centavos, as charged." }),
    unitPriceFormatted: t.string({ nullable: false, resolve: (i) => money(i.unitPrice)! }),
  }),
});

const AttendeeRef = builder.objectRef<Attendee>("Attendee").implement({
  description: "The holder of one ticket unit.",
  fields: (t) => ({
    ticketId: t.exposeID("ticketTypeId", { nullable: false }),
    firstName: t.exposeString("firstName", { nullable: false }),
    lastName: t.exposeString("lastName", { nullable: false }),
    documentType: t.exposeString("documentType", { nullable: false }),
    documentNumber: t.exposeString("documentNumber", { nullable: false }),
    email: t.string({ resolve: (a) => a.email ?? null }),
  }),
});

const CustomFieldAnswerRef = builder.objectRef<CustomFieldAnswer>("CustomFieldAnswer").implement({
  fields: (t) => ({
    fieldId: t.exposeID("fieldId", { nullable: false }),
    label: t.exposeString("label", { nullable: false }),
    value: t.exposeString("value", { nullable: false }),
  }),
});

const Order = builder.objectRef<OrderWithItems>("Order").implement({
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    code: t.exposeString("code", { nullable: false, description: "Short code buyers quote (TRB-…)." }),
    status: t.exposeString("status", { nullable: false, description: "draft, billed, closed, expired or orphan." }),
    paymentMethod: t.exposeString("paymentMethod", { nullable: false }),
    subtotal: t.exposeInt("subtotal", { nullable: false }),
    serviceFee: t.exposeInt("serviceFee", { nullable: false }),
    discount: t.exposeInt("discount", { nullable: false }),
    total: t.exposeInt("total", { nullable: false }),
    totalFormatted: t.string({ nullable: false, resolve: (o) => money(o.total)! }),
    holdExpiresAt: t.string({ resolve: (o) => isoDate(o.holdExpiresAt) }),
    createdAt: t.string({ nullable: false, resolve: (o) => isoDate(o.createdAt)! }),
    items: t.field({ type: [OrderItem], nullable: false, resolve: (o) => o.items }),
    attendees: t.field({
      type: [AttendeeRef],
      nullable: false,
      description: "One holder per ticket unit, in item order; empty when the payer holds them all.",
      resolve: (o) => o.attendees ?? [],
    }),
    customFields: t.field({
      type: [CustomFieldAnswerRef],
      nullable: false,
      description: "The buyer's answers to the event's custom fields.",
      resolve: (o) => o.customFields ?? [],
    }),
  }),
});

const Billing = builder
  .objectRef<{ billing: BillingRow; order: OrderWithItems }>("Billing")
  .implement({
    description: "One payment attempt of an order.",
    fields: (t) => ({
      id: t.id({ nullable: false, resolve: (b) => b.billing.id }),
      status: t.string({ nullable: false, resolve: (b) => b.billing.status, description: "pending, approved, cancelled, refunded or charged_back." }),
      displayStatus: t.string({
        description: "The spec's display status for (order status, billing status); null when the pair has none.",
        resolve: (b) => displayStatus(b.order.status, b.billing.status),
      }),
      provider: t.string({ nullable: false, resolve: (b) => b.billing.provider }),
      amount: t.int({ nullable: false, resolve: (b) => b.billing.amount }),
      amountFormatted: t.string({ nullable: false, resolve: (b) => money(b.billing.amount)! }),
      order: t.field({ type: Order, nullable: false, resolve: (b) => b.order }),
    }),
  });

builder.queryFields((t) => ({
  billing: t.field({
    type: Billing,
    description: "Readable by the buyer's account, the organization's members, or with the checkout's access token (createOrder `accessToken`).",
    args: { billingId: t.arg.id({ required: true }), token: t.arg.string({ description: "The checkout's access token, for buyers without an account." }) },
    resolve: async (_root, { billingId, token }, { ctx }) => {
      const view = await ordersDomain.getBillingForBuyer(ctx, String(billingId), { token: token ?? null });
      return { billing: view.billing, order: view.order };
    },
  }),
}));

export { Billing, Order };

const PaymentMethodEnum = builder.enumType("PaymentMethod", {
  values: { MERCADO_PAGO: { description: "Mercado Pago (card, wallet)." }, BANK_TRANSFER: { description: "Bank transfer with a receipt." } } as const,
});

const OrderItemInput = builder.inputType("OrderItemInput", {
  fields: (t) => ({ ticketId: t.id({ required: true }), qty: t.int({ required: true }) }),
});

const PayerInput = builder.inputType("PayerInput", {
  fields: (t) => ({
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    email: t.string({ required: true }),
    documentType: t.string({ required: true, description: "dni, cuit, cuil, cdi, passport, ci or other." }),
    documentNumber: t.string({ required: true }),
    phoneNumber: t.string({ required: true }),
  }),
});

const AttendeeInput = builder.inputType("AttendeeInput", {
  description: "The holder of one ticket unit.",
  fields: (t) => ({
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    documentType: t.string({ required: true, description: "dni, cuit, cuil, cdi, passport, ci or other." }),
    documentNumber: t.string({ required: true }),
    email: t.string(),
  }),
});

const CustomFieldAnswerInput = builder.inputType("CustomFieldAnswerInput", {
  fields: (t) => ({
    fieldId: t.id({ required: true }),
    value: t.string({ required: true, description: "Numbers as digits, dates as YYYY-MM-DD, selects as one of the options." }),
  }),
});

const BestAvailableInput = builder.inputType("BestAvailableInput", {
  description: "N adjacent seats in one row, rows nearest the stage first, then nearest the row's centre (docs/seating.md).",
  fields: (t) => ({
    ticketTypeId: t.id({ description: "A seated ticket type: any category it sells." }),
    category: t.string({ description: "Or one category of the map." }),
    quantity: t.int({ required: true }),
  }),
});

const InvoiceTaxDetailsInput = builder.inputType("InvoiceTaxDetailsInput", {
  description:
    "The buyer's Factura A for Tribuna's service charge (docs/invoicing.md): only when Tribuna is a Responsable Inscripto. BAD_USER_INPUT with fieldErrors under invoice.cuit (extensions.reason INVALID_CUIT: not 11 digits or a wrong check digit), invoice.businessName and invoice.ivaConditionId.",
  fields: (t) => ({
    cuit: t.string({ required: true, description: "11 digits, dashes allowed; the check digit is verified." }),
    businessName: t.string({ required: true, description: "Razón social, up to 200 characters." }),
    ivaConditionId: t.int({
      required: true,
      description: "ARCA's CondicionIVAReceptorId for an A: 1 IVA Responsable Inscripto, 6 Responsable Monotributo, 13 Monotributista Social, 16 Monotributo Trabajador Independiente Promovido.",
    }),
  }),
});

const CreateOrderInput = builder.inputType("CreateOrderInput", {
  fields: (t) => ({
    eventSlug: t.string({ required: true }),
    eventDateId: t.id({ description: "Required when the event has several dates and the tickets do not pin one." }),
    items: t.field({ type: [OrderItemInput], required: true }),
    payer: t.field({ type: PayerInput, required: true }),
    paymentMethod: t.field({ type: PaymentMethodEnum, required: true }),
    accessCode: t.string(),
    presaleCode: t.string(),
    referredNick: t.string(),
    couponCode: t.string({ description: "The event's coupon code (case-insensitive). Unknown, paused or expired: BAD_USER_INPUT on couponCode; no uses left: CONFLICT." }),
    attendees: t.field({
      type: [AttendeeInput],
      description: "One per ticket unit, in item order. Required when the event asks for one holder per ticket; else optional (the payer holds them).",
    }),
    customFields: t.field({ type: [CustomFieldAnswerInput], description: "Answers to the event's custom fields; required ones must be answered." }),
    seats: t.stringList({
      description:
        "Reserved seating (eventSeating): the seats' guids; they become the items (send an empty `items`). CONFLICT with extensions.reason SEAT_TAKEN when someone else holds, bought or blocked one.",
    }),
    bestAvailable: t.field({ type: BestAvailableInput, description: "Reserved seating: the best N adjacent seats in one row of a ticket type (or a category); send an empty `items`. CONFLICT when there are not N together." }),
    invoice: t.field({ type: InvoiceTaxDetailsInput, description: "Asks for a Factura A of the service charge instead of a consumer's B. Checked before anything is held." }),
    resaleListingId: t.id({
      description: "Buys this official resale listing (resaleListings) instead of `items` (send an empty list): one ticket at its price plus the service fee, paid with Mercado Pago. CONFLICT when someone else got it first or it was cancelled.",
    }),
  }),
});

const CreateOrderResult = builder
  .objectRef<CheckoutStarted>("CreateOrderResult")
  .implement({
    fields: (t) => ({
      billingId: t.id({ nullable: false, resolve: (r) => r.billing.id }),
      paymentUrl: t.string({ description: "Where the buyer pays; null when nothing is due (free order).", resolve: (r) => r.paymentUrl }),
      accessToken: t.string({
        nullable: false,
        description: "Lets a buyer without an account read this billing: `billing(billingId, token)`, or `?t=` on the checkout pages.",
        resolve: (r) => r.accessToken,
      }),
      order: t.field({ type: Order, nullable: false, resolve: (r) => r.order }),
      billing: t.field({ type: Billing, nullable: false, resolve: (r) => ({ billing: r.billing, order: r.order }) }),
    }),
  });

builder.mutationFields((t) => ({
  createOrder: t.field({
    type: CreateOrderResult,
    description:
      "Holds the tickets (15 minutes; 48 hours for a bank transfer) and opens the payment. CONFLICT when stock ran out. When the event has a maximum per account (Event.maxTicketsPerAccount): UNAUTHENTICATED with extensions.reason ACCOUNT_REQUIRED without a signed-in account, CONFLICT with extensions.reason ACCOUNT_LIMIT_REACHED when the account would hold more than that (tickets held, sent to it, and orders still waiting for payment count).",
    args: { input: t.arg({ type: CreateOrderInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => startCheckout(ctx, given(input)),
  }),
}));

const PreviewOrderInput = builder.inputType("PreviewOrderInput", {
  description: "A selection to price and check: createOrder's input without the payer, the holders and the custom fields.",
  fields: (t) => ({
    eventSlug: t.string({ required: true }),
    eventDateId: t.id({ description: "Required when the event has several dates and the tickets do not pin one." }),
    items: t.field({ type: [OrderItemInput], required: true }),
    paymentMethod: t.field({ type: PaymentMethodEnum, description: "Optional: without it the preview says which method the tickets are paid with; with the other one, BAD_USER_INPUT on paymentMethod." }),
    accessCode: t.string(),
    presaleCode: t.string(),
    referredNick: t.string(),
    couponCode: t.string({ description: "The event's coupon code (case-insensitive). Unknown, paused, expired or not for these tickets: BAD_USER_INPUT on couponCode." }),
    seats: t.stringList({ description: "Reserved seating: the seats' guids, priced as the ticket types their categories sell (send an empty `items`). Whether they are free is createOrder's answer." }),
    bestAvailable: t.field({ type: BestAvailableInput, description: "Reserved seating: N seats of a ticket type (or a category), priced as createOrder would; send an empty `items`." }),
  }),
});

const OrderPreviewLine = builder.objectRef<PreviewLine>("OrderPreviewLine").implement({
  fields: (t) => ({
    ticketId: t.exposeID("ticketTypeId", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    qty: t.exposeInt("qty", { nullable: false }),
    unitPrice: t.exposeInt("unitPrice", { nullable: false, description: "Integer centavos, the ticket type's price now." }),
    unitPriceFormatted: t.string({ nullable: false, resolve: (l) => money(l.unitPrice)! }),
    subtotal: t.exposeInt("subtotal", { nullable: false, description: "qty × unitPrice, integer centavos." }),
    subtotalFormatted: t.string({ nullable: false, resolve: (l) => money(l.subtotal)! }),
    paymentMethod: t.field({ type: PaymentMethodEnum, nullable: false, description: "How this ticket is paid.", resolve: (l) => l.paymentMethod }),
  }),
});

const OrderPreviewRef = builder.objectRef<OrderPreview>("OrderPreview").implement({
  description: "A selection priced and checked exactly as createOrder would, with nothing held: the stock shown is advisory.",
  fields: (t) => ({
    eventSlug: t.string({ nullable: false, resolve: (p) => p.event.slug }),
    eventDateId: t.id({ nullable: false, description: "The chosen date: the one asked for, the only one, or the one the tickets are for.", resolve: (p) => p.date.id }),
    startsAt: t.string({ nullable: false, resolve: (p) => isoDate(p.date.startsAt)! }),
    lines: t.field({ type: [OrderPreviewLine], nullable: false, description: "One per ticket type, in the order given.", resolve: (p) => p.lines }),
    subtotal: t.exposeInt("subtotal", { nullable: false }),
    subtotalFormatted: t.string({ nullable: false, resolve: (p) => money(p.subtotal)! }),
    discount: t.exposeInt("discount", { nullable: false }),
    discountFormatted: t.string({ nullable: false, resolve: (p) => money(p.discount)! }),
    couponCode: t.string({ description: "The coupon applied, as the organizer wrote it; null without one.", resolve: (p) => p.coupon?.code ?? null }),
    couponLabel: t.string({ description: "«20 % de descuento»", resolve: (p) => p.coupon?.label ?? null }),
    serviceFeeBps: t.exposeInt("serviceFeeBps", { nullable: false, description: "The service fee's rate in basis points; the fee is on subtotal − discount." }),
    serviceFee: t.exposeInt("serviceFee", { nullable: false }),
    serviceFeeFormatted: t.string({ nullable: false, resolve: (p) => money(p.serviceFee)! }),
    total: t.exposeInt("total", { nullable: false }),
    totalFormatted: t.string({ nullable: false, resolve: (p) => money(p.total)! }),
    free: t.exposeBoolean("free", { nullable: false, description: "Nothing to pay: createOrder would issue the tickets at once." }),
    requiredPaymentMethod: t.field({ type: PaymentMethodEnum, nullable: false, description: "The method these tickets are paid with (one per order).", resolve: (p) => p.requiredPaymentMethod }),
    paymentMethod: t.exposeString("paymentMethod", { nullable: false, description: "The order's method: MERCADO_PAGO, BANK_TRANSFER or FREE." }),
    holdMinutes: t.int({ description: "How long createOrder would hold the tickets unpaid; null when nothing is due.", resolve: (p) => p.hold?.minutes ?? null }),
    holdLabel: t.string({ description: "The hold in words: «15 minutos», «48 horas».", resolve: (p) => p.hold?.label ?? null }),
    referredNick: t.string({ description: "The referral promoter's nick when they sell this event; else null.", resolve: (p) => p.referrer?.nick ?? null }),
  }),
});

builder.queryFields((t) => ({
  previewOrder: t.field({
    type: OrderPreviewRef,
    description:
      "Prices and checks a selection as createOrder would, holding nothing (public). BAD_USER_INPUT with fieldErrors (the date, a ticket's rules under its id, paymentMethod, couponCode); CONFLICT when only the stock falls short (fieldErrors say how many are left per ticket); NOT_FOUND for an unknown event.",
    args: { input: t.arg({ type: PreviewOrderInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => previewOrder(ctx, given(input)),
  }),
}));
