import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { emailAttachments, issuedProducts, ticketTransfers, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { hasPostgresServer } from "#tests/support/db";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { emailsTo, lastEmailTo } from "#tests/support/mailbox";
import { sendTicketsEmail } from "./email";
import { ticketsOfOrder } from "./issue";
import { verifyQrPayload } from "./qr";
import { getPurchaseTickets } from "#server/orders/purchase-tickets";
import { listMyTickets } from "./tickets";
import { TICKET_TRANSFER_EMAIL_KIND, TICKET_TRANSFER_NOTICE_EMAIL_KIND, transferTicket } from "./transfer";

const rand = () => Math.random().toString(36).slice(2, 8);

/** A signed-in buyer who bought and paid two General tickets for an event in `days` days. */
async function boughtTickets(options: { days?: number } = {}) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    days: options.days,
    ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }],
  });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const user = await createTestUser();
  const ctx = await ctxAs(actorFor({ ...user, roles: [] }));
  const { order, billing } = await createOrder(ctx, {
    eventSlug: event.slug,
    items: [{ ticketId: general.id, qty: 2 }],
    payer: { firstName: "Sofía", lastName: "Peña", email: user.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  const paid = await payInSandbox(db, billing.id, "approved");
  expect(paid?.result.outcome).toBe("approved");
  const tickets = await ticketsOfOrder(db, order.id);
  expect(tickets).toHaveLength(2);
  return { db, ctx, user, event, order, billing, tickets };
}

const friend = () => ({ firstName: "Lucía", lastName: "Gómez", email: `Lucia.${rand()}@Example.com` });

describe("transferTicket", () => {
  it("the buyer sends a ticket: new holder and code, the old QR no longer finds a ticket, emails to both, the buyer sees it as sent", async () => {
    const { db, ctx, user, order, billing, tickets } = await boughtTickets();
    const [ticket] = tickets;
    const oldPayload = (await listMyTickets(ctx)).upcoming.find((t) => t.id === ticket.id)!.qrPayload;
    const to = friend();

    const result = await transferTicket(ctx, { ticketId: ticket.id, ...to });
    expect(result.ticket).toMatchObject({ id: ticket.id, transferredTo: "Lucía Gómez", statusLabel: "Enviada a Lucía Gómez", code: "", qrPayload: "" });

    const [after] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, ticket.id));
    expect(after).toMatchObject({ holderName: "Lucía Gómez", holderEmail: to.email.toLowerCase(), status: "redeemable" });
    expect(after.code).not.toBe(ticket.code);
    // The old QR still has a valid signature, but its code is no ticket any more.
    expect(verifyQrPayload(oldPayload)).toBe(ticket.code);
    expect(await db.select().from(issuedProducts).where(eq(issuedProducts.code, ticket.code))).toHaveLength(0);

    const [record] = await db.select().from(ticketTransfers).where(eq(ticketTransfers.issuedProductId, ticket.id));
    expect(record).toMatchObject({ fromName: "Sofía Peña", fromEmail: user.email, toName: "Lucía Gómez", toEmail: to.email.toLowerCase(), byUserId: user.id });

    // The new holder: one email with the QR of the NEW code inline and a one-page PDF.
    const received = await emailsTo(to.email, TICKET_TRANSFER_EMAIL_KIND);
    expect(received).toHaveLength(1);
    expect(received[0].subject).toContain("te envió una entrada");
    expect(received[0].html).toContain("Lucía Gómez");
    const files = await db.select().from(emailAttachments).where(eq(emailAttachments.emailLogId, received[0].id));
    const pdfFile = files.find((f) => f.contentType === "application/pdf")!;
    expect((await PDFDocument.load(Buffer.from(pdfFile.contentBase64, "base64"))).getPageCount()).toBe(1);
    const png = files.filter((f) => f.contentType === "image/png");
    expect(png).toHaveLength(1);
    expect(received[0].html).toContain(`src="cid:${png[0].contentId}"`);

    // The previous holder: a short notice.
    const notice = await lastEmailTo(user.email, TICKET_TRANSFER_NOTICE_EMAIL_KIND);
    expect(notice.subject).toBe("Enviaste tu entrada a Lucía Gómez");

    // The buyer's views: no QR, "Enviada a …"; the other ticket untouched.
    const mine = (await listMyTickets(ctx)).upcoming;
    expect(mine.find((t) => t.id === ticket.id)).toMatchObject({ transferredTo: "Lucía Gómez", qrPayload: "", code: "" });
    expect(mine.find((t) => t.id === tickets[1].id)).toMatchObject({ transferredTo: null, statusLabel: "Válida", code: tickets[1].code });
    const purchase = await getPurchaseTickets(ctx, billing.id);
    expect(purchase.tickets.find((t) => t.id === ticket.id)?.qrPayload).toBe("");

    // Sent once: the buyer cannot send it again (it belongs to Lucía now).
    await expect(transferTicket(ctx, { ticketId: ticket.id, ...friend() })).rejects.toMatchObject({ code: "CONFLICT", message: "Ya le enviaste esta entrada a Lucía Gómez." });
    // The purchase's tickets email (its job runs after this here) carries only the ticket still the buyer's.
    expect(await sendTicketsEmail(db, order.id)).toBe("sent");
    const purchaseEmail = await lastEmailTo(user.email, "tickets");
    const purchaseFiles = await db.select().from(emailAttachments).where(eq(emailAttachments.emailLogId, purchaseEmail.id));
    expect(purchaseFiles.filter((f) => f.contentType === "image/png")).toHaveLength(1);
    expect(purchaseEmail.html).not.toContain("Lucía Gómez");
  }, 60_000);

  it("someone else's ticket is NOT_FOUND; without a session UNAUTHENTICATED; bad input gets the spec messages", async () => {
    const { tickets } = await boughtTickets();
    const stranger = await createTestUser();
    await expect(transferTicket(await ctxAs(actorFor({ ...stranger, roles: [] })), { ticketId: tickets[0].id, ...friend() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(transferTicket(await ctxAs(ANONYMOUS), { ticketId: tickets[0].id, ...friend() })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const { ctx } = await boughtTickets();
    await expect(transferTicket(ctx, { ticketId: tickets[0].id, ...friend() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const invalid = await transferTicket(ctx, { ticketId: tickets[0].id, firstName: "", lastName: "Gómez", email: "lucia@" }).catch((e) => e);
    expect(invalid).toMatchObject({ code: "BAD_USER_INPUT" });
    expect(invalid.fieldErrors.firstName).toEqual(["Este campo es obligatorio"]);
    expect(invalid.fieldErrors.email).toEqual(["Este campo debe ser un email válido"]);
  }, 60_000);

  it("refuses used and voided tickets, and once the event started", async () => {
    const { db, ctx, tickets, event } = await boughtTickets();
    await db.update(issuedProducts).set({ status: "redeemed", redeemedAt: new Date() }).where(eq(issuedProducts.id, tickets[0].id));
    await expect(transferTicket(ctx, { ticketId: tickets[0].id, ...friend() })).rejects.toMatchObject({ code: "CONFLICT", message: "Esta entrada ya se usó: no se puede enviar." });
    await db.update(issuedProducts).set({ status: "voided" }).where(eq(issuedProducts.id, tickets[1].id));
    await expect(transferTicket(ctx, { ticketId: tickets[1].id, ...friend() })).rejects.toMatchObject({ code: "CONFLICT", message: "Esta entrada fue anulada: no se puede enviar." });

    const later = await boughtTickets({ days: 3 });
    const startedCtx = { ...later.ctx, now: new Date(Date.now() + 4 * 24 * 3600_000) };
    await expect(transferTicket(startedCtx, { ticketId: later.tickets[0].id, ...friend() })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "El evento ya empezó: las entradas se pueden enviar solo antes del inicio.",
    });
    const [unchanged] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, later.tickets[0].id));
    expect(unchanged.code).toBe(later.tickets[0].code);
    expect(event.id).toBeTruthy();
  }, 60_000);
});

describe("transferTicket of a seated ticket (docs/seating.md)", () => {
  it("the new holder's email and its PDF say the seat, and so does the sender's notice", async () => {
    const { createSeatedEvent, buyPaid } = await import("#tests/support/seating");
    const { drawnText } = await import("#tests/support/pdf-text");
    const made = await createSeatedEvent();
    const user = await createTestUser();
    const ctx = await ctxAs(actorFor({ ...user, roles: [] }));
    const { tickets } = await buyPaid(made, { seats: ["F14"], ctx, email: user.email });
    const to = friend();
    const result = await transferTicket(ctx, { ticketId: tickets[0].id, ...to });
    expect(result.ticket.seat?.label).toBe("Platea · Fila F · Asiento 14");

    const [received] = await emailsTo(to.email, TICKET_TRANSFER_EMAIL_KIND);
    expect(received.html).toContain("Platea · Fila F · Asiento 14");
    expect(received.text).toContain("Platea · Fila F · Asiento 14");
    const db = await getDb();
    const pdf = (await db.select().from(emailAttachments).where(eq(emailAttachments.emailLogId, received.id))).find((f) => f.contentType === "application/pdf")!;
    expect(await drawnText(Buffer.from(pdf.contentBase64, "base64"))).toContain("Platea · Fila F · Asiento 14");
    expect((await lastEmailTo(user.email, TICKET_TRANSFER_NOTICE_EMAIL_KIND)).html).toContain("Platea · Fila F · Asiento 14");
  }, 60_000);

  it("a general-admission ticket's transfer email has no seat", async () => {
    const { ctx, tickets } = await boughtTickets();
    const to = friend();
    await transferTicket(ctx, { ticketId: tickets[0].id, ...to });
    const [received] = await emailsTo(to.email, TICKET_TRANSFER_EMAIL_KIND);
    expect(received.html).not.toContain("Asiento");
    expect(received.text).not.toContain("Asiento");
  }, 60_000);
});

describe.runIf(hasPostgresServer)("transferTicket at the same time", () => {
  it("two transfers of the same ticket at once: exactly one wins, the other gets CONFLICT", async () => {
    const { db, ctx, tickets } = await boughtTickets();
    const a = friend();
    const b = { ...friend(), firstName: "Martina" };
    const results = await Promise.allSettled([transferTicket(ctx, { ticketId: tickets[0].id, ...a }), transferTicket(ctx, { ticketId: tickets[0].id, ...b })]);
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0].reason).toMatchObject({ code: "CONFLICT" });
    expect(await db.select().from(ticketTransfers).where(eq(ticketTransfers.issuedProductId, tickets[0].id))).toHaveLength(1);
    const [after] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, tickets[0].id));
    const winner = (ok[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof transferTicket>>>).value;
    expect(after.holderEmail).toBe(winner.toEmail);
  }, 60_000);
});
