import crypto from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { issuedProducts, walletDeviceRegistrations, walletPassUpdates } from "#server/db/schema";
import { env } from "#server/env";
import { enqueue } from "#server/jobs/queue";

/** The job that tells the wallets about changed passes: APNs pushes and Google's INACTIVE (server/wallet/changes.ts). */
export const WALLET_PASSES_CHANGED_JOB = "wallet-passes-changed";

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
