import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { jobs, orders, ticketTypes } from "#server/db/schema";
import { redeemAtDoor } from "#server/door/redeem";
import type { DoorAccess } from "#server/door/access";
import { ledgerOfOrder } from "#server/ledger/ledger";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { createOrder } from "#server/orders/orders";
import { listOrganizationOrders } from "#server/refunds/sales";
import { sendTicketsEmail } from "#server/tickets/email";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { listMyTickets } from "#server/tickets/tickets";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { randomTag } from "#tests/support/random";
import { listInvitations, resendInvitation, revokeInvitation, sendInvitation } from "./invitations";

const guestEmail = () => `invitada-${randomTag(8)}@example.com`;

async function soldOf(id: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, id));
  return row.sold;
}

function doorAccess(made: Awaited<ReturnType<typeof createEventWithTickets>>): DoorAccess {
  const { event } = made;
  return {
    event: {
      id: event.id,
      organizationId: event.organizationId,
      name: event.name,
      slug: event.slug,
    },
    userId: made.user.id,
    pinSessionId: null,
  };
}

describe("sendInvitation", () => {
  it("issues gift tickets that take stock, are emailed as an invitation, get in at the door and never touch the ledger", async () => {
    const made = await createEventWithTickets([{ name: "Invitados", price: 1_000_000, stock: 10 }], { days: 0 });
    const email = guestEmail();
    const order = await sendInvitation(made.ctx, {
      eventId: made.event.id,
      ticketTypeId: made.tickets.Invitados.id,
      email: email.toUpperCase(),
      firstName: "  Julieta ",
      lastName: "Venegas",
      documentNumber: "30.123.456",
      qty: "2",
    });
    expect(order).toMatchObject({
      gift: true,
      status: "billed",
      paymentMethod: "FREE",
      total: 0,
      invitedByUserId: made.user.id,
    });
    expect(order.payer).toMatchObject({
      email,
      firstName: "Julieta",
      documentNumber: "30123456",
    });
    expect(await soldOf(made.tickets.Invitados.id)).toBe(2);
    const db = await getDb();
    const tickets = await ticketsOfOrder(db, order.id);
    expect(tickets.map((t) => [t.status, t.holderName])).toEqual([
      ["redeemable", "Julieta Venegas"],
      ["redeemable", "Julieta Venegas"],
    ]);
    expect(await ledgerOfOrder(db, order.id)).toEqual([]);
    await assertLedgerMatches(db, order.id);

    // The tickets email is an invitation from the organization.
    expect(await sendTicketsEmail(db, order.id)).toBe("sent");
    const [mail] = await emailsTo(email, "tickets");
    expect(mail.subject).toBe(`Tus invitaciones para ${made.event.name} · ${order.code}`);
    expect(mail.text).toContain(`${made.organization.name} te invitó a ${made.event.name}`);

    // Not a sale: the default sales list leaves it out; asking for gifts shows it.
    expect(
      (
        await listOrganizationOrders(made.ctx, {
          organizationId: made.organization.id,
        })
      ).items.map((o) => o.id)
    ).not.toContain(order.id);
    expect(
      (
        await listOrganizationOrders(made.ctx, {
          organizationId: made.organization.id,
          gift: true,
          paymentMethods: ["FREE"],
        })
      ).items.map((o) => o.id)
    ).toEqual([order.id]);

    // At the door, like any ticket.
    expect(
      await redeemAtDoor(made.ctx, doorAccess(made), {
        code: qrPayloadFor(tickets[0].code),
      })
    ).toMatchObject({ outcome: "admitted", holderName: "Julieta Venegas" });

    const list = await listInvitations(made.ctx, {
      organizationId: made.organization.id,
    });
    expect(list.items).toEqual([
      expect.objectContaining({
        id: order.id,
        guestName: "Julieta Venegas",
        email,
        qty: 2,
        redeemed: 1,
        status: "active",
        tickets: [{ ticketTypeName: "Invitados", qty: 2 }],
      }),
    ]);
    expect(
      (
        await listInvitations(made.ctx, {
          organizationId: made.organization.id,
          search: "venegas",
        })
      ).total
    ).toBe(1);
    expect(
      (
        await listInvitations(made.ctx, {
          organizationId: made.organization.id,
          search: "nadie",
        })
      ).total
    ).toBe(0);
  });

  it("answers bad input field by field, out of stock as a conflict, and strangers as forbidden, saving nothing", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 3 }]);
    const base = {
      eventId: made.event.id,
      ticketTypeId: made.tickets.General.id,
      email: guestEmail(),
      firstName: "Ana",
      lastName: "Gómez",
      qty: 1,
    };
    await expect(
      sendInvitation(made.ctx, {
        ...base,
        email: "ana@",
        qty: 0,
        documentNumber: "12",
      })
    ).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: {
        email: ["Este campo debe ser un email válido"],
        qty: ["La cantidad tiene que ser un número entre 1 y 20."],
        documentNumber: ["Ingresá un número de documento válido"],
      },
    });
    await expect(sendInvitation(made.ctx, { ...base, firstName: "" })).rejects.toMatchObject({
      fieldErrors: { firstName: ["Este campo es obligatorio"] },
    });
    const other = await createEventWithTickets();
    await expect(
      sendInvitation(made.ctx, {
        ...base,
        ticketTypeId: other.tickets.General.id,
      })
    ).rejects.toMatchObject({
      fieldErrors: {
        ticketTypeId: ["Elegí un tipo de entrada de este evento."],
      },
    });
    await expect(sendInvitation(made.ctx, { ...base, qty: 4 })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "No alcanza el stock de General: quedan 3.",
    });
    await expect(sendInvitation(other.ctx, base)).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(sendInvitation(await ctxAs(), base)).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    expect(await soldOf(made.tickets.General.id)).toBe(0);
  });
});

