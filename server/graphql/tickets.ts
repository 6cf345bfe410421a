import { builder } from "./builder";
import { given, isoDate } from "./scalars";
import { Billing } from "./orders";
import { listMyTicketsPage, purchaseOfOrder, type TicketEventView, type TicketView } from "#server/tickets/tickets";
import { transferTicket } from "#server/tickets/transfer";
import { ticketsEmailAddOns } from "#server/wallet/tickets-email";
import type { TicketSeat } from "#common/seating";

type TicketNode = { ticket: TicketView; event: TicketEventView; orderCode: string; billingId: string | null };

const TicketVenue = builder.objectRef<TicketEventView["venue"]>("TicketVenue").implement({
  fields: (t) => ({
    name: t.exposeString("name", { nullable: false }),
    address: t.exposeString("address", { nullable: false }),
    city: t.exposeString("city", { nullable: false }),
    province: t.exposeString("province", { nullable: false, description: "Province code (AR-CF, AR-B…)." }),
  }),
});

const TicketEvent = builder.objectRef<TicketEventView>("TicketEvent").implement({
  description: "The event and the date a ticket is for.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    slug: t.exposeString("slug", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    startsAt: t.string({ nullable: false, resolve: (e) => isoDate(e.startsAt)! }),
    endsAt: t.string({ nullable: false, resolve: (e) => isoDate(e.endsAt)! }),
    doorsAt: t.string({ resolve: (e) => isoDate(e.doorsAt) }),
    venue: t.field({ type: TicketVenue, nullable: false, resolve: (e) => e.venue }),
  }),
});

const TicketTypeSummary = builder.objectRef<{ id: string; name: string }>("TicketTypeSummary").implement({
  fields: (t) => ({ id: t.exposeID("id", { nullable: false }), name: t.exposeString("name", { nullable: false, description: "As it was named when bought." }) }),
});

const TicketHolder = builder.objectRef<{ name: string; email: string; document: string | null }>("TicketHolder").implement({
  fields: (t) => ({
    name: t.exposeString("name", { nullable: false }),
    email: t.exposeString("email", { nullable: false }),
    document: t.exposeString("document", { description: "The holder's document as the door shows it (\"DNI 30.123.456\") when the event's tickets are named (Entradas nominativas); else null." }),
  }),
});

const TicketSeatRef = builder.objectRef<TicketSeat>("TicketSeat").implement({
  description: "Reserved seating (docs/seating.md): the seat printed on the ticket.",
  fields: (t) => ({
    section: t.exposeString("section", { nullable: false, description: "The section as the map names it (\"Platea\")." }),
    row: t.exposeString("row", { nullable: false, description: "The row's label as printed (\"F\")." }),
    number: t.exposeString("number", { nullable: false, description: "The seat's number as printed (\"12\")." }),
    label: t.exposeString("label", { nullable: false, description: "The three together, as the ticket, the PDF and the door read it: \"Platea · Fila F · Asiento 12\"." }),
  }),
});

const Ticket = builder.objectRef<TicketNode>("Ticket").implement({
  description: "An issued ticket: one per unit bought, with its signed QR payload.",
  fields: (t) => ({
    id: t.id({ nullable: false, resolve: (n) => n.ticket.id }),
    code: t.string({ nullable: false, description: "Empty when the ticket was sent to another person (transferredTo).", resolve: (n) => n.ticket.code }),
    qrPayload: t.string({
      nullable: false,
      description: "What the QR carries: TRB1.<code>.<signature>. Empty when the ticket was sent to another person: it is theirs now.",
      resolve: (n) => n.ticket.qrPayload,
    }),
    transferredTo: t.string({ description: "Name of the person the buyer sent this ticket to (transferTicket), else null.", resolve: (n) => n.ticket.transferredTo }),
    status: t.string({
      nullable: false,
      description: "redeemable, redeemed or voided (a refunded or charged-back purchase shows its tickets voided).",
      resolve: (n) => n.ticket.status,
    }),
    statusLabel: t.string({ nullable: false, description: "Válida, Usada, Anulada, or Enviada a <name> once sent to another person.", resolve: (n) => n.ticket.statusLabel }),
    holder: t.field({ type: TicketHolder, nullable: false, resolve: (n) => ({ name: n.ticket.holderName, email: n.ticket.holderEmail, document: n.ticket.holderDocument }) }),
    seat: t.field({ type: TicketSeatRef, description: "The seat, for an event with reserved seating; null for general admission.", resolve: (n) => n.ticket.seat }),
    ticketType: t.field({ type: TicketTypeSummary, nullable: false, resolve: (n) => ({ id: n.ticket.ticketTypeId, name: n.ticket.ticketTypeName }) }),
    orderCode: t.string({ nullable: false, resolve: (n) => n.orderCode }),
    billingId: t.id({ resolve: (n) => n.billingId }),
    event: t.field({ type: TicketEvent, nullable: false, resolve: (n) => n.event }),
    upcoming: t.boolean({ nullable: false, description: "The date has not ended yet.", resolve: (n, _args, { ctx }) => n.event.endsAt > ctx.now }),
  }),
});

