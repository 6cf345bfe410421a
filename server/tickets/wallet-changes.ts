import crypto from "node:crypto";
import { and, eq, exists, gt, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { eventDates, events, issuedProducts, walletDeviceRegistrations, walletPassUpdates } from "#server/db/schema";
import { env } from "#server/env";
import { enqueue } from "#server/jobs/queue";

/** The job that tells the wallets about changed passes: APNs pushes and Google's INACTIVE (server/wallet/changes.ts). */
export const WALLET_PASSES_CHANGED_JOB = "wallet-passes-changed";

/** The job that patches an event's Google Wallet class after the event changed (server/wallet/changes.ts). */
export const WALLET_EVENT_CHANGED_JOB = "wallet-event-changed";

/**
 * The hook of an organizer's change to what a pass shows of an event (name,
 * venue, dates, the organization's colours), in its transaction: one job per
 * event that patches its dates' classes in Google Wallet (one class per date,
 * decision 238), so the passes people already saved show the change. Only when
 * Google Wallet is set up and the event has tickets whose date has not ended
 * (no ticket, no saved pass). `dateIds`: only those dates changed (a moved
 * date), so only their classes are patched. Apple's passes are built on each
 * request: they change with no job. `{ organizationId }`: every such event of
 * the organization.
 */
export async function walletEventsChanged(tx: DbOrTx, scope: string[] | { organizationId: string }, now: Date, options: { dateIds?: string[] } = {}): Promise<void> {
  if (!env().GOOGLE_WALLET_ISSUER_ID || (Array.isArray(scope) && !scope.length)) return;
  const rows = await tx
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        Array.isArray(scope) ? inArray(events.id, scope) : eq(events.organizationId, scope.organizationId),
        exists(tx.select({ one: sql`1` }).from(issuedProducts).where(eq(issuedProducts.eventId, events.id))),
        exists(tx.select({ one: sql`1` }).from(eventDates).where(and(eq(eventDates.eventId, events.id), gt(eventDates.endsAt, now)))),
      ),
    );
  for (const { id } of rows) await enqueue(tx, WALLET_EVENT_CHANGED_JOB, { eventId: id, ...(options.dateIds ? { dateIds: options.dateIds } : {}) }, now);
}

/**
 * A wallet pass's serial number (Apple) and object suffix (Google): the
 * ticket's id and a short hash of its current code. Sending or reselling a
 * ticket gives it a new code, so the previous holder's pass keeps its old
 * serial and is served voided: it never turns into the new holder's pass
 * (docs/wallet.md). It lives here, below server/wallet, because the ticket
 * changes call walletTicketsChanged from this folder and from orders.
 */
export function passSerialFor(ticket: { id: string; code: string }): string {
  const hash = crypto.createHash("sha256").update(`wallet:${ticket.code}`).digest().subarray(0, 8).toString("hex");
  return `${ticket.id}-${hash}`;
}

/**
 * The hook the ticket changes call in their transaction (voided, sent,
 * resold), with the tickets as they were before the change (their code then):
 * those passes' update tags move, so Apple Wallet lists them as updated, and
 * one job pushes to the devices that registered them and sets their Google
 * objects INACTIVE. `{ orderId }`: every ticket of the order (a void).
 */
export async function walletTicketsChanged(tx: DbOrTx, tickets: { id: string; code: string }[] | { orderId: string }, now: Date): Promise<void> {
  // Neither wallet set up: no pass was ever handed out, nothing to tell.
  if (!env().APPLE_PASS_TYPE_ID && !env().GOOGLE_WALLET_ISSUER_ID) return;
  const list = Array.isArray(tickets) ? tickets : await tx.select({ id: issuedProducts.id, code: issuedProducts.code }).from(issuedProducts).where(eq(issuedProducts.orderId, tickets.orderId));
  if (!list.length) return;
  const serials = list.map(passSerialFor);
  await touchWalletPasses(tx, serials, now);
  const [registered] = await tx.select({ n: sql<number>`count(*)::int` }).from(walletDeviceRegistrations).where(inArray(walletDeviceRegistrations.serialNumber, serials));
  // Google's objects may exist without us knowing (the save link goes straight to Google): the job asks whenever Google Wallet is set up.
  if ((registered?.n ?? 0) > 0 || env().GOOGLE_WALLET_ISSUER_ID) await enqueue(tx, WALLET_PASSES_CHANGED_JOB, { serials }, now);
}

/** Moves the passes' update tags (always forward), so Apple Wallet lists them as updated since its last tag. */
export async function touchWalletPasses(tx: DbOrTx, serials: string[], now: Date): Promise<void> {
  if (!serials.length) return;
  await tx
    .insert(walletPassUpdates)
    .values(serials.map((serialNumber) => ({ serialNumber, updatedAt: now })))
    .onConflictDoUpdate({ target: walletPassUpdates.serialNumber, set: { updatedAt: sql`greatest(excluded.updated_at, ${walletPassUpdates.updatedAt} + interval '1 microsecond')` } });
}
