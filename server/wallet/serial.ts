import crypto from "node:crypto";
import { authSecret } from "#server/env";

/** The ticket id a serial names, or null when it is not one of ours. */
export function ticketIdOfSerial(serial: string): string | null {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-[0-9a-f]{16}$/.exec(serial);
  return match ? match[1] : null;
}

/** The pass's web service token (`Authorization: ApplePass <token>`): an HMAC of the serial with the app secret. */
export function passAuthToken(serial: string): string {
  return crypto.createHmac("sha256", authSecret()).update(`wallet-pass:${serial}`).digest("base64url");
}

/** The serial's token from an Authorization header, compared in constant time. */
export function passAuthorized(serial: string, header: string | null | undefined): boolean {
  const match = /^ApplePass (\S+)$/.exec(header ?? "");
  if (!match) return false;
  const expected = Buffer.from(passAuthToken(serial));
  const given = Buffer.from(match[1]);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
