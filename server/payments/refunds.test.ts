import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { jobs, paymentRefunds, sandboxPayments, ticketTypes } from "#server/db/schema";
import { isDomainError } from "#server/errors";
import { runDueJobs } from "#server/jobs/queue";
import { jobHandlers } from "#server/worker/handlers";
import { createOrder } from "#server/orders/orders";
import { actorFor, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { NOT_CONFIGURED, getMercadoPagoConnection, startMercadoPagoConnection } from "./mercadopago-accounts";
import { paymentPublicConfig } from "./providers";
import { PROVIDER_REFUND_JOB, queueProviderRefund, runProviderRefund } from "./refunds";
import { payInSandbox } from "#server/payment-notifications/sandbox";

// No Mercado Pago credentials in this file: the sandbox provider.
for (const name of ["MERCADOPAGO_ACCESS_TOKEN", "MERCADOPAGO_PUBLIC_KEY", "MERCADOPAGO_WEBHOOK_SECRET", "MERCADOPAGO_CLIENT_ID", "MERCADOPAGO_CLIENT_SECRET"]) delete process.env[name];

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

async function paidSandboxOrder() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id);
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const { billing } = await createOrder(await ctxAs(ANONYMOUS), { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  expect(billing.provider).toBe("sandbox");
  const paid = await payInSandbox(db, billing.id, "approved");
  return { db, producer, billing, paymentId: paid!.paymentId };
}

describe("provider-refund job with the sandbox", () => {
  it("gives the payment back through the sandbox, marks the row done with the refund id, once", async () => {
    const { db, billing, paymentId } = await paidSandboxOrder();
    const now = new Date();
    const refund = await db.transaction((tx) => queueProviderRefund(tx, { billingId: billing.id, providerPaymentId: paymentId, amount: billing.amount, reason: "prueba", now }).then((queued) => queued!));
    const [job] = (await db.select().from(jobs).where(eq(jobs.kind, PROVIDER_REFUND_JOB))).filter((j) => j.payload.paymentRefundId === refund.id);
    expect(job).toBeTruthy();

    await runDueJobs(db, jobHandlers, new Date(now.getTime() + 1000));
    const [ran] = await db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(ran.doneAt).not.toBeNull();
    const [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refund.id));
    expect(row).toMatchObject({ status: "done", lastError: null });
    expect(row.providerRefundId).toMatch(/^sandbox-refund-/);
    const [payment] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentId));
    expect(payment.status).toBe("refunded");

    expect(await runProviderRefund(db, refund.id)).toBe("already-done");
    expect(await runProviderRefund(db, "00000000-0000-4000-8000-000000000000")).toBe("not-found");
  });

  it("an unknown payment keeps the row pending with the error until the last attempt, then failed", async () => {
    const { db, billing } = await paidSandboxOrder();
    const now = new Date();
    const refund = await db.transaction((tx) => queueProviderRefund(tx, { billingId: billing.id, providerPaymentId: "404404", amount: billing.amount, reason: "prueba", now }).then((queued) => queued!));
    await expect(runProviderRefund(db, refund.id, { now })).rejects.toThrow(/inexistente/);
    let [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refund.id));
    expect(row.status).toBe("pending");
    expect(row.lastError).toMatch(/inexistente/);
    await expect(runProviderRefund(db, refund.id, { now, finalAttempt: true })).rejects.toThrow();
    [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refund.id));
    expect(row.status).toBe("failed");
    expect(await runProviderRefund(db, refund.id)).toBe("failed");
  });
});

describe("without Mercado Pago credentials", () => {
  it("the payment methods page says the connection is not configured and the sandbox is in use", async () => {
    const { producer } = await paidSandboxOrder();
    const ctx = await ctxAs(actorFor({ ...producer.user, roles: ["producer"] }));
    expect(await getMercadoPagoConnection(ctx, { organizationId: producer.organization.id })).toEqual({ configured: false, sandbox: true, account: null });
    const error = await startMercadoPagoConnection(ctx, { organizationId: producer.organization.id }).catch((e) => e);
    expect(isDomainError(error) && error.code).toBe("CONFLICT");
    expect(error.message).toBe(NOT_CONFIGURED);
    expect(paymentPublicConfig()).toEqual({ publicKey: null, sandbox: true });
  });
});
