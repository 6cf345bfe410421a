import crypto from "node:crypto";

/**
 * The queue's draw (docs/queue.md, decision 187), the same rules the
 * verification script (scripts/verify-queue-draw.ts) runs:
 * - the seed is 32 random bytes written as 64 lowercase hex characters;
 * - the commitment is SHA-256 of that text (UTF-8), in lowercase hex;
 * - each place's draw key is HMAC-SHA256 with the seed's text as key and the
 *   place's id (its UUID as text, lowercase) as message, in lowercase hex;
 * - the places that joined before the opening go first, by draw key
 *   ascending; those that joined after go behind in arrival order.
 */

export function newDrawSeed(): string {
  return crypto.randomBytes(32).toString("hex");
}

export function drawCommitment(seed: string): string {
  return crypto.createHash("sha256").update(seed, "utf8").digest("hex");
}

export function drawKey(seed: string, placeId: string): string {
  return crypto.createHmac("sha256", seed).update(placeId.toLowerCase(), "utf8").digest("hex");
}

/** The places that joined before the opening in the drawn order (ties cannot happen: SHA-256 outputs differ). */
export function drawOrder(seed: string, placeIds: readonly string[]): string[] {
  return placeIds
    .map((id) => ({ id, key: drawKey(seed, id) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((p) => p.id);
}
