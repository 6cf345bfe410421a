import { z } from "zod";
import type { CouponRow, EventCustomFieldRow, EventDateRow, EventRow, TicketTypeRow } from "#server/db/schema";
import type { Ctx } from "#server/context";
import type { OrderPaymentMethod, PaymentMethodKind } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { isTicketVisible, ticketState } from "#server/events/catalogue";
import { requireTransferAccount } from "#server/payouts/bank-accounts";
import { couponForOrder, couponLabel } from "#server/coupons/coupons";
import { referrerForEvent, type Referrer } from "#server/promoters/attribution";
import { parseInput, type DomainInput } from "#server/validation";
import { BUYER_METHOD_OF_ACCOUNT, HOLD_MINUTES, holdDuration, serviceFeeOf } from "#common/pricing";
import { checkTicketSelection, SELECTION_MESSAGES } from "./rules";
import { currentTicketTypes, saleSnapshot } from "./sale-snapshot";
import { assertAdmitted } from "#server/queue/queue";
import { seatedOrder, seatRequestSchema } from "#server/seating/claims";

/**
 * `previewOrder`: the one place that prices and checks a selection of
 * tickets (one domain, two doors: docs/architecture.md). The event page's picker, the payer-info
 * page, GraphQL `previewOrder` and `createOrder` (which builds on it) all
 * read the event once here, run the same pre-checks with the same words and
 * get the same lines, discount, service fee, total, payment method and hold.
 * It takes nothing: the stock is held, and the coupon use taken, only by
 * createOrder's transaction.
 */

/** How a buyer pays. */
export type BuyerPaymentMethod = "MERCADO_PAGO" | "BANK_TRANSFER";

const METHOD_OF_ACCOUNT: Partial<Record<PaymentMethodKind, BuyerPaymentMethod>> = BUYER_METHOD_OF_ACCOUNT;
const METHOD_LABEL = { MERCADO_PAGO: "Mercado Pago", BANK_TRANSFER: "transferencia bancaria" } as const;

/** The ticket accounts sold online (the others, promoter accounts, are paid to the promoter in hand). */
export const ONLINE_PAYMENT_ACCOUNTS: readonly string[] = Object.keys(BUYER_METHOD_OF_ACCOUNT);

/** How a buyer pays a ticket type of this account; null when it is not sold online. */
export function buyerMethodOfAccount(account: string): BuyerPaymentMethod | null {
  return BUYER_METHOD_OF_ACCOUNT[account] ?? null;
}

/** How long an unpaid order of this method holds its stock, in minutes and in words ("15 minutos", "48 horas"). */
export function orderHold(method: BuyerPaymentMethod): { minutes: number; label: string } {
  return { minutes: HOLD_MINUTES[method], label: holdDuration(method) };
}

export const ORDER_MESSAGES = {
  ...SELECTION_MESSAGES,
  eventNotFound: "No encontramos el evento.",
  notOnline: (name: string) => `Por ahora «${name}» no se vende online.`,
  mixedKinds: "Las consumiciones del menú se compran aparte, en el menú del evento. Hacé una compra para las entradas y otra para el menú.",
  mixedMethods: "No podés combinar en una compra entradas que se pagan con Mercado Pago y entradas que se pagan por transferencia bancaria. Hacé una compra para cada una.",
  wrongMethod: (name: string, method: BuyerPaymentMethod) => `«${name}» se paga con ${METHOD_LABEL[method]}.`,
  orderNotFound: "No encontramos la compra.",
  priceChanged: (name: string) => `El precio de «${name}» acaba de cambiar. Revisá tu compra y volvé a intentar.`,
} as const;

export const uuid = z.string().uuid("Identificador inválido");
export const optionalText = z
  .string()
  .max(200)
  .nullish()
  .transform((v) => v?.trim() || undefined);

