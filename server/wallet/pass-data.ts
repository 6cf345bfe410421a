import { and, eq } from "drizzle-orm";
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

/** An event as its Google class shows it, with its only active date (several dates: none, the class keeps its own); null if it does not exist. */
export async function walletEventOfId(db: DbOrTx, eventId: string): Promise<(WalletEventData & { date: { startsAt: Date; endsAt: Date; doorsAt: Date | null } | null }) | null> {
  const [row] = await db
    .select({ event: events, colors: { passBackgroundColor: organizations.passBackgroundColor, passTextColor: organizations.passTextColor } })
    .from(events)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .where(eq(events.id, eventId));
  if (!row) return null;
  const dates = await db
    .select({ startsAt: eventDates.startsAt, endsAt: eventDates.endsAt, doorsAt: eventDates.doorsAt })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, eventId), eq(eventDates.status, "active")));
  return { ...walletEventOf(row.event, row.colors), date: dates.length === 1 ? dates[0] : null };
}

/** What a wallet pass shows, read from the ticket as it is now. */
export interface WalletPassData {
  serial: string;
  /** `seat`: reserved seating (docs/seating.md), null for general admission. */
  ticket: { id: string; code: string; ticketTypeName: string; holderName: string; holderDocument: string | null; seat: TicketSeat | null };
  event: WalletEventData & { startsAt: Date; endsAt: Date; doorsAt: Date | null };
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
    orderCode: row.orderCode,
    voided: row.ticket.status === "voided" || (serial !== undefined && serial !== current),
    live,
  };
}
