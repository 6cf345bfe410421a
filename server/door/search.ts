import { and, asc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { issuedProducts, orders, ticketTypes } from "#server/db/schema";
import type { DoorAccess } from "./access";
import { holderDocumentLabel } from "#common/door";
import { seatLabel } from "#common/seating";

export interface DoorSearchHit {
  code: string;
  holderName: string;
  /** "DNI 30.123.456" for a named ticket (decision 202), else null. */
  holderDocument: string | null;
  ticketTypeName: string;
  /** "Platea · Fila F · Asiento 12" for a seated ticket (docs/seating.md), else null. */
  seatLabel: string | null;
  orderCode: string;
  status: "redeemable" | "redeemed" | "voided";
  redeemedAt: Date | null;
  redeemedDoor: string | null;
}

/** A door's view of tickets (with their order and type): what the search and the manifest read. */
/** Where a code is redeemed (decision 106): tickets at the door, menu items at the bar. */
export type DoorMode = "door" | "bar";

/** Issued products of one kind: menu items share the table and are redeemed at the bar, not at the door. */
export function productsOfMode(mode: DoorMode | null | undefined) {
  return sql`${issuedProducts.ticketTypeId} in (select id from ticket_types where kind = ${mode === "bar" ? "menu" : "ticket"})`;
}

export const TICKETS_ONLY = productsOfMode("door");

export function selectDoorTickets(db: DbOrTx) {
  return db
    .select({
      id: issuedProducts.id,
      code: issuedProducts.code,
      holderName: issuedProducts.holderName,
      holderDocumentType: issuedProducts.holderDocumentType,
      holderDocumentNumber: issuedProducts.holderDocumentNumber,
      seatSection: issuedProducts.seatSection,
      seatRow: issuedProducts.seatRow,
      seatNumber: issuedProducts.seatNumber,
      ticketTypeName: ticketTypes.name,
      orderCode: orders.code,
      eventDateId: orders.eventDateId,
      status: issuedProducts.status,
      redeemedAt: issuedProducts.redeemedAt,
      redeemedDoor: issuedProducts.redeemedDoor,
    })
    .from(issuedProducts)
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId));
}

/** Accented letters and what they fold to: translate() is IMMUTABLE on PostgreSQL and PGlite alike (no unaccent needed). */
const ACCENTED = "ÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇáàâäãéèêëíìîïóòôöõúùûüñç";
const FOLDED = "AAAAAEEEEIIIIOOOOOUUUUNCaaaaaeeeeiiiiooooouuuunc";

/** A name as the search compares it: lower case, no accents, in the database. */
function folded(value: SQL | string) {
  return sql`lower(translate(${value}, ${ACCENTED}, ${FOLDED}))`;
}

/**
 * The door's manual search: this event's tickets by holder name, the buyer's
 * DNI or the order code (at least 3 characters, 20 results). Staff see what
 * the door needs to decide (holder, type, state), not the buyer's contact data.
 */
export async function searchAtDoor(ctx: Ctx, access: DoorAccess, query: string, mode: DoorMode = "door"): Promise<DoorSearchHit[]> {
  const q = query.replace(/\s+/g, " ").trim().slice(0, 80);
  if (q.length < 3) return [];
  const digits = q.replace(/\D/g, "");
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // "sofia" finds "Sofía" and "NUNEZ" finds "Núñez": both sides folded by the same SQL expression.
  const conditions = [sql`${folded(sql`${issuedProducts.holderName}`)} like ${folded(like)}`, eq(orders.code, q.toUpperCase())];
  if (digits.length >= 6 && digits.length === q.replace(/[.\s-]/g, "").length) {
    conditions.push(sql`regexp_replace(${orders.payer}->>'documentNumber', '\\D', '', 'g') = ${digits}`);
    // A ticket held by someone else than the payer carries its holder's document.
    // A ticket carries its holder's document since decision 202: that one, not its order's other holders'.
    conditions.push(eq(issuedProducts.holderDocumentNumber, digits));
    // Tickets issued before keep only their order's list of holders.
    conditions.push(and(isNull(issuedProducts.holderDocumentNumber), sql`${orders.attendees} @> ${JSON.stringify([{ documentNumber: digits }])}::jsonb`)!);
  }
  const rows = await selectDoorTickets(ctx.db)
    .where(and(eq(issuedProducts.eventId, access.event.id), productsOfMode(mode), or(...conditions)))
    .orderBy(asc(issuedProducts.holderName), asc(issuedProducts.id))
    .limit(20);
  // The id stays here: it is a live ticket's reference (decision 208), and the search does not need it.
  return rows.map(({ id: _id, holderDocumentType, holderDocumentNumber, seatSection, seatRow, seatNumber, ...hit }) => ({
    ...hit,
    holderDocument: holderDocumentLabel(holderDocumentType, holderDocumentNumber),
    seatLabel: seatLabel({ section: seatSection, row: seatRow, number: seatNumber }),
  }));
}
