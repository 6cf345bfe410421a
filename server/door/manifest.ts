import crypto from "node:crypto";
import { and, asc, desc, eq, gt, inArray, ne, or, sql } from "drizzle-orm";
import { canonicalShortCode, holderDocumentLabel, SHORT_CODE_LENGTH } from "#common/door";
import { seatLabel } from "#common/seating";
import { SHORT_CODE_HASH, type DoorManifest, type DoorManifestEntry } from "#common/door-manifest";
import type { Ctx } from "#server/context";
import { doorScans, eventDates, issuedProducts, resaleListings } from "#server/db/schema";
import { liveRefLookup, liveTicketSecret, staticCodeAdmittedFrom, ticketRefOf, wrapLiveSecret } from "#common/live-qr";
import { liveQrKey, liveQrSettingsOf } from "./live-qr";
import { authSecret } from "#server/env";
import type { DoorAccess } from "./access";
import { doorDateOf } from "./redeem";
import { productsOfMode, selectDoorTickets, type DoorMode } from "./search";

/**
 * The door manifest (docs/door.md, decision 104): what a door device needs to judge a
 * code without the network. It never carries codes: only their HMAC under a
 * key of this event alone, so a copied manifest makes no ticket and says
 * nothing about other events. The server signs the payload (ECDSA P-256)
 * and the door page carries the public key, so a manifest edited on the
 * device does not verify.
 *
 * The key travels in the manifest (the phone hashes what it scans), so a
 * hash is only as hard to guess as what it hides. A whole code has 128
 * random bits: its HMAC is enough. The 10-character code typed by hand has
 * ~2^52: its hash is PBKDF2-SHA256 with the event's own salt (decision 150
 * of the door, docs/door.md "Sin señal"), so every guess made with a copied
 * manifest costs `SHORT_CODE_HASH.iterations` hashes instead of one.
 */

/** Seconds of overlap between incremental refreshes: a transaction committing while the cursor was taken is not missed. */
const CURSOR_OVERLAP_MS = 5_000;

function eventKey(eventId: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", authSecret(), "tribuna-door-manifest", eventId, 32));
}

function keyedHash(key: Buffer, value: string): string {
  return crypto.createHmac("sha256", key).update(value).digest().subarray(0, 16).toString("base64url");
}

/** The event's salt for short-code hashes: its own, so nothing computed against one event serves for another. */
function shortCodeSalt(eventId: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", authSecret(), "tribuna-door-short-codes", eventId, 16));
}

function pbkdf2(value: string, salt: Buffer): Promise<string> {
  return new Promise((resolve, reject) =>
    crypto.pbkdf2(value, salt, SHORT_CODE_HASH.iterations, SHORT_CODE_HASH.bytes, "sha256", (error, key) => (error ? reject(error) : resolve(key.toString("base64url")))),
  );
}

/**
 * Short-code hashes already computed, per event and per code: a full
 * manifest every few minutes for every phone would otherwise redo tens of
 * thousands of slow hashes. Hashes of codes in flight are shared (ten phones
 * opening at once compute each one once). Bounded: past the limit the
 * oldest event is dropped and recomputed when asked again.
 */
const shortHashCache = new Map<string, { salt: Buffer; byCode: Map<string, Promise<string>> }>();
const SHORT_HASH_CACHE_LIMIT = 200_000;
let shortHashesCached = 0;

/** Short-code hashes of these codes, in order. Computed in libuv's thread pool, a batch at a time, so scans keep being answered meanwhile. */
async function shortCodeHashes(eventId: string, codes: string[]): Promise<string[]> {
  let event = shortHashCache.get(eventId);
  if (event?.salt.equals(shortCodeSalt(eventId)) === false) {
    shortHashesCached -= event.byCode.size;
    event = undefined;
  }
  if (!event) {
    while (shortHashesCached + codes.length > SHORT_HASH_CACHE_LIMIT && shortHashCache.size) {
      const [oldest, dropped] = shortHashCache.entries().next().value!;
      shortHashCache.delete(oldest);
      shortHashesCached -= dropped.byCode.size;
    }
    event = { salt: shortCodeSalt(eventId), byCode: new Map() };
    shortHashCache.set(eventId, event);
  }
  const hashes: Promise<string>[] = [];
  const BATCH = 64;
  for (let i = 0; i < codes.length; i += BATCH) {
    const batch = codes.slice(i, i + BATCH).map((code) => {
      let hash = event.byCode.get(code);
      if (!hash) {
        // The phone hashes what staff type in the same canonical form (separators out, O→0, I/L→1).
        hash = pbkdf2(canonicalShortCode(code.slice(0, SHORT_CODE_LENGTH)), event.salt);
        event.byCode.set(code, hash);
        shortHashesCached++;
        // A failure is not kept: the next manifest tries again.
        hash.catch(() => event.byCode.get(code) === hash && event.byCode.delete(code));
      }
      return hash;
    });
    hashes.push(...batch);
    await Promise.all(batch);
  }
  return Promise.all(hashes);
}

/**
 * A live ticket's fields in the manifest (decision 208): its lookup by reference and its TOTP secret
 * wrapped by that reference. Door phones never get the event's live-QR key, and a copied manifest alone
 * mints no live code (it also takes the ticket's reference). Computed with common/live-qr.ts, the code
 * the phone runs.
 */
