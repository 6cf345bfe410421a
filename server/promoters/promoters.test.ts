import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { events, issuedProducts, ledgerEntries, memberships, orders } from "#server/db/schema";
import type { DoorAccess } from "#server/door/access";
import { redeemAtDoor } from "#server/door/redeem";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { createOrder } from "#server/orders/orders";
import { acceptInvitation, inviteMember, TEAM_INVITATION_EMAIL_KIND } from "#server/team/team";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { qrPayloadFor } from "#server/tickets/qr";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithTickets, createPublishedEvent } from "#tests/support/factories";
import { lastEmailTo } from "#tests/support/mailbox";
import { randomTag } from "#tests/support/random";
import { createPromoterGroup, invitePromoter, listPromoterGroups, myPromoterGroup, recordPromoterSettlement, removePromoter, updatePromoterGroup } from "#server/team/promoter-groups";
import { exportReport } from "#server/reports/exports";
import { getMetricReferralSalesByUser } from "./metrics";
import { sellTicketsInHand, ticketsSellableInHand } from "#server/invitations/sales-in-hand";

const payer = { firstName: "Ana", lastName: "Gómez", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

async function tokenOfLastInvitation(email: string): Promise<string> {
  const mail = await lastEmailTo(email, TEAM_INVITATION_EMAIL_KIND);
  return /\/organizacion\/operadores\/aceptar\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
}

/** A person who accepts an invitation to the group and picks a nickname. */
async function joinedPromoter(inviter: Ctx, groupId: string, options: { lead?: boolean; nickname?: string } = {}) {
  const user = await createTestUser();
  await invitePromoter(inviter, { groupId, who: user.email, lead: options.lead ?? false });
  const ctx = await ctxAs(actorFor({ ...user, roles: [] }));
  const nickname = options.nickname ?? `rrpp.${randomTag(6)}`;
  await acceptInvitation(ctx, await tokenOfLastInvitation(user.email), { nickname });
  return { user, ctx, nickname };
}

async function buyThrough(made: Awaited<ReturnType<typeof createEventWithTickets>>, items: { ticketId: string; qty: number }[], referredNick?: string) {
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: made.event.slug,
    items,
    payer: { ...payer, email: `comprador-${randomTag(6)}@example.com` },
    paymentMethod: "MERCADO_PAGO",
    referredNick,
  });
  await payInSandbox(await getDb(), billing.id, "approved");
  return order;
}

function doorOf(made: Awaited<ReturnType<typeof createEventWithTickets>>): DoorAccess {
  return { event: { id: made.event.id, organizationId: made.event.organizationId, name: made.event.name, slug: made.event.slug }, userId: made.user.id, pinSessionId: null };
}

