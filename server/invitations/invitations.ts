import type { EventDateRow, EventRow, OrderRow, TicketTypeRow } from "#server/db/schema";
import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { MAX_INVITATION_QTY } from "#common/invitations";
import { emailSchema, MESSAGES, optional, PATTERNS } from "#common/validation";
import { hasControlCharacters } from "#common/control-characters";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { isUniqueViolation } from "#server/db/errors";
import { auditLog, eventDates, events, issuedProducts, orderItems, orders, ticketTypes, users } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { requireEvent } from "#server/events/events";
import { enqueue } from "#server/jobs/queue";
import { newOrderCode, serviceFeeOf } from "#server/orders/orders";
import { ORDER_MESSAGES } from "#server/orders/preview";
import { claimBestAvailableSeats, NoSeatsTogether, seatingOfTicketType, type TicketTypeSeating } from "#server/seating/claims";
import { placeDirectOrder, revokeGift } from "#server/orders/lifecycle";
import { requireCapability } from "#server/organizations/permissions";
import { holdStock, releaseStock } from "#server/stock/stock";
import { SEND_TICKETS_EMAIL_JOB } from "#server/tickets/issue";
import { parseInput, type DomainInput } from "#server/validation";

/*
 * Invitations (docs/invitations.md, docs/orders.md): complimentary tickets an
 * organizer sends to a person. Each is a gift order — `gift = true`, payment
 * method FREE, total 0, one approved "free" billing of 0 — that takes stock
 * with the same conditional UPDATE as a sale (server/stock) and is placed
 * paid by the order lifecycle (placeDirectOrder: tickets and their email in
 * the same transaction). Gift orders never book money in the ledger.
 * Revoking one is the lifecycle's revokeGift (closed/cancelled, tickets
 * voided, stock back), once.
 */


export const INVITATION_MESSAGES = {
  ticketType: "Elegí un tipo de entrada de este evento.",
  qty: `La cantidad tiene que ser un número entre 1 y ${MAX_INVITATION_QTY}.`,
  document: "Ingresá un número de documento válido",
  name: "Escribí el nombre como figura en el documento (hasta 80 caracteres).",
  date: "Elegí la fecha a la que invitás.",
  dateOver: "Esa fecha ya terminó.",
  eventGone: "El evento fue eliminado: no se pueden mandar invitaciones.",
  notEnough: (name: string, left: number) => (left > 0 ? `No alcanza el stock de ${name}: ${left === 1 ? "queda 1" : `quedan ${left}`}.` : `No queda stock de ${name}.`),
  notFound: "No encontramos esa invitación.",
  alreadyRevoked: "Esa invitación ya estaba anulada.",
  redeemed: "Alguien ya ingresó con esta invitación: no se puede anular.",
} as const;

/** A person's name as it comes in a form or a spreadsheet: required, one line, trimmed, at most 80 characters. */
export const guestNameSchema = z
  .string({ error: MESSAGES.required })
  .transform((v) => v.trim().replace(/\s+/g, " ").normalize("NFC"))
  .refine((v) => v.length > 0, {
    error: MESSAGES.required,
    abort: true,
  })
  .refine((v) => v.length <= 80 && !hasControlCharacters(v), {
    error: INVITATION_MESSAGES.name,
    abort: true,
  });

/** DNI or other document: optional; dots, dashes and spaces dropped, then 5 to 11 letters or digits. */
export const guestDocumentSchema = optional(
  z
    .string()
    .transform((v) => v.replace(/[\s.-]/g, "").toUpperCase())
    .refine((v) => PATTERNS.identificationNumber.test(v), INVITATION_MESSAGES.document)
);

const uuid = z.uuid({ error: "Identificador inválido." });

export const invitationSchema = z.object({
  eventId: uuid,
  eventDateId: optional(uuid),
  ticketTypeId: z.uuid({ error: INVITATION_MESSAGES.ticketType }),
  email: emailSchema,
  firstName: guestNameSchema,
  lastName: guestNameSchema,
  documentNumber: guestDocumentSchema,
  qty: z.coerce.number({ error: INVITATION_MESSAGES.qty }).int(INVITATION_MESSAGES.qty).min(1, INVITATION_MESSAGES.qty).max(MAX_INVITATION_QTY, INVITATION_MESSAGES.qty),
});

