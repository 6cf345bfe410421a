/**
 * A second app process for the batched-holds test (server/orders/hold-batch.test.ts):
 * its own Node process, its own connection pool and its own batcher, placing
 * `COUNT` orders for one ticket at once against the database of `DATABASE_URL`.
 * Prints one JSON line: how many were held, refused with CONFLICT, or failed otherwise.
 */
import { connectPostgres } from "#server/db/client";
import { ANONYMOUS } from "#server/context";
import { createOrder } from "#server/orders/orders";
import { isDomainError } from "#server/errors";

const database = connectPostgres(process.env.DATABASE_URL!, { max: 10 });
const count = Number(process.env.COUNT);
const payer = { firstName: "Otro", lastName: "Proceso", email: "otro@example.com", documentType: "dni", documentNumber: "30.123.457", phoneNumber: "+54 11 5555-1235" };

const results = await Promise.allSettled(
  Array.from({ length: count }, () =>
    createOrder(
      { db: database.db, actor: ANONYMOUS, now: new Date() },
      { eventSlug: process.env.EVENT_SLUG!, items: [{ ticketId: process.env.TICKET_ID!, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" },
    ),
  ),
);
const held = results.filter((r) => r.status === "fulfilled").length;
const conflicts = results.filter((r) => r.status === "rejected" && isDomainError(r.reason) && r.reason.code === "CONFLICT").length;
const failures = results.flatMap((r) => (r.status === "rejected" && !(isDomainError(r.reason) && r.reason.code === "CONFLICT") ? [String(r.reason)] : []));
console.log(JSON.stringify({ held, conflicts, failures }));
await database.close();
