import type { BillingRow, OrderRow } from "#server/db/schema";
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { formatEventStart } from "#common/dates";
import { holderDocumentLabel } from "#common/door";
import { ticketSeat, type TicketSeat } from "#common/seating";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { billings, eventDates, events, issuedProducts, orderItems, orders, ticketTransfers, ticketTypes, users, type IssuedProductStatus } from "#server/db/schema";
import type { ProductKind } from "#common/order-words";
import { Unauthenticated } from "#server/errors";
import { withBillingToken } from "#server/auth/billing-access";
import { parseInput, type DomainInput } from "#server/validation";
import { qrPayloadFor } from "./qr";

/** What a buyer reads on a ticket: Válida (can enter), Usada (already scanned), Anulada (refunded, voided). */
export const TICKET_STATUS_LABELS: Record<IssuedProductStatus, string> = { redeemable: "Válida", redeemed: "Usada", voided: "Anulada" };

export interface TicketView {
  id: string;
  code: string;
  /** What the QR carries (`TRB1.<code>.<sig>`, see qr.ts). */
  qrPayload: string;
  /** As the buyer must read it: a refunded or charged-back purchase shows its tickets as voided. */
  status: IssuedProductStatus;
  statusLabel: string;
  holderName: string;
  holderEmail: string;
  /** "DNI 30.123.456" when the ticket is named (decision 202): the PDF, the email and the door show it. Else null. */
  holderDocument: string | null;
  /** Reserved seating (docs/seating.md): "Platea · Fila F · Asiento 12" and its parts; null for general admission. */
  seat: TicketSeat | null;
  ticketTypeId: string;
  ticketTypeName: string;
  /** An entrada (the door) or a consumición of the menu (the bar): the words around it follow (common/order-words.ts). */
  kind: ProductKind;
  /**
   * Whom the buyer sent this ticket to (transfer.ts), else null. A sent ticket
   * belongs to its new holder: the buyer's views show "Enviada a …" without
   * its code or QR (`code` and `qrPayload` are empty).
   */
  transferredTo: string | null;
}

export interface TicketEventView {
  id: string;
  slug: string;
  name: string;
  imageUrl: string | null;
  venue: { name: string; address: string; city: string; province: string };
  startsAt: Date;
  endsAt: Date;
  doorsAt: Date | null;
}

/**
 * - confirmed: paid (or free), tickets issued.
 * - pending: waiting for the payment (or for the provider's word on a late one).
 * - voided: the money went back (refund, chargeback): the tickets do not get in.
 * - cancelled: never paid (hold expired, cancelled): there are no tickets.
 */
export type PurchaseState = "confirmed" | "pending" | "voided" | "cancelled";

export interface PurchaseView {
  billingId: string;
  orderId: string;
  orderCode: string;
  state: PurchaseState;
  payerEmail: string;
  event: TicketEventView;
  tickets: TicketView[];
  /** Relative link to this page with the buyer's access token (what the email links to). */
  pagePath: string;
  pdfPath: string;
}

/** "Miércoles 25 de noviembre de 2026 · 21:00 h", Buenos Aires time (`formatEventStart`). */
export function whenLabel(event: Pick<TicketEventView, "startsAt">): string {
  return formatEventStart(event.startsAt);
}

/** "Teatro Real — San Jerónimo 66, Córdoba" */
export function venueLabel(event: Pick<TicketEventView, "venue">): string {
  return `${event.venue.name} — ${event.venue.address}, ${event.venue.city}`;
}

/** An order's tickets are voided when its money went back: a refunded or charged-back billing and none approved. */
function orderVoided(orderBillings: Pick<BillingRow, "status">[]): boolean {
  return !orderBillings.some((b) => b.status === "approved") && orderBillings.some((b) => b.status === "refunded" || b.status === "charged_back");
}

