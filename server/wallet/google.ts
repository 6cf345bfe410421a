import { appUrl } from "#server/env";
import { googleBarcodeFields } from "./barcode";
import type { GoogleWalletConfig } from "./config";
import type { WalletDateData, WalletEventData, WalletPassData } from "./pass-data";
import { surfaces } from "#common/brand";

/** google-auth-library loads on first use, so the server's idle memory does not carry it (decision 242). */
const loadGoogleAuth = () => import("google-auth-library");

const SCOPE = "https://www.googleapis.com/auth/wallet_object.issuer";
export const GOOGLE_WALLET_API = "https://walletobjects.googleapis.com/walletobjects/v1";

/**
 * One class per event date (Google keeps the time on the class, not on the object): every ticket of that
 * date shares it. The event's first date keeps the id the class had when it was one per event,
 * `{issuerId}.event-{eventId}`, so the passes saved before still point at their class; every other date
 * is `{issuerId}.event-{eventId}_{dateId}` (decision 238).
 */
export function googleClassId(config: GoogleWalletConfig, eventId: string, date: Pick<WalletDateData, "id" | "first">): string {
  return date.first ? `${config.issuerId}.event-${eventId}` : `${config.issuerId}.event-${eventId}_${date.id}`;
}

/** One object per ticket and code: the pass serial (server/tickets/wallet-changes.ts). */
export function googleObjectId(config: GoogleWalletConfig, serial: string): string {
  return `${config.issuerId}.${serial}`;
}

function localized(value: string) {
  return { defaultValue: { language: "es-AR", value } };
}

/** The pass's background: the organization's colour (decision 221) or Tribuna's dark theme; Google picks the text colour. */
export function googleBackground(event: Pick<WalletEventData, "colors">): string {
  return event.colors?.background ?? surfaces.dark.bg;
}

/** One date's class: the event (name, venue, colour) and that date's start, end and doors (decision 238). */
export function eventTicketClass(config: GoogleWalletConfig, event: WalletEventData, date: WalletDateData) {
  return {
    id: googleClassId(config, event.id, date),
    issuerName: "Tribuna",
    // Google asks for UNDER_REVIEW on inserts and on updates of an approved class alike.
    reviewStatus: "UNDER_REVIEW",
    eventName: localized(event.name),
    venue: { name: localized(event.venueName), address: localized(`${event.venueAddress}, ${event.city}`) },
    hexBackgroundColor: googleBackground(event),
    dateTime: { start: date.startsAt.toISOString(), end: date.endsAt.toISOString(), ...(date.doorsAt ? { doorsOpen: date.doorsAt.toISOString() } : {}) },
  };
}

/** A ticket's object, in its date's class: its type, holder, seat, order, QR and validity. */
export function eventTicketObject(config: GoogleWalletConfig, data: WalletPassData) {
  return {
    id: googleObjectId(config, data.serial),
    classId: googleClassId(config, data.event.id, data.date),
    state: data.voided ? "INACTIVE" : "ACTIVE",
    ticketType: localized(data.ticket.ticketTypeName),
    ...(data.ticket.holderDocument ? { ticketHolderName: `${data.ticket.holderName} · ${data.ticket.holderDocument}` } : {}),
    // Reserved seating (docs/seating.md): Google's EventSeat, each part a localized string; none for general admission.
    ...(data.ticket.seat ? { seatInfo: { section: localized(data.ticket.seat.section), row: localized(data.ticket.seat.row), seat: localized(data.ticket.seat.number) } } : {}),
    reservationInfo: { confirmationCode: data.orderCode },
    ...googleBarcodeFields(data),
    validTimeInterval: { end: { date: data.event.endsAt.toISOString() } },
  };
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString("base64url");
}

/**
 * The "Guardar en Google Wallet" link: `https://pay.google.com/gp/v/save/<jwt>`,
 * a JWT (RS256) signed with the service account's key through
 * google-auth-library (its GoogleAuth.sign signs locally with the key; decision
 * 210), carrying the class of the ticket's date and the ticket's object.
 */
export async function googleSaveUrl(config: GoogleWalletConfig, data: WalletPassData, now: Date = new Date()): Promise<string> {
  const header = { alg: "RS256", typ: "JWT" };
  const claims = {
    iss: config.serviceAccountEmail,
    aud: "google",
    typ: "savetowallet",
    iat: Math.floor(now.getTime() / 1000),
    origins: [appUrl()],
    payload: { eventTicketClasses: [eventTicketClass(config, data.event, data.date)], eventTicketObjects: [eventTicketObject(config, data)] },
  };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const { GoogleAuth } = await loadGoogleAuth();
  const auth = new GoogleAuth({ credentials: { client_email: config.serviceAccountEmail, private_key: config.privateKey } });
  const signature = Buffer.from(await auth.sign(input), "base64");
  return `https://pay.google.com/gp/v/save/${input}.${base64url(signature)}`;
}

function isNotFound(error: unknown): boolean {
  return (error as { response?: { status?: number } }).response?.status === 404 || (error as { status?: number }).status === 404;
}

/**
 * One date's class as it is now (name, venue, its time, colour), patched after
 * the organizer changed it, so the passes already saved show it: PATCH of
 * eventTicketClass with an OAuth token of the service account. A class Google
 * never saw (nobody saved a pass of that date) answers 404: nothing to do.
 */
export async function patchGoogleClass(config: GoogleWalletConfig, event: WalletEventData, date: WalletDateData): Promise<"patched" | "absent"> {
  const { JWT } = await loadGoogleAuth();
  const client = new JWT({ email: config.serviceAccountEmail, key: config.privateKey, scopes: [SCOPE] });
  const body = eventTicketClass(config, event, date);
  try {
    await client.request({ url: `${GOOGLE_WALLET_API}/eventTicketClass/${encodeURIComponent(body.id)}`, method: "PATCH", data: body, retry: false });
    return "patched";
  } catch (error) {
    if (isNotFound(error)) return "absent";
    throw error;
  }
}

/**
 * Sets a ticket's Google object INACTIVE (voided, sent, resold): PATCH of
 * eventTicketObject with an OAuth token of the service account. An object
 * Google never saw (nobody saved the pass) answers 404: nothing to do.
 */
export async function deactivateGoogleObject(config: GoogleWalletConfig, serial: string): Promise<"inactive" | "absent"> {
  const { JWT } = await loadGoogleAuth();
  const client = new JWT({ email: config.serviceAccountEmail, key: config.privateKey, scopes: [SCOPE] });
  const id = googleObjectId(config, serial);
  try {
    await client.request({ url: `${GOOGLE_WALLET_API}/eventTicketObject/${encodeURIComponent(id)}`, method: "PATCH", data: { state: "INACTIVE" }, retry: false });
    return "inactive";
  } catch (error) {
    if (isNotFound(error)) return "absent";
    throw error;
  }
}
