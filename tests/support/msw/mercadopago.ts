import crypto from "node:crypto";
import { http, HttpResponse } from "msw";

/**
 * Mercado Pago's REST API, mocked with the request and response bodies its
 * reference documents:
 * - POST /checkout/preferences (Checkout Pro, create preference)
 * - GET /v1/payments/{id} (get payment)
 * - POST /v1/payments/{id}/refunds (create refund; X-Idempotency-Key is required
 *   and a repeated key answers the first refund again, it never refunds twice)
 * - POST /oauth/token (grant_type authorization_code and refresh_token)
 *
 * Access tokens belong to Mercado Pago users: our platform account, and every
 * seller that connected through OAuth. A payment lives in its collector's
 * account and only that account's token can read or refund it (another one
 * gets 404, as in Mercado Pago). `payPreference()` plays a buyer paying on
 * `init_point`.
 */
export const MP_API = "https://api.mercadopago.com";

export const MP_PLATFORM = {
  userId: "1187654321",
  accessToken: "APP_USR-4711101991928475-112210-8d7c4b1f0e2a9c3b5d6e7f8091a2b3c4-1187654321",
  publicKey: "APP_USR-2f6c9b1e-5d4a-4c3b-9a8f-7e6d5c4b3a21",
} as const;

export const MP_APP = {
  clientId: "4711101991928475",
  clientSecret: "Tq8vX2nL5kP9rS3wZ7yB1cD4fG6hJ0mN",
} as const;

interface Owner {
  userId: string;
  live: boolean;
}

interface StoredPreference {
  id: string;
  collectorId: string;
  body: Record<string, unknown>;
}

export interface MockPayment {
  id: number;
  status: string;
  status_detail: string;
  external_reference: string | null;
  transaction_amount: number;
  transaction_amount_refunded: number;
  currency_id: string;
  collector_id: number;
  marketplace_fee: number | null;
  preference_id: string | null;
  refunds: MockRefund[];
}

interface MockRefund {
  id: number;
  payment_id: number;
  amount: number;
  status: "approved";
  date_created: string;
  source: { id: string; name: string; type: string };
  unique_sequence_number: null;
}

const tokens = new Map<string, Owner>();
const refreshTokens = new Map<string, Owner>();
const codes = new Map<string, { owner: Owner; redirectUri: string; clientId: string }>();
const preferences = new Map<string, StoredPreference>();
const payments = new Map<number, MockPayment>();
const idempotency = new Map<string, MockRefund>();

/** Every call the mock answered, for assertions (headers lower-cased). */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  idempotencyKey: string | null;
  body: Record<string, unknown> | null;
  status: number;
}
export const mercadoPagoRequests: RecordedRequest[] = [];

let sequence = 0;
const nextId = () => 1_320_000_000 + ++sequence * 7 + Math.floor(Math.random() * 7);

export function resetMercadoPagoMock() {
  tokens.clear();
  refreshTokens.clear();
  codes.clear();
  preferences.clear();
  payments.clear();
  idempotency.clear();
  mercadoPagoRequests.length = 0;
  tokens.set(MP_PLATFORM.accessToken, { userId: MP_PLATFORM.userId, live: true });
}
resetMercadoPagoMock();

function error(status: number, error: string, message: string, cause: { code: number | string; description: string }[] = []) {
  return HttpResponse.json({ message, error, status, cause }, { status });
}

function ownerOf(request: Request): Owner | null {
  const header = request.headers.get("authorization") ?? "";
  return header.startsWith("Bearer ") ? (tokens.get(header.slice(7)) ?? null) : null;
}

