import { DateTime } from "luxon";
import type { Ctx } from "#server/context";
import { createOrganization } from "#server/organizations/organizations";
import { acceptServiceConditions, createEvent, publishEvent } from "#server/events/events";
import { createOrder } from "#server/orders/orders";
import { actorFor, createTestUser, ctxAs } from "./context";
import { randomTag, RUN_TAG } from "./random";

let n = 0;

/** A producer with an organization, ready to create events. */
export async function createProducer() {
  n += 1;
  const user = await createTestUser();
  const ctx = await ctxAs(actorFor({ ...user, roles: ["producer"] }));
  const organization = await createOrganization(ctx, {
    name: `Productora ${n} ${RUN_TAG} ${randomTag(4)}`,
    cuit: "30-71234567-1",
    contactEmail: "hola@productora.com.ar",
  });
  return { user, ctx, organization };
}

export function daysFromNow(days: number, hour = 21) {
  return DateTime.now().setZone("America/Argentina/Buenos_Aires").plus({ days }).set({ hour, minute: 0, second: 0, millisecond: 0 }).toJSDate();
}

/** A published event with one date in `days` days and the given ticket types. */
export async function createPublishedEvent(
  ctx: Ctx,
  organizationId: string,
  options: { name?: string; days?: number; startsAt?: Date; province?: string; ticketTypes?: Record<string, unknown>[]; publish?: boolean } = {},
) {
  const startsAt = options.startsAt ?? daysFromNow(options.days ?? 10);
  const { event, dates } = await createEvent(ctx, {
    organizationId,
    name: options.name ?? "Noche de Cumbia",
    description: "Una noche para bailar.",
    category: "fiestas",
    venueName: "Club Atlético Fernández Fierro",
    venueAddress: "Sánchez de Bustamante 772",
    city: "Buenos Aires",
    province: options.province ?? "AR-CF",
    dates: [{ startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 5 * 3600_000).toISOString() }],
    ticketTypes: options.ticketTypes ?? [{ name: "General", price: 1_500_000, stock: 100 }],
  });
  if (options.publish !== false) {
    await acceptServiceConditions(ctx, { eventId: event.id });
    await publishEvent(ctx, { id: event.id });
  }
  return { event, date: dates[0] };
}

/** The organization's account for ticket bank transfers (orders paid by transfer need one). */
export async function createTransferAccount(ctx: Ctx, organizationId: string) {
  const { createBankAccount } = await import("#server/payouts/bank-accounts");
  const { withSecondFactor } = await import("./context");
  // Money destinations ask for the second factor (decision 144): the owner acts from a sign-in that proved it.
  return createBankAccount(await withSecondFactor(ctx), { organizationId, cbu: "2850590940090418135201", alias: "cuenta.entradas", holderName: "Productora de Prueba SRL", holderCuit: "30-71234567-1" });
}

/** A producer and a published event with these ticket types, the types by name (`tickets.General`). */
export async function createEventWithTickets(
  ticketTypeList: Record<string, unknown>[] = [{ name: "General", price: 1_500_000, stock: 100 }],
  options: { name?: string; days?: number; startsAt?: Date } = {},
) {
  const { getDb } = await import("#server/db/client");
  const { ticketTypes } = await import("#server/db/schema");
  const { eq } = await import("drizzle-orm");
  const producer = await createProducer();
  const { event, date } = await createPublishedEvent(producer.ctx, producer.organization.id, { ...options, ticketTypes: ticketTypeList });
  const db = await getDb();
  const tickets = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id)).orderBy(ticketTypes.sortOrder);
  return { ...producer, event, date, tickets: Object.fromEntries(tickets.map((t) => [t.name, t])) };
}

/** An anonymous buyer's pending Mercado Pago order of one General ticket of a new event. */
export async function createPendingOrder() {
  const made = await createEventWithTickets();
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: made.event.slug,
    items: [{ ticketId: made.tickets.General.id, qty: 1 }],
    payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  return { ...made, order, billing };
}

/**
 * A producer's event with one paid order of `qty` General tickets ($10.000 each), its date moved far enough
 * into the past for the money to be available to withdraw, and a bank account to withdraw to.
 */
export async function createEventWithReleasedSales(qty = 1) {
  const [{ getDb }, { eventDates, ledgerEntries }, { eq }, { payInSandbox }, { RELEASE_HOURS }] = await Promise.all([
    import("#server/db/client"),
    import("#server/db/schema"),
    import("drizzle-orm"),
    import("#server/payment-notifications/sandbox"),
    import("#common/payouts"),
  ]);
  const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
  const db = await getDb();
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: made.event.slug,
    items: [{ ticketId: made.tickets.General.id, qty }],
    payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  const endsAt = new Date(Date.now() - (RELEASE_HOURS + 1) * 3600_000);
  await db.update(eventDates).set({ startsAt: new Date(endsAt.getTime() - 3600_000), endsAt }).where(eq(eventDates.eventId, made.event.id));
  // Paid before the show: money is released 72 hours after the later of the end and the payment (decision 145).
  await db.update(ledgerEntries).set({ createdAt: new Date(endsAt.getTime() - 2 * 3600_000) }).where(eq(ledgerEntries.orderId, order.id));
  const account = await createTransferAccount(made.ctx, made.organization.id);
  // The owner acts from a sign-in that proved the second factor: withdrawals ask for it.
  const { withSecondFactor } = await import("./context");
  return { ...made, ctx: await withSecondFactor(made.ctx), db, order, account };
}

/** Makes a user (who has a nickname) a promoter of the organization, in a new group that sells all its events. */
export async function makePromoter(ctx: Ctx, organizationId: string, userId: string) {
  const { createPromoterGroup } = await import("#server/team/promoter-groups");
  const { joinPromoterGroup } = await import("#server/promoters/membership");
  const group = await createPromoterGroup(ctx, { organizationId, name: `RRPP ${randomTag(6)}` });
  await ctx.db.transaction((tx) => joinPromoterGroup(tx, { organizationId, groupId: group.id, userId, role: "promoter", now: new Date() }));
  return group;
}
