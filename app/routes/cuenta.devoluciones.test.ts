import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { billings, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { lastEmailTo } from "#tests/support/mailbox";
import { formRequest, getRequest, run } from "#tests/support/remix";
import { formatMoney } from "#common/money";
import * as route from "./cuenta.devoluciones";

async function paidOrder() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 30, ticketTypes: [{ name: "General", price: 800_000, stock: 10 }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const email = `ruta-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: 1 }],
    payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  return { order, billing, email, db };
}

describe("/cuenta/devoluciones without an account", () => {
  it("a plain form post with order code and email refunds inside the window and answers the management code", async () => {
    const { order, billing, email, db } = await paidOrder();
    const page = await run(route.loader, getRequest("/cuenta/devoluciones"));
    expect(page.status).toBe(200);
    expect(page.data.orders).toEqual([]);

    const wrong = await run(route.action, formRequest("/cuenta/devoluciones", { intent: "review", orderCode: order.code, email: "otra@example.com" }, { ip: "192.0.2.77" }));
    expect(wrong.status).toBe(404);
    expect(wrong.data).toMatchObject({ error: "No encontramos una compra con ese código y email", values: { orderCode: order.code } });

    // The first submit only shows what would happen: nothing is refunded yet.
    const review = await run(route.action, formRequest("/cuenta/devoluciones", { intent: "review", orderCode: order.code.toLowerCase(), email, reason: "No puedo ir", cbu: "" }));
    expect(review.status).toBe(200);
    expect(review.data).toMatchObject({ intent: "review", review: { orderCode: order.code, amount: formatMoney(billing.amount), tickets: 1, kind: "ticket", automatic: true, bankTransfer: false } });
    expect(review.data.values).toEqual({ orderCode: order.code, email, reason: "No puedo ir", cbu: "" });
    const [untouched] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect(untouched.status).toBe("approved");
    // A post without the confirmation step (an old form, a second tab) is a review too.
    const legacy = await run(route.action, formRequest("/cuenta/devoluciones", { intent: "request", orderCode: order.code, email }));
    expect(legacy.data.intent).toBe("review");

    const done = await run(route.action, formRequest("/cuenta/devoluciones", { intent: "confirm", ...review.data.values }));
    expect(done.status).toBe(200);
    expect(done.data.done).toMatchObject({ outcome: "refunded", existing: false, request: { status: "refunded", automatic: true, orderCode: order.code } });
    const code = done.data.done.request.code as string;
    expect(code).toMatch(/^DEV-/);
    // The code also went by email; with no SMTP (as here) the answer says where to read it.
    expect(done.data.done.mailbox).toBe(`/dev/correos?to=${encodeURIComponent(email)}`);
    expect((await lastEmailTo(email)).text).toContain(code);
    const [after] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect(after.status).toBe("refunded");

    const lookup = await run(route.action, formRequest("/cuenta/devoluciones", { intent: "lookup", code, email }));
    expect(lookup.data.found).toMatchObject({ code, status: "refunded" });
    const badLookup = await run(route.action, formRequest("/cuenta/devoluciones", { intent: "lookup", code, email: "x@example.com" }, { ip: "192.0.2.78" }));
    expect(badLookup.data.error).toBe("No encontramos una gestión con ese código y email");

    // Reviewing an order that already has its request answers with it (the same code), nothing new.
    const again = await run(route.action, formRequest("/cuenta/devoluciones", { intent: "review", orderCode: order.code, email }));
    expect(again.data.done).toMatchObject({ existing: true, request: { code } });
  });

  it("field errors come back with the values, for the summary at the top to link to each field", async () => {
    const bad = await run(route.action, formRequest("/cuenta/devoluciones", { intent: "review", orderCode: "", email: "no-es-email" }, { ip: "192.0.2.79" }));
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ intent: "request", values: { email: "no-es-email" } });
    expect(Object.keys(bad.data.fieldErrors).sort()).toEqual(["email", "orderCode"]);
  });
});
