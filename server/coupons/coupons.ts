import type { CouponRow } from "#server/db/schema";
import { and, asc, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { couponRedemptions, coupons, events, ticketTypes, type CouponStatus } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { COUPON_MESSAGES, couponFieldProblems, couponFields, type CouponFields } from "#common/coupons";
import { recordAudit } from "#server/organizations/audit";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { isUniqueViolation } from "#server/db/errors";
import { discountFor, type DiscountLine } from "#common/pricing";

/**
 * Coupons (decision 33): a code of one event with a percent or fixed
 * discount, optionally only for some ticket types, a use limit and a
 * validity window. One use = one order. The organizer's side needs
 * "events:manage"; the buyer's side (preview on the event page, the
 * redemption inside createOrder) needs nothing but the code.
 */


export { COUPON_MESSAGES };

const uuid = z.string().uuid("Identificador inválido");


/** percent/amount by kind, and the window's order. */
function checkFields(data: CouponFields): { value: number } {
  const errors = couponFieldProblems(data);
  if (Object.keys(errors).length) throw new Invalid(errors);
  return { value: data.kind === "percent" ? data.percent! : data.amount! };
}

/**
 * Parses a coupon's fields and checks percent/amount by kind and the window,
 * reporting every field's problem at once (also when the schema already failed).
 */
function parseCoupon<T extends z.ZodType<CouponFields>>(schema: T, input: unknown): { data: z.output<T>; value: number } {
  const result = schema.safeParse(input);
  const errors: Record<string, string[]> = {};
  if (result.success) {
    try {
      return { data: result.data, value: checkFields(result.data).value };
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      Object.assign(errors, error.fieldErrors);
    }
  } else {
    for (const issue of result.error.issues) (errors[issue.path.join(".") || "_form"] ??= []).push(issue.message);
    const raw = (input ?? {}) as Record<string, unknown>;
    const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && !v.trim());
    const kind = typeof raw.kind === "string" ? raw.kind.toLowerCase() : null;
    if (kind === "percent" && blank(raw.percent)) errors.percent ??= [COUPON_MESSAGES.percent];
    if (kind === "fixed" && blank(raw.amount)) errors.amount ??= [COUPON_MESSAGES.amount];
  }
  throw new Invalid(errors);
}

async function requireEventOf(ctx: Ctx, eventId: string) {
  if (!uuid.safeParse(eventId).success) throw new NotFound(COUPON_MESSAGES.eventNotFound);
  const [event] = await ctx.db.select().from(events).where(eq(events.id, eventId));
  if (!event) throw new NotFound(COUPON_MESSAGES.eventNotFound);
  await requireCapability(ctx, event.organizationId, "events:manage");
  if (event.status === "deleted") throw new NotFound(COUPON_MESSAGES.eventNotFound);
  return event;
}

/** Loads a coupon the actor may manage (its organization, "events:manage"). Deleted ones are not found. */
export async function requireCoupon(ctx: Ctx, couponId: string): Promise<CouponRow> {
  if (!uuid.safeParse(couponId).success) throw new NotFound(COUPON_MESSAGES.notFound);
  const [coupon] = await ctx.db.select().from(coupons).where(eq(coupons.id, couponId));
  if (!coupon) throw new NotFound(COUPON_MESSAGES.notFound);
  await requireCapability(ctx, coupon.organizationId, "events:manage");
  if (coupon.status === "deleted") throw new NotFound(COUPON_MESSAGES.notFound);
  return coupon;
}

async function checkTicketTypes(ctx: Ctx, eventId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = await ctx.db
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), inArray(ticketTypes.id, unique), eq(ticketTypes.kind, "ticket"), ne(ticketTypes.status, "deleted")));
  if (found.length !== unique.length) throw new Invalid({ ticketTypeIds: [COUPON_MESSAGES.ticketTypes] });
  return unique.sort();
}

const createSchema = couponFields.extend({ eventId: z.string({ error: COUPON_MESSAGES.event }).min(1, COUPON_MESSAGES.event) });

