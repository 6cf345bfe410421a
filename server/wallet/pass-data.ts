import { and, asc, eq, gt, inArray, ne } from "drizzle-orm";
import type { PassColors } from "#common/pass-colors";
import { holderDocumentLabel } from "#common/door";
import { ticketSeat, type TicketSeat } from "#common/seating";
import type { DbOrTx } from "#server/db/client";
import { eventDates, events, issuedProducts, orderItems, orders, organizations } from "#server/db/schema";
import { passSerialFor } from "#server/tickets/wallet-changes";
import { liveQrSettingsOf, liveTicketCredentials } from "#server/door/live-qr";
import { staticCodeAdmittedFrom } from "#common/live-qr";

/** What a pass shows of the event whatever its date: the Google class carries it (google.ts). */
export interface WalletEventData {
  id: string;
  name: string;
  venueName: string;
  venueAddress: string;
  city: string;
  /** The organization's colours (decision 221); null: Tribuna's. */
  colors: PassColors | null;
  /** The venue on the map, when the organizer set it: Apple shows the pass on the lock screen near it. */
  location: { latitude: number; longitude: number } | null;
}

/**
 * One date of the event as its Google class shows it (google.ts: one class per date, decision 238).
 * `first`: the event's first date, whose class keeps the id of the class of the whole event.
 */
export interface WalletDateData {
  id: string;
  first: boolean;
  startsAt: Date;
  endsAt: Date;
  doorsAt: Date | null;
}

/**
 * The event's first date: the first one created (ties, as when the event is created with several: the
 * lowest id), whatever its status now. It never changes, so its class id never does either (decision 238).
 */
export async function firstDateIdOf(db: DbOrTx, eventId: string): Promise<string | null> {
  const [row] = await db.select({ id: eventDates.id }).from(eventDates).where(eq(eventDates.eventId, eventId)).orderBy(asc(eventDates.createdAt), asc(eventDates.id)).limit(1);
  return row?.id ?? null;
}

type EventRow = typeof events.$inferSelect;

function walletEventOf(event: EventRow, organization: { passBackgroundColor: string | null; passTextColor: string | null }): WalletEventData {
  return {
    id: event.id,
    name: event.name,
    venueName: event.venueName,
    venueAddress: event.venueAddress,
    city: event.city,
    colors: organization.passBackgroundColor && organization.passTextColor ? { background: organization.passBackgroundColor, text: organization.passTextColor } : null,
    location: event.venueLatitude !== null && event.venueLongitude !== null ? { latitude: event.venueLatitude, longitude: event.venueLongitude } : null,
  };
}

/**
 * An event as its Google classes show it, with the dates whose class to patch: `dateIds` (the dates an
 * edit of the schedule touched) or, without them, every date not deleted and not ended by `now`. A
 * deleted date is left out either way. Null if the event does not exist.
 */
export async function walletEventOfId(db: DbOrTx, eventId: string, options: { dateIds?: string[]; now: Date }): Promise<(WalletEventData & { dates: WalletDateData[] }) | null> {
  const [row] = await db
    .select({ event: events, colors: { passBackgroundColor: organizations.passBackgroundColor, passTextColor: organizations.passTextColor } })
    .from(events)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .where(eq(events.id, eventId));
  if (!row) return null;
  if (options.dateIds && !options.dateIds.length) return { ...walletEventOf(row.event, row.colors), dates: [] };
  const dates = await db
    .select({ id: eventDates.id, startsAt: eventDates.startsAt, endsAt: eventDates.endsAt, doorsAt: eventDates.doorsAt })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted"), options.dateIds ? inArray(eventDates.id, options.dateIds) : gt(eventDates.endsAt, options.now)))
    .orderBy(asc(eventDates.startsAt));
  const first = await firstDateIdOf(db, eventId);
  return { ...walletEventOf(row.event, row.colors), dates: dates.map((d) => ({ ...d, first: d.id === first })) };
}

/** What a wallet pass shows, read from the ticket as it is now. */
export interface WalletPassData {
  serial: string;
  /** `seat`: reserved seating (docs/seating.md), null for general admission. */
  ticket: { id: string; code: string; ticketTypeName: string; holderName: string; holderDocument: string | null; seat: TicketSeat | null };
  /** The event with the ticket's own date's times (what Apple's pass shows). */
  event: WalletEventData & { startsAt: Date; endsAt: Date; doorsAt: Date | null };
  /** The ticket's date: its Google class (decision 238). */
  date: WalletDateData;
  orderCode: string;
  /** No QR: the ticket was voided, or the serial is from before it was sent or resold (another code now). */
  voided: boolean;
  /**
   * The event's live QR, when on (decisions 207–208): Google's pass rotates the same code as the ticket page;
   * Apple's keeps the static code, shown only from `staticFrom` (the opening less the organizer's reveal hours).
   */
  live: { ticketRef: string; secretHex: string; staticFrom: Date; revealHours: number } | null;
}

/** The pass for `serial`, from its ticket; null when the ticket does not exist. */
export async function walletPassOfSerial(db: DbOrTx, ticketId: string, serial?: string): Promise<WalletPassData | null> {
  const [row] = await db
    .select({
      ticket: issuedProducts,
      ticketTypeName: orderItems.name,
      orderCode: orders.code,
      event: events,
      date: eventDates,
      colors: { passBackgroundColor: organizations.passBackgroundColor, passTextColor: organizations.passTextColor },
    })
    .from(issuedProducts)
    .innerJoin(orderItems, eq(orderItems.id, issuedProducts.orderItemId))
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .innerJoin(events, eq(events.id, issuedProducts.eventId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .where(eq(issuedProducts.id, ticketId));
  if (!row) return null;
  const current = passSerialFor(row.ticket);
  const liveSettings = await liveQrSettingsOf(db, row.event.id);
  const live = liveSettings.enabled
    ? {
        ...(await liveTicketCredentials(db, row.event.id, row.ticket.id)),
        staticFrom: staticCodeAdmittedFrom(row.date.doorsAt ?? row.date.startsAt, liveSettings.staticCodeRevealHours),
        revealHours: liveSettings.staticCodeRevealHours,
      }
    : null;
  return {
    serial: serial ?? current,
    ticket: {
      id: row.ticket.id,
      code: row.ticket.code,
      ticketTypeName: row.ticketTypeName,
      holderName: row.ticket.holderName,
      holderDocument: holderDocumentLabel(row.ticket.holderDocumentType, row.ticket.holderDocumentNumber),
      seat: ticketSeat({ section: row.ticket.seatSection, row: row.ticket.seatRow, number: row.ticket.seatNumber }),
    },
    event: { ...walletEventOf(row.event, row.colors), startsAt: row.date.startsAt, endsAt: row.date.endsAt, doorsAt: row.date.doorsAt },
    date: { id: row.date.id, first: row.date.id === (await firstDateIdOf(db, row.event.id)), startsAt: row.date.startsAt, endsAt: row.date.endsAt, doorsAt: row.date.doorsAt },
    orderCode: row.orderCode,
    voided: row.ticket.status === "voided" || (serial !== undefined && serial !== current),
    live,
  };
}
