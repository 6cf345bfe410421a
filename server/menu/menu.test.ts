import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships, ticketTypes } from "#server/db/schema";
import type { DoorAccess } from "#server/door/access";
import { computeLiveNight } from "#server/door/live";
import { doorEntryCount, redeemAtDoor } from "#server/door/redeem";
import { searchAtDoor } from "#server/door/search";
import { getPublicEvent } from "#server/events/catalogue";
import { updateTicketType } from "#server/events/events";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { ledgerOfOrder } from "#server/ledger/ledger";
import { listOrganizationOrders } from "#server/refunds/sales";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { sendTicketsEmail } from "#server/tickets/email";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { createMenuItem, listMenuItems, publicMenu, reorderMenu, setMenuItemStatus, updateMenuItem } from "./menu";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

const fernet = (eventId: string, extra: Record<string, unknown> = {}) => ({ eventId, name: "Fernet con coca", description: "Vaso de 500 ml", category: "drink", price: "4.500", stock: "100", ...extra });

describe("the event's menu", () => {
  it("the organizer adds, edits, pauses, hides and reorders items; buyers see only what they can order", async () => {
    const made = await createEventWithTickets();
    const fernetItem = await createMenuItem(made.ctx, fernet(made.event.id));
    expect(fernetItem).toMatchObject({ name: "Fernet con coca", category: "drink", categoryLabel: "Bebida", price: 450_000, stock: 100, sold: 0, available: 100, visible: true, status: "active" });
    const burger = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Hamburguesa", category: "food", price: "9000", stock: "40" });
    const combo = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Combo previa", category: "combo", price: "12000", stock: "10", visible: false });

    await expect(createMenuItem(made.ctx, { eventId: made.event.id, name: "", category: "postre", price: "-1", stock: "x" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { name: ["Este campo es obligatorio"], category: ["Elegí si es bebida, comida o combo."] },
    });
    const edited = await updateMenuItem(made.ctx, { ...fernet(made.event.id), id: fernetItem.id, price: "5000", stock: "80" });
    expect(edited).toMatchObject({ price: 500_000, stock: 80 });
    await setMenuItemStatus(made.ctx, { id: burger.id, status: "paused" });
    await reorderMenu(made.ctx, { eventId: made.event.id, ids: [combo.id, burger.id, fernetItem.id] });
    expect((await listMenuItems(made.ctx, made.event.id)).map((i) => [i.name, i.status, i.visible])).toEqual([
      ["Combo previa", "active", false],
      ["Hamburguesa", "paused", true],
      ["Fernet con coca", "active", true],
    ]);
    const menu = await publicMenu(await ctxAs(), made.event.slug);
    expect(menu?.items.map((i) => i.name)).toEqual(["Fernet con coca"]);
    expect(await publicMenu(await ctxAs(), "no-existe")).toBeNull();

    // Menu items are not tickets: not on the event page, not editable as ticket types.
    const page = await getPublicEvent(await ctxAs(), made.event.slug);
    expect(page.ticketTypes.map((t) => t.name)).toEqual(["General"]);
    await expect(updateTicketType(made.ctx, { id: fernetItem.id, name: "x", price: 1, stock: 1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("only the organization's managers touch its menu", async () => {
    const made = await createEventWithTickets();
    const item = await createMenuItem(made.ctx, fernet(made.event.id));
    const stranger = await createEventWithTickets();
    await expect(createMenuItem(stranger.ctx, fernet(made.event.id))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updateMenuItem(stranger.ctx, { ...fernet(made.event.id), id: item.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const staff = await createTestUser();
    const db = await getDb();
    await db.insert(memberships).values({ organizationId: made.organization.id, userId: staff.id, role: "staff" });
    await expect(setMenuItemStatus(await ctxAs(actorFor(staff)), { id: item.id, status: "deleted" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createMenuItem(await ctxAs(), fernet(made.event.id))).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("a buyer pays two drinks like tickets: one QR each, the bar serves each once and the door sends them to the bar", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 0 });
    const item = await createMenuItem(made.ctx, fernet(made.event.id, { stock: "5" }));
    const buyer = await ctxAs();
    await expect(
      createOrder(buyer, { eventSlug: made.event.slug, items: [{ ticketId: item.id, qty: 1 }, { ticketId: made.tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" }),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { _form: [expect.stringContaining("se compran aparte")] } });

    const { order, billing } = await createOrder(buyer, { eventSlug: made.event.slug, items: [{ ticketId: item.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    expect(order.total).toBeGreaterThanOrEqual(900_000);
    const db = await getDb();
    await payInSandbox(db, billing.id, "approved");
    const drinks = await ticketsOfOrder(db, order.id);
    expect(drinks).toHaveLength(2);
    // The email says what they are and where they are shown.
    expect(await sendTicketsEmail(db, order.id)).toBe("sent");
    const mail = (await emailsTo(PAYER.email, "tickets")).find((m) => m.subject.endsWith(order.code))!;
    expect(mail.subject).toBe(`Tus consumiciones para ${made.event.name} · ${order.code}`);
    expect(mail.text).toContain("Consumición 1 de 2: Fernet con coca");
    expect(mail.text).toContain("Mostrá el QR en la barra.");
    await assertLedgerMatches(db, order.id);
    // A menu sale is a sale: in the default sales list, with its payment in the ledger.
    expect((await listOrganizationOrders(made.ctx, { organizationId: made.organization.id })).items.map((o) => o.id)).toContain(order.id);
    expect((await ledgerOfOrder(db, order.id)).find((e) => e.kind === "payment")?.amount).toBe(order.total);
    expect((await listMenuItems(made.ctx, made.event.id))[0]).toMatchObject({ sold: 2, available: 3 });

    const access: DoorAccess = { event: { id: made.event.id, organizationId: made.organization.id, name: made.event.name, slug: made.event.slug }, userId: made.user.id, pinSessionId: null };
    expect(await redeemAtDoor(made.ctx, access, { code: qrPayloadFor(drinks[0].code) })).toMatchObject({ outcome: "wrong_place", productKind: "menu" });
    const [first, second] = await Promise.all([
      redeemAtDoor(made.ctx, access, { code: qrPayloadFor(drinks[0].code), mode: "bar", door: "Barra 1" }),
      redeemAtDoor(made.ctx, access, { code: qrPayloadFor(drinks[0].code), mode: "bar", door: "Barra 2" }),
    ]);
    expect([first.outcome, second.outcome].sort()).toEqual(["admitted", "already_in"]);
    expect(first.ticketTypeName).toBe("Fernet con coca");
    expect(await redeemAtDoor(made.ctx, access, { code: qrPayloadFor(drinks[1].code), mode: "bar" })).toMatchObject({ outcome: "admitted" });

    // The live view counts the bar apart from the door; the door's count and search never include drinks.
    const night = await computeLiveNight(db, access.event, new Date());
    expect(night.bar).toEqual([{ name: "Fernet con coca", sold: 2, entered: 2 }]);
    expect(night.entered).toBe(0);
    expect(await doorEntryCount(db, made.event.id, null, "bar")).toBe(2);
    expect(await doorEntryCount(db, made.event.id, null, "door")).toBe(0);
    expect(await searchAtDoor(made.ctx, access, "Sofía Peña")).toEqual([]);
    expect((await searchAtDoor(made.ctx, access, "Sofía Peña", "bar")).map((h) => h.ticketTypeName)).toEqual(["Fernet con coca", "Fernet con coca"]);

    // A ticket at the bar is sent to the door.
    const { order: ticketOrder, billing: ticketBilling } = await createOrder(buyer, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, ticketBilling.id, "approved");
    const [ticket] = await ticketsOfOrder(db, ticketOrder.id);
    expect(await redeemAtDoor(made.ctx, access, { code: qrPayloadFor(ticket.code), mode: "bar" })).toMatchObject({ outcome: "wrong_place", productKind: "ticket" });
  });
});

describe.runIf(hasPostgresServer)("menu stock under contention", () => {
  it("200 buyers at once for the last 20 units: exactly 20 orders", async () => {
    const made = await createEventWithTickets();
    const item = await createMenuItem(made.ctx, fernet(made.event.id, { stock: "20" }));
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, async () => createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: item.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CONFLICT" });
    const db = await getDb();
    const [row] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, item.id));
    expect(row.sold).toBe(20);
  }, 60_000);
});
