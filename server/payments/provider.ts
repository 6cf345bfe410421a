
/**
 * What a payment provider does for us (decisions 29 and 102): the interface only.
 * Implementations: Mercado Pago (mercadopago.ts) and the local sandbox
 * (sandbox-provider.ts); which one runs is providers.ts's business.
 */

/** Mercado Pago's payment statuses (decision 29). */
export const PAYMENT_STATUSES = ["approved", "authorized", "in_process", "pending", "rejected", "cancelled", "refunded", "charged_back", "in_mediation"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface ProviderPayment {
  id: string;
  status: PaymentStatus;
  /** Our billing id. */
  externalReference: string | null;
  /** Integer centavos. */
  amount: number;
}

export interface PaymentProvider {
  name: "sandbox" | "mercadopago";
  createCheckout(billing: BillingRow, order: OrderRow): Promise<{ paymentUrl: string; providerReference?: string }>;
  /** The payment as the provider has it: the truth, whatever a notification said. */
  getPayment(paymentId: string): Promise<ProviderPayment | null>;
  /**
   * Gives `amount` centavos of a payment back to the buyer (the whole payment
   * when it equals the payment's amount). The same idempotency key never
   * refunds twice, so a retried job is safe.
   */
  refundPayment(paymentId: string, amount: number, idempotencyKey: string): Promise<ProviderRefund>;
}

export interface ProviderRefund {
  id: string;
  status: "approved" | "in_process" | "rejected";
  amount: number;
}import type { BillingRow, OrderRow } from "#server/db/schema";

