import { ANONYMOUS } from "#server/context";
import { expireOrder, EXPIRE_ORDER_JOB } from "#server/orders/orders";
import { sendTicketsEmail } from "#server/tickets/email";
import { SEND_TICKETS_EMAIL_JOB } from "#server/tickets/issue";
import { MERCADOPAGO_REFRESH_JOB, refreshMercadoPagoToken } from "#server/payments/mercadopago-accounts";
import { PROVIDER_REFUND_JOB, runProviderRefund } from "#server/payments/refunds";
import { PRUNE_NOTIFICATIONS_JOB, pruneRefusedNotifications, schedulePruning } from "#server/payment-notifications/webhook";
import { runGiveaway, SEND_GIVEAWAY_JOB } from "#server/invitations/giveaways";
import { runCampaign, SEND_CAMPAIGN_JOB } from "#server/campaigns/campaigns";
import { deliverWebhook, WEBHOOK_DELIVERY_JOB } from "#server/webhooks/deliveries";
import { MAX_ATTEMPTS, type JobHandlers, type JobLane } from "#server/jobs/queue";
import { RESALE_PAYOUT_JOB, runResalePayout } from "#server/resale/settle";
import { TICKETS_RETURNED_JOB } from "#server/stock/stock";
import { expireWaitlistOffer, runReturnedTickets, WAITLIST_OFFER_EXPIRE_JOB } from "#server/waitlist/offers";
import { ISSUE_INVOICE_JOB, issueVoucher } from "#server/invoicing/invoices";
import { SEND_INVOICE_EMAIL_JOB, sendInvoiceEmail } from "#server/invoicing/emails";
import { WALLET_EVENT_CHANGED_JOB, WALLET_PASSES_CHANGED_JOB } from "#server/tickets/wallet-changes";
import { runWalletEventChanged, runWalletPassesChanged, runWalletPassReveal, WALLET_PASS_REVEAL_JOB } from "#server/wallet/changes";
import { apnsSender } from "#server/wallet/apns";
import { ticketsEmailAddOns } from "#server/wallet/tickets-email";
import { appleWalletConfig, googleWalletConfig } from "#server/wallet/config";