async function eventOf(db: DbOrTx, order: Pick<OrderRow, "eventId" | "eventDateId">): Promise<TicketEventView> {
  const [row] = await db
    .select({ event: events, date: eventDates })
    .from(events)
    .innerJoin(eventDates, eq(eventDates.id, order.eventDateId))
    .where(eq(events.id, order.eventId));
  return toEventView(row.event, row.date);
}

function toEventView(event: typeof events.$inferSelect, date: typeof eventDates.$inferSelect): TicketEventView {
  return {
    id: event.id,
    slug: event.slug,
    name: event.name,
    imageUrl: event.imageUrl,
    venue: { name: event.venueName, address: event.venueAddress, city: event.city, province: event.province },
    startsAt: date.startsAt,
    endsAt: date.endsAt,
    doorsAt: date.doorsAt,
  };
}

/** The seat printed on an issued ticket (`issued_products.seat_*`), or null for general admission. */
export function ticketSeatOf(ticket: Pick<typeof issuedProducts.$inferSelect, "seatSection" | "seatRow" | "seatNumber">): TicketSeat | null {
  return ticketSeat({ section: ticket.seatSection, row: ticket.seatRow, number: ticket.seatNumber });
}

function toTicketView(row: { ticket: typeof issuedProducts.$inferSelect; ticketTypeName: string; kind: ProductKind | null; transferredTo: string | null }, voided: boolean): TicketView {
  const status: IssuedProductStatus = voided ? "voided" : row.ticket.status;
  const sent = row.transferredTo;
  return {
    id: row.ticket.id,
    code: sent ? "" : row.ticket.code,
    qrPayload: sent ? "" : qrPayloadFor(row.ticket.code),
    status,
    statusLabel: sent && status !== "voided" ? `Enviada a ${sent}` : TICKET_STATUS_LABELS[status],
    transferredTo: sent,
    holderName: row.ticket.holderName,
    holderEmail: row.ticket.holderEmail,
    holderDocument: holderDocumentLabel(row.ticket.holderDocumentType, row.ticket.holderDocumentNumber),
    seat: ticketSeatOf(row.ticket),
    ticketTypeId: row.ticket.ticketTypeId,
    ticketTypeName: row.ticketTypeName,
    kind: row.kind ?? "ticket",
  };
}

async function ticketRowsOf(db: DbOrTx, orderIds: string[]) {
  if (!orderIds.length) return [];
  return db
    .select({
      ticket: issuedProducts,
      ticketTypeName: orderItems.name,
      kind: ticketTypes.kind,
      transferredTo: sql<string | null>`(select ${ticketTransfers.toName} from ${ticketTransfers} where ${ticketTransfers.issuedProductId} = ${issuedProducts.id} order by ${ticketTransfers.createdAt} desc limit 1)`,
    })
    .from(issuedProducts)
    .innerJoin(orderItems, eq(orderItems.id, issuedProducts.orderItemId))
    .leftJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
    .where(inArray(issuedProducts.orderId, orderIds))
    .orderBy(asc(issuedProducts.createdAt), asc(orderItems.name), asc(issuedProducts.id));
}

/** The purchase as its tickets email and page show it, read without access checks (the email job, after the checks below). */
export async function purchaseOfOrder(db: DbOrTx, order: OrderRow, billing: BillingRow): Promise<PurchaseView> {
  const [orderBillings, rows, event] = await Promise.all([
    db.select({ status: billings.status }).from(billings).where(eq(billings.orderId, order.id)),
    ticketRowsOf(db, [order.id]),
    eventOf(db, order),
  ]);
  const voided = orderVoided(orderBillings);
  let state: PurchaseState;
  if (voided) state = "voided";
  else if (rows.length && orderBillings.some((b) => b.status === "approved")) state = "confirmed";
  else if (billing.status === "pending" && (order.status === "draft" || order.status === "orphan")) state = "pending";
  else state = "cancelled";
  return {
    billingId: billing.id,
    orderId: order.id,
    orderCode: order.code,
    state,
    payerEmail: order.payer.email,
    event,
    tickets: rows.map((row) => toTicketView(row, voided)),
    pagePath: withBillingToken(`/tickets/${billing.id}`, billing.id),
    pdfPath: withBillingToken(`/tickets/${billing.id}/pdf`, billing.id),
  };
}


