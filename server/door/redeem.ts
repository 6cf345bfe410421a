import crypto from "node:crypto";
import { and, asc, eq, gt, ne, sql } from "drizzle-orm";
import type { DoorOutcome, DoorVerdict } from "#common/door";
import { seatLabel } from "#common/seating";
import { holderDocumentLabel, parseShortTicketCode, placeName, SHORT_CODE_LENGTH, SHORT_CODE_SQL_FROM, SHORT_CODE_SQL_TO } from "#common/door";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { doorScans, eventDates, events, issuedProducts, orders, ticketTypes } from "#server/db/schema";
import { DomainError, Invalid } from "#server/errors";
import { verifyQrPayload, QR_PREFIX } from "#server/tickets/qr";
import { expiredCode, scanVia } from "#common/door-manifest";
import { liveTicketSecret, parseLiveCode, staticCodeAdmittedFrom, verifyLiveCode } from "#common/live-qr";
import { liveQrKey, liveQrSettingsOf } from "./live-qr";
import type { DoorAccess } from "./access";
import { doorChanged } from "./changes";
import { followEventChanges } from "#server/events/changes";
import { productsOfMode, type DoorMode } from "./search";
import { recordTicketRedeemed } from "#server/webhooks/deliveries";
import { doorScans as doorScansCounted } from "#server/monitoring/metrics";

/** One scan as a device sends it. Only `code` is required online; offline queues send all of it. */
export interface DoorScanInput {
  /** What the QR carries (`TRB1.…`) or a ticket code typed by hand. */
  code: string;
  door?: string | null;
  deviceId?: string | null;
  /** The device's id for this scan: sending it again changes nothing. */
  scanId?: string | null;
  /** When the device scanned it (offline queues); default now. */
  scannedAt?: Date | string | null;
  /** The date the door admits; default the event's date of tonight. */
  eventDateId?: string | null;
  /** The device judged it offline and let the person in. */
  acceptedOffline?: boolean | null;
  /** "door" (default) admits tickets; "bar" serves menu items (decision 106). Each refuses the other's with `wrong_place`. */
  mode?: "door" | "bar" | null;
}

export interface DoorAnswer extends DoorVerdict {
  scanId: string;
}

/** How far ahead of our clock a device's scan time may be (clocks drift); later ones count as now. */
const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** A date's night at the door: from 12 hours before it starts until 6 after it ends (decision 104). */
const NIGHT_BEFORE_MS = 12 * 3600e3;
const NIGHT_AFTER_MS = 6 * 3600e3;
/**
 * The earliest a door opens for a date: a day before it starts (doors open
 * hours early, and a phone may be set up the day before). A device's scan
 * time before that is impossible. With no date to judge by, a day before now.
 */
const DOOR_OPENS_BEFORE_MS = 24 * 3600e3;

/**
 * What was scanned or typed: a signed QR (its signature checked), a whole
 * ticket code, or the short code printed under the QR (typed by hand).
 */
export function codeFromScan(raw: string): { code: string } | { shortCode: string } | { liveTicketId: string } | null {
  const text = raw.trim();
  // A live code (decision 208): its reference is the ticket's id; the digits are checked against its secret.
  const live = parseLiveCode(text);
  if (live) return { liveTicketId: live.ticketId };
  if (text.startsWith(`${QR_PREFIX}.`)) {
    const code = verifyQrPayload(text);
    return code ? { code } : null;
  }
  const shortCode = parseShortTicketCode(text);
  if (shortCode) return { shortCode };
  return /^[A-Za-z0-9_-]{16,64}$/.test(text) ? { code: text } : null;
}

/** The whole code of this event's ticket whose short code was typed (none when unknown or, improbably, ambiguous). */
async function codeOfShortCode(db: DbOrTx, eventId: string, shortCode: string): Promise<string | null> {
  const rows = await db
    .select({ code: issuedProducts.code })
    .from(issuedProducts)
    .where(and(eq(issuedProducts.eventId, eventId), sql`translate(upper(left(${issuedProducts.code}, ${SHORT_CODE_LENGTH})), ${SHORT_CODE_SQL_FROM}, ${SHORT_CODE_SQL_TO}) = ${shortCode}`))
    .limit(2);
  return rows.length === 1 ? rows[0].code : null;
}

