import type { CouponRow } from "#server/db/schema";
import { builder } from "./builder";
import { given, isoDate, money } from "./scalars";
import * as couponsDomain from "#server/coupons/coupons";
import type { CouponListItem } from "#server/coupons/coupons";
import { appUrl } from "#server/env";

/** Coupons for integrators: the same domain functions as /organizacion/cupones. */

export function redeemUrl(couponId: string) {
  return `${appUrl()}/canjear/${couponId}`;
}

const Coupon = builder.objectRef<CouponRow | CouponListItem>("Coupon").implement({
  description: "A discount code of one event. One use = one order.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    eventId: t.exposeID("eventId", { nullable: false }),
    code: t.exposeString("code", { nullable: false, description: "Compared case-insensitively." }),
    kind: t.exposeString("kind", { nullable: false, description: "percent or fixed." }),
    percent: t.int({ description: "1–100 for percent coupons.", resolve: (c) => (c.kind === "percent" ? c.value : null) }),
    amount: t.int({ description: "Integer centavos off, for fixed coupons (capped at the applicable tickets' subtotal).", resolve: (c) => (c.kind === "fixed" ? c.value : null) }),
    amountFormatted: t.string({ resolve: (c) => (c.kind === "fixed" ? money(c.value) : null) }),
    discountLabel: t.string({ nullable: false, description: "\"20 % de descuento\" or \"$ 1.500,00 de descuento\".", resolve: (c) => couponsDomain.couponLabel(c) }),
    ticketTypeIds: t.idList({ nullable: false, description: "Empty: every ticket type of the event.", resolve: (c) => c.ticketTypeIds }),
    maxUses: t.int({ description: "null: unlimited.", resolve: (c) => c.maxUses }),
    uses: t.exposeInt("uses", { nullable: false, description: "Orders holding the coupon (given back when an order expires unpaid)." }),
    validFrom: t.string({ resolve: (c) => isoDate(c.validFrom) }),
    validUntil: t.string({ resolve: (c) => isoDate(c.validUntil) }),
    status: t.exposeString("status", { nullable: false, description: "active, paused or deleted." }),
    redeemUrl: t.string({ nullable: false, description: "/canjear/{id}: opens the event with the coupon applied.", resolve: (c) => redeemUrl(c.id) }),
    createdAt: t.string({ nullable: false, resolve: (c) => isoDate(c.createdAt)! }),
  }),
});

const CouponList = builder.objectRef<{ items: (CouponRow | CouponListItem)[]; total: number; page: number; limit: number }>("CouponList").implement({
  fields: (t) => ({
    items: t.field({ type: [Coupon], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false, description: "From 0." }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

builder.queryFields((t) => ({
  coupons: t.field({
    type: CouponList,
    nullable: false,
    description: "An organization's coupons (or one event's), deleted ones left out, newest first. Needs events:manage. Paged: page from 0, limit 1–100 (default 50).",
    args: { organizationId: t.arg.id(), eventId: t.arg.id(), page: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, { ctx }) =>
      couponsDomain.listCoupons(
        ctx,
        given({
          organizationId: args.organizationId == null ? undefined : String(args.organizationId),
          eventId: args.eventId == null ? undefined : String(args.eventId),
          page: args.page ?? undefined,
          limit: args.limit ?? undefined,
        }),
      ),
  }),
}));

const CreateCouponInput = builder.inputType("CreateCouponInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    code: t.string({ required: true, description: "3–30 letters, numbers, - or _; unique per event whatever the case." }),
    kind: t.string({ required: true, description: "percent or fixed." }),
    percent: t.int({ description: "1–100, for percent." }),
    amount: t.int({ description: "Integer centavos, for fixed." }),
    ticketTypeIds: t.idList({ description: "Ticket types it applies to; empty or absent: all of the event." }),
    maxUses: t.int({ description: "Orders that may use it; absent or null: unlimited." }),
    validFrom: t.string({ description: "ISO 8601; absent: from now." }),
    validUntil: t.string({ description: "ISO 8601; absent: no end." }),
  }),
});

const UpdateCouponInput = builder.inputType("UpdateCouponInput", {
  description: "Fields left out keep their value; null clears maxUses, validFrom or validUntil.",
  fields: (t) => ({
    id: t.id({ required: true }),
    code: t.string(),
    kind: t.string({ description: "percent or fixed." }),
    percent: t.int(),
    amount: t.int({ description: "Integer centavos." }),
    ticketTypeIds: t.idList(),
    maxUses: t.int({ description: "Not below the uses already taken." }),
    validFrom: t.string(),
    validUntil: t.string(),
  }),
});

const SetCouponStatusInput = builder.inputType("SetCouponStatusInput", {
  fields: (t) => ({ id: t.id({ required: true }), status: t.string({ required: true, description: "active, paused or deleted (final)." }) }),
});

builder.mutationFields((t) => ({
  createCoupon: t.field({
    type: Coupon,
    nullable: false,
    description: "A new active coupon for one of the organization's events. Needs events:manage.",
    args: { input: t.arg({ type: CreateCouponInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => couponsDomain.createCoupon(ctx, given(input)),
  }),
  updateCoupon: t.field({
    type: Coupon,
    nullable: false,
    description: "Changes a coupon; fields left out keep their value.",
    args: { input: t.arg({ type: UpdateCouponInput, required: true }) },
    // Not `given`: an explicit null clears a limit or a date.
    resolve: (_root, { input }, { ctx }) => couponsDomain.updateCoupon(ctx, { ...input, id: String(input.id) }),
  }),
  setCouponStatus: t.field({
    type: Coupon,
    nullable: false,
    description: "Pauses, resumes or deletes a coupon (deleted is final and frees its code).",
    args: { input: t.arg({ type: SetCouponStatusInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => couponsDomain.setCouponStatus(ctx, { id: String(input.id), status: input.status }),
  }),
}));

export { Coupon };
