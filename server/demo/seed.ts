import { and, asc, eq } from "drizzle-orm";
import { hashPassword } from "#server/auth/password";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import type { Db } from "#server/db/client";
import { joinPromoterGroup } from "#server/promoters/membership";
import { eventDates, events, memberships, promoterGroups, ticketTypes, users } from "#server/db/schema";
import { seedDemoEvents } from "./seed-events";
import { seedDemoSoldTickets } from "./seed-sales";

/** Demo accounts (README lists them). One password for all: handy on a laptop, never in production data. */
export const DEMO_PASSWORD = "tribuna1234";

export const DEMO_USERS = [
  { email: "admin@tribuna.ar", firstName: "Ana", lastName: "Administradora", roles: ["admin"], nickname: "ana.admin" },
  { email: "productor@tribuna.ar", firstName: "Pablo", lastName: "Productor", roles: ["producer"], nickname: "pablo.productor" },
  { email: "rrpp@tribuna.ar", firstName: "Romina", lastName: "Relacionista", roles: ["promoter"], nickname: "romi" },
  { email: "lider-rrpp@tribuna.ar", firstName: "Lucas", lastName: "Líder", roles: ["promoter", "promoter_lead"], nickname: "lucas.lider" },
  { email: "marketing@tribuna.ar", firstName: "Micaela", lastName: "Marketing", roles: ["marketing"], nickname: "mica.mkt" },
  {
    email: "comprador@tribuna.ar",
    firstName: "Joaquín",
    lastName: "Muñoz",
    roles: [],
    nickname: "joaco",
    documentType: "dni",
    documentNumber: "30123456",
    phoneNumber: "+5491155551234",
    state: "AR-CF",
    address: "Av. Corrientes 1234",
  },
] as const;

/** Idempotent: safe to run on every start; only inserts what is missing. */
export async function seedDemo(db: Db) {
  const [already] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USERS[0].email));
  if (already) return { created: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const inserted = await db
    .insert(users)
    .values(DEMO_USERS.map((u) => ({ ...u, roles: [...u.roles], passwordHash })))
    .onConflictDoNothing()
    .returning();
  const producer = inserted.find((u) => u.email === "productor@tribuna.ar");
  const sold = await seedDemoEvents(db, producer?.id ?? null);
  await seedDemoSoldTickets(db, sold);
  if (producer) await seedDemoTeam(db, producer.id, inserted);
  const buyer = inserted.find((u) => u.email === "comprador@tribuna.ar");
  if (buyer) await seedDemoSales(db, buyer);
  return { created: true };
}

/**
 * The demo organization's team beyond its owner: marketing@ with the
 * marketing role, and a promoter group led by lider-rrpp@ with rrpp@ in it,
 * as accepting their invitations would leave them.
 */
async function seedDemoTeam(db: Db, producerId: string, people: { id: string; email: string }[]) {
  const [membership] = await db.select({ organizationId: memberships.organizationId }).from(memberships).where(eq(memberships.userId, producerId)).limit(1);
  if (!membership) return;
  const organizationId = membership.organizationId;
  const idOf = (email: string) => people.find((p) => p.email === email)?.id;
  const marketing = idOf("marketing@tribuna.ar");
  if (marketing) await db.insert(memberships).values({ organizationId, userId: marketing, role: "marketing" }).onConflictDoNothing();
  const [lead, promoter] = [idOf("lider-rrpp@tribuna.ar"), idOf("rrpp@tribuna.ar")];
  if (!lead || !promoter) return;
  const now = new Date();
  await db.transaction(async (tx) => {
    const [group] = await tx.insert(promoterGroups).values({ organizationId, name: "RRPP del Plata", commissionPerTicket: 100_000 }).returning();
    await joinPromoterGroup(tx, { organizationId, groupId: group.id, userId: lead, role: "promoter_lead", now });
    await joinPromoterGroup(tx, { organizationId, groupId: group.id, userId: promoter, role: "promoter", now });
  });
}

/**
 * Two purchases paid through the sandbox, so the demo has tickets in
 * comprador@'s "Mis tickets" and money in Producciones del Plata's sales and
 * ledger. Real orders through the domain (hold, payment, tickets, ledger,
 * email), never rows written by hand. Skipped when real Mercado Pago is
 * configured: the sandbox cannot pay there.
 */
async function seedDemoSales(db: Db, buyer: { id: string; email: string; firstName: string | null; lastName: string | null }) {
  const [event] = await db.select().from(events).where(eq(events.slug, "tango-en-el-conventillo"));
  if (!event) return;
  const [firstDate] = await db.select().from(eventDates).where(eq(eventDates.eventId, event.id)).orderBy(asc(eventDates.startsAt)).limit(1);
  const ticket = async (name: string) => (await db.select().from(ticketTypes).where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.name, name))))[0];
  const [platea, mesa] = [await ticket("Platea"), await ticket("Mesa para dos con cena")];
  if (!platea || !mesa) return;
  const now = new Date();
  const purchases = [
    {
      actor: { kind: "user" as const, userId: buyer.id, email: buyer.email, roles: [] },
      items: [{ ticketId: platea.id, qty: 2 }],
      payer: { firstName: buyer.firstName ?? "Joaquín", lastName: buyer.lastName ?? "Muñoz", email: buyer.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+5491155551234" },
    },
    {
      actor: { kind: "anonymous" as const },
      items: [{ ticketId: mesa.id, qty: 1 }],
      payer: { firstName: "Carla", lastName: "Benítez", email: "carla.benitez@example.com", documentType: "dni", documentNumber: "28456789", phoneNumber: "+5491144443333" },
      // Through Romina's referral link: the demo promoter has a sale to show.
      referredNick: "romi",
    },
  ];
  for (const purchase of purchases) {
    const { billing } = await createOrder({ db, actor: purchase.actor, now }, { eventSlug: event.slug, eventDateId: firstDate?.id, items: purchase.items, payer: purchase.payer, paymentMethod: "MERCADO_PAGO", referredNick: "referredNick" in purchase ? purchase.referredNick : undefined });
    await payInSandbox(db, billing.id, "approved", now);
  }
}
