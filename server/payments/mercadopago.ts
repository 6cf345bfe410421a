import type { BillingRow, OrderRow } from "#server/db/schema";
import { and, asc, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { getDb, type DbOrTx } from "#server/db/client";
import { billings, events, mercadopagoPreferences, orderItems } from "#server/db/schema";
import { appUrl, env } from "#server/env";
import { withBillingToken } from "#server/auth/billing-access";
import { accessTokenOf, accountForMercadoPagoUser, accountForOrganization, isUsable } from "./mercadopago-accounts";
import { MercadoPagoApiError, mercadoPagoRequest } from "./mercadopago-http";
import type { PaymentProvider, PaymentStatus, ProviderPayment, ProviderRefund } from "./provider";

/**
 * The real Mercado Pago client (decisions 29 and 102), over its REST API:
 * - Checkout Pro preference (POST /checkout/preferences): the buyer pays on
 *   `init_point`. Created with the organizer's OAuth token when the
 *   organization connected its account (the money goes to them and our
 *   service fee is the `marketplace_fee`), else with the platform's token.
 * - GET /v1/payments/{id}: the truth about a payment, read with the token of
 *   the account that received it.
 * - POST /v1/payments/{id}/refunds with X-Idempotency-Key.
 */

const ZONE = "America/Argentina/Buenos_Aires";
const STATUSES: ReadonlySet<string> = new Set(["approved", "authorized", "in_process", "pending", "rejected", "cancelled", "refunded", "charged_back", "in_mediation"]);

/** Integer centavos → pesos as Mercado Pago's decimal number. */
export function toPesos(centavos: number): number {
  return Math.round(centavos) / 100;
}

/** Pesos (a JSON number, maybe 1234.5) → integer centavos. */
export function toCentavos(pesos: number): number {
  return Math.round(pesos * 100);
}

/** ISO 8601 with the Buenos Aires offset, as the preference's dates ask (`2026-11-22T01:15:00.000-03:00`). */
export function mpDate(date: Date): string {
  return DateTime.fromJSDate(date).setZone(ZONE).toISO()!;
}

/** Our document types (spec) → Mercado Pago Argentina's identification types. */
const IDENTIFICATION_TYPES: Record<string, string> = { dni: "DNI", cuit: "CUIT", cuil: "CUIL", ci: "CI" };

export function mercadoPagoIdentificationType(documentType: string): string {
  return IDENTIFICATION_TYPES[documentType.toLowerCase()] ?? "Otro";
}

export function backUrl(status: "approved" | "pending" | "rejected", billingId: string): string {
  return withBillingToken(`${appUrl()}/checkout/status/${status}?billingId=${billingId}`, billingId);
}

export function notificationUrl(): string {
  return `${appUrl()}/api/webhooks/mercadopago`;
}

/** Request body of POST /checkout/preferences (the fields we send). */
export interface PreferenceRequest {
  items: { id: string; title: string; description?: string; category_id?: string; quantity: number; currency_id: "ARS"; unit_price: number }[];
  payer: { name: string; surname: string; email: string; identification: { type: string; number: string } };
  back_urls: { success: string; pending: string; failure: string };
  auto_return: "approved";
  notification_url: string;
  external_reference: string;
  statement_descriptor: string;
  expires: boolean;
  expiration_date_from?: string;
  expiration_date_to?: string;
  marketplace_fee?: number;
  metadata?: Record<string, string>;
}

interface PreferenceResponse {
  id: string;
  init_point: string;
  sandbox_init_point?: string;
  collector_id?: number;
}

interface PaymentResponse {
  id: number | string;
  status: string;
  status_detail?: string;
  external_reference?: string | null;
  transaction_amount: number;
  currency_id?: string;
  collector_id?: number;
}

interface RefundResponse {
  id: number | string;
  payment_id?: number | string;
  amount: number;
  status: string;
}

export interface MercadoPagoProviderOptions {
  db?: DbOrTx;
  /** Defaults to MERCADOPAGO_ACCESS_TOKEN. */
  platformAccessToken?: string;
  /**
   * The seller whose account holds the payments this instance reads
   * (`user_id` of a notification). Without it, a payment of one of our
   * billings is read with the token its preference was created with.
   */
  sellerUserId?: string | null;
  now?: () => Date;
}

export class MercadoPagoProvider implements PaymentProvider {
  readonly name = "mercadopago" as const;
  constructor(private readonly options: MercadoPagoProviderOptions = {}) {}

  private async handle(): Promise<DbOrTx> {
    return this.options.db ?? (await getDb());
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private platformToken(): string {
    const token = this.options.platformAccessToken ?? env().MERCADOPAGO_ACCESS_TOKEN;
    if (!token) throw new Error("Falta MERCADOPAGO_ACCESS_TOKEN");
    return token;
  }

  /** The token of the seller account `mpUserId` when it is connected and valid, else the platform's. */
  private async tokenForSeller(db: DbOrTx, mpUserId: string | null | undefined): Promise<string> {
    if (mpUserId) {
      const account = await accountForMercadoPagoUser(db, mpUserId);
      if (isUsable(account, this.now())) return accessTokenOf(account);
    }
    return this.platformToken();
  }

  /** Which account holds payment `paymentId`: the notification's seller, else the preference of the billing that payment approved. */
  private async tokenForPayment(db: DbOrTx, paymentId: string): Promise<string> {
    if (this.options.sellerUserId) return this.tokenForSeller(db, this.options.sellerUserId);
    const [row] = await db
      .select({ mpUserId: mercadopagoPreferences.mpUserId })
      .from(billings)
      .innerJoin(mercadopagoPreferences, eq(mercadopagoPreferences.billingId, billings.id))
      .where(and(eq(billings.provider, "mercadopago"), eq(billings.providerReference, paymentId)));
    return this.tokenForSeller(db, row?.mpUserId);
  }

  /** The preference body for a billing (exported through `buildPreference` for tests and support). */
  async buildPreference(billing: BillingRow, order: OrderRow, withMarketplaceFee: boolean): Promise<PreferenceRequest> {
    const db = await this.handle();
    const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
    const [event] = await db.select({ name: events.name }).from(events).where(eq(events.id, order.eventId));
    const eventName = event?.name ?? "Entradas";
    let items: PreferenceRequest["items"] = lines.map((line) => ({
      id: line.ticketTypeId,
      title: `${eventName} — ${line.name}`.slice(0, 250),
      category_id: "tickets",
      quantity: line.qty,
      currency_id: "ARS" as const,
      unit_price: toPesos(line.unitPrice),
    }));
    if (order.serviceFee > 0) {
      items.push({ id: "service-fee", title: "Cargo por servicio", category_id: "tickets", quantity: 1, currency_id: "ARS", unit_price: toPesos(order.serviceFee) });
    }
    // Discounts (coupons) make the lines add up to more than what is billed: then one line with the amount due.
    const sum = items.reduce((acc, item) => acc + toCentavos(item.unit_price) * item.quantity, 0);
    if (sum !== billing.amount) {
      items = [{ id: order.id, title: `${eventName} — compra ${order.code}`.slice(0, 250), category_id: "tickets", quantity: 1, currency_id: "ARS", unit_price: toPesos(billing.amount) }];
    }
    const body: PreferenceRequest = {
      items,
      payer: {
        name: order.payer.firstName,
        surname: order.payer.lastName,
        email: order.payer.email,
        identification: { type: mercadoPagoIdentificationType(order.payer.documentType), number: order.payer.documentNumber },
      },
      back_urls: { success: backUrl("approved", billing.id), pending: backUrl("pending", billing.id), failure: backUrl("rejected", billing.id) },
      auto_return: "approved",
      notification_url: notificationUrl(),
      external_reference: billing.id,
      statement_descriptor: "TRIBUNA",
      expires: Boolean(order.holdExpiresAt),
      metadata: { order_code: order.code },
    };
    if (order.holdExpiresAt) {
      body.expiration_date_from = mpDate(billing.createdAt);
      body.expiration_date_to = mpDate(order.holdExpiresAt);
    }
    if (withMarketplaceFee && order.serviceFee > 0) body.marketplace_fee = toPesos(Math.min(order.serviceFee, billing.amount));
    return body;
  }

  async createCheckout(billing: BillingRow, order: OrderRow): Promise<{ paymentUrl: string }> {
    const db = await this.handle();
    // One preference per billing: a retried checkout sends the buyer to the same one.
    const [existing] = await db.select().from(mercadopagoPreferences).where(eq(mercadopagoPreferences.billingId, billing.id));
    if (existing) return { paymentUrl: existing.initPoint };

    const account = await accountForOrganization(db, order.organizationId);
    const seller = isUsable(account, this.now()) ? account : null;
    const body = await this.buildPreference(billing, order, Boolean(seller));
    const response = await mercadoPagoRequest<PreferenceResponse>("POST", "/checkout/preferences", {
      token: seller ? accessTokenOf(seller) : this.platformToken(),
      body,
      idempotencyKey: `preference-${billing.id}`,
    });
    if ((response.status !== 201 && response.status !== 200) || !response.json?.id || !response.json.init_point) {
      throw MercadoPagoApiError.from("POST", "/checkout/preferences", response);
    }
    const [stored] = await db
      .insert(mercadopagoPreferences)
      .values({
        billingId: billing.id,
        preferenceId: response.json.id,
        initPoint: response.json.init_point,
        mpUserId: seller?.mpUserId ?? null,
        marketplaceFee: body.marketplace_fee ? toCentavos(body.marketplace_fee) : 0,
        expiresAt: order.holdExpiresAt,
      })
      .onConflictDoNothing()
      .returning();
    if (!stored) {
      // Two checkouts for one billing at once: the first stored wins.
      const [first] = await db.select().from(mercadopagoPreferences).where(eq(mercadopagoPreferences.billingId, billing.id));
      return { paymentUrl: first.initPoint };
    }
    return { paymentUrl: stored.initPoint };
  }

  async getPayment(paymentId: string): Promise<ProviderPayment | null> {
    if (!/^\d{1,30}$/.test(paymentId)) return null;
    const db = await this.handle();
    const path = `/v1/payments/${paymentId}`;
    const response = await mercadoPagoRequest<PaymentResponse>("GET", path, { token: await this.tokenForPayment(db, paymentId) });
    if (response.status === 404) return null;
    if (response.status !== 200 || !response.json) throw MercadoPagoApiError.from("GET", "/v1/payments/{id}", response);
    const payment = response.json;
    if (!STATUSES.has(payment.status)) throw new MercadoPagoApiError(`Estado de pago desconocido: ${payment.status}`, response.status, null);
    return {
      id: String(payment.id),
      status: payment.status as PaymentStatus,
      externalReference: payment.external_reference || null,
      amount: toCentavos(payment.transaction_amount),
    };
  }

  async refundPayment(paymentId: string, amount: number, idempotencyKey: string): Promise<ProviderRefund> {
    const db = await this.handle();
    const path = `/v1/payments/${paymentId}/refunds`;
    const response = await mercadoPagoRequest<RefundResponse>("POST", path, {
      token: await this.tokenForPayment(db, paymentId),
      body: { amount: toPesos(amount) },
      idempotencyKey,
    });
    if ((response.status !== 201 && response.status !== 200) || !response.json) throw MercadoPagoApiError.from("POST", "/v1/payments/{id}/refunds", response);
    const refund = response.json;
    const status = refund.status === "approved" || refund.status === "in_process" || refund.status === "rejected" ? refund.status : "in_process";
    return { id: String(refund.id), status, amount: toCentavos(refund.amount) };
  }
}

/** The seller's Mercado Pago user id a notification names (`user_id`), if any. */
export function notificationSellerId(body: unknown): string | null {
  const value = body && typeof body === "object" ? (body as { user_id?: unknown }).user_id : undefined;
  return value === undefined || value === null || value === "" ? null : String(value);
}

/**
 * The Checkout Pro preference already opened for a billing (createOrder opens
 * it), or null: what the checkout page hands Mercado Pago's Wallet button.
 */
export async function preferenceIdForBilling(db: DbOrTx, billingId: string): Promise<string | null> {
  const [row] = await db.select({ preferenceId: mercadopagoPreferences.preferenceId }).from(mercadopagoPreferences).where(eq(mercadopagoPreferences.billingId, billingId));
  return row?.preferenceId ?? null;
}
