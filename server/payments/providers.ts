import type { DbOrTx } from "#server/db/client";
import { env, paymentsMode } from "#server/env";
import { MercadoPagoProvider } from "./mercadopago";
import { accountForOrganization, isUsable } from "./mercadopago-accounts";
import type { PaymentProvider } from "./provider";
import { SandboxProvider } from "./sandbox-provider";

/**
 * Which provider runs (the factory): Mercado Pago or the sandbox, decided by
 * server/env.ts paymentsMode, and what buyer pages may know about it.
 */
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
