import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { billings, emailAttachments } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { applyPayment } from "#server/payment-notifications/webhook";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { requestRefund } from "#server/refunds/refunds";
import { sendTicketsEmail } from "#server/tickets/email";
import { TICKET_TRANSFER_EMAIL_KIND, TICKET_TRANSFER_NOTICE_EMAIL_KIND, transferTicket } from "#server/tickets/transfer";
import { ticketsOfOrder } from "#server/tickets/issue";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { lastEmailTo } from "#tests/support/mailbox";
import { createMenuItem } from "./menu";

/*
 * Everything a buyer reads about a drink order speaks of consumiciones and the
 * bar, never of entradas (docs/wording.md, "Consumiciones"): the emails as
 * they are rendered and logged for delivery.
 */

const payer = (email: string) => ({ firstName: "Sofía", lastName: "Peña", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" });

async function paidDrinks(made: Awaited<ReturnType<typeof createEventWithTickets>>, itemId: string, email: string, qty = 2) {
  const { order, billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: itemId, qty }], payer: payer(email), paymentMethod: "MERCADO_PAGO" });
  const db = await getDb();
  await payInSandbox(db, billing.id, "approved");
  const [paid] = await db.select().from(billings).where(eq(billings.id, billing.id));
  return { order, billing: paid, db };
}

describe("a drink order's emails", () => {
  it("the QR email, its PDF, a refund and a chargeback say consumición, and a ticket order still says entrada", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 20 });
    const fernet = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "50" });

    // The confirmation with the QR codes.
    const qr = await paidDrinks(made, fernet.id, "qr@example.com");
    expect(await sendTicketsEmail(qr.db, qr.order.id)).not.toBe("nothing-to-send");
    const mail = await lastEmailTo("qr@example.com", "tickets");
    expect(mail.subject).toBe(`Tus consumiciones para ${made.event.name} · ${qr.order.code}`);
    expect(mail.html).toContain("Ver mis consumiciones");
    expect(mail.html).toContain("Guardá este correo: tiene tus consumiciones y el link a tu compra.");
    expect(mail.html).toContain("Mostrá cada QR en la barra");
    expect(mail.text).toContain("Consumición 1 de 2: Fernet con coca");
    expect(mail.text).toContain("Mostrá el QR en la barra.");
    expect(mail.html).not.toMatch(/entrada/i);
    expect(mail.text).not.toMatch(/entrada/i);
    const files = await qr.db.select({ filename: emailAttachments.filename }).from(emailAttachments).where(eq(emailAttachments.emailLogId, mail.id));
    expect(files.map((f) => f.filename)).toContain(`consumiciones-${qr.order.code}.pdf`);

    // A refund inside the legal window (the "botón de arrepentimiento").
    const refunded = await paidDrinks(made, fernet.id, "devolucion@example.com", 1);
    expect((await requestRefund(await ctxAs(), { orderCode: refunded.order.code, email: "devolucion@example.com" })).outcome).toBe("refunded");
    const refundMail = await lastEmailTo("devolucion@example.com", "refund-approved");
    expect(refundMail.text).toContain("Tus consumiciones quedaron anuladas y ya no se pueden retirar en la barra.");
    expect(refundMail.text).not.toMatch(/entrada/i);

    // The payment undone from the provider's side (a chargeback).
    const charged = await paidDrinks(made, fernet.id, "contracargo@example.com", 1);
    const outcome = await applyPayment(
      charged.db,
      { id: charged.billing.providerReference!, status: "charged_back", externalReference: charged.billing.id, amount: charged.billing.amount },
      new Date(),
    );
    expect(outcome).toBe("charged-back");
    const chargebackMail = await lastEmailTo("contracargo@example.com", "payment-charged-back");
    expect(chargebackMail.text).toContain("las consumiciones quedaron anuladas y ya no se pueden retirar en la barra.");
    expect(chargebackMail.text).not.toMatch(/entrada/i);

    // A ticket order keeps its words.
    const { billing } = await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer: payer("entrada@example.com"), paymentMethod: "MERCADO_PAGO" });
    const db = await getDb();
    await payInSandbox(db, billing.id, "approved");
    await sendTicketsEmail(db, billing.orderId);
    const ticketMail = await lastEmailTo("entrada@example.com", "tickets");
    expect(ticketMail.subject).toMatch(/^Tu entrada para /);
    expect(ticketMail.html).toContain("Ver mis entradas");
    expect(ticketMail.text).toContain("Mostrá el QR en la entrada.");
  });

  it("sending a drink to another person: both emails say consumición and the bar, and refusals name it too", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 20 });
    const fernet = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "50" });
    const buyer = await createTestUser();
    const buyerCtx = await ctxAs(actorFor({ ...buyer, roles: [] }));
    const { order, billing } = await createOrder(buyerCtx, { eventSlug: made.event.slug, items: [{ ticketId: fernet.id, qty: 1 }], payer: payer(buyer.email), paymentMethod: "MERCADO_PAGO" });
    const db = await getDb();
    await payInSandbox(db, billing.id, "approved");
    const [drink] = await ticketsOfOrder(db, order.id);
    const to = `amiga-${Math.random().toString(36).slice(2, 8)}@example.com`;

    await expect(transferTicket(buyerCtx, { ticketId: drink.id, firstName: "Sofía", lastName: "Peña", email: buyer.email })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Esa persona ya tiene esta consumición.",
    });
    await transferTicket(buyerCtx, { ticketId: drink.id, firstName: "Lucía", lastName: "Gómez", email: to });

    const received = await lastEmailTo(to, TICKET_TRANSFER_EMAIL_KIND);
    expect(received.subject).toBe(`Sofía Peña te envió una consumición para ${made.event.name}`);
    expect(received.html).toContain("Es tuya: mostrá el QR en la barra");
    expect(received.html).toContain('alt="Código QR de tu consumición"');
    expect(received.html).toContain("La consumición sirve una sola vez");
    expect(received.html).toContain("Guardá este correo: tiene tu consumición.");
    expect(received.text).toContain("Mostrá el QR en la barra: lo tenés en el PDF adjunto.");
    expect(received.html).not.toMatch(/entrada/i);
    expect(received.text).not.toMatch(/entrada/i);

    const notice = await lastEmailTo(buyer.email, TICKET_TRANSFER_NOTICE_EMAIL_KIND);
    expect(notice.subject).toBe("Enviaste tu consumición a Lucía Gómez");
    expect(notice.html).toContain("La consumición Fernet con coca para");
    expect(notice.text).toContain("El QR que tenías ya no sirve para retirarla en la barra.");
    expect(notice.html).not.toMatch(/entrada/i);
    expect(notice.text).not.toMatch(/entrada/i);

    await expect(transferTicket(buyerCtx, { ticketId: drink.id, firstName: "Otra", lastName: "Persona", email: "otra@example.com" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Ya le enviaste esta consumición a Lucía Gómez.",
    });
  }, 60_000);
});