export interface Guest {
  email: string;
  firstName: string;
  lastName: string;
  documentNumber?: string | null;
}

/** The date an invitation is for: the ticket type's own, the one chosen, or the event's only upcoming one. */
export function invitationDate(ticket: Pick<TicketTypeRow, "eventDateId">, dates: EventDateRow[], chosen: string | null | undefined, now: Date): EventDateRow {
  const live = dates.filter((d) => d.status !== "deleted");
  const id = ticket.eventDateId ?? chosen ?? (live.filter((d) => d.endsAt > now).length === 1 ? live.find((d) => d.endsAt > now)!.id : undefined);
  const date = live.find((d) => d.id === id);
  if (!date) throw new Invalid({ eventDateId: [INVITATION_MESSAGES.date] });
  if (date.endsAt <= now) throw new Invalid({ eventDateId: [INVITATION_MESSAGES.dateOver] });
  return date;
}

export type GiftOutcome = { order: OrderRow } | { short: { name: string; left: number } } | { alreadySent: true } | { noSeats: string };

/**
 * One gift order, all or nothing, in the caller's transaction: stock taken
 * with the sale's conditional UPDATE, the order (billed, gift, FREE, 0), an
 * approved free billing of 0, the tickets and their email job. No ledger
 * entry: nothing was paid. `giftKey` (giveaways) makes a second send of the
 * same person and ticket type find the key taken: `{ alreadySent }`.
 */
export function issueGiftOrder(
  tx: DbOrTx,
  input: { event: EventRow; date: EventDateRow; ticket: TicketTypeRow; qty: number; guest: Guest; giftKey?: string | null; invitedByUserId: string | null; now: Date },
): Promise<GiftOutcome> {
  return issueDirectOrder(tx, { ...input, sale: null });
}

/** A promoter's sale in hand: the price of the ticket type, our fee on it, the cash in the promoter's hands. */
export interface SaleInHand {
  promoterUserId: string;
  referredNick: string;
  serviceFeeBps: number;
}

/**
 * An order issued on the spot, without a checkout: a gift (sale null) or a
 * promoter's sale in hand (docs/promoters.md: PROMOTER order, approved
 * `promoter` billing of the total, booked in the ledger as collected outside
 * Tribuna). Stock, tickets and their email as for any sale.
 */
export async function issueDirectOrder(
  tx: DbOrTx,
  input: {
    event: EventRow;
    date: EventDateRow;
    ticket: TicketTypeRow;
    qty: number;
    guest: Guest;
    giftKey?: string | null;
    invitedByUserId: string | null;
    sale: SaleInHand | null;
    now: Date;
  }
): Promise<GiftOutcome> {
  const { ticket, now, sale } = input;
  // Reserved seating (docs/seating.md): a seated ticket type takes its seats with its stock.
  const seating = await seatingOfTicketType(tx, ticket.id);
  if (seating) return issueSeatedDirectOrder(tx, input, seating);
  const hold = await holdStock(tx, [{ ticketTypeId: ticket.id, qty: input.qty }], now);
  if ("short" in hold) return { short: await shortOf(tx, ticket) };
  const unitPrice = sale ? hold.held[0].unitPrice : 0;
  // The key taken means this person already got these tickets: nothing is written (the savepoint undoes the insert only).
  try {
    const { order } = await placeDirectOrder(tx, {
      order: directOrderValues(input, unitPrice),
      line: { ticketTypeId: ticket.id, name: ticket.name, qty: input.qty, unitPrice },
      source: sale ? "promoter" : "free",
      now,
    });
    return { order };
  } catch (error) {
    if (input.giftKey && isUniqueViolation(error, "orders_gift_key")) {
      // Only the savepoint rolled back: give back the stock this call took, and write nothing.
      await releaseStock(tx, [{ ticketTypeId: ticket.id, qty: input.qty }], now);
      return { alreadySent: true };
    }
    throw error;
  }
}

type DirectOrderInput = Parameters<typeof issueDirectOrder>[1];