/**
 * The date a door admits now: the active date whose night (12 hours before
 * it starts until 6 after it ends) holds this moment, else the next one, else
 * the last.
 */
export async function doorDateOf(db: DbOrTx, eventId: string, now: Date, chosenId?: string | null) {
  const dates = await datesOf(db, eventId);
  if (chosenId) {
    const chosen = dates.find((d) => d.id === chosenId);
    if (!chosen) throw new Invalid({ eventDateId: ["Esa fecha no es de este evento."] });
    return chosen;
  }
  const t = now.getTime();
  return (
    dates.find((d) => d.startsAt.getTime() - NIGHT_BEFORE_MS <= t && t <= d.endsAt.getTime() + NIGHT_AFTER_MS) ??
    dates.find((d) => d.startsAt.getTime() > t) ??
    dates.at(-1) ??
    null
  );
}

type DateSpan = { id: string; startsAt: Date; endsAt: Date };
/**
 * An event's dates, kept a few seconds per event: every scan asks, and they change only when the organizer
 * edits them. An edit through any process drops the copy (PostgreSQL notifications, docs/scaling.md).
 */
const dateCache = new Map<string, { until: number; dates: DateSpan[] }>();
const DATE_CACHE_MS = 10_000;
followEventChanges({ forget: (eventId) => dateCache.delete(eventId), forgetAll: () => dateCache.clear() });

async function datesOf(db: DbOrTx, eventId: string): Promise<DateSpan[]> {
  const cached = dateCache.get(eventId);
  if (cached && cached.until > Date.now()) return cached.dates;
  const dates = await db
    .select({ id: eventDates.id, startsAt: eventDates.startsAt, endsAt: eventDates.endsAt })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted")))
    .orderBy(asc(eventDates.startsAt));
  if (dateCache.size > 1000) dateCache.clear();
  dateCache.set(eventId, { until: Date.now() + DATE_CACHE_MS, dates });
  return dates;
}

async function ticketByCode(db: DbOrTx, code: string, by: "code" | "id" = "code") {
  const [row] = await db
    .select({
      id: issuedProducts.id,
      status: issuedProducts.status,
      eventId: issuedProducts.eventId,
      issuedAt: issuedProducts.createdAt,
      holderName: issuedProducts.holderName,
      holderDocumentType: issuedProducts.holderDocumentType,
      holderDocumentNumber: issuedProducts.holderDocumentNumber,
      seatSection: issuedProducts.seatSection,
      seatRow: issuedProducts.seatRow,
      seatNumber: issuedProducts.seatNumber,
      redeemedAt: issuedProducts.redeemedAt,
      redeemedDoor: issuedProducts.redeemedDoor,
      ticketTypeName: ticketTypes.name,
      kind: ticketTypes.kind,
      eventDateId: orders.eventDateId,
      eventDateStartsAt: eventDates.startsAt,
      eventDateDoorsAt: eventDates.doorsAt,
      eventName: events.name,
      code: issuedProducts.code,
    })
    .from(issuedProducts)
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .innerJoin(events, eq(events.id, issuedProducts.eventId))
    .where(by === "id" ? eq(issuedProducts.id, code) : eq(issuedProducts.code, code));
  return row ?? null;
}

type TicketAtDoor = NonNullable<Awaited<ReturnType<typeof ticketByCode>>>;

/**
 * A live-QR ticket's code refused as a screenshot or an expired code (decision 208, `expiredCode` in
 * common/door-manifest.ts, the same rule the door phone applies offline): a live code is verified at the
 * scan's time (the device's, for an offline queue) with one step either side; a static QR or short code
 * counts only from the date's opening less the reveal hours, while the event's live QR is on.
 */
