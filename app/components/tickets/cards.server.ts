import { shortTicketCode } from "#common/door";
import { formatDateTime } from "#common/dates";
import { staticCodeAdmittedFrom } from "#common/live-qr";
import type { DbOrTx } from "#server/db/client";
import { liveQrKey, liveQrSettingsOfEvents, liveTicketCredentials } from "#server/door/live-qr";
import { qrSvg } from "#server/tickets/qr";
import { venueLabel, whenLabel, type TicketEventView, type TicketView } from "#server/tickets/tickets";
import type { TicketCardData } from "./TicketCard";

export const whenOf = (event: TicketEventView) => whenLabel(event);
export const venueOf = (event: TicketEventView) => venueLabel(event);

/** The card of one ticket, its QR drawn here as SVG (none for voided tickets). */
export async function ticketCard(ticket: TicketView, event: TicketEventView, orderCode: string, position?: TicketCardData["position"], live?: TicketCardData["live"]): Promise<TicketCardData> {
  return {
    id: ticket.id,
    status: ticket.status,
    statusLabel: ticket.statusLabel,
    holderName: ticket.holderName,
    holderDocument: ticket.holderDocument,
    seat: ticket.seat?.label ?? null,
    ticketTypeName: ticket.ticketTypeName,
    kind: ticket.kind,
    orderCode,
    eventName: event.name,
    when: whenOf(event),
    venue: venueOf(event),
    qrSvg: ticket.status === "voided" || ticket.transferredTo ? null : await qrSvg(ticket.qrPayload),
    doorCode: ticket.status === "voided" || ticket.transferredTo || !ticket.code ? null : shortTicketCode(ticket.code),
    transferredTo: ticket.transferredTo,
    position,
    live: ticket.status === "voided" || ticket.transferredTo ? null : (live ?? null),
  };
}

/**
 * The live-QR credentials of the tickets whose event has the live QR on (docs/door.md, decision 207):
 * door tickets only (menu items keep their static code at the bar), not voided nor sent to someone
 * else. The secret goes into the buyer's own page, which computes the code with no request.
 */
export async function liveCardsOf(db: DbOrTx, tickets: { ticket: TicketView; event: TicketEventView }[]): Promise<Map<string, NonNullable<TicketCardData["live"]>>> {
  const eligible = tickets.filter(({ ticket }) => ticket.kind === "ticket" && ticket.status !== "voided" && !ticket.transferredTo);
  const settings = await liveQrSettingsOfEvents(db, eligible.map((t) => t.event.id));
  const out = new Map<string, NonNullable<TicketCardData["live"]>>();
  const keys = new Map<string, Uint8Array>();
  for (const { ticket, event } of eligible) {
    const of = settings.get(event.id);
    if (!of?.enabled) continue;
    let key = keys.get(event.id);
    if (!key) keys.set(event.id, (key = await liveQrKey(db, event.id)));
    const credentials = await liveTicketCredentials(db, event.id, ticket.id, key);
    const [time, day] = formatDateTime(staticCodeAdmittedFrom(event.doorsAt ?? event.startsAt, of.staticCodeRevealHours)).split(" - ");
    out.set(ticket.id, { ...credentials, staticFrom: `el ${day} a las ${time}` });
  }
  return out;
}