const liveFieldsCache = new Map<string, Map<string, { r: string; x: string }>>();
const LIVE_FIELDS_CACHE_LIMIT = 200_000;
let liveFieldsCached = 0;

async function liveManifestFields(ctx: Ctx, eventId: string, manifestKey: Buffer, rows: { id: string }[]): Promise<({ r: string; x: string } | null)[]> {
  if (!rows.length) return [];
  // A ticket's fields never change (its id, the event's key and the manifest key are fixed): kept per event and process, bounded.
  const cacheKey = `${eventId}:${manifestKey.toString("base64url")}`;
  let cached = liveFieldsCache.get(cacheKey);
  if (!cached) {
    while (liveFieldsCached + rows.length > LIVE_FIELDS_CACHE_LIMIT && liveFieldsCache.size) {
      const [oldest, dropped] = liveFieldsCache.entries().next().value!;
      liveFieldsCache.delete(oldest);
      liveFieldsCached -= dropped.size;
    }
    liveFieldsCache.set(cacheKey, (cached = new Map()));
  }
  const missing = rows.filter((r) => !cached.has(r.id));
  if (missing.length) {
    const eventLiveKey = await liveQrKey(ctx.db, eventId);
    const lookupKey = new Uint8Array(manifestKey);
    const BATCH = 256;
    for (let i = 0; i < missing.length; i += BATCH) {
      await Promise.all(
        missing.slice(i, i + BATCH).map(async ({ id }) => {
          const ref = ticketRefOf(id);
          if (!ref) return;
          const [r, x] = await Promise.all([liveRefLookup(lookupKey, ref), liveTicketSecret(eventLiveKey, id).then((secret) => wrapLiveSecret(secret, ref))]);
          if (!cached.has(id)) liveFieldsCached++;
          cached.set(id, { r, x });
        }),
      );
    }
  }
  return rows.map((r) => cached.get(r.id) ?? null);
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
    ctx.db.select({ id: eventDates.id, startsAt: eventDates.startsAt, doorsAt: eventDates.doorsAt }).from(eventDates).where(and(eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted"))),
  ]);
  const changed = incremental
    ? or(
        gt(issuedProducts.createdAt, since),
        inArray(issuedProducts.id, ctx.db.select({ id: sql<string>`${doorScans.issuedProductId}` }).from(doorScans).where(and(eq(doorScans.eventId, eventId), gt(doorScans.receivedAt, since)))),
        // Resale hook (docs/resale.md): a seller's ticket voided by a sale, so offline doors refuse its old QR.
        inArray(issuedProducts.id, ctx.db.select({ id: resaleListings.issuedProductId }).from(resaleListings).where(and(eq(resaleListings.eventId, eventId), gt(resaleListings.soldAt, since)))),
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
  const shortHashes = await shortCodeHashes(eventId, rows.map((r) => r.code));
  const live = options.mode === "bar" ? null : await liveQrSettingsOf(ctx.db, eventId);
  const liveEntries = live?.enabled ? await liveManifestFields(ctx, eventId, key, rows) : null;
  const entries: DoorManifestEntry[] = rows.map((r, i) => ({
    k: keyedHash(key, r.code),
    s: shortHashes[i],
    n: r.holderName,
    // Only named tickets carry it: the manifest stays as small as before for the rest.
    ...(r.holderDocumentNumber ? { doc: holderDocumentLabel(r.holderDocumentType, r.holderDocumentNumber) ?? undefined } : {}),
    t: r.ticketTypeName,
    // Seated tickets only (decision 232): older door phones ignore it, and general admission adds nothing.
    ...(r.seatSection || r.seatRow || r.seatNumber ? { seat: seatLabel({ section: r.seatSection, row: r.seatRow, number: r.seatNumber }) ?? undefined } : {}),
    d: r.eventDateId,
    st: r.status,
    at: r.redeemedAt?.toISOString() ?? null,
    door: r.redeemedDoor,
    ...(liveEntries?.[i] ? { l: liveEntries[i] } : {}),
  }));
  const manifest: DoorManifest = {
    v: 2,
    eventId,
    eventName: access.event.name,
    doorDateId: doorDate?.id ?? null,
    dates: Object.fromEntries(dates.map((d) => [d.id, d.startsAt.toISOString()])),
    key: key.toString("base64url"),
    shortCodes: { ...SHORT_CODE_HASH, salt: shortCodeSalt(eventId).toString("base64url") },
    full: !incremental,
    cursor: new Date(ctx.now.getTime() - CURSOR_OVERLAP_MS).toISOString(),
    generatedAt: ctx.now.toISOString(),
    entries,
    conflicts: conflicts.map((c) => ({ ...c, at: c.at.toISOString() })),
    ...(live?.enabled ? { staticFrom: Object.fromEntries(dates.map((d) => [d.id, staticCodeAdmittedFrom(d.doorsAt ?? d.startsAt, live.staticCodeRevealHours).toISOString()])) } : {}),
  };
  const payload = JSON.stringify(manifest);
  return { payload, signature: signManifestPayload(payload) };
}
