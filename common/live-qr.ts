/**
 * The live QR ("QR dinámico", docs/door.md, decisions 207 and 208): a code that changes every 15 seconds,
 * so a screenshot or a forwarded photo stops working at the door.
 *
 * One implementation for the buyer's browser (no request: it works in airplane mode), the server's
 * redeem and the door phone judging offline. It uses Web Crypto only (`crypto.subtle`, also
 * `globalThis.crypto` on Node 20), never `node:crypto`.
 *
 * The code is `TLQ1.<ticketRef>.<8 digits>`: the digits are TOTP (RFC 6238, HMAC-SHA1, 15-second step,
 * counted from the Unix epoch) over the ticket's own secret. `ticketRef` is the ticket's id in base64url
 * (22 characters), never its static admission code. Google Wallet's rotating barcode reproduces it with
 * `valuePattern: "TLQ1.<ticketRef>.{totp_value_0}"` and
 * `totpDetails: { periodMillis: LIVE_QR_PERIOD_MS, algorithm: "TOTP_SHA1", parameters: [{ key: bytesToHex(secret), valueLength: LIVE_QR_DIGITS }] }`.
 */

/** What every live code starts with (a static QR starts with `TRB1.`). */
export const LIVE_QR_PREFIX = "TLQ1";
/** Each code lives one TOTP step. */
export const LIVE_QR_PERIOD_MS = 15_000;
/** Digits of each code (Google Wallet's `valueLength`). */
export const LIVE_QR_DIGITS = 8;
/** Steps accepted either side of the judge's clock: a phone's clock a few seconds off still gets in; two steps (30 s) do not. */
export const LIVE_QR_TOLERANCE_STEPS = 1;

const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  return globalThis.crypto.subtle;
}

/** Keys already imported, per key array and hash: an event's key signs thousands of times for one manifest. */
const importedKeys = new WeakMap<Uint8Array, Map<string, Promise<CryptoKey>>>();

