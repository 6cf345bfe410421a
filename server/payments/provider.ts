import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "#server/db/client";
import { sandboxPayments } from "#server/db/schema";
import type { BillingRow, OrderRow } from "#server/orders/orders";
import { appUrl, env, paymentsMode } from "#server/env";
import { MercadoPagoProvider } from "./mercadopago";
import { accountForOrganization, isUsable } from "./mercadopago-accounts";

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

export { MercadoPagoProvider };

/** True while payments are simulated (server/env.ts paymentsMode). A misconfigured server never gets here: it refused to start. */
export function isSandbox(): boolean {
  const mode = paymentsMode();
  if (mode === "misconfigured") throw new Error("Pagos sin configurar: definí MERCADOPAGO_ACCESS_TOKEN o PAYMENTS_SANDBOX=true (ver docs/deployment.md).");
  return mode === "sandbox";
}

/**
 * Mercado Pago with credentials, the sandbox without. `db` defaults to the
 * app's database. `sellerUserId` (a notification's `user_id`) makes Mercado
 * Pago read payments with that connected seller's token.
 */
export function getPaymentProvider(db?: DbOrTx, options: { sellerUserId?: string | null } = {}): PaymentProvider {
  return isSandbox() ? new SandboxProvider(db) : new MercadoPagoProvider({ db, sellerUserId: options.sellerUserId });
}

/** The provider that handled a billing (`billings.provider`), whatever the server is configured with now. */
export function paymentProviderFor(provider: string, db?: DbOrTx): PaymentProvider {
  if (provider === "sandbox") return new SandboxProvider(db);
  if (provider === "mercadopago") return new MercadoPagoProvider({ db });
  throw new Error(`El proveedor «${provider}» no cobra pagos que se puedan devolver`);
}

/**
 * What buyer pages may know about payments: Mercado Pago's public key (for
 * its browser SDK; null when MERCADOPAGO_PUBLIC_KEY is not set, and the page
 * logs console.error) and whether payments run on the local sandbox.
 */
export function paymentPublicConfig(): { publicKey: string | null; sandbox: boolean } {
  return { publicKey: env().MERCADOPAGO_PUBLIC_KEY ?? null, sandbox: isSandbox() };
}

/**
 * Like paymentPublicConfig, for one organization's checkout: the public key
 * of its connected Mercado Pago account (preferences are created in that
 * account), else the platform's.
 */
export async function paymentPublicConfigFor(db: DbOrTx, organizationId: string, now = new Date()): Promise<{ publicKey: string | null; sandbox: boolean }> {
  const base = paymentPublicConfig();
  if (base.sandbox) return base;
  const account = await accountForOrganization(db, organizationId);
  return isUsable(account, now) && account.publicKey ? { ...base, publicKey: account.publicKey } : base;
}
