import { shortTicketCode } from "#common/door";
import { qrSvg } from "#server/tickets/qr";
import { venueLabel, whenLabel, type TicketEventView, type TicketView } from "#server/tickets/tickets";
import type { TicketCardData } from "./TicketCard";

export const whenOf = (event: TicketEventView) => whenLabel(event);
export const venueOf = (event: TicketEventView) => venueLabel(event);

/** The card of one ticket, its QR drawn here as SVG (none for voided tickets). */
export async function ticketCard(ticket: TicketView, event: TicketEventView, orderCode: string, position?: TicketCardData["position"]): Promise<TicketCardData> {
  return {
    id: ticket.id,
    status: ticket.status,
    statusLabel: ticket.statusLabel,
    holderName: ticket.holderName,
    holderDocument: ticket.holderDocument,
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
  };
}
