import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { purchaseTotals } from "#common/pricing";
import { newOrderCode } from "#server/orders/orders";
import { paymentsMode } from "#server/env";
import { newTicketCode } from "#server/tickets/issue";
import type { Db, DbOrTx } from "#server/db/client";
import { insertRows } from "#server/db/bulk-insert";
import { billings, issuedProducts, ledgerEntries, orderItems, orders, sandboxPayments, ticketTypes, type OrderPaymentMethod } from "#server/db/schema";

/*
 * What the demo catalogue shows as sold ("Vendidas 241/600", "Agotado") are
 * real orders (decision 154): paid, with their items, approved billing,
 * tickets and ledger entries, the rows an approved Mercado Pago payment in the
 * sandbox (or a free order) leaves — server/orders/orders.ts, server/payments/
 * webhook.ts, server/tickets/issue.ts, server/ledger/ledger.ts — so the
 * summary, the ticket editor, the public page, the sales list and the ledger
 * all read the same numbers. Written in bulk (one INSERT per table for
 * thousands of rows): through createOrder and the sandbox each purchase takes
 * ~140 ms on PGlite, minutes for the demo's ~1,500 purchases on the first
 * `npm start`. Left out on purpose: the tickets email (the buyers are made up)
 * and the hold's expiry job (a paid order ignores it).
 */

export interface DemoSale {
  event: { id: string; organizationId: string; serviceFeeBps: number };
  dateIds: string[];
  ticket: { id: string; name: string; price: number; maxPerOrder: number };
  qty: number;
}

const FIRST_NAMES = ["Lucía", "Martín", "Valentina", "Mateo", "Camila", "Santiago", "Florencia", "Tomás", "Agustina", "Nicolás", "Julieta", "Facundo", "Micaela", "Joaquín", "Sofía", "Lautaro", "Milagros", "Federico", "Rocío", "Gonzalo"];
const LAST_NAMES = ["González", "Rodríguez", "Gómez", "Fernández", "López", "Díaz", "Martínez", "Pérez", "García", "Sánchez", "Romero", "Sosa", "Álvarez", "Torres", "Ruiz", "Ramírez", "Flores", "Acosta", "Benítez", "Medina"];
// How many tickets each demo purchase takes, in turn (capped by the type's maximum per purchase and what is left).
const QTY_CYCLE = [2, 1, 3, 2, 4, 2, 1, 2, 6, 2];
const CHUNK = 2000;

const plain = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** Inserts the rows in chunks of CHUNK (one statement each). */
async function insertAll<T extends Parameters<typeof insertRows>[1]>(db: DbOrTx, table: T, rows: T["$inferInsert"][]) {
  for (let i = 0; i < rows.length; i += CHUNK) await insertRows(db, table, rows.slice(i, i + CHUNK), ["id"] as never);
}

/**
 * Paid purchases for every DemoSale, spread over the last ten days and over the event's dates, in one
 * transaction. Paid ones need the sandbox (real Mercado Pago cannot have paid them): without it only
 * free tickets are written, and what is shown as sold stays what was bought.
 */