async function isExpiredCode(db: DbOrTx, ticket: TicketAtDoor, raw: string, at: Date): Promise<boolean> {
  const via = scanVia(raw);
  if (via === "live") {
    const secret = await liveTicketSecret(await liveQrKey(db, ticket.eventId), ticket.id);
    return expiredCode({ via, liveValid: (await verifyLiveCode(secret, raw, at)).valid, at }, null);
  }
  if (via === "code") return false;
  const settings = await liveQrSettingsOf(db, ticket.eventId);
  if (!settings.enabled) return false;
  return expiredCode({ via, at }, staticCodeAdmittedFrom(ticket.eventDateDoorsAt ?? ticket.eventDateStartsAt, settings.staticCodeRevealHours));
}

function verdictOf(outcome: DoorOutcome, ticket: TicketAtDoor | null, sameEvent: boolean): DoorVerdict {
  if (!ticket || outcome === "unknown") return { outcome: "unknown" };
  // A screenshot or an expired code says nothing of whose ticket it is.
  if (outcome === "expired_code") return { outcome, productKind: ticket.kind };
  // Another organizer's ticket: say only that, not whose it is.
  if (!sameEvent) return { outcome: "other_event", otherEventName: ticket.eventName };
  return {
    outcome,
    productKind: ticket.kind,
    holderName: ticket.holderName,
    // Named tickets (decision 202): the document staff check against an ID.
    holderDocument: holderDocumentLabel(ticket.holderDocumentType, ticket.holderDocumentNumber),
    ticketTypeName: ticket.ticketTypeName,
    // Reserved seating (docs/seating.md): staff send the person to the seat.
    seatLabel: seatLabel({ section: ticket.seatSection, row: ticket.seatRow, number: ticket.seatNumber }),
    eventDateStartsAt: ticket.eventDateStartsAt.toISOString(),
    redeemedAt: ticket.redeemedAt?.toISOString() ?? null,
    redeemedDoor: ticket.redeemedDoor,
  };
}

class ScanAlreadyApplied extends Error {}

/** Why a device's scan time is refused (GraphQL `extensions.reason`, with `code` BAD_USER_INPUT). */
export const SCAN_TIME_INVALID = "SCAN_TIME_INVALID";
export const SCAN_TIME_BEFORE_DOOR_OPENED = "SCAN_TIME_BEFORE_DOOR_OPENED";

function scanTimeRefused(reason: string, message: string): DomainError {
  const error = new Invalid({ scannedAt: [message] }, message);
  error.reason = reason;
  return error;
}

/**
 * The device's scan time, read: unreadable, or outside what JavaScript (or
 * PostgreSQL) can hold, is refused; later than our clock plus the skew we
 * allow counts as now. Whether it is too early depends on the date the door
 * admits (`checkDoorOpened`).
 */
function scanTime(value: DoorScanInput["scannedAt"], now: Date): Date {
  if (!value) return now;
  const at = value instanceof Date ? value : typeof value === "string" ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw scanTimeRefused(SCAN_TIME_INVALID, "La hora del escaneo no es una fecha válida.");
  return at.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS ? now : at;
}

/**
 * A scan the device dates before the door opened for the date it admits
 * (`DOOR_OPENS_BEFORE_MS`, less the clock skew) did not happen then: the
 * device's clock is wrong, or the time was made up to win "first scan wins".
 * Refused, so it neither takes a redemption over nor jams the queue.
 */
function checkDoorOpened(scannedAt: Date, doorDate: DateSpan | null, now: Date) {
  const opensAt = (doorDate ? doorDate.startsAt.getTime() : now.getTime()) - DOOR_OPENS_BEFORE_MS;
  if (scannedAt.getTime() < opensAt - MAX_CLOCK_SKEW_MS) {
    throw scanTimeRefused(SCAN_TIME_BEFORE_DOOR_OPENED, "La hora del escaneo es anterior a la apertura de la puerta: revisá la fecha y la hora del teléfono.");
  }
}

/**
 * Judges one scan at `access`'s door and, when it admits, redeems the ticket
 * with one conditional update (`redeemable → redeemed` only where still
 * redeemable), so two phones scanning the same code at once get one
 * "Adelante" and one "Ya ingresó". Every scan is recorded; a scan id seen
 * before answers what it answered then and changes nothing.
 *
 * A scan the device already accepted offline (`acceptedOffline`) that finds
 * the ticket redeemed is a conflict, and the earliest scan keeps the
 * redemption (first scan wins by scan time).
 */
