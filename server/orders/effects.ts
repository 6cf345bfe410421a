import type { BillingRow, OrderRow } from "#server/db/schema";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { events, refundRequests } from "#server/db/schema";
import { sendEmail, type EmailMessage } from "#server/email/send";
import { appUrl } from "#server/env";
import { withBillingToken } from "#server/auth/billing-access";
import { purchaseKindOfOrders } from "./purchase-kind";
import { paymentReversedEmail, refundDoneEmail, refundStatusUrl } from "./refund-emails";
import { transferRejectedEmail } from "./transfer-emails";

/*
 * The buyer's emails that follow a lifecycle transition (docs/orders.md, the
 * effects table). Called only from server/orders/lifecycle.ts's on… functions,
 * so each is written once per transition, in the transition's transaction: a
 * rolled-back transition leaves no email in the log.
 */

/**
 * onRefunded's email. A withdrawal request (the buyer's, automatic or approved
 * by the organizer) gets the request's "done" email; a refund made at the
 * provider (no request) gets the "payment reversed" one.
 */
export async function emailRefunded(tx: DbOrTx, order: OrderRow, billing: BillingRow) {
  const [request] = await tx
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.billingId, billing.id), eq(refundRequests.status, "refunded")));
  const [event] = await tx.select({ name: events.name }).from(events).where(eq(events.id, order.eventId));
  const kind = await purchaseKindOfOrders(tx, [order.id]);
  if (request) {
    const data = { code: request.code, orderCode: order.code, eventName: event?.name ?? "", amount: billing.amount, method: request.method, statusUrl: refundStatusUrl(request.code), kind };
    await sendSafely(tx, { to: request.email, ...refundDoneEmail(data, request.automatic), organizationId: order.organizationId });
    return;
  }
  const message = paymentReversedEmail({ orderCode: order.code, eventName: event?.name ?? "el evento", amount: billing.amount, chargeback: false, kind });
  await sendSafely(tx, { to: order.payer.email, ...message, organizationId: order.organizationId });
}

/** onChargedBack's email: the card issuer took the payment back. */
export async function emailChargedBack(tx: DbOrTx, order: OrderRow, billing: BillingRow) {
  const [event] = await tx.select({ name: events.name }).from(events).where(eq(events.id, order.eventId));
  const kind = await purchaseKindOfOrders(tx, [order.id]);
  const message = paymentReversedEmail({ orderCode: order.code, eventName: event?.name ?? "el evento", amount: billing.amount, chargeback: true, kind });
  await sendSafely(tx, { to: order.payer.email, ...message, organizationId: order.organizationId });
}

/** rejectTransfer's email: the organizer found no money (or not the right amount), with their reason. */
export async function emailTransferRejected(tx: DbOrTx, order: OrderRow, billingId: string, reason: string | null) {
  const [event] = await tx.select({ name: events.name, slug: events.slug }).from(events).where(eq(events.id, order.eventId));
  const email = transferRejectedEmail({
    firstName: order.payer.firstName,
    orderCode: order.code,
    eventName: event?.name ?? "",
    reason,
    statusUrl: withBillingToken(`${appUrl()}/checkout/bank-transfer/${billingId}`, billingId),
    eventUrl: event ? `${appUrl()}/eventos/${event.slug}` : appUrl(),
  });
  await sendSafely(tx, { to: order.payer.email, kind: "bank-transfer-rejected", ...email, organizationId: order.organizationId });
}

/** In a savepoint: the transition stands even if writing its email fails (the error is logged). */
async function sendSafely(tx: DbOrTx, message: EmailMessage) {
  try {
    await tx.transaction((sp) => sendEmail(sp, message));
  } catch (error) {
    console.error(error);
  }
}
