import type { BillingRow } from "#server/db/schema";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "#server/db/client";
import { sandboxPayments } from "#server/db/schema";
import { appUrl } from "#server/env";
import type { PaymentProvider, PaymentStatus, ProviderPayment, ProviderRefund } from "./provider";

export function paymentUrlFor(billingId: string): string {
  return `${appUrl()}/sandbox/mercadopago/${billingId}`;
}

/**
 * The local stand-in for Mercado Pago, only while payments are simulated
 * (paymentsMode): its "payments" live in `sandbox_payments`.
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