export async function redeemAtDoor(ctx: Ctx, access: DoorAccess, input: DoorScanInput): Promise<DoorAnswer> {
  const scanId = input.scanId?.trim().slice(0, 100) || crypto.randomUUID();
  // At the bar, recorded (and shown live) as the bar, not as the door the phone was named after.
  const door = placeName(input.door, input.mode);
  const deviceId = input.deviceId?.trim().slice(0, 100) || "sin-identificar";
  const eventId = access.event.id;
  const deviceTime = scanTime(input.scannedAt, ctx.now);
  const offline = Boolean(input.acceptedOffline) || (input.scannedAt != null && ctx.now.getTime() - deviceTime.getTime() > 60_000);
  try {
    const answer = await ctx.db.transaction(async (tx) => {
      // Scan ids are the devices' own, unique only within the event: always looked up with it.
      const [prior] = await tx.select({ id: doorScans.id }).from(doorScans).where(and(eq(doorScans.eventId, eventId), eq(doorScans.scanId, scanId)));
      if (prior) throw new ScanAlreadyApplied();
      // The date the door was admitting when the device scanned (an offline queue may arrive the next day).
      const doorDate = await doorDateOf(tx, eventId, deviceTime, input.eventDateId);
      if (input.scannedAt) checkDoorOpened(deviceTime, doorDate, ctx.now);
      const scanned = codeFromScan(input.code ?? "");
      let ticket =
        scanned && "liveTicketId" in scanned
          ? await ticketByCode(tx, scanned.liveTicketId, "id")
          : await (async () => {
              const code = scanned && "shortCode" in scanned ? await codeOfShortCode(tx, eventId, scanned.shortCode) : (scanned?.code ?? null);
              return code ? ticketByCode(tx, code) : null;
            })();
      const code = ticket?.code ?? null;
      const sameEvent = ticket?.eventId === eventId;
      // Nobody got in with a ticket before it existed: a device clock behind ours counts from its issue.
      const scannedAt = sameEvent && ticket!.issuedAt > deviceTime ? ticket!.issuedAt : deviceTime;
      let outcome: DoorOutcome;
      if (!ticket) outcome = "unknown";
      else if (!sameEvent) outcome = "other_event";
      else if (ticket.kind !== (input.mode === "bar" ? "menu" : "ticket")) outcome = "wrong_place";
      else if (await isExpiredCode(tx, ticket, input.code ?? "", deviceTime)) outcome = "expired_code";
      else if (ticket.status === "voided") outcome = "voided";
      else if (doorDate && ticket.eventDateId !== doorDate.id) outcome = "other_date";
      else {
        const [won] = await tx
          .update(issuedProducts)
          .set({ status: "redeemed", redeemedAt: scannedAt, redeemedDoor: door })
          .where(and(eq(issuedProducts.id, ticket.id), eq(issuedProducts.status, "redeemable")))
          .returning({ id: issuedProducts.id });
        if (won) {
          outcome = "admitted";
          await recordTicketRedeemed(tx, won.id, ctx.now);
          ticket = { ...ticket, status: "redeemed", redeemedAt: scannedAt, redeemedDoor: door };
        } else if (input.acceptedOffline) {
          outcome = "conflict";
          // First scan wins: an earlier offline scan takes the redemption over, and the later admission becomes the conflict.
          const [earlier] = await tx
            .update(issuedProducts)
            .set({ redeemedAt: scannedAt, redeemedDoor: door })
            .where(and(eq(issuedProducts.id, ticket.id), eq(issuedProducts.status, "redeemed"), gt(issuedProducts.redeemedAt, scannedAt)))
            .returning({ id: issuedProducts.id });
          if (earlier) {
            outcome = "admitted";
            await tx
              .update(doorScans)
              .set({ outcome: "conflict" })
              .where(and(eq(doorScans.issuedProductId, ticket.id), eq(doorScans.outcome, "admitted")));
          }
        } else outcome = "already_in";
        // Lost the race, or took it over: read who got in, when and where.
        if (!won) ticket = await ticketByCode(tx, code!);
      }
      const inserted = await tx
        .insert(doorScans)
        .values({
          scanId,
          eventId,
          eventDateId: doorDate?.id ?? null,
          issuedProductId: sameEvent ? ticket!.id : null,
          outcome,
          door,
          deviceId,
          userId: access.userId,
          pinSessionId: access.pinSessionId,
          offline,
          scannedAt,
          receivedAt: ctx.now,
        })
        .onConflictDoNothing({ target: [doorScans.eventId, doorScans.scanId] })
        .returning({ id: doorScans.id });
      // The same scan id applied by a concurrent request first: undo ours, answer theirs.
      if (!inserted.length) throw new ScanAlreadyApplied();
      return { scanId, ...verdictOf(outcome, ticket, sameEvent) };
    });
    doorChanged(eventId);
    doorScansCounted.inc({ outcome: answer.outcome });
    return answer;
  } catch (error) {
    if (!(error instanceof ScanAlreadyApplied)) throw error;
    return answerOfScan(ctx.db, eventId, scanId);
  }
}

