import crypto from "node:crypto";
import { authSecret, env, paymentsMode } from "#server/env";

/**
 * Mercado Pago notification signatures (decisions 29 and 102). The `x-signature`
 * header is `ts=…,v1=…`; `v1` is the hex HMAC-SHA256, keyed with the webhook
 * secret, of the manifest `id:{data.id};request-id:{x-request-id};ts:{ts};`
 * where parts with no value are left out. Mercado Pago's docs ask for an
 * alphanumeric data.id in lower case, so we lower-case it.
 */
export function signatureManifest(parts: { dataId?: string | null; requestId?: string | null; ts?: string | null }): string {
  let manifest = "";
  if (parts.dataId) manifest += `id:${parts.dataId.toLowerCase()};`;
  if (parts.requestId) manifest += `request-id:${parts.requestId};`;
  if (parts.ts) manifest += `ts:${parts.ts};`;
  return manifest;
}

/**
 * The secret: MERCADOPAGO_WEBHOOK_SECRET, or while payments are simulated
 * (paymentsMode) one derived from the app's auth secret. Real payments
 * without a webhook secret have none: every notification is rejected (and
 * a production server does not start that way).
 */
export function webhookSecret(): string | null {
  const { MERCADOPAGO_WEBHOOK_SECRET } = env();
  if (MERCADOPAGO_WEBHOOK_SECRET) return MERCADOPAGO_WEBHOOK_SECRET;
  if (paymentsMode() !== "sandbox") return null;
  return crypto.createHmac("sha256", authSecret()).update("tribuna:sandbox-mercadopago-webhook").digest("hex");
}

export function computeV1(secret: string, manifest: string): string {
  return crypto.createHmac("sha256", secret).update(manifest).digest("hex");
}

/** The header value Mercado Pago would send. */
export function signNotification(secret: string, parts: { dataId: string; requestId: string; ts: string }): string {
  return `ts=${parts.ts},v1=${computeV1(secret, signatureManifest(parts))}`;
}

export function parseSignatureHeader(header: string | null | undefined): { ts?: string; v1?: string } {
  const out: { ts?: string; v1?: string } = {};
  if (!header) return out;
  for (const piece of header.split(",")) {
    const eq = piece.indexOf("=");
    if (eq < 0) continue;
    const key = piece.slice(0, eq).trim();
    const value = piece.slice(eq + 1).trim();
    if (key === "ts") out.ts = value;
    else if (key === "v1") out.v1 = value;
  }
  return out;
}

/** How far a signature's `ts` may be from our clock, either way: a captured delivery cannot be replayed later. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * The `ts` of `x-signature` as a time. Mercado Pago's docs show seconds and
 * its deliveries have carried milliseconds: 12 digits or more are read as
 * milliseconds (seconds reach 12 digits only in the year 5138).
 */
export function signatureTime(ts: string | null | undefined): Date | null {
  if (!ts || !/^\d{9,14}$/.test(ts)) return null;
  const value = Number(ts);
  return new Date(ts.length >= 12 ? value : value * 1000);
}

/** True when the header carries a `ts` more than SIGNATURE_TOLERANCE_MS from `now` (no `ts` at all is not stale: it is unsigned). */
export function isSignatureStale(signatureHeader: string | null | undefined, now: Date): boolean {
  const { ts } = parseSignatureHeader(signatureHeader);
  if (!ts) return false;
  const time = signatureTime(ts);
  return time === null || Math.abs(time.getTime() - now.getTime()) > SIGNATURE_TOLERANCE_MS;
}

/** Constant-time check of `x-signature` against the data id and `x-request-id`. */
export function verifyNotificationSignature(
  secret: string | null,
  input: { signatureHeader: string | null | undefined; requestId: string | null | undefined; dataId: string | null | undefined },
): boolean {
  if (!secret) return false;
  const { ts, v1 } = parseSignatureHeader(input.signatureHeader);
  if (!ts || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return false;
  const expected = Buffer.from(computeV1(secret, signatureManifest({ dataId: input.dataId, requestId: input.requestId, ts })), "hex");
  const given = Buffer.from(v1.toLowerCase(), "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