const createCouponSchema = z.object({ eventId: z.string({ error: COUPON_MESSAGES.event }).min(1, COUPON_MESSAGES.event) });

/** `createCoupon(input)`: a new active coupon for one of the organization's events. */
export async function createCoupon(ctx: Ctx, input: DomainInput<typeof createSchema>): Promise<CouponRow> {
  const { eventId } = parseInput(createCouponSchema, input);
  const event = await requireEventOf(ctx, eventId);
  const { data, value } = parseCoupon(createSchema, input);
  const ticketTypeIds = await checkTicketTypes(ctx, event.id, data.ticketTypeIds);
  try {
    const [coupon] = await ctx.db
      .insert(coupons)
      .values({
        organizationId: event.organizationId,
        eventId: event.id,
        code: data.code,
        kind: data.kind,
        value,
        ticketTypeIds,
        maxUses: data.maxUses ?? null,
        validFrom: data.validFrom ?? null,
        validUntil: data.validUntil ?? null,
        createdByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning();
    await recordAudit(ctx.db, ctx, { organizationId: coupon.organizationId, action: "coupon.create", targetId: coupon.id, data: { code: coupon.code, kind: coupon.kind, value: coupon.value } });
    return coupon;
  } catch (error) {
    if (isUniqueViolation(error)) throw new Invalid({ code: [COUPON_MESSAGES.codeTaken] });
    throw error;
  }
}

const updateSchema = z.object({ id: z.string() }).passthrough();

/**
 * `updateCoupon(input: { id, … })`: fields left out keep their value; `null`
 * clears maxUses / validFrom / validUntil. The use limit is lowered in the
 * same UPDATE that checks it is not below the uses already taken.
 */
export async function updateCoupon(ctx: Ctx, input: { id?: string | null } & Omit<DomainInput<typeof createSchema>, "eventId">): Promise<CouponRow> {
  const { id, ...changes } = parseInput(updateSchema, input) as { id: string } & Record<string, unknown>;
  const current = await requireCoupon(ctx, id);
  const has = (key: string) => Object.prototype.hasOwnProperty.call(changes, key) && changes[key] !== undefined;
  const merged = {
    code: has("code") ? changes.code : current.code,
    kind: has("kind") ? changes.kind : current.kind,
    percent: has("percent") ? changes.percent : current.kind === "percent" ? current.value : null,
    amount: has("amount") ? changes.amount : current.kind === "fixed" ? current.value : null,
    ticketTypeIds: has("ticketTypeIds") ? (changes.ticketTypeIds ?? []) : current.ticketTypeIds,
    maxUses: has("maxUses") ? changes.maxUses : current.maxUses,
    validFrom: has("validFrom") ? changes.validFrom : current.validFrom,
    validUntil: has("validUntil") ? changes.validUntil : current.validUntil,
  };
  // A kind switched without its new value: the other field's old value must not leak in.
  if (has("kind") && merged.kind !== current.kind) {
    if (!has("percent")) merged.percent = null;
    if (!has("amount")) merged.amount = null;
  }
  const { data, value } = parseCoupon(couponFields, merged);
  const ticketTypeIds = await checkTicketTypes(ctx, current.eventId, data.ticketTypeIds);
  const maxUses = data.maxUses ?? null;
  try {
    const [updated] = await ctx.db
      .update(coupons)
      .set({
        code: data.code,
        kind: data.kind,
        value,
        ticketTypeIds,
        maxUses,
        validFrom: data.validFrom ?? null,
        validUntil: data.validUntil ?? null,
        updatedAt: ctx.now,
      })
      .where(and(eq(coupons.id, id), ne(coupons.status, "deleted"), maxUses === null ? undefined : sql`${coupons.uses} <= ${maxUses}`))
      .returning();
    if (!updated) {
      const [now] = await ctx.db.select({ uses: coupons.uses, status: coupons.status }).from(coupons).where(eq(coupons.id, id));
      if (!now || now.status === "deleted") throw new NotFound(COUPON_MESSAGES.notFound);
      throw new Invalid({ maxUses: [COUPON_MESSAGES.maxBelowUses(now.uses)] });
    }
    await recordAudit(ctx.db, ctx, { organizationId: updated.organizationId, action: "coupon.update", targetId: updated.id, data: { code: updated.code, value: { from: current.value, to: updated.value }, maxUses: updated.maxUses } });
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw new Invalid({ code: [COUPON_MESSAGES.codeTaken] });
    throw error;
  }
}

const statusSchema = z.object({
  id: z.string(),
  status: z.preprocess((v) => (typeof v === "string" ? v.toLowerCase() : v), z.enum(["active", "paused", "deleted"], { error: "Elegí un estado válido" })),
});

/** `setCouponStatus(input: { id, status })`: pause, resume or delete (final; frees the code for a new coupon). */
export async function setCouponStatus(ctx: Ctx, input: DomainInput<typeof statusSchema>): Promise<CouponRow> {
  const data = parseInput(statusSchema, input);
  if (!uuid.safeParse(data.id).success) throw new NotFound(COUPON_MESSAGES.notFound);
  const [coupon] = await ctx.db.select().from(coupons).where(eq(coupons.id, data.id));
  if (!coupon) throw new NotFound(COUPON_MESSAGES.notFound);
  await requireCapability(ctx, coupon.organizationId, "events:manage");
  if (coupon.status === "deleted") throw new Conflict(COUPON_MESSAGES.deletedIsFinal);
  const [updated] = await ctx.db
    .update(coupons)
    .set({ status: data.status as CouponStatus, updatedAt: ctx.now })
    .where(and(eq(coupons.id, data.id), ne(coupons.status, "deleted")))
    .returning();
  if (!updated) throw new Conflict(COUPON_MESSAGES.deletedIsFinal);
  await recordAudit(ctx.db, ctx, { organizationId: updated.organizationId, action: "coupon.status", targetId: updated.id, data: { code: updated.code, from: coupon.status, to: updated.status } });
  return updated;
}

export const COUPONS_MAX_LIMIT = 100;

const listSchema = z.object({
  organizationId: z.string().optional(),
  eventId: z.string().optional(),
  page: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(COUPONS_MAX_LIMIT).default(50),
});

export type CouponListItem = CouponRow & { event: { id: string; name: string; slug: string }; ticketTypeNames: string[] };

/**
 * `coupons(eventId or organizationId)`: the organization's coupons (deleted
 * ones left out), newest first, optionally of one event.
 */
export async function listCoupons(ctx: Ctx, input: DomainInput<typeof listSchema>): Promise<{ items: CouponListItem[]; total: number; page: number; limit: number }> {
  const data = parseInput(listSchema, input);
  let organizationId = data.organizationId;
  let eventId = data.eventId || undefined;
  if (eventId) {
    const event = await requireEventOf(ctx, eventId);
    if (organizationId && organizationId !== event.organizationId) throw new NotFound(COUPON_MESSAGES.eventNotFound);
    organizationId = event.organizationId;
  } else if (organizationId) {
    await requireCapability(ctx, organizationId, "events:manage");
  } else throw new Invalid({ organizationId: ["Elegí una organización o un evento"] });

  const where = and(eq(coupons.organizationId, organizationId!), ne(coupons.status, "deleted"), eventId ? eq(coupons.eventId, eventId) : undefined);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(coupons).where(where);
  const rows = await ctx.db
    .select({ coupon: coupons, event: { id: events.id, name: events.name, slug: events.slug } })
    .from(coupons)
    .innerJoin(events, eq(events.id, coupons.eventId))
    .where(where)
    .orderBy(desc(coupons.createdAt), asc(coupons.code))
    .limit(data.limit)
    .offset(data.page * data.limit);
  const ids = [...new Set(rows.flatMap((r) => r.coupon.ticketTypeIds))];
  const names = new Map(
    ids.length ? (await ctx.db.select({ id: ticketTypes.id, name: ticketTypes.name }).from(ticketTypes).where(inArray(ticketTypes.id, ids))).map((t) => [t.id, t.name]) : [],
  );
  const items = rows.map((r) => ({ ...r.coupon, event: r.event, ticketTypeNames: r.coupon.ticketTypeIds.map((id) => names.get(id) ?? "—") }));
  return { items, total, page: data.page, limit: data.limit };
}

// ───────────────────────── Buyer side ─────────────────────────

/** "20 % de descuento" / "$ 1.500,00 de descuento": how the event page names the discount (docs/wording.md). */
export function couponLabel(coupon: Pick<CouponRow, "kind" | "value">): string {
  return coupon.kind === "percent" ? `${coupon.value} % de descuento` : `${formatMoney(coupon.value)} de descuento`;
}

/** Why a coupon cannot be used right now (before taking a use), or null. */
export function couponProblem(coupon: Pick<CouponRow, "status" | "validFrom" | "validUntil" | "maxUses" | "uses" | "code">, now: Date): string | null {
  if (coupon.status === "deleted") return COUPON_MESSAGES.unknown;
  if (coupon.status === "paused") return COUPON_MESSAGES.paused;
  if (coupon.validFrom && now < coupon.validFrom) return COUPON_MESSAGES.notStarted(formatDateTime(coupon.validFrom));
  if (coupon.validUntil && now >= coupon.validUntil) return COUPON_MESSAGES.ended;
  if (coupon.maxUses !== null && coupon.uses >= coupon.maxUses) return COUPON_MESSAGES.exhausted(coupon.code);
  return null;
}

/** The discount rule lives in common/pricing.ts (the event page's live total uses it too). */
export { discountFor, type DiscountLine };

async function couponByCode(db: DbOrTx, eventId: string, code: string) {
  const [coupon] = await db
    .select()
    .from(coupons)
    .where(and(eq(coupons.eventId, eventId), sql`lower(${coupons.code}) = lower(${code.trim()})`, ne(coupons.status, "deleted")));
  return coupon ?? null;
}

/**
 * The event page's preview: the coupon behind a code if a buyer could use it
 * now, else the reason. Takes no use (the order does).
 */
export async function previewCoupon(
  db: DbOrTx,
  input: { eventId: string; code: string; now: Date },
): Promise<{ ok: true; coupon: CouponRow; label: string } | { ok: false; message: string }> {
  const code = input.code.trim();
  if (!code || code.length > 60) return { ok: false, message: COUPON_MESSAGES.unknown };
  const coupon = await couponByCode(db, input.eventId, code);
  if (!coupon) return { ok: false, message: COUPON_MESSAGES.unknown };
  const problem = couponProblem(coupon, input.now);
  if (problem) return { ok: false, message: problem };
  return { ok: true, coupon, label: couponLabel(coupon) };
}

/**
 * `/canjear/{couponId}`: the coupon and its event's slug, or why it cannot be
 * used (unknown, paused, ended, exhausted). Public: the id is the link.
 */
export async function couponForRedeemLink(
  ctx: Ctx,
  couponId: string,
): Promise<{ ok: true; code: string; eventSlug: string; label: string } | { ok: false; message: string; eventSlug: string | null }> {
  if (!uuid.safeParse(couponId).success) return { ok: false, message: COUPON_MESSAGES.unknown, eventSlug: null };
  const [row] = await ctx.db
    .select({ coupon: coupons, event: { slug: events.slug, status: events.status, publishedAt: events.publishedAt } })
    .from(coupons)
    .innerJoin(events, eq(events.id, coupons.eventId))
    .where(eq(coupons.id, couponId));
  if (!row || row.coupon.status === "deleted" || row.event.status === "deleted" || !row.event.publishedAt) {
    return { ok: false, message: COUPON_MESSAGES.unknown, eventSlug: null };
  }
  const problem = couponProblem(row.coupon, ctx.now);
  if (problem) return { ok: false, message: problem, eventSlug: row.event.slug };
  return { ok: true, code: row.coupon.code, eventSlug: row.event.slug, label: couponLabel(row.coupon) };
}

/**
 * For createOrder, before its transaction takes anything: finds the event's
 * coupon by code (case-insensitive), checks it may be used now and applies
 * to the lines, and prices the discount. Bad codes are Invalid on
 * `couponCode`. Nothing is locked: the use is taken by `takeCouponUse`.
 */
export async function couponForOrder(
  db: DbOrTx,
  input: { eventId: string; code: string; lines: DiscountLine[]; now: Date },
): Promise<{ coupon: CouponRow; discount: number }> {
  const coupon = await couponByCode(db, input.eventId, input.code);
  if (!coupon) throw new Invalid({ couponCode: [COUPON_MESSAGES.unknown] }, COUPON_MESSAGES.unknown);
  const problem = couponProblem({ ...coupon, maxUses: null }, input.now);
  if (problem) throw new Invalid({ couponCode: [problem] }, problem);
  const { applies, discount } = discountFor(coupon, input.lines);
  if (!applies) throw new Invalid({ couponCode: [COUPON_MESSAGES.notApplicable] }, COUPON_MESSAGES.notApplicable);
  return { coupon, discount };
}

/**
 * Inside createOrder's transaction, right after the stock is held (the last
 * lock it takes, docs/locking.md): one use, with a conditional UPDATE (never
 * read-then-write; the CHECK on `uses` backs it). A coupon paused or used up
 * since `couponForOrder` read it is a Conflict.
 */
export async function takeCouponUse(tx: DbOrTx, coupon: Pick<CouponRow, "id" | "code">): Promise<void> {
  const [taken] = await tx
    .update(coupons)
    .set({ uses: sql`${coupons.uses} + 1` })
    .where(
      and(
        eq(coupons.id, coupon.id),
        eq(coupons.status, "active"),
        sql`(${coupons.maxUses} is null or ${coupons.uses} + 1 <= ${coupons.maxUses})`,
      ),
    )
    .returning({ id: coupons.id });
  if (!taken) throw new Conflict(COUPON_MESSAGES.exhausted(coupon.code), { couponCode: [COUPON_MESSAGES.exhausted(coupon.code)] });
}

/** Records which coupon an order used (same transaction as takeCouponUse and the order). */
export async function recordCouponUse(tx: DbOrTx, input: { orderId: string; couponId: string; discount: number; now: Date }) {
  await tx.insert(couponRedemptions).values({ orderId: input.orderId, couponId: input.couponId, discount: input.discount, createdAt: input.now });
}

/**
 * Gives an unpaid order's coupon use back, exactly once: only the caller
 * that stamps `released_at` decrements `uses`. Call it in the transaction
 * that flips the order (expiry, rejected transfer). No coupon: nothing.
 */
export async function releaseCouponUse(tx: DbOrTx, orderId: string, now: Date): Promise<boolean> {
  const [released] = await tx
    .update(couponRedemptions)
    .set({ releasedAt: now })
    .where(and(eq(couponRedemptions.orderId, orderId), isNull(couponRedemptions.releasedAt)))
    .returning({ couponId: couponRedemptions.couponId });
  if (!released) return false;
  await tx
    .update(coupons)
    .set({ uses: sql`${coupons.uses} - 1` })
    .where(and(eq(coupons.id, released.couponId), sql`${coupons.uses} > 0`));
  return true;
}

/**
 * A late payment honoured for an expired order (webhook "orphan" path): its
 * released use is counted again when the limit still has room. The buyer
 * paid the discounted price either way; without room the redemption stays
 * released (the CHECK never lets `uses` pass `max_uses`).
 */
export async function retakeCouponUse(tx: DbOrTx, orderId: string): Promise<boolean> {
  const [redemption] = await tx
    .select({ couponId: couponRedemptions.couponId })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.orderId, orderId), sql`${couponRedemptions.releasedAt} is not null`));
  if (!redemption) return false;
  const [taken] = await tx
    .update(coupons)
    .set({ uses: sql`${coupons.uses} + 1` })
    .where(and(eq(coupons.id, redemption.couponId), sql`(${coupons.maxUses} is null or ${coupons.uses} + 1 <= ${coupons.maxUses})`))
    .returning({ id: coupons.id });
  if (!taken) return false;
  await tx.update(couponRedemptions).set({ releasedAt: null }).where(eq(couponRedemptions.orderId, orderId));
  return true;
}