/** Every job kind the app runs, with its handler. */
export const jobHandlers: JobHandlers = {
  [EXPIRE_ORDER_JOB]: async (payload, { db, now }) => {
    const orderId = String(payload.orderId ?? "");
    const result = await expireOrder({ db, actor: ANONYMOUS, now }, orderId);
    // Ran a little early (clocks): retry later, with backoff.
    if (result === "not-due") throw new Error("La reserva todavía no venció");
  },
  // The tickets email, queued by the lifecycle's onPaid in the transaction that paid the order; SMTP failures throw and retry.
  [SEND_TICKETS_EMAIL_JOB]: async (payload, { db, now }) => {
    // With the wallet buttons and the live QR's note (server/wallet/tickets-email.ts).
    await sendTicketsEmail(db, String(payload.orderId ?? ""), { resend: payload.resend === true, addOns: ticketsEmailAddOns, now });
  },
  // A giveaway's rows, ROWS_PER_RUN per run; each run queues the next until none is ready.
  [SEND_GIVEAWAY_JOB]: async (payload, { db, now }) => {
    await runGiveaway(db, String(payload.giveawayId ?? ""), now);
  },
  // A campaign's recipients, RECIPIENTS_PER_RUN per run; each run queues the next (docs/campaigns.md).
  [SEND_CAMPAIGN_JOB]: async (payload, { db, now }) => {
    await runCampaign(db, String(payload.campaignId ?? ""), now);
  },
  [PROVIDER_REFUND_JOB]: async (payload, { db, now, row }) => {
    await runProviderRefund(db, String(payload.paymentRefundId ?? ""), { now, finalAttempt: row.attempts >= MAX_ATTEMPTS });
  },
  // The seller's money back after a resale, through the provider of their payment (docs/resale.md).
  [RESALE_PAYOUT_JOB]: async (payload, { db, now, row }) => {
    await runResalePayout(db, String(payload.listingId ?? ""), { now, finalAttempt: row.attempts >= MAX_ATTEMPTS });
  },
  // Daily: refused webhook deliveries are kept 30 days (docs/deployment.md, retention).
  [PRUNE_NOTIFICATIONS_JOB]: async (_payload, { db, now }) => {
    await pruneRefusedNotifications(db, now);
    await schedulePruning(db, new Date(now.getTime() + 24 * 3600 * 1000));
  },
  // One attempt of an outgoing webhook (docs/webhooks.md): throws on failure so the queue retries; the last attempt marks the delivery failed.
  [WEBHOOK_DELIVERY_JOB]: async (payload, { db, now, row }) => {
    await deliverWebhook(db, String(payload.deliveryId ?? ""), { now, finalAttempt: row.attempts >= MAX_ATTEMPTS });
  },
  // Tickets back on sale (server/stock announces them): the event's waiting list is offered them (docs/waitlist.md).
  [TICKETS_RETURNED_JOB]: async (payload, { db, now }) => {
    await runReturnedTickets(db, payload, now);
  },
  // A ticket was voided, sent or resold: its wallet passes are told (docs/wallet.md): APNs pushes with the pass certificate, Google's objects INACTIVE.
  [WALLET_PASSES_CHANGED_JOB]: async (payload, { db }) => {
    const serials = Array.isArray(payload.serials) ? payload.serials.map(String) : [];
    const apple = appleWalletConfig();
    const apns = apple ? apnsSender(apple) : null;
    try {
      await runWalletPassesChanged(db, serials, { apple, apns, google: googleWalletConfig() });
    } finally {
      apns?.close();
    }
  },
  // An event's name, venue, dates or colours changed: its Google Wallet class is patched (docs/wallet.md).
  [WALLET_EVENT_CHANGED_JOB]: async (payload, { db, now }) => {
    const dateIds = Array.isArray(payload.dateIds) ? payload.dateIds.map(String) : undefined;
    await runWalletEventChanged(db, String(payload.eventId ?? ""), googleWalletConfig(), { dateIds, now });
  },
  // A live-QR event's reveal time: the Apple passes registered before it get their static QR (decision 207).
  [WALLET_PASS_REVEAL_JOB]: async (payload, { db, now }) => {
    const serials = Array.isArray(payload.serials) ? payload.serials.map(String) : [];
    const apple = appleWalletConfig();
    const apns = apple ? apnsSender(apple) : null;
    try {
      await runWalletPassReveal(db, serials, { apple, apns }, now);
    } finally {
      apns?.close();
    }
  },
  // An offer of the waiting list ran out unclaimed: its tickets go to the next person.
  [WAITLIST_OFFER_EXPIRE_JOB]: async (payload, { db, now }) => {
    const result = await expireWaitlistOffer(db, String(payload.offerId ?? ""), now);
    if (result === "not-due") throw new Error("La reserva de la lista de espera todavía no venció");
  },
  // An invoice or credit note of our service charge (docs/invoicing.md): throws while ARCA is down, slow or the invoice waits, so the queue retries with backoff.
  [ISSUE_INVOICE_JOB]: async (payload, { db, now }) => {
    await issueVoucher(db, String(payload.invoiceId ?? ""), now);
  },
  // An authorised voucher's PDF to the payer (decision 219), queued with its CAE; SMTP failures throw and retry.
  [SEND_INVOICE_EMAIL_JOB]: async (payload, { db }) => {
    await sendInvoiceEmail(db, String(payload.invoiceId ?? ""));
  },
  [MERCADOPAGO_REFRESH_JOB]: async (payload, { db, now }) => {
    await refreshMercadoPagoToken(db, String(payload.accountId ?? ""), now);
  },
};

/**
 * The app's lanes: hold expiries (they give stock back to buyers waiting for
 * it) run apart from everything else, so no email or webhook backlog delays
 * them (docs/locking.md, "Jobs").
 */
const HOLD_JOBS = [EXPIRE_ORDER_JOB, TICKETS_RETURNED_JOB, WAITLIST_OFFER_EXPIRE_JOB];
// Thousands of holds of an on-sale expire together: they run several at a time (each is its own short transaction).
export const JOB_LANES: readonly JobLane[] = [{ kinds: HOLD_JOBS, concurrency: 4 }, { exceptKinds: HOLD_JOBS }];