export interface MyTicket extends TicketView {
  orderId: string;
  orderCode: string;
  billingId: string | null;
  event: TicketEventView;
  /** The date has not ended yet ("Próximos"); false: "Pasados". */
  upcoming: boolean;
}

/**
 * "Mis tickets": the signed-in person's tickets — from orders placed with
 * their session or claimed by opening the purchase link signed in (see
 * claimWithToken), and invitations sent to their verified email. Upcoming first (soonest first), then past (latest first).
 */
export async function listMyTickets(ctx: Ctx): Promise<{ upcoming: MyTicket[]; past: MyTicket[] }> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  // Invitations sent to the account's address count as theirs once they proved they read it (docs/invitations.md).
  const [me] = await ctx.db.select({ email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, ctx.actor.userId));
  const mine = await ctx.db
    .select({ order: orders, event: events, date: eventDates })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .where(
      and(
        inArray(orders.status, ["billed", "orphan", "closed"]),
        or(
          eq(orders.buyerUserId, ctx.actor.userId),
          me?.verifiedAt ? and(eq(orders.gift, true), sql`lower(${orders.payer}->>'email') = ${me.email.toLowerCase()}`) : undefined,
        ),
      ),
    );
  if (!mine.length) return { upcoming: [], past: [] };
  const orderIds = mine.map((m) => m.order.id);
  const [rows, orderBillings] = await Promise.all([
    ticketRowsOf(ctx.db, orderIds),
    ctx.db.select({ id: billings.id, orderId: billings.orderId, status: billings.status, createdAt: billings.createdAt }).from(billings).where(inArray(billings.orderId, orderIds)),
  ]);
  const byOrder = new Map(mine.map((m) => [m.order.id, m]));
  const tickets: MyTicket[] = rows.map((row) => {
    const { order, event, date } = byOrder.get(row.ticket.orderId)!;
    const ofOrder = orderBillings.filter((b) => b.orderId === order.id);
    const paid = ofOrder.find((b) => b.status === "approved") ?? ofOrder.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    return {
      ...toTicketView(row, orderVoided(ofOrder)),
      orderId: order.id,
      orderCode: order.code,
      billingId: paid?.id ?? null,
      event: toEventView(event, date),
      upcoming: date.endsAt > ctx.now,
    };
  });
  const upcoming = tickets.filter((t) => t.upcoming).sort((a, b) => a.event.startsAt.getTime() - b.event.startsAt.getTime());
  const past = tickets.filter((t) => !t.upcoming).sort((a, b) => b.event.startsAt.getTime() - a.event.startsAt.getTime());
  return { upcoming, past };
}

const myTicketsPageSchema = z.object({
  when: z.enum(["UPCOMING", "PAST"]).optional(),
  page: z.number({ message: "La página tiene que ser un número." }).int().min(0, "La página empieza en 0.").default(0),
  limit: z.number({ message: "El límite tiene que ser un número." }).int().min(1, "Pedí entre 1 y 100 entradas.").max(100, "Pedí entre 1 y 100 entradas.").default(50),
});

/** `myTickets` for integrators: upcoming then past (or one of them), paged from 0 (limit 1–100, default 50). */
export async function listMyTicketsPage(ctx: Ctx, rawInput: DomainInput<typeof myTicketsPageSchema>) {
  const input = parseInput(myTicketsPageSchema, rawInput);
  const { upcoming, past } = await listMyTickets(ctx);
  const all = input.when === "UPCOMING" ? upcoming : input.when === "PAST" ? past : [...upcoming, ...past];
  return { items: all.slice(input.page * input.limit, (input.page + 1) * input.limit), total: all.length, page: input.page, limit: input.limit };
}