describe("promoter attribution and getMetricReferralSalesByUser", () => {
  it("counts exactly the tickets sold through a promoter's link and those the door let in, per ticket type", async () => {
    const made = await createEventWithTickets(
      [
        { name: "General", price: 1_000_000, stock: 50 },
        { name: "VIP", price: 3_000_000, stock: 10 },
      ],
      { days: 0 },
    );
    const group = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Los de la noche", commissionPerTicket: "500", eventIds: [], ticketTypeIds: [made.tickets.General.id] });
    const romi = await joinedPromoter(made.ctx, group.id, { nickname: `Romi.${randomTag(5)}` });
    const other = await joinedPromoter(made.ctx, group.id);

    // Through Romi's link (any capitalisation): 2 General, then 1 VIP; through the other promoter: 1 General.
    const first = await buyThrough(made, [{ ticketId: made.tickets.General.id, qty: 2 }], romi.nickname.toUpperCase());
    await buyThrough(made, [{ ticketId: made.tickets.VIP.id, qty: 1 }], romi.nickname);
    await buyThrough(made, [{ ticketId: made.tickets.General.id, qty: 1 }], other.nickname);
    // Ignored: someone with a nickname who is no promoter here, a nick nobody has, and an unpaid order.
    const stranger = await createTestUser({ nickname: `ajeno.${randomTag(5)}` });
    const notPromoter = await buyThrough(made, [{ ticketId: made.tickets.General.id, qty: 1 }], stranger.nickname!);
    await buyThrough(made, [{ ticketId: made.tickets.General.id, qty: 1 }], "nadie-tiene-esto");
    await createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 3 }], payer: { ...payer, email: "sin-pagar@example.com" }, paymentMethod: "MERCADO_PAGO", referredNick: romi.nickname });

    const db = await getDb();
    const [firstRow] = await db.select().from(orders).where(eq(orders.id, first.id));
    expect(firstRow).toMatchObject({ referredNick: romi.nickname, promoterUserId: romi.user.id });
    const [strangerRow] = await db.select().from(orders).where(eq(orders.id, notPromoter.id));
    expect(strangerRow).toMatchObject({ referredNick: null, promoterUserId: null });

    // The door lets one of Romi's General tickets in.
    const [ticket] = await ticketsOfOrder(db, first.id);
    expect(await redeemAtDoor(made.ctx, doorOf(made), { code: qrPayloadFor(ticket.code) })).toMatchObject({ outcome: "admitted" });

    const metrics = await getMetricReferralSalesByUser(romi.ctx, {});
    expect(metrics).toEqual([
      {
        eventId: made.event.id,
        eventName: made.event.name,
        totalCount: 3,
        totalAccreditedCount: 1,
        tickets: [
          { name: "General", count: 2, accredited: 1 },
          { name: "VIP", count: 1, accredited: 0 },
        ],
      },
    ]);
    // The same numbers straight from the orders and the door.
    const [truth] = await db
      .select({ sold: sql<number>`count(*) filter (where ${issuedProducts.status} <> 'voided')::int`, entered: sql<number>`count(*) filter (where ${issuedProducts.status} = 'redeemed')::int` })
      .from(issuedProducts)
      .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
      .where(and(eq(orders.referredNick, romi.nickname), eq(orders.eventId, made.event.id)));
    expect([metrics[0].totalCount, metrics[0].totalAccreditedCount]).toEqual([truth.sold, truth.entered]);

    // Filters: another date range finds nothing; the organization's view agrees, with the commission on General only.
    expect(await getMetricReferralSalesByUser(romi.ctx, { fromDate: "2001-01-01", toDate: "2001-01-02" })).toEqual([]);
    const [listed] = await listPromoterGroups(made.ctx, made.organization.id);
    const romiRow = listed.members.find((m) => m.userId === romi.user.id)!;
    expect(romiRow).toMatchObject({ sold: 3, accredited: 1, commissionTickets: 2, commission: 2 * 50_000 });
    expect(listed.members.find((m) => m.userId === other.user.id)).toMatchObject({ sold: 1, accredited: 0 });

    // The promoters' export lists exactly the three attributed paid orders, with tickets and entries.
    const file = await exportReport(made.ctx, { organizationId: made.organization.id, kind: "rrpp", format: "csv" });
    const lines = (await new Response(file.body).text()).replace(/^\uFEFF/, "").split("\r\n").filter(Boolean);
    expect(lines[0]).toBe('"Fecha","Compra","Evento","RRPP","Medio de pago","Entradas","Ingresaron","Anuladas","Total","Estado"');
    expect(lines.slice(1).map((l) => l.split(",").slice(3, 8).join(",")).sort()).toEqual(
      [`"${romi.nickname}","Mercado Pago","2","1","0"`, `"${romi.nickname}","Mercado Pago","1","0","0"`, `"${other.nickname}","Mercado Pago","1","0","0"`].sort(),
    );
  });

  it("ignores a promoter's link on an event their group does not sell, and once they leave the group", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 50 }]);
    const second = await createPublishedEvent(made.ctx, made.organization.id, { name: "Otra fecha" });
    const group = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Solo la primera", eventIds: [made.event.id] });
    const promoter = await joinedPromoter(made.ctx, group.id);
    const { order: elsewhere } = await createOrder(await ctxAs(), {
      eventSlug: second.event.slug,
      items: [{ ticketId: (await ticketsOfEvent(second.event.id))[0], qty: 1 }],
      payer: { ...payer, email: "otra@example.com" },
      paymentMethod: "MERCADO_PAGO",
      referredNick: promoter.nickname,
    });
    expect(elsewhere.promoterUserId).toBeNull();
    const here = await buyThrough(made, [{ ticketId: made.tickets.General.id, qty: 1 }], promoter.nickname);
    expect(here.promoterUserId).toBe(promoter.user.id);

    await removePromoter(made.ctx, { groupId: group.id, userId: promoter.user.id });
    const after = await buyThrough(made, [{ ticketId: made.tickets.General.id, qty: 1 }], promoter.nickname);
    expect(after.promoterUserId).toBeNull();
    // Past sales stay theirs.
    expect((await getMetricReferralSalesByUser(promoter.ctx, {}))[0]).toMatchObject({ totalCount: 1 });
  });
});