/** What a selection is: createOrder's input without the payer, the holders and the answers (createOrderSchema extends it). */
export const previewOrderSchema = z.object({
  eventSlug: z.string().trim().min(1, "Elegí un evento").max(200),
  eventDateId: uuid.nullish().transform((v) => v ?? undefined),
  items: z
    .array(z.object({ ticketId: uuid, qty: z.number().int(ORDER_MESSAGES.invalidQty).min(1, ORDER_MESSAGES.invalidQty).max(1000, ORDER_MESSAGES.invalidQty) }))
    .min(1, ORDER_MESSAGES.atLeastOne)
    .max(50),
  /** Optional in a preview: without it the preview says which method the tickets are paid with. */
  paymentMethod: z.enum(["MERCADO_PAGO", "BANK_TRANSFER"], { error: "Elegí cómo pagar" }).nullish().transform((v) => v ?? undefined),
  accessCode: optionalText,
  presaleCode: optionalText,
  referredNick: optionalText,
  /** The event's coupon (case-insensitive). Its use is taken only by createOrder's transaction (server/coupons). */
  couponCode: optionalText,
  /** Reserved seating (docs/seating.md): the seats' guids, or a best-available request; they become the items, as in createOrder. */
  ...seatRequestSchema.shape,
});

export interface PreviewLine {
  ticketTypeId: string;
  name: string;
  qty: number;
  /** Centavos, the ticket type's price now (createOrder's hold checks it is still this one). */
  unitPrice: number;
  /** qty × unitPrice. */
  subtotal: number;
  /** How this ticket is paid. */
  paymentMethod: BuyerPaymentMethod;
}

export interface OrderPreview {
  event: EventRow;
  /** The chosen date: the one asked for, the only one, or the one every chosen ticket is for. */
  date: EventDateRow;
  /** One per ticket type, in the buyer's order (two lines of the same ticket are one). */
  lines: PreviewLine[];
  subtotal: number;
  discount: number;
  /** The coupon that gives the discount (its use is not taken yet). */
  coupon: { coupon: CouponRow; discount: number; code: string; label: string } | null;
  /** The fee's rate the organizer accepted, in basis points; the fee is on what is paid (subtotal − discount). */
  serviceFeeBps: number;
  serviceFee: number;
  total: number;
  free: boolean;
  /** The method the chosen tickets are paid with (one per order). */
  requiredPaymentMethod: BuyerPaymentMethod;
  /** The order's method: FREE when nothing is due, else the buyer's (checked against the tickets'). */
  paymentMethod: OrderPaymentMethod;
  /** How long the order would hold its stock unpaid; null when nothing is due (issued at once). */
  hold: { minutes: number; label: string } | null;
  /** The referral link's promoter, when they sell this event (else the sale is unattributed). */
  referrer: Referrer | null;
  /** Only menu items (decision 106): no holders or custom fields asked. */
  onlyMenu: boolean;
  /** The ticket types read, by id. */
  tickets: Map<string, TicketTypeRow>;
  /** The event's questions to the buyer (createOrder checks the answers). */
  customFields: EventCustomFieldRow[];
}

function invalid(fieldErrors: Record<string, string[]>): never {
  const first = Object.values(fieldErrors)[0]?.[0];
  throw new Invalid(fieldErrors, first);
}

/**
 * Prices and checks a selection as createOrder would, without taking
 * anything. Refusals are the DomainErrors createOrder answers, in the same
 * order: NotFound (no such event), Invalid (paused, no dates, the date, a
 * ticket's rules keyed by its id, `_form` for a ticket the buyer may not
 * see, `paymentMethod` for a mix or a wrong method or no transfer account,
 * `couponCode`), Conflict when the only problem is the stock left. The stock
 * is advisory here (the hold is the truth): each ticket short of stock gets
 * its own message under its id ("Quedan solo 3 entradas «VIP»"), in the
 * Invalid and in the Conflict alike.
 */
