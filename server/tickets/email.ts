import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "#server/db/client";
import { billings, emailLog, orders, organizations } from "#server/db/schema";
import { sendEmail, type EmailAttachment } from "#server/email/send";
import { ticketsEmail } from "#server/email/templates";
import { appUrl } from "#server/env";
import { staticQrNote, ticketsPdf, ticketsPdfFilename, type StaticQrAudience } from "./pdf";
import { qrPng } from "./qr";
import { purchaseOfOrder, venueLabel, whenLabel, type TicketEventView, type TicketView } from "./tickets";

export const TICKETS_EMAIL_KIND = "tickets";

/**
 * What a tickets email attaches: one QR PNG per ticket (inline, `cid:`) and the
 * PDF with one page per ticket. Shared by the purchase email and the email of a
 * ticket sent to another person (transfer.ts).
 */
export async function ticketAttachments(
  orderCode: string,
  event: TicketEventView,
  tickets: TicketView[],
  options: { staticQrFrom?: Date | null; staticQrAudience?: StaticQrAudience } = {},
): Promise<{ images: (EmailAttachment & { cid: string })[]; pdf: EmailAttachment }> {
  const images = await Promise.all(
    tickets.map(async (t, i) => ({ filename: `qr-${i + 1}.png`, contentType: "image/png", content: await qrPng(t.qrPayload, 480), cid: `qr-${i + 1}-${orderCode}@tribuna` })),
  );
  const content = await ticketsPdf({ orderCode, event, tickets, staticQrFrom: options.staticQrFrom, staticQrAudience: options.staticQrAudience });
  return { images, pdf: { filename: ticketsPdfFilename(orderCode, tickets), contentType: "application/pdf", content } };
}

export type TicketsEmailOutcome = "sent" | "already-sent" | "nothing-to-send";

/**
 * What the tickets email adds from folders that import server/tickets (so it cannot import them): the
 * worker hands in server/wallet/tickets-email.ts. Without it the email has neither. The email of a
 * ticket sent to another person takes `staticQrFrom` too (transfer.ts, handed in by its page and GraphQL).
 */
export interface TicketsEmailAddOns {
  /** When a live-QR event's static QR starts counting, if still ahead (decision 207); else null. */
  staticQrFrom(db: DbOrTx, event: TicketEventView, now: Date): Promise<Date | null>;
  /** A ticket's wallet buttons from the purchase page's signed link (relative; null: no button). */
  walletLinks(purchasePath: string, ticket: TicketView): { apple: string | null; google: string | null } | null;
}

/**
 * The tickets email of one order (job "send-tickets-email"): HTML with one
 * block per ticket and its QR as an inline PNG (`cid:`, which Gmail, Outlook
 * and Apple Mail show; data: URIs are blocked by several), a text version, the
 * PDF (one page per ticket) and the link to the purchase page with its access
 * token. Sent to the payer (for an invitation, the guest). Idempotent: a job
 * run again after a delivery that worked sends nothing (unless `resend`: the
 * organizer asked for it again); a delivery that failed (SMTP) throws so the queue
 * retries it.
 */
export async function sendTicketsEmail(db: Db, orderId: string, options: { resend?: boolean; addOns?: TicketsEmailAddOns; now?: Date } = {}): Promise<TicketsEmailOutcome> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return "nothing-to-send";
  const [billing] = await db
    .select()
    .from(billings)
    .where(eq(billings.orderId, order.id))
    .orderBy(sql`${billings.status} = 'approved' desc`, desc(billings.createdAt));
  if (!billing) return "nothing-to-send";
  const purchase = await purchaseOfOrder(db, order, billing);
  const tickets = purchase.tickets.filter((t) => t.status !== "voided" && !t.transferredTo);
  if (purchase.state !== "confirmed" || !tickets.length) return "nothing-to-send";

  const to = order.payer.email.toLowerCase();
  const [already] = await db
    .select({ id: emailLog.id })
    .from(emailLog)
    .where(and(eq(emailLog.to, to), eq(emailLog.kind, TICKETS_EMAIL_KIND), ne(emailLog.status, "failed"), sql`${emailLog.subject} like ${`%· ${order.code}`}`));
  if (already && !options.resend) return "already-sent";

  const { event } = purchase;
  const hasEntradas = tickets.some((t) => t.kind !== "menu");
  const staticQrFrom = hasEntradas && options.addOns ? await options.addOns.staticQrFrom(db, event, options.now ?? new Date()) : null;
  const { images, pdf } = await ticketAttachments(order.code, event, tickets, { staticQrFrom });
  const message = ticketsEmail({
    eventName: event.name,
    when: whenLabel(event),
    venue: venueLabel(event),
    orderCode: order.code,
    link: `${appUrl()}${purchase.pagePath}`,
    tickets: tickets.map((t, i) => ({
      holderName: t.holderName,
      holderDocument: t.holderDocument,
      seat: t.seat?.label ?? null,
      ticketTypeName: t.ticketTypeName,
      kind: t.kind,
      qrSrc: `cid:${images[i].cid}`,
      // The wallet buttons of the purchase page, with its signed link (the email has no session): absolute, per ticket.
      wallet: absoluteLinks(options.addOns?.walletLinks(purchase.pagePath, t) ?? null),
    })),
    staticQrNote: staticQrFrom ? staticQrNote(staticQrFrom, "email") : null,
    invitedBy: order.gift ? await organizationName(db, order.organizationId) : undefined,
  });
  const { logEmailId } = await sendEmail(db, {
    ...message,
    to,
    kind: TICKETS_EMAIL_KIND,
    attachments: [pdf, ...images],
    organizationId: order.organizationId,
  });
  const [logged] = await db.select({ status: emailLog.status, error: emailLog.error }).from(emailLog).where(eq(emailLog.id, logEmailId));
  if (logged?.status === "failed") throw new Error(`No se pudo mandar el correo con las entradas de ${order.code}: ${logged.error ?? "error SMTP"}`);
  return "sent";
}

function absoluteLinks(links: { apple: string | null; google: string | null } | null) {
  if (!links) return null;
  return { apple: links.apple ? `${appUrl()}${links.apple}` : null, google: links.google ? `${appUrl()}${links.google}` : null };
}

async function organizationName(db: Db, organizationId: string): Promise<string> {
  const [row] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.name ?? "Tribuna";
}

