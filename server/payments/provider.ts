import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "#server/db/client";
import { sandboxPayments } from "#server/db/schema";
import type { BillingRow, OrderRow } from "#server/orders/orders";
import { appUrl, env } from "#server/env";

/** Mercado Pago's payment statuses (DESIGN.md §5). */
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
}

export function paymentUrlFor(billingId: string): string {
  return `${appUrl()}/sandbox/mercadopago/${billingId}`;
}

/**
 * The local stand-in for Mercado Pago used when MERCADOPAGO_ACCESS_TOKEN is
 * not set: its "payments" live in `sandbox_payments`.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox" as const;
  constructor(private readonly db?: DbOrTx) {}

  private async handle() {
    return this.db ?? (await getDb());
  }

  async createCheckout(billing: BillingRow) {
    return { paymentUrl: paymentUrlFor(billing.id) };
  }

  async getPayment(paymentId: string): Promise<ProviderPayment | null> {
    const db = await this.handle();
    const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentId));
    if (!row) return null;
    return { id: row.id, status: row.status as PaymentStatus, externalReference: row.billingId, amount: row.amount };
  }

  async refundPayment(paymentId: string, amount: number, idempotencyKey: string): Promise<ProviderRefund> {
    const db = await this.handle();
    const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentId));
    if (!row) throw new Error(`Pago ${paymentId} inexistente en el sandbox`);
    if (amount > row.amount) throw new Error(`No se puede devolver más de lo pagado (${amount} > ${row.amount})`);
    // Full refunds flip the payment to "refunded", as Mercado Pago does; the key makes the refund id stable.
    if (amount === row.amount) await db.update(sandboxPayments).set({ status: "refunded" }).where(eq(sandboxPayments.id, paymentId));
    return { id: `sandbox-refund-${crypto.createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 16)}`, status: "approved", amount };
  }

  /** The buyer "pays" on the sandbox page: a new payment for the billing. */
  async recordPayment(billing: Pick<BillingRow, "id" | "amount">, status: "approved" | "rejected"): Promise<ProviderPayment> {
    const db = await this.handle();
    // Mercado Pago payment ids are numbers; ours look alike and never collide.
    const id = `${Date.now()}${crypto.randomInt(100_000, 999_999)}`;
    await db.insert(sandboxPayments).values({ id, billingId: billing.id, status, amount: billing.amount });
    return { id, status, externalReference: billing.id, amount: billing.amount };
  }
}

/** Placeholder until the real client (Checkout Pro preference, GET /v1/payments/{id}) is built. */
export class MercadoPagoProvider implements PaymentProvider {
  readonly name = "mercadopago" as const;
  async createCheckout(): Promise<never> {
    throw new Error("El cliente de Mercado Pago todavía no está implementado.");
  }
  async getPayment(): Promise<never> {
    throw new Error("El cliente de Mercado Pago todavía no está implementado.");
  }
  async refundPayment(): Promise<never> {
    throw new Error("El cliente de Mercado Pago todavía no está implementado.");
  }
}

export function isSandbox(): boolean {
  return !env().MERCADOPAGO_ACCESS_TOKEN;
}

/** Mercado Pago with credentials, the sandbox without. `db` defaults to the app's database. */
export function getPaymentProvider(db?: DbOrTx): PaymentProvider {
  return isSandbox() ? new SandboxProvider(db) : new MercadoPagoProvider();
}