/** What is left of a ticket type that could not give what was asked. */
async function shortOf(tx: DbOrTx, ticket: TicketTypeRow) {
  const [row] = await tx.select({ stock: ticketTypes.stock, sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, ticket.id));
  return { name: ticket.name, left: Math.max(0, (row?.stock ?? 0) - (row?.sold ?? 0)) };
}

/** Thrown inside the seated savepoint to undo it: the stock ran out, or the price changed under a sale in hand. */
class SeatedRefusal extends Error {
  constructor(readonly outcome: GiftOutcome) {
    super("seated direct order refused");
  }
}

/**
 * A seated ticket type (docs/seating.md, decision 236), all in one savepoint of the caller's transaction: the
 * order row first, then the best seats together (claimBestAvailableSeats: the date's lock, ON CONFLICT on the
 * live-claim index, tries again if a buyer chose one of them on the map), then the ticket type's stock — the
 * order createOrder takes them in, so the two never wait for each other. The lifecycle's onPaid sells the seats
 * and prints one on each ticket. No N seats together, no stock left, the gift key taken: nothing is written
 * and the outcome says why (a giveaway marks the row and goes on).
 */
async function issueSeatedDirectOrder(tx: DbOrTx, input: DirectOrderInput, seating: TicketTypeSeating): Promise<GiftOutcome> {
  const { ticket, now, sale } = input;
  // The price the promoter was shown; the stock's row must still say it (as createOrder's hold checks).
  const unitPrice = sale ? ticket.price : 0;
  try {
    return await tx.transaction(async (sp) => {
      const { order } = await placeDirectOrder(sp, {
        order: directOrderValues(input, unitPrice),
        line: { ticketTypeId: ticket.id, name: ticket.name, qty: input.qty, unitPrice },
        source: sale ? "promoter" : "free",
        now,
        take: async (inner, placed) => {
          await claimBestAvailableSeats(inner, { orderId: placed.id, eventDateId: placed.eventDateId, ticketTypeId: ticket.id, quantity: input.qty, holdExpiresAt: null, now, field: "qty", seating });
          const hold = await holdStock(inner, [{ ticketTypeId: ticket.id, qty: input.qty }], now);
          if ("short" in hold) throw new SeatedRefusal({ short: await shortOf(inner, ticket) });
          if (sale && hold.held[0].unitPrice !== unitPrice) throw new Conflict(ORDER_MESSAGES.priceChanged(ticket.name), { qty: [ORDER_MESSAGES.priceChanged(ticket.name)] });
        },
      });
      return { order };
    });
  } catch (error) {
    if (error instanceof SeatedRefusal) return error.outcome;
    if (error instanceof NoSeatsTogether) return { noSeats: error.message };
    if (input.giftKey && isUniqueViolation(error, "orders_gift_key")) return { alreadySent: true };
    throw error;
  }
}

/** The order row of a gift or a sale in hand: the guest as payer, the promoter's fee on the price. */
function directOrderValues(input: DirectOrderInput, unitPrice: number) {
  const { event, sale, now } = input;
  const subtotal = unitPrice * input.qty;
  const serviceFee = sale ? serviceFeeOf(subtotal, sale.serviceFeeBps) : 0;
  return {
    code: newOrderCode(),
    eventId: event.id,
    eventDateId: input.date.id,
    organizationId: event.organizationId,
    buyerUserId: null,
    payer: {
      firstName: input.guest.firstName,
      lastName: input.guest.lastName,
      email: input.guest.email.toLowerCase(),
      documentType: "dni",
      documentNumber: input.guest.documentNumber ?? "",
      phoneNumber: "",
    },
    referredNick: sale?.referredNick ?? null,
    promoterUserId: sale?.promoterUserId ?? null,
    giftKey: input.giftKey ?? null,
    invitedByUserId: input.invitedByUserId,
    subtotal,
    serviceFee,
    discount: 0,
    total: subtotal + serviceFee,
    createdAt: now,
    updatedAt: now,
  };
}

