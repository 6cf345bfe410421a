import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { documentTypeSchema, emailSchema, identificationNumberSchema, nameSchema, optional } from "#common/validation";
import { holderDocumentLabel } from "#common/door";
import type { Ctx } from "#server/context";
import { billings, eventDates, events, issuedProducts, orderItems, orders, resaleListings, ticketTransfers, ticketTypes, users } from "#server/db/schema";
import { emailLayout, escapeHtml } from "#server/email/templates";
import { sendEmail } from "#server/email/send";
import { Conflict, Invalid, NotFound, Unauthenticated } from "#server/errors";
import { assertWithinAccountLimit } from "./account-limit";
import { parseInput, type DomainInput } from "#server/validation";
import { ticketAttachments, type TicketsEmailAddOns } from "./email";
import { staticQrNote } from "./pdf";
import { newTicketCode } from "./issue";
import { qrPayloadFor } from "./qr";
import { walletTicketsChanged } from "./wallet-changes";
import { listMyTickets, TICKET_STATUS_LABELS, ticketSeatOf, venueLabel, whenLabel, type MyTicket, type TicketEventView, type TicketView } from "./tickets";
import { brand } from "#common/brand";
import { purchaseWords, type ProductKind } from "#common/order-words";

export const TICKET_TRANSFER_EMAIL_KIND = "ticket-transfer";
export const TICKET_TRANSFER_NOTICE_EMAIL_KIND = "ticket-transfer-notice";

const transferSchema = z.object({
  ticketId: z.string({ error: "Elegí la entrada que querés enviar." }).uuid("Elegí la entrada que querés enviar."),
  firstName: nameSchema,
  lastName: nameSchema,
  email: emailSchema,
  /** Named tickets (decision 202): the new holder's document, required then; ignored for other events. */
  documentType: optional(documentTypeSchema),
  documentNumber: optional(identificationNumberSchema),
});

/** What a named ticket's form says when the new holder's document is missing (the page and GraphQL alike). */
export const NAMED_TRANSFER_MESSAGES = {
  documentNumber: "Ingresá el número de documento de la persona: las entradas de este evento son nominativas.",
  documentType: "Elegí el tipo de documento de la persona.",
} as const;

export interface TransferResult {
  /** The ticket as the buyer now reads it ("Enviada a …", no code). */
  ticket: TicketView;
  event: TicketEventView;
  orderCode: string;
  billingId: string | null;
  toName: string;
  toEmail: string;
}

// Before the product is found (this and the input's check) its kind is unknown, and a stranger must not learn it: they say "entrada".
const NOT_FOUND = "No encontramos esa entrada entre tus compras.";

/**
 * A transfer's words for what is sent: an entrada or a consumición
 * (docs/wording.md, "Consumiciones"). Both are feminine, so "Esta …", "la …",
 * "Enviada a …" fit either.
 */
function transferWords(kind: ProductKind) {
  const words = purchaseWords(kind);
  return {
    ...words,
    /** What the old QR no longer does, in the notice to the previous holder. */
    oldQrVoided: kind === "menu" ? "ya no sirve para retirarla en la barra" : "ya no sirve para entrar",
  };
}

/** Whether "Enviar a otra persona" is offered for one of "Mis tickets": valid, not sent yet, its event not started. */
export function canTransfer(ticket: Pick<MyTicket, "status" | "transferredTo" | "event">, now: Date): boolean {
  return ticket.status === "redeemable" && !ticket.transferredTo && ticket.event.startsAt > now;
}

/**
 * The signed-in buyer's ticket for the "Enviar a otra persona" page, only while it can be sent (else NotFound);
 * `named`: the event's tickets are named (decision 202), so the page asks the new holder's document too.
 */
export async function getTransferableTicket(ctx: Ctx, ticketId: string): Promise<MyTicket & { named: boolean }> {
  const { upcoming } = await listMyTickets(ctx);
  const ticket = upcoming.find((t) => t.id === ticketId);
  if (!ticket || !canTransfer(ticket, ctx.now)) {
    throw new NotFound(`Esta ${transferWords(ticket?.kind ?? "ticket").one} no se puede enviar: ya la enviaste, se usó, se anuló o el evento ya empezó.`);
  }
  const [event] = await ctx.db.select({ named: events.oneHolderPerTicket }).from(events).where(eq(events.id, ticket.event.id));
  return { ...ticket, named: Boolean(event?.named) && ticket.kind === "ticket" };
}
const changed = (one: string) => `La ${one} cambió mientras la enviabas (ya la enviaste, se usó o se anuló). Recargá la página y fijate su estado.`;

