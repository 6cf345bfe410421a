import type { IssuedProductRow, OrderRow } from "#server/db/schema";
import crypto from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { issuedProducts, orderItems } from "#server/db/schema";

/** The job that emails an order's tickets once the transaction that paid the order commits (queued by onPaid). */
export const SEND_TICKETS_EMAIL_JOB = "send-tickets-email";

/** 128 random bits, URL-safe: what the QR carries. Unguessable, never derived from ids. */
export function newTicketCode(): string {
  return crypto.randomBytes(16).toString("base64url");
}

type AttendeeLike = { ticketTypeId?: unknown; firstName?: unknown; lastName?: unknown; email?: unknown; documentType?: unknown; documentNumber?: unknown };

/** Who holds one ticket: a name, an email and, when the checkout asked for it, a document (decision 202). */
export interface Holder {
  name: string;
  email: string;
  documentType: string | null;
  documentNumber: string | null;
}

/**
 * Who holds each unit: the order's attendee for it when the checkout asked
 * for one per ticket (`orders.attendees`, one per unit in item order; matched
 * by ticket type when they carry it), else the payer.
 */
export function holdersFor(order: OrderRow, units: { ticketTypeId: string }[]): Holder[] {
  // The payer's document is not the holder's: a ticket without an attendee carries none.
  const payer: Holder = { name: `${order.payer.firstName} ${order.payer.lastName}`.trim(), email: order.payer.email, documentType: null, documentNumber: null };
  const raw = (order as { attendees?: unknown }).attendees;
  const attendees: AttendeeLike[] = Array.isArray(raw) ? raw.filter((a): a is AttendeeLike => !!a && typeof a === "object") : [];
  if (!attendees.length) return units.map(() => payer);
  const byType = attendees.every((a) => typeof a.ticketTypeId === "string");
  const used = new Set<number>();
  return units.map((unit, index) => {
    let at = -1;
    if (byType) at = attendees.findIndex((a, i) => !used.has(i) && a.ticketTypeId === unit.ticketTypeId);
    else if (index < attendees.length) at = index;
    if (at < 0) return payer;
    used.add(at);
    const a = attendees[at];
    const name = `${typeof a.firstName === "string" ? a.firstName : ""} ${typeof a.lastName === "string" ? a.lastName : ""}`.trim();
    const email = typeof a.email === "string" && a.email.includes("@") ? a.email.trim() : payer.email;
    const documentNumber = typeof a.documentNumber === "string" && a.documentNumber.trim() ? a.documentNumber.trim() : null;
    const documentType = documentNumber ? (typeof a.documentType === "string" && a.documentType ? a.documentType : "dni") : null;
    return name ? { name, email, documentType, documentNumber } : { ...payer, email };
  });
}

/** A seat an order bought (reserved seating, docs/seating.md): the ticket of its type carries it. */
export interface IssuedSeat {
  ticketTypeId: string;
  guid: string;
  section: string;
  row: string;
  number: string;
}

/**
 * One `redeemable` issued product per ticket unit of the order, held by the
 * unit's attendee (or the payer). Only the order lifecycle calls it (`onPaid`,
 * server/orders/lifecycle.ts), inside the transaction whose conditional
 * UPDATE paid the order, so it runs once per order; what else follows a
 * payment (email, account, webhooks, ledger) is onPaid's.
 */
export async function issueTickets(tx: DbOrTx, order: OrderRow, now: Date, seats: IssuedSeat[] = []): Promise<IssuedProductRow[]> {
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
  const units = items.flatMap((item) => Array.from({ length: item.qty }, () => item));
  const holders = holdersFor(order, units);
  // Each unit of a seated ticket type takes the next seat of that type (one seat per unit: the order bought them so).
  const seatsLeft = [...seats];
  const seatOf = (ticketTypeId: string) => {
    const at = seatsLeft.findIndex((s) => s.ticketTypeId === ticketTypeId);
    return at < 0 ? null : seatsLeft.splice(at, 1)[0];
  };
  const rows = units.map((item, i) => ({
    orderId: order.id,
    orderItemId: item.id,
    ticketTypeId: item.ticketTypeId,
    eventId: order.eventId,
    code: newTicketCode(),
    holderName: holders[i].name,
    holderEmail: holders[i].email,
    holderDocumentType: holders[i].documentType,
    holderDocumentNumber: holders[i].documentNumber,
    status: "redeemable" as const,
    ...seatColumns(seatOf(item.ticketTypeId)),
    createdAt: now,
  }));
  if (!rows.length) return [];
  return tx.insert(issuedProducts).values(rows).returning();
}

function seatColumns(seat: IssuedSeat | null) {
  return seat ? { seatGuid: seat.guid, seatSection: seat.section, seatRow: seat.row, seatNumber: seat.number } : {};
}

export async function ticketsOfOrder(db: DbOrTx, orderId: string): Promise<IssuedProductRow[]> {
  return db.select().from(issuedProducts).where(eq(issuedProducts.orderId, orderId)).orderBy(asc(issuedProducts.createdAt), asc(issuedProducts.id));
}