async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const text = await request.text();
  if (!text) return null;
  if ((request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function record(request: Request, body: Record<string, unknown> | null, response: Response) {
  const url = new URL(request.url);
  mercadoPagoRequests.push({
    method: request.method,
    path: url.pathname,
    authorization: request.headers.get("authorization"),
    idempotencyKey: request.headers.get("x-idempotency-key"),
    body,
    status: response.status,
  });
  return response;
}

/** Requests of one kind, e.g. `requestsTo("POST", "/checkout/preferences")`. */
export function requestsTo(method: string, pathPattern: string | RegExp) {
  return mercadoPagoRequests.filter((r) => r.method === method && (typeof pathPattern === "string" ? r.path === pathPattern : pathPattern.test(r.path)));
}

/** A seller as Mercado Pago's consent screen knows them. */
export function mercadoPagoSeller(userId = String(200_000_000 + Math.floor(Math.random() * 99_999_999))) {
  return { userId };
}

/**
 * Plays the seller authorizing our application on Mercado Pago's consent
 * screen: given the authorization URL our app redirected to, returns the
 * callback URL Mercado Pago sends the browser back to (`?code=…&state=…`).
 */
export function mercadoPagoConsent(authorizationUrl: string, seller: { userId: string } | "cancel"): string {
  const url = new URL(authorizationUrl);
  const redirectUri = url.searchParams.get("redirect_uri");
  if (!redirectUri) throw new Error("Mercado Pago mock: authorization URL without redirect_uri");
  const back = new URL(redirectUri);
  const state = url.searchParams.get("state");
  if (state) back.searchParams.set("state", state);
  if (seller === "cancel") {
    back.searchParams.set("error", "access_denied");
    return back.toString();
  }
  const code = `TG-${crypto.randomBytes(12).toString("hex")}-${seller.userId}`;
  codes.set(code, { owner: { userId: seller.userId, live: true }, redirectUri, clientId: url.searchParams.get("client_id") ?? "" });
  back.searchParams.set("code", code);
  return back.toString();
}

/**
 * A buyer pays preference `preferenceId` on its init_point: the payment is
 * created in the preference's collector account with its external_reference
 * and amount (the items' total unless `amount` is given, in pesos).
 */
export function payPreference(preferenceId: string, options: { status?: string; amount?: number } = {}): MockPayment {
  const preference = preferences.get(preferenceId);
  if (!preference) throw new Error(`Mercado Pago mock: unknown preference ${preferenceId}`);
  const items = (preference.body.items ?? []) as { unit_price: number; quantity: number }[];
  const total = Math.round(items.reduce((sum, item) => sum + item.unit_price * item.quantity, 0) * 100) / 100;
  const status = options.status ?? "approved";
  const payment: MockPayment = {
    id: nextId(),
    status,
    status_detail: status === "approved" ? "accredited" : status === "rejected" ? "cc_rejected_other_reason" : "pending_contingency",
    external_reference: (preference.body.external_reference as string | undefined) ?? null,
    transaction_amount: options.amount ?? total,
    transaction_amount_refunded: 0,
    currency_id: "ARS",
    collector_id: Number(preference.collectorId),
    marketplace_fee: typeof preference.body.marketplace_fee === "number" ? preference.body.marketplace_fee : null,
    preference_id: preference.id,
    refunds: [],
  };
  payments.set(payment.id, payment);
  return payment;
}

export function mockPayment(id: number | string): MockPayment | undefined {
  return payments.get(Number(id));
}

export function mockPreference(id: string): StoredPreference | undefined {
  return preferences.get(id);
}

function paymentJson(p: MockPayment) {
  return {
    id: p.id,
    date_created: "2026-11-22T01:10:00.000-03:00",
    date_approved: p.status === "approved" ? "2026-11-22T01:10:03.000-03:00" : null,
    date_last_updated: "2026-11-22T01:10:03.000-03:00",
    money_release_date: null,
    operation_type: "regular_payment",
    issuer_id: "310",
    payment_method_id: "visa",
    payment_type_id: "credit_card",
    status: p.status,
    status_detail: p.status_detail,
    currency_id: p.currency_id,
    description: "Entradas",
    live_mode: true,
    collector_id: p.collector_id,
    payer: { id: "1300000001", email: "comprador@example.com", identification: { type: "DNI", number: "30123456" }, type: null },
    metadata: {},
    order: p.preference_id ? { id: String(p.id + 1), type: "mercadopago" } : {},
    external_reference: p.external_reference,
    transaction_amount: p.transaction_amount,
    transaction_amount_refunded: p.transaction_amount_refunded,
    installments: 1,
    transaction_details: { net_received_amount: p.transaction_amount, total_paid_amount: p.transaction_amount, installment_amount: p.transaction_amount },
    fee_details: p.marketplace_fee ? [{ type: "application_fee", amount: p.marketplace_fee, fee_payer: "collector" }] : [],
    refunds: p.refunds,
    captured: true,
    marketplace_owner: p.marketplace_fee ? Number(MP_PLATFORM.userId) : null,
  };
}

export const mercadoPagoHandlers = [
  http.post(`${MP_API}/checkout/preferences`, async ({ request }) => {
    const body = await readBody(request);
    const respond = (response: Response) => record(request, body, response);
    const owner = ownerOf(request);
    if (!owner) return respond(error(401, "unauthorized", "invalid access token"));
    if (!body) return respond(error(400, "bad_request", "invalid body"));
    const items = body.items as { title?: unknown; quantity?: unknown; unit_price?: unknown; currency_id?: unknown }[] | undefined;
    if (!Array.isArray(items) || !items.length) return respond(error(400, "invalid_items", "items needed"));
    for (const item of items) {
      if (typeof item.unit_price !== "number" || item.unit_price <= 0) return respond(error(400, "invalid_items", "unit_price invalid"));
      if (typeof item.quantity !== "number" || !Number.isInteger(item.quantity) || item.quantity < 1) return respond(error(400, "invalid_items", "quantity invalid"));
      if (typeof item.title !== "string" || !item.title) return respond(error(400, "invalid_items", "title invalid"));
    }
    const total = items.reduce((sum, item) => sum + (item.unit_price as number) * (item.quantity as number), 0);
    if (typeof body.marketplace_fee === "number" && body.marketplace_fee > total) {
      return respond(error(400, "invalid_marketplace_fee", "marketplace_fee must not be greater than total amount."));
    }
    if (body.expires && typeof body.expiration_date_to === "string" && Number.isNaN(Date.parse(body.expiration_date_to))) {
      return respond(error(400, "invalid_expiration_date_to", "expiration_date_to invalid."));
    }
    const id = `${owner.userId}-${crypto.randomUUID()}`;
    preferences.set(id, { id, collectorId: owner.userId, body });
    return respond(
      HttpResponse.json(
        {
          ...body,
          id,
          collector_id: Number(owner.userId),
          client_id: MP_APP.clientId,
          operation_type: "regular_payment",
          marketplace: typeof body.marketplace_fee === "number" ? MP_APP.clientId : "NONE",
          marketplace_fee: body.marketplace_fee ?? 0,
          date_created: "2026-11-22T01:00:00.000-04:00",
          init_point: `https://www.mercadopago.com.ar/checkout/v1/redirect?pref_id=${id}`,
          sandbox_init_point: `https://sandbox.mercadopago.com.ar/checkout/v1/redirect?pref_id=${id}`,
        },
        { status: 201 },
      ),
    );
  }),

  http.get(`${MP_API}/v1/payments/:id`, ({ request, params }) => {
    const respond = (response: Response) => record(request, null, response);
    const owner = ownerOf(request);
    if (!owner) return respond(error(401, "unauthorized", "invalid access token"));
    const payment = payments.get(Number(params.id));
    if (!payment || String(payment.collector_id) !== owner.userId) {
      return respond(error(404, "not_found", "Payment not found", [{ code: 2000, description: "Payment not found" }]));
    }
    return respond(HttpResponse.json(paymentJson(payment)));
  }),

  http.post(`${MP_API}/v1/payments/:id/refunds`, async ({ request, params }) => {
    const body = await readBody(request);
    const respond = (response: Response) => record(request, body, response);
    const owner = ownerOf(request);
    if (!owner) return respond(error(401, "unauthorized", "invalid access token"));
    const key = request.headers.get("x-idempotency-key");
    if (!key) return respond(error(400, "bad_request", "Header X-Idempotency-Key can't be null"));
    const payment = payments.get(Number(params.id));
    if (!payment || String(payment.collector_id) !== owner.userId) {
      return respond(error(404, "not_found", "Payment not found", [{ code: 2000, description: "Payment not found" }]));
    }
    // The same key answers the same refund again: a retried request never refunds twice.
    const seen = idempotency.get(`${payment.id}:${key}`);
    if (seen) return respond(HttpResponse.json(seen, { status: 201 }));
    if (payment.status !== "approved") return respond(error(400, "bad_request", "Payment not in valid status to refund", [{ code: 2063, description: "The action requested is not valid for the current payment state" }]));
    const remaining = Math.round((payment.transaction_amount - payment.transaction_amount_refunded) * 100) / 100;
    const amount = typeof body?.amount === "number" ? body.amount : remaining;
    if (amount <= 0 || amount > remaining + 1e-9) return respond(error(400, "bad_request", "Invalid refund amount", [{ code: 4040, description: "amount attribute must be positive and not greater than the remaining amount" }]));
    const refund: MockRefund = {
      id: nextId(),
      payment_id: payment.id,
      amount,
      status: "approved",
      date_created: "2026-11-22T02:00:00.000-03:00",
      source: { id: owner.userId, name: "Vendedor", type: "collector" },
      unique_sequence_number: null,
    };
    payment.refunds.push(refund);
    payment.transaction_amount_refunded = Math.round((payment.transaction_amount_refunded + amount) * 100) / 100;
    if (payment.transaction_amount_refunded >= payment.transaction_amount) {
      payment.status = "refunded";
      payment.status_detail = "refunded";
    }
    idempotency.set(`${payment.id}:${key}`, refund);
    return respond(HttpResponse.json(refund, { status: 201 }));
  }),

  http.post(`${MP_API}/oauth/token`, async ({ request }) => {
    const body = (await readBody(request)) ?? {};
    const respond = (response: Response) => record(request, body, response);
    if (body.client_id !== MP_APP.clientId || body.client_secret !== MP_APP.clientSecret) {
      return respond(error(401, "invalid_client", "invalid client_id or client_secret"));
    }
    let owner: Owner | undefined;
    if (body.grant_type === "authorization_code") {
      const pending = codes.get(String(body.code ?? ""));
      if (!pending || pending.redirectUri !== body.redirect_uri || pending.clientId !== body.client_id) return respond(error(400, "invalid_grant", "invalid_grant"));
      codes.delete(String(body.code)); // a code works once
      owner = pending.owner;
    } else if (body.grant_type === "refresh_token") {
      owner = refreshTokens.get(String(body.refresh_token ?? ""));
      if (!owner) return respond(error(400, "invalid_grant", "invalid_grant"));
      refreshTokens.delete(String(body.refresh_token)); // rotated
    } else {
      return respond(error(400, "unsupported_grant_type", "grant_type not supported"));
    }
    const accessToken = `APP_USR-${MP_APP.clientId}-112210-${crypto.randomBytes(16).toString("hex")}-${owner.userId}`;
    const refreshToken = `TG-${crypto.randomBytes(12).toString("hex")}-${owner.userId}`;
    tokens.set(accessToken, owner);
    refreshTokens.set(refreshToken, owner);
    return respond(
      HttpResponse.json({
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: 15_552_000,
        scope: "offline_access read write",
        user_id: Number(owner.userId),
        refresh_token: refreshToken,
        public_key: `APP_USR-${crypto.randomUUID()}`,
        live_mode: owner.live,
      }),
    );
  }),
];
