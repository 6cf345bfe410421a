import crypto from "node:crypto";
import { and, asc, desc, eq, gt, inArray, ne, or, sql } from "drizzle-orm";
import { canonicalShortCode, SHORT_CODE_LENGTH } from "#common/door";
import type { DoorManifest, DoorManifestEntry } from "#common/door-manifest";
import type { Ctx } from "#server/context";
import { doorScans, eventDates, issuedProducts } from "#server/db/schema";
import { authSecret } from "#server/env";
import type { DoorAccess } from "./access";
import { doorDateOf } from "./redeem";
import { productsOfMode, selectDoorTickets, type DoorMode } from "./search";

/**
 * The door manifest (DESIGN.md §12): what a door device needs to judge a
 * code without the network. It never carries codes: only their HMAC under a
 * key of this event alone, so a copied manifest makes no ticket and says
 * nothing about other events. The server signs the payload (ECDSA P-256)
 * and the door page carries the public key, so a manifest edited on the
 * device does not verify.
 */

/** Seconds of overlap between incremental refreshes: a transaction committing while the cursor was taken is not missed. */
const CURSOR_OVERLAP_MS = 5_000;

function eventKey(eventId: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", authSecret(), "tribuna-door-manifest", eventId, 32));
}

function keyedHash(key: Buffer, value: string): string {
  return crypto.createHmac("sha256", key).update(value).digest().subarray(0, 16).toString("base64url");
}

let signingKeys: { privateKey: crypto.KeyObject; publicJwk: JsonWebKey; secret: string } | null = null;

/** A P-256 key pair derived from AUTH_SECRET, so every app process signs with the same key. */
function manifestKeys() {
  const secret = authSecret();
  if (signingKeys?.secret === secret) return signingKeys;
  const d = Buffer.from(crypto.hkdfSync("sha256", secret, "tribuna", "door-manifest-signing", 32));
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const x = point.subarray(1, 33).toString("base64url");
  const y = point.subarray(33, 65).toString("base64url");
  const privateKey = crypto.createPrivateKey({ key: { kty: "EC", crv: "P-256", d: d.toString("base64url"), x, y }, format: "jwk" });
  signingKeys = { privateKey, publicJwk: { kty: "EC", crv: "P-256", x, y }, secret };
  return signingKeys;
}

/** The public key door pages verify manifests with (JWK). */
export function manifestPublicKey(): JsonWebKey {
  return manifestKeys().publicJwk;
}

export function signManifestPayload(payload: string): string {
  return crypto.sign("sha256", Buffer.from(payload), { key: manifestKeys().privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url");
}

/**
 * The event's manifest: every ticket (`since` null), or only what changed
 * after `since` (new tickets, scans). Answers the signed JSON text.
 */
export async function doorManifest(ctx: Ctx, access: DoorAccess, options: { since?: string | null; mode?: DoorMode | null } = {}): Promise<{ payload: string; signature: string }> {
  const since = options.since ? new Date(options.since) : null;
  const incremental = since !== null && !Number.isNaN(since.getTime());
  const eventId = access.event.id;
  const [doorDate, dates] = await Promise.all([
    doorDateOf(ctx.db, eventId, ctx.now),
    ctx.db.select({ id: eventDates.id, startsAt: eventDates.startsAt }).from(eventDates).where(and(eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted"))),
  ]);
  const changed = incremental
    ? or(
        gt(issuedProducts.createdAt, since),
        inArray(issuedProducts.id, ctx.db.select({ id: sql<string>`${doorScans.issuedProductId}` }).from(doorScans).where(and(eq(doorScans.eventId, eventId), gt(doorScans.receivedAt, since)))),
      )
    : undefined;
  const rows = await selectDoorTickets(ctx.db)
    .where(and(eq(issuedProducts.eventId, eventId), productsOfMode(options.mode), changed))
    .orderBy(asc(issuedProducts.createdAt));
  const conflicts = await ctx.db
    // Where it really got in (the earliest scan), as the door's "ya ingresó" says.
    .select({ holderName: issuedProducts.holderName, at: sql<Date>`coalesce(${issuedProducts.redeemedAt}, ${doorScans.scannedAt})`.mapWith(doorScans.scannedAt), door: sql<string>`coalesce(${issuedProducts.redeemedDoor}, ${doorScans.door})` })
    .from(doorScans)
    .leftJoin(issuedProducts, eq(issuedProducts.id, doorScans.issuedProductId))
    .where(and(eq(doorScans.eventId, eventId), eq(doorScans.outcome, "conflict")))
    .orderBy(desc(doorScans.scannedAt))
    .limit(20);
  const key = eventKey(eventId);
  const entries: DoorManifestEntry[] = rows.map((r) => ({
    k: keyedHash(key, r.code),
    s: keyedHash(key, canonicalShortCode(r.code.slice(0, SHORT_CODE_LENGTH))),
    n: r.holderName,
    t: r.ticketTypeName,
    d: r.eventDateId,
    st: r.status,
    at: r.redeemedAt?.toISOString() ?? null,
    door: r.redeemedDoor,
  }));
  const manifest: DoorManifest = {
    v: 1,
    eventId,
    eventName: access.event.name,
    doorDateId: doorDate?.id ?? null,
    dates: Object.fromEntries(dates.map((d) => [d.id, d.startsAt.toISOString()])),
    key: key.toString("base64url"),
    full: !incremental,
    cursor: new Date(ctx.now.getTime() - CURSOR_OVERLAP_MS).toISOString(),
    generatedAt: ctx.now.toISOString(),
    entries,
    conflicts: conflicts.map((c) => ({ ...c, at: c.at.toISOString() })),
  };
  const payload = JSON.stringify(manifest);
  return { payload, signature: signManifestPayload(payload) };
}