const TicketList = builder.objectRef<{ items: TicketNode[]; total: number; page: number; limit: number }>("TicketList").implement({
  fields: (t) => ({
    items: t.field({ type: [Ticket], nullable: false, resolve: (l) => l.items }),
    total: t.exposeInt("total", { nullable: false }),
    page: t.exposeInt("page", { nullable: false }),
    limit: t.exposeInt("limit", { nullable: false }),
  }),
});

const TicketWhen = builder.enumType("TicketWhen", {
  values: { UPCOMING: { description: "Dates that have not ended." }, PAST: { description: "Dates that ended." } } as const,
});

builder.objectField(Billing, "tickets", (t) =>
  t.field({
    type: [Ticket],
    nullable: false,
    description: "The order's issued tickets (empty until it is paid).",
    resolve: async (b, _args, { ctx }) => {
      const purchase = await purchaseOfOrder(ctx.db, b.order, b.billing);
      return purchase.tickets.map((ticket) => ({ ticket, event: purchase.event, orderCode: purchase.orderCode, billingId: b.billing.id }));
    },
  }),
);

builder.queryFields((t) => ({
  myTickets: t.field({
    type: TicketList,
    nullable: false,
    description:
      "The signed-in person's tickets: orders bought signed in and orders paid with their account's email. Upcoming (soonest first) then past (latest first). Paged: page from 0, limit 1–100 (default 50).",
    args: { when: t.arg({ type: TicketWhen }), page: t.arg.int(), limit: t.arg.int() },
    resolve: async (_root, args, { ctx }) => {
      const list = await listMyTicketsPage(ctx, given(args));
      return { ...list, items: list.items.map((ticket) => ({ ticket, event: ticket.event, orderCode: ticket.orderCode, billingId: ticket.billingId })) };
    },
  }),
}));

const TransferTicketInput = builder.inputType("TransferTicketInput", {
  description: "The person the ticket is sent to.",
  fields: (t) => ({
    ticketId: t.id({ required: true }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    email: t.string({ required: true }),
    documentType: t.string({ description: "Named tickets (Entradas nominativas): the new holder's document type (dni, cuit, cuil, cdi, passport, ci, other); default dni. Ignored for other events." }),
    documentNumber: t.string({ description: "Named tickets: the new holder's document number, required then (BAD_USER_INPUT with a Spanish message on `documentNumber` when missing or invalid). Ignored for other events." }),
  }),
});

builder.mutationFields((t) => ({
  transferTicket: t.field({
    type: Ticket,
    nullable: false,
    description:
      "Sends one of the signed-in buyer's tickets to another person before the event starts: the ticket gets the new holder and a new code (the old QR stops working), the new holder gets it by email. For named tickets (Entradas nominativas) documentNumber is required and the ticket carries the new holder's document. Returns the ticket as the buyer now sees it (transferredTo set, no code). NOT_FOUND when it is not the account's; CONFLICT when used, voided, already sent, the event started, or sent at the same time; CONFLICT with extensions.reason ACCOUNT_LIMIT_REACHED (message on `email`) when the person receiving it already holds the event's maximum per account.",
    args: { input: t.arg({ type: TransferTicketInput, required: true }) },
    resolve: async (_root, { input }, { ctx }) => {
      const result = await transferTicket(ctx, given(input), ticketsEmailAddOns);
      return { ticket: result.ticket, event: result.event, orderCode: result.orderCode, billingId: result.billingId };
    },
  }),
}));
