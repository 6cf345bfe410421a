import { eq } from "drizzle-orm";
import { holderDocumentLabel } from "#common/door";
import type { DbOrTx } from "#server/db/client";
import { eventDates, events, issuedProducts, orderItems, orders } from "#server/db/schema";
import { passSerialFor } from "#server/tickets/wallet-changes";
import { liveQrSettingsOf, liveTicketCredentials } from "#server/door/live-qr";
import { staticCodeAdmittedFrom } from "#common/live-qr";

/** What a wallet pass shows, read from the ticket as it is now. */
export interface WalletPassData {
  serial: string;
  ticket: { id: string; code: string; ticketTypeName: string; holderName: string; holderDocument: string | null };
  event: { id: string; name: string; venueName: string; venueAddress: string; city: string; startsAt: Date; endsAt: Date; doorsAt: Date | null };
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
    .select({ ticket: issuedProducts, ticketTypeName: orderItems.name, orderCode: orders.code, event: events, date: eventDates })
    .from(issuedProducts)
    .innerJoin(orderItems, eq(orderItems.id, issuedProducts.orderItemId))
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .innerJoin(events, eq(events.id, issuedProducts.eventId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
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
    },
    event: { id: row.event.id, name: row.event.name, venueName: row.event.venueName, venueAddress: row.event.venueAddress, city: row.event.city, startsAt: row.date.startsAt, endsAt: row.date.endsAt, doorsAt: row.date.doorsAt },
    orderCode: row.orderCode,
    voided: row.ticket.status === "voided" || (serial !== undefined && serial !== current),
    live,
  };
}