/** What an already recorded scan of this event answered, read again (for resends). */
async function answerOfScan(db: DbOrTx, eventId: string, scanId: string): Promise<DoorAnswer> {
  const [row] = await db
    .select({ outcome: doorScans.outcome, eventId: doorScans.eventId, code: issuedProducts.code })
    .from(doorScans)
    .leftJoin(issuedProducts, eq(issuedProducts.id, doorScans.issuedProductId))
    .where(and(eq(doorScans.eventId, eventId), eq(doorScans.scanId, scanId)));
  const ticket = row?.code ? await ticketByCode(db, row.code) : null;
  if (!row) return { scanId, outcome: "unknown" };
  if (row.outcome === "other_event") return { scanId, outcome: "other_event" };
  return { scanId, ...verdictOf(row.outcome, ticket, ticket?.eventId === row.eventId) };
}

/** A scan of a synced queue the server refused (its time is impossible): sending it again is refused again. */
export interface DoorScanRefused {
  scanId: string;
  error: DomainError;
}

/**
 * Applies a device's queue of offline scans in scan-time order. Idempotent:
 * each scan id counts once however many times the queue is sent. A scan
 * with an impossible time is refused on its own (`DoorScanRefused`, in its
 * place), and the rest of the queue is judged as usual.
 */
export async function syncDoorScans(ctx: Ctx, access: DoorAccess, scans: DoorScanInput[]): Promise<(DoorAnswer | DoorScanRefused)[]> {
  if (scans.length > 500) throw new Invalid({ scans: ["Mandá como mucho 500 escaneos por vez."] });
  if (scans.some((s) => !s.scanId)) throw new Invalid({ scanId: ["Cada escaneo necesita su identificador."] });
  const answers = new Map<string, DoorAnswer | DoorScanRefused>();
  const timed: { scan: DoorScanInput; at: number }[] = [];
  for (const scan of scans) {
    try {
      timed.push({ scan, at: scanTime(scan.scannedAt, ctx.now).getTime() });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      answers.set(scan.scanId!, { scanId: scan.scanId!, error });
    }
  }
  timed.sort((a, b) => a.at - b.at);
  for (const { scan } of timed) {
    try {
      answers.set(scan.scanId!, await redeemAtDoor(ctx, access, scan));
    } catch (error) {
      // Only the scan's own refusals stay with it; anything else is a fault and fails the sync (nothing of it is lost: the device resends).
      if (!(error instanceof DomainError) || error.code !== "BAD_USER_INPUT") throw error;
      answers.set(scan.scanId!, { scanId: scan.scanId!, error });
    }
  }
  return scans.map((s) => answers.get(s.scanId!)!);
}

/** Entries so far for the door's running count. */
export async function doorEntryCount(db: DbOrTx, eventId: string, eventDateId?: string | null, mode: DoorMode = "door"): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(issuedProducts)
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .where(and(eq(issuedProducts.eventId, eventId), eq(issuedProducts.status, "redeemed"), productsOfMode(mode), eventDateId ? eq(orders.eventDateId, eventDateId) : undefined));
  return row?.n ?? 0;
}