export async function previewOrder(ctx: Ctx, rawInput: DomainInput<typeof previewOrderSchema>): Promise<OrderPreview> {
  // Reserved seating: the seats (or the best available) are what the order would buy, priced as their ticket
  // types, exactly as createOrder turns them into items (an unknown seat, or seats on a general admission
  // event, are the same Invalid). Which seats are free is the claim's business, like the stock is the hold's.
  const seated = await seatedOrder(ctx.db, await eventIdOfSlug(ctx, rawInput.eventSlug), { seats: rawInput.seats, bestAvailable: rawInput.bestAvailable });
  const input = parseInput(previewOrderSchema, seated?.asked ? { ...rawInput, items: seated.items } : rawInput);
  return previewParsed(ctx, input);
}

/** previewOrder on input already parsed (createOrder parses its own, wider, schema once). */
export async function previewParsed(ctx: Ctx, input: z.output<typeof previewOrderSchema>): Promise<OrderPreview> {
  const unlock = { accessCode: input.accessCode, presaleCode: input.presaleCode };

  // The event, its dates and questions: the same for every buyer of an on-sale (kept a second; server/orders/sale-snapshot.ts).
  const sale = await saleSnapshot(ctx.db, input.eventSlug);
  const event = sale?.event;
  if (!sale || !event || !event.publishedAt || event.status === "deleted") throw new NotFound(ORDER_MESSAGES.eventNotFound);
  if (event.status !== "active") invalid({ _form: [ORDER_MESSAGES.paused] });
  // With the virtual queue on, only the admitted may buy (docs/queue.md): every way to buy prices through here.
  await assertAdmitted(ctx, event.id);

  // Quantities of the same ticket in two lines are one line.
  const wanted = new Map<string, number>();
  for (const item of input.items) wanted.set(item.ticketId, (wanted.get(item.ticketId) ?? 0) + item.qty);

  // Ticket types always fresh: their stock, status and price.
  const tickets = (await currentTicketTypes(ctx.db, event.id)).filter((t) => wanted.has(t.id));
  const dates = sale.dates.filter((d) => d.endsAt > ctx.now);
  if (!dates.length) invalid({ _form: [ORDER_MESSAGES.noDates] });

  const byId = new Map(tickets.map((t) => [t.id, t]));
  // Tickets and menu items (decision 106) are bought apart: the menu has its own page and its own order.
  if (new Set(tickets.map((t) => t.kind)).size > 1) invalid({ _form: [ORDER_MESSAGES.mixedKinds] });
  const onlyMenu = tickets.length > 0 && tickets.every((t) => t.kind === "menu");

  // The date: the one asked for, the only one, or the one all chosen tickets are for.
  // Menu items are for the event's next date unless the buyer says which.
  let eventDateId = input.eventDateId ?? (dates.length === 1 || onlyMenu ? dates[0].id : undefined);
  if (!eventDateId) {
    const bound = new Set(tickets.map((t) => t.eventDateId));
    if (bound.size === 1 && [...bound][0]) eventDateId = [...bound][0]!;
  }
  if (!eventDateId) invalid({ eventDateId: [ORDER_MESSAGES.dateRequired] });
  const date = dates.find((d) => d.id === eventDateId);
  if (!date || date.status !== "active") invalid({ eventDateId: [ORDER_MESSAGES.dateUnavailable] });

  const fieldErrors: Record<string, string[]> = {};
  // Not enough left: advisory, one message per ticket (the hold decides).
  const stockErrors: Record<string, string[]> = {};
  const methods = new Set<BuyerPaymentMethod>();
  let conflict: string | undefined;
  for (const [ticketId, qty] of wanted) {
    const ticket = byId.get(ticketId);
    // Hidden without its code, presale without the presale code, deleted: as if it did not exist.
    if (!ticket || !isTicketVisible(ticket, event, unlock)) {
      fieldErrors._form = [ORDER_MESSAGES.unknownTicket];
      continue;
    }
    const failure = checkTicketSelection(
      {
        name: ticket.name,
        state: ticketState(ticket, event, date, unlock, ctx.now),
        paymentMethod: ticket.paymentMethod,
        minPerOrder: ticket.minPerOrder,
        maxPerOrder: ticket.maxPerOrder,
        available: Math.max(0, ticket.stock - ticket.sold),
        eventDateId: ticket.eventDateId,
      },
      qty,
      eventDateId,
      { allowedPaymentMethods: ONLINE_PAYMENT_ACCOUNTS, paymentMethodMessage: ORDER_MESSAGES.notOnline },
    );
    if (failure && ((failure.kind === "state" && failure.state === "sold_out") || failure.kind === "available")) {
      conflict ??= ORDER_MESSAGES.notEnough(ticket.name);
      stockErrors[ticket.id] = [failure.message];
      continue;
    }
    if (failure) {
      (fieldErrors[ticket.id] ??= []).push(failure.message);
      continue;
    }
    methods.add(METHOD_OF_ACCOUNT[ticket.paymentMethod]!);
  }
  if (Object.keys(fieldErrors).length) throw new Invalid({ ...fieldErrors, ...stockErrors }, Object.values(fieldErrors)[0][0]);
  if (conflict) throw new Conflict(conflict, stockErrors);
  if (methods.size > 1) invalid({ paymentMethod: [ORDER_MESSAGES.mixedMethods] });
  const requiredPaymentMethod = [...methods][0]!;
  const names = [...wanted.keys()].map((id) => byId.get(id)!.name);
  const wrongMethod = input.paymentMethod && requiredPaymentMethod !== input.paymentMethod ? ORDER_MESSAGES.wrongMethod(names[0], requiredPaymentMethod) : undefined;
  const method = input.paymentMethod ?? requiredPaymentMethod;

  // Prices, coupon and totals from what was read: createOrder's hold checks the price it takes is this one.
  const lines: PreviewLine[] = [...wanted].map(([ticketTypeId, qty]) => {
    const ticket = byId.get(ticketTypeId)!;
    return { ticketTypeId, name: ticket.name, qty, unitPrice: ticket.price, subtotal: qty * ticket.price, paymentMethod: METHOD_OF_ACCOUNT[ticket.paymentMethod]! };
  });
  const subtotal = lines.reduce((sum, l) => sum + l.subtotal, 0);
  // The referral link's promoter, when they sell this event for its organization (else the sale is just unattributed).
  const [referrer, found] = await Promise.all([
    referrerForEvent(ctx.db, event, input.referredNick),
    input.couponCode ? couponForOrder(ctx.db, { eventId: event.id, code: input.couponCode, lines, now: ctx.now }) : null,
  ]);
  const discount = found?.discount ?? 0;
  // The fee is on what the buyer pays (decisions: cupones).
  const serviceFeeBps = event.serviceFeeBps ?? 0;
  const serviceFee = serviceFeeOf(subtotal - discount, serviceFeeBps);
  const total = subtotal - discount + serviceFee;
  const free = total === 0;
  // The method is checked only for orders that are paid.
  if (!free && wrongMethod) invalid({ paymentMethod: [wrongMethod] });
  // Nowhere to send a transfer to: refuse before the buyer is told to pay.
  if (!free && method === "BANK_TRANSFER") await requireTransferAccount(ctx.db, event.organizationId);

  return {
    event,
    customFields: sale.customFields,
    date: date!,
    lines,
    subtotal,
    discount,
    coupon: found ? { ...found, code: found.coupon.code, label: couponLabel(found.coupon) } : null,
    serviceFeeBps,
    serviceFee,
    total,
    free,
    requiredPaymentMethod,
    paymentMethod: free ? "FREE" : method,
    hold: free ? null : orderHold(method),
    referrer,
    onlyMenu,
    tickets: byId,
  };
}

/** The id of the event an order names (null when there is none), from the sale snapshot: no query in an on-sale. */
export async function eventIdOfSlug(ctx: Ctx, eventSlug: unknown): Promise<string | null> {
  const slug = typeof eventSlug === "string" ? eventSlug.trim() : "";
  return slug ? ((await saleSnapshot(ctx.db, slug))?.event.id ?? null) : null;
}