export async function invitationTarget(ctx: Ctx, eventId: string, ticketTypeId: string | null) {
  const event = await requireEvent(ctx, eventId, "events:manage");
  if (event.status === "deleted") throw new Invalid({ _form: [INVITATION_MESSAGES.eventGone] });
  const [dates, tickets] = await Promise.all([
    ctx.db.select().from(eventDates).where(eq(eventDates.eventId, event.id)).orderBy(asc(eventDates.startsAt)),
    ctx.db
      .select()
      .from(ticketTypes)
      .where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.kind, "ticket"), ne(ticketTypes.status, "deleted")))
      .orderBy(asc(ticketTypes.sortOrder)),
  ]);
  const ticket = ticketTypeId ? tickets.find((t) => t.id === ticketTypeId) : undefined;
  return { event, dates, tickets, ticket };
}

/**
 * `sendInvitation`: complimentary tickets for one person. Out of stock is a
 * Conflict naming the ticket type and what is left.
 */
export async function sendInvitation(ctx: Ctx, rawInput: DomainInput<typeof invitationSchema>): Promise<OrderRow> {
  const input = parseInput(invitationSchema, rawInput);
  const { event, dates, ticket } = await invitationTarget(ctx, input.eventId, input.ticketTypeId);
  if (!ticket) throw new Invalid({ ticketTypeId: [INVITATION_MESSAGES.ticketType] });
  const date = invitationDate(ticket, dates, input.eventDateId, ctx.now);
  const invitedByUserId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        const outcome = await issueGiftOrder(tx, {
          event,
          date,
          ticket,
          qty: input.qty,
          guest: input,
          invitedByUserId,
          now: ctx.now,
        });
        if ("short" in outcome) throw new Conflict(INVITATION_MESSAGES.notEnough(outcome.short.name, outcome.short.left));
        // A seated type with no seats together for all of them: the organizer can invite fewer (decision 236).
        if ("noSeats" in outcome) throw new Conflict(outcome.noSeats, { qty: [outcome.noSeats] });
        if (!("order" in outcome)) throw new Error("unreachable: no gift key");
        await tx.insert(auditLog).values({
          actorId: invitedByUserId,
          action: "invitation.send",
          targetId: outcome.order.id,
          data: {
            organizationId: event.organizationId,
            eventId: event.id,
            ticketTypeId: ticket.id,
            qty: input.qty,
            email: input.email,
          },
          createdAt: ctx.now,
        });
        return outcome.order;
      });
    } catch (error) {
      // Two orders drew the same short code: draw again (as createOrder does).
      if (attempt < 3 && isUniqueViolation(error, "orders_code_key")) continue;
      throw error;
    }
  }
}

/** A gift order of an organization the actor can manage, locked for the change. */
async function lockGiftOrder(tx: DbOrTx, ctx: Ctx, orderId: string): Promise<OrderRow> {
  if (!uuid.safeParse(orderId).success) throw new NotFound(INVITATION_MESSAGES.notFound);
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.gift, true)))
    .for("update");
  if (!order) throw new NotFound(INVITATION_MESSAGES.notFound);
  await requireCapability({ ...ctx, db: tx }, order.organizationId, "events:manage");
  return order;
}

/**
 * `revokeInvitation`: the tickets stop getting in and their stock goes back
 * on sale, exactly once (the order row is locked and moves billed → closed;
 * a second revoke finds it closed). Refused once someone got in with it.
 */
export async function revokeInvitation(ctx: Ctx, orderId: string): Promise<OrderRow> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockGiftOrder(tx, ctx, orderId);
    if (order.status !== "billed") throw new Conflict(INVITATION_MESSAGES.alreadyRevoked);
    const [used] = await tx
      .select({ id: issuedProducts.id })
      .from(issuedProducts)
      .where(and(eq(issuedProducts.orderId, order.id), eq(issuedProducts.status, "redeemed")))
      .limit(1);
    if (used) throw new Conflict(INVITATION_MESSAGES.redeemed);
    // The lifecycle's revokeGift: billed → closed, billing cancelled, tickets voided, stock back, the key freed
    // (the same person can be invited again later).
    const closed = await revokeGift(tx, order, ctx.now);
    if (!closed) throw new Conflict(INVITATION_MESSAGES.alreadyRevoked);
    await tx.insert(auditLog).values({
      actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      action: "invitation.revoke",
      targetId: order.id,
      data: { organizationId: order.organizationId, eventId: order.eventId, email: order.payer.email },
      createdAt: ctx.now,
    });
    return closed;
  });
}