describe("revokeInvitation and resendInvitation", () => {
  it("revoking voids the tickets and returns the stock exactly once; a used invitation cannot be revoked", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 10 }], { days: 0 });
    const db = await getDb();
    const order = await sendInvitation(made.ctx, {
      eventId: made.event.id,
      ticketTypeId: made.tickets.General.id,
      email: guestEmail(),
      firstName: "Ana",
      lastName: "Gómez",
      qty: 3,
    });
    expect(await soldOf(made.tickets.General.id)).toBe(3);
    const results = await Promise.allSettled([revokeInvitation(made.ctx, order.id), revokeInvitation(made.ctx, order.id)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({
      reason: {
        code: "CONFLICT",
        message: "Esa invitación ya estaba anulada.",
      },
    });
    expect(await soldOf(made.tickets.General.id)).toBe(0);
    const tickets = await ticketsOfOrder(db, order.id);
    expect(tickets.every((t) => t.status === "voided")).toBe(true);
    await assertLedgerMatches(db, order.id);
    expect(
      await redeemAtDoor(made.ctx, doorAccess(made), {
        code: qrPayloadFor(tickets[0].code),
      })
    ).toMatchObject({ outcome: "voided" });
    expect(
      (
        await listInvitations(made.ctx, {
          organizationId: made.organization.id,
        })
      ).items[0]
    ).toMatchObject({ status: "revoked" });
    await expect(resendInvitation(made.ctx, order.id)).rejects.toMatchObject({
      code: "CONFLICT",
    });

    const used = await sendInvitation(made.ctx, {
      eventId: made.event.id,
      ticketTypeId: made.tickets.General.id,
      email: guestEmail(),
      firstName: "Ana",
      lastName: "Gómez",
      qty: 1,
    });
    const [ticket] = await ticketsOfOrder(db, used.id);
    await redeemAtDoor(made.ctx, doorAccess(made), {
      code: qrPayloadFor(ticket.code),
    });
    await expect(revokeInvitation(made.ctx, used.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Alguien ya ingresó con esta invitación: no se puede anular.",
    });
    const stranger = await createEventWithTickets();
    await expect(revokeInvitation(stranger.ctx, used.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // A sale is not an invitation.
    const { order: sale } = await createOrder(await ctxAs(), {
      eventSlug: made.event.slug,
      items: [{ ticketId: made.tickets.General.id, qty: 1 }],
      payer: {
        firstName: "Ana",
        lastName: "Gómez",
        email: "ana@example.com",
        documentType: "dni",
        documentNumber: "30123456",
        phoneNumber: "+54 11 5555-1234",
      },
      paymentMethod: "MERCADO_PAGO",
    });
    await expect(revokeInvitation(made.ctx, sale.id)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("resending queues the invitation email again and it goes out a second time", async () => {
    const made = await createEventWithTickets();
    const db = await getDb();
    const email = guestEmail();
    const order = await sendInvitation(made.ctx, {
      eventId: made.event.id,
      ticketTypeId: made.tickets.General.id,
      email,
      firstName: "Ana",
      lastName: "Gómez",
      qty: 1,
    });
    expect(await sendTicketsEmail(db, order.id)).toBe("sent");
    expect(await sendTicketsEmail(db, order.id)).toBe("already-sent");
    await resendInvitation(made.ctx, order.id);
    const [job] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "send-tickets-email"), eq(jobs.payload, { orderId: order.id, resend: true })));
    expect(job).toBeDefined();
    expect(await sendTicketsEmail(db, order.id, { resend: true })).toBe("sent");
    expect(await emailsTo(email, "tickets")).toHaveLength(2);
  });
});