export async function seedDemoSoldTickets(db: Db, sales: DemoSale[], now = new Date()) {
  const sandbox = paymentsMode() === "sandbox";
  const orderRows: (typeof orders.$inferInsert)[] = [];
  const itemRows: (typeof orderItems.$inferInsert)[] = [];
  const billingRows: (typeof billings.$inferInsert)[] = [];
  const paymentRows: (typeof sandboxPayments.$inferInsert)[] = [];
  const ticketRows: (typeof issuedProducts.$inferInsert)[] = [];
  const ledgerRows: (typeof ledgerEntries.$inferInsert)[] = [];
  const soldByType = new Map<string, number>();
  const codes = new Set<string>();
  let n = 0;
  for (const sale of sales) {
    const free = sale.ticket.price === 0;
    if (!free && !sandbox) continue;
    let left = sale.qty;
    for (let k = 0; left > 0; k++) {
      const qty = Math.min(QTY_CYCLE[n % QTY_CYCLE.length], sale.ticket.maxPerOrder, left);
      left -= qty;
      n++;
      const firstName = FIRST_NAMES[n % FIRST_NAMES.length];
      const lastName = LAST_NAMES[Math.floor(n / FIRST_NAMES.length) % LAST_NAMES.length];
      const email = `${plain(firstName)}.${plain(lastName)}.${n}@example.com`;
      const payer = { firstName, lastName, email, documentType: "dni", documentNumber: String(20_000_000 + ((n * 7_919) % 25_000_000)), phoneNumber: `+54911${String(40_000_000 + n).slice(-8)}` };
      // Spread over the last ten days, never in the future; paid a couple of minutes after the checkout.
      const createdAt = new Date(now.getTime() - 60_000 * (5 + ((n * 997) % (10 * 24 * 60))));
      const paidAt = new Date(createdAt.getTime() + 2 * 60_000);
      const totals = purchaseTotals([{ ticketTypeId: sale.ticket.id, qty, unitPrice: sale.ticket.price }], free ? 0 : sale.event.serviceFeeBps);
      let code = newOrderCode();
      while (codes.has(code)) code = newOrderCode();
      codes.add(code);
      const orderId = crypto.randomUUID();
      const itemId = crypto.randomUUID();
      const billingId = crypto.randomUUID();
      const paymentMethod: OrderPaymentMethod = free ? "FREE" : "MERCADO_PAGO";
      orderRows.push({
        id: orderId,
        code,
        eventId: sale.event.id,
        eventDateId: sale.dateIds[k % sale.dateIds.length],
        organizationId: sale.event.organizationId,
        buyerUserId: null,
        payer,
        attendees: null,
        customFields: null,
        status: "billed",
        gift: false,
        paymentMethod,
        referredNick: null,
        promoterUserId: null,
        subtotal: totals.subtotal,
        serviceFee: totals.serviceFee,
        discount: totals.discount,
        total: totals.total,
        holdExpiresAt: null,
        createdAt,
        updatedAt: free ? createdAt : paidAt,
      });
      itemRows.push({ id: itemId, orderId, ticketTypeId: sale.ticket.id, name: sale.ticket.name, qty, unitPrice: sale.ticket.price });
      // The sandbox's payment ids look like Mercado Pago's (server/payments/sandbox-provider.ts).
      const paymentId = free ? null : `${paidAt.getTime()}${String(100_000 + n).slice(-6)}`;
      billingRows.push({ id: billingId, orderId, status: "approved", provider: free ? "free" : "sandbox", providerReference: paymentId, amount: totals.total, createdAt, updatedAt: free ? createdAt : paidAt });
      if (paymentId) paymentRows.push({ id: paymentId, billingId, status: "approved", amount: totals.total, createdAt: paidAt });
      const issuedAt = free ? createdAt : paidAt;
      for (let u = 0; u < qty; u++) {
        ticketRows.push({ orderId, orderItemId: itemId, ticketTypeId: sale.ticket.id, eventId: sale.event.id, code: newTicketCode(), holderName: `${firstName} ${lastName}`, holderEmail: email, status: "redeemable", createdAt: issuedAt });
      }
      // bookApprovedPayment: +total, and −our fee when there is one.
      ledgerRows.push({ organizationId: sale.event.organizationId, orderId, billingId, kind: "payment", amount: totals.total, description: `Pago de la compra ${code}`, createdAt: issuedAt });
      if (totals.serviceFee > 0) {
        ledgerRows.push({ organizationId: sale.event.organizationId, orderId, billingId, kind: "service_fee", amount: -totals.serviceFee, description: `Cargo por servicio de la compra ${code}`, createdAt: issuedAt });
      }
      soldByType.set(sale.ticket.id, (soldByType.get(sale.ticket.id) ?? 0) + qty);
    }
  }
  if (!orderRows.length) return { orders: 0, tickets: 0 };
  // The ledger in time order, as the payments would have booked it (its id is its order).
  orderRows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
  ledgerRows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
  await db.transaction(async (tx) => {
    await insertAll(tx, orders, orderRows);
    await insertAll(tx, orderItems, itemRows);
    await insertAll(tx, billings, billingRows);
    await insertAll(tx, sandboxPayments, paymentRows);
    await insertAll(tx, issuedProducts, ticketRows);
    await insertAll(tx, ledgerEntries, ledgerRows);
    // The stock these purchases took, as holding it does (server/stock).
    for (const [id, qty] of soldByType) await tx.update(ticketTypes).set({ sold: sql`${ticketTypes.sold} + ${qty}` }).where(eq(ticketTypes.id, id));
  });
  return { orders: orderRows.length, tickets: ticketRows.length };
}