async function hmac(hash: "SHA-1" | "SHA-256", key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  let byHash = importedKeys.get(key);
  if (!byHash) importedKeys.set(key, (byHash = new Map()));
  let cryptoKey = byHash.get(hash);
  if (!cryptoKey) byHash.set(hash, (cryptoKey = subtle().importKey("raw", key as BufferSource, { name: "HMAC", hash }, false, ["sign"])));
  return new Uint8Array(await subtle().sign("HMAC", await cryptoKey, data as BufferSource));
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new Error("Hexadecimal inválido");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToBase64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function base64urlToBytes(value: string): Uint8Array {
  const binary = atob(value.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (value.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The ticket's reference in its live code: its id (a UUID) as 16 bytes of base64url. Null for anything that is not a UUID. */
export function ticketRefOf(ticketId: string): string | null {
  const hex = ticketId.replace(/-/g, "");
  return /^[0-9a-f]{32}$/i.test(hex) ? bytesToBase64url(hexToBytes(hex)) : null;
}

/** The ticket id a reference stands for, or null when it is not one. */
export function ticketIdOfRef(ref: string): string | null {
  if (!/^[A-Za-z0-9_-]{22}$/.test(ref)) return null;
  const hex = bytesToHex(base64urlToBytes(ref));
  if (hex.length !== 32) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The ticket's TOTP secret: HMAC-SHA256 of its id under the event's live-QR key (32 bytes). */
export function liveTicketSecret(eventKey: Uint8Array, ticketId: string): Promise<Uint8Array> {
  return hmac("SHA-256", eventKey, encoder.encode(`tribuna-live-qr:${ticketId.toLowerCase()}`));
}

/** The TOTP step a moment falls in. */
export function liveStepAt(time: Date | number): number {
  return Math.floor(new Date(time).getTime() / LIVE_QR_PERIOD_MS);
}

/** RFC 4226 HOTP of one counter, `digits` long (RFC 6238 passes the time step as the counter). */
export async function hotp(secret: Uint8Array, counter: number, digits = LIVE_QR_DIGITS, hash: "SHA-1" | "SHA-256" = "SHA-1"): Promise<string> {
  const message = new Uint8Array(8);
  // Counters fit in 53 bits: high and low 32-bit halves, big-endian.
  const high = Math.floor(counter / 2 ** 32);
  const view = new DataView(message.buffer);
  view.setUint32(0, high);
  view.setUint32(4, counter - high * 2 ** 32);
  const mac = await hmac(hash, secret, message);
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The 8 TOTP digits at a moment. */
export function liveDigitsAt(secret: Uint8Array, time: Date | number): Promise<string> {
  return hotp(secret, liveStepAt(time));
}

/** The live code a ticket shows at a moment: `TLQ1.<ticketRef>.<8 digits>`. */
export async function liveCodeAt(secret: Uint8Array, ticketRef: string, time: Date | number): Promise<string> {
  return `${LIVE_QR_PREFIX}.${ticketRef}.${await liveDigitsAt(secret, time)}`;
}

/** Milliseconds until the code shown at `time` changes. */
export function msUntilNextCode(time: Date | number): number {
  const t = new Date(time).getTime();
  return LIVE_QR_PERIOD_MS - (((t % LIVE_QR_PERIOD_MS) + LIVE_QR_PERIOD_MS) % LIVE_QR_PERIOD_MS);
}

/** A scanned text read as a live code (its reference and digits), or null when it is not one. */
export function parseLiveCode(raw: string): { ticketRef: string; ticketId: string; digits: string } | null {
  const parts = raw.trim().split(".");
  if (parts.length !== 3 || parts[0] !== LIVE_QR_PREFIX) return null;
  const ticketId = ticketIdOfRef(parts[1]);
  if (!ticketId || !new RegExp(`^\\d{${LIVE_QR_DIGITS}}$`).test(parts[2])) return null;
  return { ticketRef: parts[1], ticketId, digits: parts[2] };
}

/**
 * Whether a live code was shown within `LIVE_QR_TOLERANCE_STEPS` steps of `time` (the judge's clock):
 * `valid` false is a screenshot, an old photo or a clock far off. `offset` is the step it matched, if any.
 */
export async function verifyLiveCode(secret: Uint8Array, code: string, time: Date | number, tolerance = LIVE_QR_TOLERANCE_STEPS): Promise<{ valid: boolean; offset: number | null }> {
  const parsed = parseLiveCode(code);
  if (!parsed) return { valid: false, offset: null };
  const step = liveStepAt(time);
  for (let offset = -tolerance; offset <= tolerance; offset++) {
    if (constantTimeEqual(await hotp(secret, step + offset), parsed.digits)) return { valid: true, offset };
  }
  return { valid: false, offset: null };
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/*
 * The door manifest (decision 208): door phones get each live ticket's secret, never the event's key,
 * and each one wrapped by its ticket's reference. A copied manifest alone mints no code: it also takes
 * the reference, which only the ticket (and a code it showed) carries.
 */

/** The pad a ticket's secret is XORed with in the manifest: SHA-256 of a label and its reference (secret, 122 random bits). */
async function wrapPad(ticketRef: string): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest("SHA-256", encoder.encode(`tribuna-live-qr-manifest:${ticketRef}`)));
}

async function xorWithPad(bytes: Uint8Array, ticketRef: string): Promise<Uint8Array> {
  const pad = await wrapPad(ticketRef);
  return bytes.map((b, i) => b ^ pad[i]);
}

/** The secret as the manifest carries it (base64url). */
export async function wrapLiveSecret(secret: Uint8Array, ticketRef: string): Promise<string> {
  return bytesToBase64url(await xorWithPad(secret, ticketRef));
}

/** The secret back from the manifest, with the reference of a scanned code. */
export async function unwrapLiveSecret(wrapped: string, ticketRef: string): Promise<Uint8Array> {
  return xorWithPad(base64urlToBytes(wrapped), ticketRef);
}

/** How the manifest finds a live ticket by its reference: HMAC-SHA256 under the manifest's key, 16 bytes, base64url (like whole codes). */
export async function liveRefLookup(manifestKey: Uint8Array, ticketRef: string): Promise<string> {
  return bytesToBase64url((await hmac("SHA-256", manifestKey, encoder.encode(`live:${ticketRef}`))).subarray(0, 16));
}

/** Hours before a date's opening from which its static code is admitted, by default (the organizer's setting). */
export const STATIC_CODE_REVEAL_HOURS_DEFAULT = 24;
export const STATIC_CODE_REVEAL_HOURS_MAX = 168;

/** From when a live-QR ticket's static code (PDF, Apple Wallet, no JavaScript) is admitted: the opening less the reveal hours. */
export function staticCodeAdmittedFrom(opensAt: Date | string, revealHours: number): Date {
  return new Date(new Date(opensAt).getTime() - revealHours * 3600e3);
}
