import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { billings, orders } from "#server/db/schema";
import { paymentsMode } from "#server/env";
import { SandboxProvider } from "#server/payments/sandbox-provider";
import { signNotification, webhookSecret } from "#server/payments/signature";
import { handleMercadoPagoNotification, type NotificationInput, type NotificationResult } from "./webhook";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the sandbox page shows: the billing, its order and amount. Null when it is not a sandbox billing. */
export async function getSandboxBilling(db: Db, billingId: string) {
  if (!UUID.test(billingId)) return null;
  const [row] = await db.select({ billing: billings, order: orders }).from(billings).innerJoin(orders, eq(orders.id, billings.orderId)).where(eq(billings.id, billingId));
  if (!row || row.billing.provider !== "sandbox") return null;
  return row;
}

/** The notification Mercado Pago would POST for a payment, signed with our webhook secret. */
export function buildSignedNotification(paymentId: string, now = new Date()): NotificationInput {
  const secret = webhookSecret();
  if (!secret) throw new Error("No hay secreto de webhook para firmar la notificación");
  const requestId = crypto.randomUUID();
  const ts = String(Math.floor(now.getTime() / 1000));
  return {
    headers: { "content-type": "application/json", "x-request-id": requestId, "x-signature": signNotification(secret, { dataId: paymentId, requestId, ts }) },
    body: { action: "payment.updated", api_version: "v1", type: "payment", data: { id: paymentId }, date_created: now.toISOString(), live_mode: false },
    query: new URLSearchParams({ "data.id": paymentId, type: "payment" }),
  };
}

/**
 * `POST /sandbox/mercadopago/{billingId}`: plays the buyer paying at the
 * provider — records the sandbox payment, then delivers the signed
 * notification to our webhook handler exactly as Mercado Pago would (a direct
 * call, no HTTP round trip). Null when there is nothing to pay (no sandbox,
 * unknown billing).
 */
export async function payInSandbox(
  db: Db,
  billingId: string,
  status: "approved" | "rejected",
  now = new Date(),
): Promise<{ paymentId: string; result: NotificationResult } | null> {
  if (paymentsMode() !== "sandbox") return null;
  const row = await getSandboxBilling(db, billingId);
  if (!row) return null;
  const provider = new SandboxProvider(db);
  const payment = await provider.recordPayment(row.billing, status);
  const result = await handleMercadoPagoNotification(db, buildSignedNotification(payment.id, now), { provider, now });
  return { paymentId: payment.id, result };
}