/**
 * Sends one of the buyer's tickets to another person (decision 48): only the
 * account that bought it (orders.buyer_user_id; anyone else: NotFound, so it
 * does not reveal the ticket exists), while it is `redeemable`, its purchase
 * paid (an approved billing) and its date not started. In one transaction a
 * conditional UPDATE (still redeemable, still the same code) gives it the new
 * holder and a NEW code, so the old QR stops getting in; the transfer is
 * written to `ticket_transfers`. Of two transfers at once exactly one wins,
 * the other gets Conflict. A ticket is sent once: afterwards it belongs to the
 * new holder, and the buyer sees it as "Enviada a …" without its QR.
 *
 * After the commit, the new holder gets an email with the ticket's QR (inline
 * PNG) and its one-page PDF, and the previous holder a short notice. Both go
 * through sendEmail (email log); a failed delivery does not undo the transfer.
 * `addOns`: what the email takes from folders that import this one, as the
 * purchase email does (server/wallet/tickets-email.ts, handed in by the page and
 * GraphQL): with a live-QR event, from when the static QR counts.
 */
export async function transferTicket(ctx: Ctx, rawInput: DomainInput<typeof transferSchema>, addOns?: TransferEmailAddOns): Promise<TransferResult> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const userId = ctx.actor.userId;
  const input = parseInput(transferSchema, rawInput);
  const toName = `${input.firstName} ${input.lastName}`;
  const toEmail = input.email;

  const [row] = await ctx.db
    .select({ ticket: issuedProducts, order: orders, event: events, date: eventDates, ticketTypeName: orderItems.name, kind: ticketTypes.kind })
    .from(issuedProducts)
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .innerJoin(orderItems, eq(orderItems.id, issuedProducts.orderItemId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .leftJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
    .where(eq(issuedProducts.id, input.ticketId));
  if (!row || row.order.buyerUserId !== userId) throw new NotFound(NOT_FOUND);
  const { ticket, order } = row;
  const kind = row.kind ?? "ticket";
  const { one, plural } = transferWords(kind);

  // Named tickets carry their holder's document (decision 202): sending one names the new holder, document included.
  const named = row.event.oneHolderPerTicket && kind === "ticket";
  if (named && !input.documentNumber) {
    throw new Invalid({ documentNumber: [NAMED_TRANSFER_MESSAGES.documentNumber] }, NAMED_TRANSFER_MESSAGES.documentNumber);
  }
  const toDocument = named ? { type: input.documentType ?? "dni", number: input.documentNumber! } : null;

  const orderBillings = await ctx.db.select({ id: billings.id, status: billings.status }).from(billings).where(eq(billings.orderId, order.id));
  const approved = orderBillings.find((b) => b.status === "approved");
  if (!approved || ticket.status === "voided") throw new Conflict(`Esta ${one} fue anulada: no se puede enviar.`);
  if (ticket.status === "redeemed") throw new Conflict(`Esta ${one} ya se usó: no se puede enviar.`);
  if (row.date.startsAt <= ctx.now) throw new Conflict(`El evento ya empezó: las ${plural} se pueden enviar solo antes del inicio.`);
  const [previous] = await ctx.db.select({ toName: ticketTransfers.toName }).from(ticketTransfers).where(eq(ticketTransfers.issuedProductId, ticket.id)).limit(1);
  if (previous) throw new Conflict(`Ya le enviaste esta ${one} a ${previous.toName}.`);
  // Resale hook (docs/resale.md): a ticket on sale in the official resale is not sent (its sale would void the new holder's QR).
  const [listed] = await ctx.db.select({ id: resaleListings.id }).from(resaleListings).where(and(eq(resaleListings.issuedProductId, ticket.id), inArray(resaleListings.status, ["active", "held"])));
  if (listed) throw new Conflict(`Esta ${one} está publicada en la reventa oficial: cancelá la publicación desde «No puedo ir» antes de enviarla.`);
  if (toEmail === ticket.holderEmail.toLowerCase()) {
    throw new Conflict(`Esa persona ya tiene esta ${one}.`, { email: [`Esa persona ya tiene esta ${one}: ingresá el email de otra persona.`] });
  }

  const code = newTicketCode();
  await ctx.db.transaction(async (tx) => {
    if (kind === "ticket") {
      // The person receiving it may not end up holding more than the event allows per account (decision 203).
      const [account] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${toEmail}`).limit(1);
      await assertWithinAccountLimit(tx, { eventId: row.event.id, accountId: account?.id ?? null, email: toEmail, adding: 1, now: ctx.now, who: "recipient", field: "email" });
    }
    // The new code is what kills the old QR: the door looks tickets up by code, and the old one is no longer anywhere.
    const updated = await tx
      .update(issuedProducts)
      .set({ holderName: toName, holderEmail: toEmail, holderDocumentType: toDocument?.type ?? null, holderDocumentNumber: toDocument?.number ?? null, code })
      .where(and(eq(issuedProducts.id, ticket.id), eq(issuedProducts.status, "redeemable"), eq(issuedProducts.code, ticket.code)))
      .returning({ id: issuedProducts.id });
    if (!updated.length) throw new Conflict(changed(one));
    await walletTicketsChanged(tx, [ticket], ctx.now);
    await tx.insert(ticketTransfers).values({
      issuedProductId: ticket.id,
      fromName: ticket.holderName,
      fromEmail: ticket.holderEmail,
      toName,
      toEmail,
      fromDocument: holderDocumentLabel(ticket.holderDocumentType, ticket.holderDocumentNumber),
      toDocument: toDocument ? holderDocumentLabel(toDocument.type, toDocument.number) : null,
      byUserId: userId,
      createdAt: ctx.now,
    });
  });

  const event: TicketEventView = {
    id: row.event.id,
    slug: row.event.slug,
    name: row.event.name,
    imageUrl: row.event.imageUrl,
    venue: { name: row.event.venueName, address: row.event.venueAddress, city: row.event.city, province: row.event.province },
    startsAt: row.date.startsAt,
    endsAt: row.date.endsAt,
    doorsAt: row.date.doorsAt,
  };
  const holderDocument = toDocument ? holderDocumentLabel(toDocument.type, toDocument.number) : null;
  const base = { id: ticket.id, status: "redeemable" as const, holderName: toName, holderEmail: toEmail, holderDocument, seat: ticketSeatOf(ticket), ticketTypeId: ticket.ticketTypeId, ticketTypeName: row.ticketTypeName, kind };
  const holderView: TicketView = { ...base, code, qrPayload: qrPayloadFor(code), statusLabel: TICKET_STATUS_LABELS.redeemable, transferredTo: null };
  await sendTransferEmails(ctx, addOns, { event, orderCode: order.code, ticket: holderView, from: { name: ticket.holderName, email: ticket.holderEmail }, sender: `${order.payer.firstName} ${order.payer.lastName}`.trim(), organizationId: order.organizationId });

  return {
    ticket: { ...base, code: "", qrPayload: "", statusLabel: `Enviada a ${toName}`, transferredTo: toName },
    event,
    orderCode: order.code,
    billingId: approved.id,
    toName,
    toEmail,
  };
}

/** What the email of a sent ticket takes from server/wallet (transferTicket): the live QR's static-code time. */
export type TransferEmailAddOns = Pick<TicketsEmailAddOns, "staticQrFrom">;

async function sendTransferEmails(
  ctx: Ctx,
  addOns: TransferEmailAddOns | undefined,
  input: { event: TicketEventView; orderCode: string; ticket: TicketView; from: { name: string; email: string }; sender: string; organizationId: string },
) {
  const { event, orderCode, ticket } = input;
  const { one, showAt, oldQrVoided } = transferWords(ticket.kind);
  const when = whenLabel(event);
  const venue = venueLabel(event);
  // A live-QR event whose static QR counts only later: the email and the PDF say from when, as the purchase's do (decision 207).
  const staticQrFrom = ticket.kind !== "menu" && addOns ? await addOns.staticQrFrom(ctx.db, event, ctx.now) : null;
  const note = staticQrFrom ? staticQrNote(staticQrFrom, "email", "recipient") : null;
  const { images, pdf } = await ticketAttachments(orderCode, event, [ticket], { staticQrFrom, staticQrAudience: "recipient" });
  await sendEmail(ctx.db, {
    to: ticket.holderEmail,
    kind: TICKET_TRANSFER_EMAIL_KIND,
    organizationId: input.organizationId,
    subject: `${input.sender} te envió una ${one} para ${event.name}`,
    html: emailLayout(
      `Tenés una ${one} para ${event.name}`,
      `<p>${escapeHtml(input.sender)} te envió esta ${one}. Es tuya: mostrá el QR ${showAt}, desde el celular o impreso (también va en el PDF adjunto).</p>
<p style="margin:0 0 4px">${escapeHtml(when)}</p>
<p style="margin:0 0 16px">${escapeHtml(venue)}</p>
${note ? `<p><strong>${escapeHtml(note)}</strong></p>\n` : ""}<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:16px 0;background:${brand.email.ticket};border-radius:12px">
<tr><td align="center" style="padding:20px;color:${brand.email.ticketText}">
<p style="margin:0 0 4px;font-size:13px;color:${brand.email.ticketMuted}">${escapeHtml(ticket.ticketTypeName)}</p>
${ticket.seat ? `<p style="margin:0 0 8px;font-size:16px;font-weight:bold;color:${brand.email.ticketText}">${escapeHtml(ticket.seat.label)}</p>\n` : ""}<p style="margin:0 0 12px;font-size:18px;font-weight:bold;color:${brand.email.ticketText}">${escapeHtml(ticket.holderName)}</p>
${ticket.holderDocument ? `<p style="margin:-8px 0 12px;font-size:15px;color:${brand.email.ticketText}">${escapeHtml(ticket.holderDocument)}</p>` : ""}
<img src="cid:${escapeHtml(images[0].cid)}" width="240" height="240" alt="Código QR de tu ${one}" style="display:block;width:240px;height:240px;background:${brand.email.ticket};border:0">
<p style="margin:12px 0 0;font-size:12px;color:${brand.email.ticketMuted}">Compra ${escapeHtml(orderCode)}</p>
</td></tr></table>
<p>La ${one} sirve una sola vez: no compartas el QR.</p>${ticket.holderDocument ? `\n<p>Es una entrada nominativa: está a tu nombre y en la puerta te piden el documento (${escapeHtml(ticket.holderDocument)}).</p>` : ""}`,
      `Guardá este correo: tiene tu ${one}.`,
    ),
    text: [
      `${input.sender} te envió una ${one} para ${event.name}`,
      when,
      venue,
      `${ticket.ticketTypeName} — ${ticket.holderName}${ticket.holderDocument ? ` (${ticket.holderDocument})` : ""}`,
      ...(ticket.seat ? [ticket.seat.label] : []),
      `Compra ${orderCode}`,
      "",
      ...(note ? [note, ""] : []),
      `Mostrá el QR ${showAt}: lo tenés en el PDF adjunto. Sirve una sola vez.`,
    ].join("\n"),
    attachments: [pdf, ...images],
  });
  await sendEmail(ctx.db, {
    to: input.from.email,
    kind: TICKET_TRANSFER_NOTICE_EMAIL_KIND,
    organizationId: input.organizationId,
    subject: `Enviaste tu ${one} a ${ticket.holderName}`,
    html: emailLayout(
      `Enviaste tu ${one} a ${ticket.holderName}`,
      `<p>La ${one} ${escapeHtml(ticket.ticketTypeName)}${ticket.seat ? ` (${escapeHtml(ticket.seat.label)})` : ""} para ${escapeHtml(event.name)} (${escapeHtml(when)}) ahora es de ${escapeHtml(ticket.holderName)} (${escapeHtml(ticket.holderEmail)}). Le mandamos su QR por correo.</p>
<p>El QR que tenías ${oldQrVoided}.</p>`,
      "Si no fuiste vos, escribinos respondiendo este correo.",
    ),
    text: `Enviaste tu ${one} a ${ticket.holderName} (${ticket.holderEmail}) para ${event.name}, ${when}. El QR que tenías ${oldQrVoided}.`,
  });
}
