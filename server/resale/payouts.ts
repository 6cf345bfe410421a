import type { ResaleListingRow } from "#server/db/schema";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { resaleListings } from "#server/db/schema";
import { Conflict, NotFound } from "#server/errors";
import { enqueue } from "#server/jobs/queue";
import { recordAudit } from "#server/organizations/audit";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { RESALE_MESSAGES } from "./rules";
import { RESALE_PAYOUT_JOB } from "./settle";

/*
 * The organizer's side of a resale's money (docs/resale.md, "La plata del
 * vendedor"): a seller who did not pay through Mercado Pago is paid back by
 * the organizer by bank transfer, who then marks it done here; a Mercado
 * Pago payout whose retries ran out is `failed` until someone retries it.
 * Both are money: money:manage, audited.
 */

const listingIdSchema = z.object({ listingId: z.string().uuid(RESALE_MESSAGES.listingNotFound) });

async function loadListingForMoney(ctx: Ctx, listingId: string): Promise<ResaleListingRow> {
  const [listing] = await ctx.db.select().from(resaleListings).where(eq(resaleListings.id, listingId));
  if (!listing) throw new NotFound(RESALE_MESSAGES.listingNotFound);
  await requireCapability(ctx, listing.organizationId, "money:manage");
  return listing;
}

/** The organizer paid a sold listing's seller back by hand (the ledger booked it at the sale): pending → done. */
export async function markResalePayoutDone(ctx: Ctx, rawInput: DomainInput<typeof listingIdSchema>): Promise<ResaleListingRow> {
  const { listingId } = parseInput(listingIdSchema, rawInput);
  const found = await loadListingForMoney(ctx, listingId);
  return ctx.db.transaction(async (tx) => {
    const [done] = await tx
      .update(resaleListings)
      .set({ payoutStatus: "done", payoutError: null, updatedAt: ctx.now })
      .where(and(eq(resaleListings.id, found.id), eq(resaleListings.status, "sold"), eq(resaleListings.payoutMethod, "organizer"), eq(resaleListings.payoutStatus, "pending")))
      .returning();
    if (!done) throw new Conflict(RESALE_MESSAGES.payoutNotManual);
    await recordAudit(tx, ctx, { organizationId: done.organizationId, action: "resale.payout-marked", targetId: done.id, data: { amount: done.payout } });
    return done;
  });
}

/** A Mercado Pago payout that failed goes back to the job queue (same idempotency key: it never pays twice). */
export async function retryResalePayout(ctx: Ctx, rawInput: DomainInput<typeof listingIdSchema>): Promise<ResaleListingRow> {
  const { listingId } = parseInput(listingIdSchema, rawInput);
  const found = await loadListingForMoney(ctx, listingId);
  return ctx.db.transaction(async (tx) => {
    const [retried] = await tx
      .update(resaleListings)
      .set({ payoutStatus: "pending", updatedAt: ctx.now })
      .where(and(eq(resaleListings.id, found.id), eq(resaleListings.status, "sold"), eq(resaleListings.payoutMethod, "provider"), eq(resaleListings.payoutStatus, "failed")))
      .returning();
    if (!retried) throw new Conflict(RESALE_MESSAGES.payoutNotFailed);
    await enqueue(tx, RESALE_PAYOUT_JOB, { listingId: retried.id }, ctx.now);
    await recordAudit(tx, ctx, { organizationId: retried.organizationId, action: "resale.payout-retried", targetId: retried.id, data: { amount: retried.payout, lastError: found.payoutError } });
    return retried;
  });
}
