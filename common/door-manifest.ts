import type { DoorVerdict } from "./door";
import { parseShortTicketCode } from "./door";
import { LIVE_QR_PREFIX } from "./live-qr";

/** One ticket in a door manifest: hashes, never the code (server/door/manifest.ts). */
export interface DoorManifestEntry {
  /** Keyed hash of the ticket's code. */
  k: string;
  /** Slow hash of its short code, upper case (typed by hand): see `DoorManifest.shortCodes`. */
  s: string;
  n: string;
  /** The holder's document as the door shows it ("DNI 30.123.456"), only for named tickets (decision 202). */
  doc?: string;
  t: string;
  /**
   * Reserved seating (docs/seating.md): "Platea · Fila F · Asiento 12". Only seated tickets carry it, and a
   * manifest from before it has none: the door phone shows no seat then (decision 232).
   */
  seat?: string;
  /** The event date it is for. */
  d: string;
  st: "redeemable" | "redeemed" | "voided";
  at: string | null;
  door: string | null;
  /**
   * A ticket of an event with the live QR on (decision 208): `r` finds it by the reference in a live
   * code (`liveRefLookup`), `x` is its TOTP secret wrapped by that reference (`wrapLiveSecret`).
   */
  l?: { r: string; x: string };
}

/**
 * How the manifest hashes short codes (decision 150, docs/door.md): PBKDF2-SHA256,
 * 16 bytes, with the event's salt. The iterations make each offline guess
 * of a 10-character code cost that many hashes; the door phone pays it once
 * per code typed by hand (milliseconds), the server once per ticket and process.
 */
export const SHORT_CODE_HASH = { alg: "PBKDF2-SHA256", iterations: 1000, bytes: 16 } as const;

export interface DoorManifest {
  /** 2 since short codes are hashed with PBKDF2 (a device drops manifests of another version). */
  v: 2;
  eventId: string;
  eventName: string;
  doorDateId: string | null;
  dates: Record<string, string>;
  /** The event's hashing key for whole codes (HMAC-SHA256, base64url). */
  key: string;
  /** How short codes are hashed: PBKDF2-SHA256 with this salt (base64url) and iterations, `bytes` long. */
  shortCodes: { alg: "PBKDF2-SHA256"; iterations: number; bytes: number; salt: string };
  /** A whole manifest, or the changes since the previous cursor. */
  full: boolean;
  cursor: string;
  generatedAt: string;
  entries: DoorManifestEntry[];
  /** Tickets two doors let in offline (newest first): every door's screen shows them. */
  conflicts: { holderName: string | null; at: string; door: string }[];
  /** With the live QR on: per date, from when a live ticket's static code (QR, short code) is admitted. */
  staticFrom?: Record<string, string>;
}

/** How a code reached the door: a live code, a static QR, a short code typed, or a whole code (the search's "Dar ingreso"). */
export type ScanVia = "live" | "qr" | "short" | "code";

/** How a scanned text reached the door (see ScanVia). */
export function scanVia(raw: string): ScanVia {
  const text = raw.trim();
  if (text.startsWith(`${LIVE_QR_PREFIX}.`)) return "live";
  if (text.startsWith("TRB1.")) return "qr";
  return parseShortTicketCode(text) ? "short" : "code";
}

/**
 * Whether a live-QR ticket's code is refused as a screenshot or an expired code (decision 208), the same
 * online and offline: a live code that did not verify within one step, or a static QR or typed short
 * code before `staticFrom` (the date's opening less the reveal hours). A whole code (the door's search,
 * "Dar ingreso") is staff's own decision and counts.
 */
export function expiredCode(scan: { via: ScanVia; liveValid?: boolean; at: Date | string }, staticFrom: string | Date | null | undefined): boolean {
  if (scan.via === "live") return !scan.liveValid;
  if ((scan.via === "qr" || scan.via === "short") && staticFrom) return new Date(scan.at).getTime() < new Date(staticFrom).getTime();
  return false;
}

/** Where a scanned text points, for hashing on the device: the code inside a QR, or a short code typed by hand. */
export function scannedLookup(raw: string): { kind: "code"; value: string } | { kind: "short"; value: string } | null {
  const text = raw.trim();
  if (text.startsWith("TRB1.")) {
    const parts = text.split(".");
    return parts.length === 3 && /^[A-Za-z0-9_-]{8,64}$/.test(parts[1]) ? { kind: "code", value: parts[1] } : null;
  }
  const short = parseShortTicketCode(text);
  if (short) return { kind: "short", value: short };
  return /^[A-Za-z0-9_-]{16,64}$/.test(text) ? { kind: "code", value: text } : null;
}

/**
 * The offline verdict for a manifest entry (or none), given what this device
 * already let in while offline. The server judges the same way online.
 */
export function judgeOffline(
  entry: DoorManifestEntry | undefined,
  manifest: Pick<DoorManifest, "doorDateId" | "dates" | "staticFrom">,
  localAdmission?: { at: string; door: string },
  scan?: { via: ScanVia; liveValid?: boolean; at: Date | string },
): DoorVerdict {
  if (!entry) return { outcome: "unknown" };
  // A screenshot says nothing of whose ticket it is.
  if (scan && (scan.via === "live" || entry.l) && expiredCode(scan, manifest.staticFrom?.[entry.d])) return { outcome: "expired_code" };
  const base = { holderName: entry.n, holderDocument: entry.doc ?? null, ticketTypeName: entry.t, seatLabel: entry.seat ?? null, eventDateStartsAt: manifest.dates[entry.d] ?? null };
  if (entry.st === "voided") return { outcome: "voided", ...base };
  if (manifest.doorDateId && entry.d !== manifest.doorDateId) return { outcome: "other_date", ...base };
  if (entry.st === "redeemed") return { outcome: "already_in", ...base, redeemedAt: entry.at, redeemedDoor: entry.door };
  if (localAdmission) return { outcome: "already_in", ...base, redeemedAt: localAdmission.at, redeemedDoor: localAdmission.door };
  return { outcome: "admitted", ...base };
}
