import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { listOrganizationEvents } from "#server/events/events";
import { sendInvitation } from "#server/invitations/invitations";
import { createMenuItem } from "#server/menu/menu";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { listOrganizationOrders } from "#server/refunds/sales";
import { refundApprovedBilling } from "#server/refunds/transitions";
import { ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { soldTickets } from "./sold";

const PAYER = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

describe("soldTickets", () => {
  it("is what the summary's 'Vendidas' and the sales list both count: paid tickets, without holds, invitations, refunds or menu items", async () => {
    const made = await createEventWithTickets([
      { name: "General", price: 1_000_000, stock: 100 },
      { name: "VIP", price: 3_000_000, stock: 20 },
    ]);
    const db = await getDb();
    const buyer = await ctxAs();
    const order = (ticketId: string, qty: number) => createOrder(buyer, { eventSlug: made.event.slug, items: [{ ticketId, qty }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });

    const paid = await order(made.tickets.General.id, 3);
    await payInSandbox(db, paid.billing.id, "approved");
    const vip = await order(made.tickets.VIP.id, 2);
    await payInSandbox(db, vip.billing.id, "approved");
    const refunded = await order(made.tickets.General.id, 4);
    await payInSandbox(db, refunded.billing.id, "approved");
    await db.transaction((tx) => refundApprovedBilling(tx, refunded.billing.id, { reason: "Arrepentimiento", now: new Date(), providerRefund: "none" }));
    await order(made.tickets.General.id, 1); // held, not paid
    const drink = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet", category: "drink", price: "5000", stock: "10" });
    const drinks = await order(drink.id, 2);
    await payInSandbox(db, drinks.billing.id, "approved");
    await sendInvitation(made.ctx, { eventId: made.event.id, ticketTypeId: made.tickets.General.id, email: "invitada@example.com", firstName: "Julieta", lastName: "Venegas", qty: 2 });

    const organizationId = made.organization.id;
    expect(await soldTickets(made.ctx, { organizationId, eventId: made.event.id })).toBe(5);
    expect(await soldTickets(made.ctx, { organizationId })).toBe(5);

    // The summary and "Mis eventos" read it through listOrganizationEvents.
    const [listed] = await listOrganizationEvents(made.ctx, { organizationId, fromDate: null });
    expect(listed).toMatchObject({ id: made.event.id, sold: 5, stock: 120 });

    // The sales list: its approved rows' tickets add up to the same number (the drinks' order is a menu order).
    const list = await listOrganizationOrders(made.ctx, { organizationId, eventId: made.event.id, limit: 100 });
    const ticketOrders = new Set([paid.order.id, vip.order.id, refunded.order.id]);
    const approvedTickets = list.items.filter((o) => o.displayStatus === "approved" && ticketOrders.has(o.id)).reduce((n, o) => n + o.units, 0);
    expect(approvedTickets).toBe(5);
    expect(list.items.find((o) => o.id === refunded.order.id)?.displayStatus).toBe("refunded");

    const stranger = await createEventWithTickets();
    await expect(soldTickets(stranger.ctx, { organizationId })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
