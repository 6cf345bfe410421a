import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { sendInvitation } from "#server/invitations/invitations";
import { createMenuItem } from "#server/menu/menu";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ctxAs } from "#tests/support/context";
import { createEventWithTickets, createTransferAccount } from "#tests/support/factories";
import { organizationSummary } from "./summary";

const PAYER = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

describe("organizationSummary", () => {
  it("counts paid sales of today, the last 7 days and in total, leaves gifts and unpaid orders out, and says what needs a decision", async () => {
    const made = await createEventWithTickets([
      { name: "General", price: 1_000_000, stock: 100 },
      { name: "Transferencia", price: 2_000_000, stock: 100, paymentMethod: "BankAccount" },
    ]);
    await createTransferAccount(made.ctx, made.organization.id);
    const db = await getDb();
    const buyer = await ctxAs();
    const sale = await createOrder(buyer, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 3 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, sale.billing.id, "approved");
    const drink = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet", category: "drink", price: "5000", stock: "10" });
    const drinks = await createOrder(buyer, { eventSlug: made.event.slug, items: [{ ticketId: drink.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, drinks.billing.id, "approved");
    await createOrder(buyer, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await createOrder(buyer, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.Transferencia.id, qty: 1 }], payer: PAYER, paymentMethod: "BANK_TRANSFER" });
    await sendInvitation(made.ctx, { eventId: made.event.id, ticketTypeId: made.tickets.General.id, email: "invitada@example.com", firstName: "Julieta", lastName: "Venegas", qty: 2 });

    const summary = await organizationSummary(made.ctx, made.organization.id);
    const expected = { orders: 2, tickets: 3, menuItems: 2, revenue: 3 * 1_000_000 + 2 * 500_000 };
    expect(summary).toEqual({ today: expected, lastSevenDays: expected, total: expected, pendingTransfers: 1, refundsToDecide: 0 });

    const stranger = await createEventWithTickets();
    await expect(organizationSummary(stranger.ctx, made.organization.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Of one event: that event's figures; another organization's event (or no id at all) is NOT_FOUND.
    expect((await organizationSummary(made.ctx, made.organization.id, made.event.id)).total).toEqual(expected);
    await expect(organizationSummary(made.ctx, made.organization.id, stranger.event.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(organizationSummary(made.ctx, made.organization.id, "no-es-un-id")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
