import { eq } from "drizzle-orm";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { ctxAs } from "./context";
import { createProducer, createPublishedEvent } from "./factories";

export const DOOR_PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** A producer's event tonight with one paid order of `qty` General tickets, and the producer's session tokens: what the door tests start from. */
export async function tonightWithPaidTickets(options: { qty?: number; payer?: typeof DOOR_PAYER } = {}) {
  const { qty = 3, payer = DOOR_PAYER } = options;
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: general.id, qty }], payer, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  const tickets = await ticketsOfOrder(db, order.id);
  const tokens = await startSession(db, producer.user, new Date());
  return { producer, db, event, order, tickets, tokens };
}