/** `resendInvitation`: the tickets email again, to the same guest (a job: it is retried if the mail server fails). */
export async function resendInvitation(ctx: Ctx, orderId: string): Promise<OrderRow> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockGiftOrder(tx, ctx, orderId);
    if (order.status !== "billed") throw new Conflict(INVITATION_MESSAGES.alreadyRevoked);
    await enqueue(tx, SEND_TICKETS_EMAIL_JOB, { orderId: order.id, resend: true }, ctx.now);
    await tx.insert(auditLog).values({
      actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      action: "invitation.resend",
      targetId: order.id,
      data: { organizationId: order.organizationId, eventId: order.eventId, email: order.payer.email },
      createdAt: ctx.now,
    });
    return order;
  });
}

const listSchema = z.object({
  organizationId: uuid,
  eventId: optional(uuid),
  search: optional(z.string().trim().max(100)),
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export interface InvitationView {
  id: string;
  code: string;
  eventId: string;
  eventName: string;
  guestName: string;
  email: string;
  documentNumber: string;
  tickets: { ticketTypeName: string; qty: number }[];
  qty: number;
  redeemed: number;
  status: "active" | "revoked";
  invitedBy: string | null;
  createdAt: Date;
}

/** `invitations`: the organization's gift orders, newest first, optionally for one event or matching a name, email or DNI. */
export async function listInvitations(
  ctx: Ctx,
  rawInput: DomainInput<typeof listSchema>
): Promise<{
  items: InvitationView[];
  total: number;
  page: number;
  limit: number;
}> {
  const input = parseInput(listSchema, rawInput);
  await requireCapability(ctx, input.organizationId, "events:manage");
  const term = input.search ? `%${input.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    eq(orders.organizationId, input.organizationId),
    eq(orders.gift, true),
    inArray(orders.status, ["billed", "closed"]),
    input.eventId ? eq(orders.eventId, input.eventId) : undefined,
    term
      ? sql`(${orders.payer}->>'email' ilike ${term} or (${orders.payer}->>'firstName') || ' ' || (${orders.payer}->>'lastName') ilike ${term} or ${orders.payer}->>'documentNumber' ilike ${term} or ${orders.code} ilike ${term})`
      : undefined
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        order: orders,
        eventName: events.name,
        inviterFirst: users.firstName,
        inviterLast: users.lastName,
        inviterEmail: users.email,
      })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .leftJoin(users, eq(users.id, orders.invitedByUserId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(input.limit)
      .offset(input.page * input.limit),
    ctx.db.select({ total: count() }).from(orders).where(where),
  ]);
  const ids = rows.map((r) => r.order.id);
  const [items, redeemed] = ids.length
    ? await Promise.all([
        ctx.db
          .select({
            orderId: orderItems.orderId,
            name: orderItems.name,
            qty: orderItems.qty,
          })
          .from(orderItems)
          .where(inArray(orderItems.orderId, ids)),
        ctx.db
          .select({ orderId: issuedProducts.orderId, n: count() })
          .from(issuedProducts)
          .where(and(inArray(issuedProducts.orderId, ids), eq(issuedProducts.status, "redeemed")))
          .groupBy(issuedProducts.orderId),
      ])
    : [[], []];
  return {
    items: rows.map(({ order, eventName, inviterFirst, inviterLast, inviterEmail }) => {
      const lines = items.filter((i) => i.orderId === order.id);
      return {
        id: order.id,
        code: order.code,
        eventId: order.eventId,
        eventName,
        guestName: `${order.payer.firstName} ${order.payer.lastName}`.trim(),
        email: order.payer.email,
        documentNumber: order.payer.documentNumber,
        tickets: lines.map((l) => ({ ticketTypeName: l.name, qty: l.qty })),
        qty: lines.reduce((n, l) => n + l.qty, 0),
        redeemed: Number(redeemed.find((r) => r.orderId === order.id)?.n ?? 0),
        status: order.status === "billed" ? "active" : "revoked",
        invitedBy: inviterFirst || inviterLast ? `${inviterFirst ?? ""} ${inviterLast ?? ""}`.trim() : inviterEmail ?? null,
        createdAt: order.createdAt,
      };
    }),
    total: Number(total),
    page: input.page,
    limit: input.limit,
  };
}