describe("invitations in Mis tickets", () => {
  it("show in the account that owns the address only once it is verified", async () => {
    const made = await createEventWithTickets();
    const guest = await createTestUser({ email: guestEmail() });
    const order = await sendInvitation(made.ctx, {
      eventId: made.event.id,
      ticketTypeId: made.tickets.General.id,
      email: guest.email,
      firstName: "Ana",
      lastName: "Gómez",
      qty: 1,
    });
    const guestCtx = await ctxAs(actorFor(guest));
    expect((await listMyTickets(guestCtx)).upcoming).toEqual([]);
    const { markEmailVerified } = await import("#server/accounts/users");
    await markEmailVerified(guestCtx.db, guest.id, new Date());
    expect((await listMyTickets(guestCtx)).upcoming.map((t) => t.orderId)).toEqual([order.id]);
  });
});

describe.runIf(hasPostgresServer)("invitations under contention", () => {
  it("30 units, 40 buyers and 20 invitations at once: exactly 30 go out, never more", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 30 }]);
    const id = made.tickets.General.id;
    const payer = {
      firstName: "Ana",
      lastName: "Gómez",
      email: "ana@example.com",
      documentType: "dni",
      documentNumber: "30123456",
      phoneNumber: "+54 11 5555-1234",
    };
    const results = await Promise.allSettled([
      ...Array.from({ length: 40 }, async () =>
        createOrder(await ctxAs(), {
          eventSlug: made.event.slug,
          items: [{ ticketId: id, qty: 1 }],
          payer,
          paymentMethod: "MERCADO_PAGO",
        })
      ),
      ...Array.from({ length: 20 }, () =>
        sendInvitation(made.ctx, {
          eventId: made.event.id,
          ticketTypeId: id,
          email: guestEmail(),
          firstName: "Ana",
          lastName: "Gómez",
          qty: 1,
        })
      ),
    ]);
    const won = results.filter((r) => r.status === "fulfilled").length;
    expect(won).toBe(30);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CONFLICT" });
    expect(await soldOf(id)).toBe(30);
    const db = await getDb();
    const rows = await db.select({ id: orders.id }).from(orders).where(eq(orders.eventId, made.event.id));
    expect(rows).toHaveLength(30);
  });
});