async function ticketsOfEvent(eventId: string) {
  const { ticketTypes } = await import("#server/db/schema");
  const db = await getDb();
  return (await db.select({ id: ticketTypes.id }).from(ticketTypes).where(eq(ticketTypes.eventId, eventId))).map((t) => t.id);
}

describe("who sees which promoter numbers", () => {
  it("a promoter sees only their own, a lead their group, the organization every group, nobody else any", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 50 }]);
    const groupA = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Grupo A" });
    const groupB = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Grupo B" });
    const lead = await joinedPromoter(made.ctx, groupA.id, { lead: true });
    const mine = await joinedPromoter(lead.ctx, groupA.id);
    const theirs = await joinedPromoter(made.ctx, groupB.id);
    await buyThrough(made, [{ ticketId: made.tickets.General.id, qty: 2 }], mine.nickname);
    const org = made.organization.id;

    // Promoter: own numbers only.
    expect(await getMetricReferralSalesByUser(mine.ctx, {})).toMatchObject([{ totalCount: 2 }]);
    await expect(getMetricReferralSalesByUser(mine.ctx, { organizationId: org, userId: theirs.user.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listPromoterGroups(mine.ctx, org)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await myPromoterGroup(mine.ctx, org))!.members).toEqual([]);

    // Lead: their group's people, not the other group's; they cannot make leads nor touch group B.
    expect(await getMetricReferralSalesByUser(lead.ctx, { organizationId: org, userId: mine.user.id })).toMatchObject([{ totalCount: 2 }]);
    await expect(getMetricReferralSalesByUser(lead.ctx, { organizationId: org, userId: theirs.user.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const led = (await myPromoterGroup(lead.ctx, org))!;
    expect(led.isLead).toBe(true);
    expect(led.members.map((m) => [m.userId, m.sold]).sort()).toEqual([[lead.user.id, 0], [mine.user.id, 2]].sort());
    await expect(invitePromoter(lead.ctx, { groupId: groupA.id, who: "nuevo-lider@example.com", lead: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(removePromoter(lead.ctx, { groupId: groupB.id, userId: theirs.user.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updatePromoterGroup(lead.ctx, { groupId: groupA.id, name: "Mío" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(removePromoter(lead.ctx, { groupId: groupA.id, userId: lead.user.id })).rejects.toMatchObject({ code: "CONFLICT" });

    // Another organization's owner sees nothing of this one.
    const strangerOrg = await createEventWithTickets();
    await expect(listPromoterGroups(strangerOrg.ctx, org)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(getMetricReferralSalesByUser(strangerOrg.ctx, { organizationId: org, userId: mine.user.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createPromoterGroup(strangerOrg.ctx, { organizationId: org, name: "Intruso" })).rejects.toMatchObject({ code: "FORBIDDEN" });

    // The lead removes their promoter: out of the group and of the organization.
    await removePromoter(lead.ctx, { groupId: groupA.id, userId: mine.user.id });
    const db = await getDb();
    expect(await db.select().from(memberships).where(and(eq(memberships.organizationId, org), eq(memberships.userId, mine.user.id)))).toEqual([]);
  });

  it("refuses promoters who are already on the team with another role or in another group, and asks for a free nickname", async () => {
    const made = await createEventWithTickets();
    const group = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Grupo Uno" });
    const other = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Grupo Dos" });
    await expect(createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "grupo uno" })).rejects.toMatchObject({ fieldErrors: { name: ["Ya hay un grupo con ese nombre."] } });

    const operator = await createTestUser();
    await inviteMember(made.ctx, { organizationId: made.organization.id, email: operator.email, role: "operator" });
    await acceptInvitation(await ctxAs(actorFor({ ...operator, roles: [] })), await tokenOfLastInvitation(operator.email));
    await expect(invitePromoter(made.ctx, { groupId: group.id, who: operator.email })).rejects.toMatchObject({ code: "CONFLICT" });

    const inOne = await joinedPromoter(made.ctx, group.id);
    await expect(invitePromoter(made.ctx, { groupId: other.id, who: inOne.nickname })).rejects.toMatchObject({ fieldErrors: { who: ["Esa persona ya es RRPP del grupo Grupo Uno."] } });
    await expect(invitePromoter(made.ctx, { groupId: other.id, who: "nadie.con.este.nick" })).rejects.toMatchObject({ fieldErrors: { who: [expect.stringContaining("No hay nadie con ese apodo")] } });

    // Invited by nickname: the invitation goes to that person's email, which the inviter never sees.
    const withNick = await createTestUser({ nickname: `conNick.${randomTag(5)}` });
    const invited = await invitePromoter(made.ctx, { groupId: other.id, who: withNick.nickname! });
    expect(invited).toEqual({ invited: true, who: `@${withNick.nickname}` });
    expect(await tokenOfLastInvitation(withNick.email)).toBeTruthy();

    // Someone without a nickname must pick one that is free.
    const newcomer = await createTestUser();
    await invitePromoter(made.ctx, { groupId: other.id, who: newcomer.email });
    const token = await tokenOfLastInvitation(newcomer.email);
    const newcomerCtx = await ctxAs(actorFor({ ...newcomer, roles: [] }));
    await expect(acceptInvitation(newcomerCtx, token, {})).rejects.toMatchObject({ fieldErrors: { nickname: ["Elegí tu apodo: es el final de tu link de RRPP."] } });
    await expect(acceptInvitation(newcomerCtx, token, { nickname: inOne.nickname.toUpperCase() })).rejects.toMatchObject({ fieldErrors: { nickname: ["Ese apodo ya lo usa otra persona."] } });
    await expect(acceptInvitation(newcomerCtx, token, { nickname: "con espacio" })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    await acceptInvitation(newcomerCtx, token, { nickname: `nuevo.${randomTag(5)}` });
    expect((await myPromoterGroup(newcomerCtx, made.organization.id))!.group.name).toBe("Grupo Dos");
  });
});

describe("PromoterAccount: tickets sold in hand", () => {
  it("issues paid tickets attributed to the promoter, books the cash as collected outside Tribuna, and tracks what they owe", async () => {
    const made = await createEventWithTickets([
      { name: "Anticipada RRPP", price: 800_000, stock: 5, paymentMethod: "PromoterAccount" },
      { name: "General", price: 1_000_000, stock: 50 },
    ]);
    const group = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Calle" });
    const promoter = await joinedPromoter(made.ctx, group.id);
    const org = made.organization.id;

    expect((await ticketsSellableInHand(promoter.ctx, org)).map((t) => t.name)).toEqual(["Anticipada RRPP"]);
    const order = await sellTicketsInHand(promoter.ctx, { organizationId: org, ticketTypeId: made.tickets["Anticipada RRPP"].id, qty: "2", email: "efectivo@example.com", firstName: "Lola", lastName: "Mora", documentNumber: "" });
    expect(order).toMatchObject({ status: "billed", gift: false, paymentMethod: "PROMOTER", promoterUserId: promoter.user.id, referredNick: promoter.nickname, subtotal: 1_600_000 });
    const db = await getDb();
    expect(await ticketsOfOrder(db, order.id)).toHaveLength(2);
    await assertLedgerMatches(db, order.id);
    const entries = await db.select({ kind: ledgerEntries.kind, amount: ledgerEntries.amount }).from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id));
    // What the organization gets from us for it: minus our fee (the promoter holds the cash).
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(-order.serviceFee);
    expect(entries.map((e) => e.kind).sort()).toEqual(["direct_collection", "payment", ...(order.serviceFee ? ["service_fee"] : [])].sort());

    // Online tickets, more than the stock, or a non-promoter: refused.
    await expect(sellTicketsInHand(promoter.ctx, { organizationId: org, ticketTypeId: made.tickets.General.id, qty: 1, email: "x@example.com", firstName: "A", lastName: "B" })).rejects.toMatchObject({ fieldErrors: { ticketTypeId: ["Elegí una entrada que vendas en mano."] } });
    await expect(sellTicketsInHand(promoter.ctx, { organizationId: org, ticketTypeId: made.tickets["Anticipada RRPP"].id, qty: 4, email: "x@example.com", firstName: "A", lastName: "B" })).rejects.toMatchObject({ message: "No alcanza el stock de Anticipada RRPP: quedan 3." });
    await expect(sellTicketsInHand(made.ctx, { organizationId: org, ticketTypeId: made.tickets["Anticipada RRPP"].id, qty: 1, email: "x@example.com", firstName: "A", lastName: "B" })).rejects.toMatchObject({ code: "FORBIDDEN" });

    // Owed: the total collected, until the organization records the cash handed in.
    const owedOf = async () => (await listPromoterGroups(made.ctx, org))[0].members.find((m) => m.userId === promoter.user.id)!;
    expect(await owedOf()).toMatchObject({ sold: 2, collected: order.total, settled: 0, owed: order.total });
    await expect(recordPromoterSettlement(made.ctx, { organizationId: org, userId: promoter.user.id, amount: "0" })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    await recordPromoterSettlement(made.ctx, { organizationId: org, userId: promoter.user.id, amount: "10.000", note: "Efectivo del viernes" });
    expect(await owedOf()).toMatchObject({ settled: 1_000_000, owed: order.total - 1_000_000 });
    await expect(recordPromoterSettlement(promoter.ctx, { organizationId: org, userId: promoter.user.id, amount: "1" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("inviting by nickname", () => {
  it("sends the invitation to the nickname's owner but never hands their email to the inviter (answer, lists, audit log)", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 100_000, stock: 10 }]);
    const group = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Por apodo", eventIds: [] });
    const nickname = `apodo${randomTag(6)}`;
    const invitee = await createTestUser({ nickname });

    const answer = await invitePromoter(made.ctx, { groupId: group.id, who: `@${nickname}` });
    expect(answer).toEqual({ invited: true, who: `@${nickname}` });
    const [listed] = await listPromoterGroups(made.ctx, made.organization.id);
    expect(listed.invitations).toEqual([expect.objectContaining({ email: null, who: `@${nickname}` })]);
    const db = await getDb();
    const audit = await db.execute(sql`select data::text as data from audit_log where action = 'promoters.invite' and target_id = ${group.id}`);
    expect(JSON.stringify(audit)).not.toContain(invitee.email.toLowerCase());
    expect(JSON.stringify(audit)).toContain(nickname);
    // The person named still gets the link, and that email stays out of the organization's email log.
    expect(await tokenOfLastInvitation(invitee.email)).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const logged = await db.execute(sql`select count(*)::int as n from email_log where lower("to") = ${invitee.email.toLowerCase()} and organization_id = ${made.organization.id}`);
    expect(JSON.stringify(logged)).toContain('"n":0');
    // Inviting a guessed email does not replace the invitation by nickname (that would confirm the guess).
    await invitePromoter(made.ctx, { groupId: group.id, who: invitee.email });
    const [both] = await listPromoterGroups(made.ctx, made.organization.id);
    expect(both.invitations.map((i) => i.who).sort()).toEqual([`@${nickname}`, invitee.email.toLowerCase()].sort());

    // Invited by email, the inviter sees the email they typed.
    await invitePromoter(made.ctx, { groupId: group.id, who: "otra.persona@example.com" });
    const [again] = await listPromoterGroups(made.ctx, made.organization.id);
    expect(again.invitations.map((i) => i.who).sort()).toEqual([`@${nickname}`, invitee.email.toLowerCase(), "otra.persona@example.com"].sort());
  });
});

describe("PromoterAccount: sales in hand and the per-account limit", () => {
  it("a sale in hand counts for the buyer's email: over the event's limit it is refused with the Spanish message", async () => {
    const made = await createEventWithTickets([{ name: "Anticipada RRPP", price: 800_000, stock: 10, paymentMethod: "PromoterAccount" }]);
    const db = await getDb();
    await db.update(events).set({ maxTicketsPerAccount: 2 }).where(eq(events.id, made.event.id));
    const group = await createPromoterGroup(made.ctx, { organizationId: made.organization.id, name: "Tope" });
    const promoter = await joinedPromoter(made.ctx, group.id);
    const sale = { organizationId: made.organization.id, ticketTypeId: made.tickets["Anticipada RRPP"].id, email: "tope-en-mano@example.com", firstName: "Lola", lastName: "Mora" };
    await expect(sellTicketsInHand(promoter.ctx, { ...sale, qty: 3 })).rejects.toMatchObject({ code: "CONFLICT", fieldErrors: { qty: [expect.stringContaining("el máximo por cuenta es 2")] } });
    await sellTicketsInHand(promoter.ctx, { ...sale, qty: 2 });
    // The same person again (another case of the email): already at the limit.
    await expect(sellTicketsInHand(promoter.ctx, { ...sale, email: "Tope-En-Mano@example.com", qty: 1 })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Esa persona ya tiene 2 entradas de este evento, el máximo por cuenta: no puede recibir más.",
    });
  });
});
