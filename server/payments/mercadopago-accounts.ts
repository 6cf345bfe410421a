import type { MercadoPagoAccountRow } from "#server/db/schema";
import { recordAudit } from "#server/organizations/audit";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { mercadopagoAccounts } from "#server/db/schema";
import { appUrl, authSecret, env, paymentsMode } from "#server/env";
import { Conflict, Forbidden, Invalid, Unauthenticated } from "#server/errors";
import { enqueue } from "#server/jobs/queue";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";
import { mercadoPagoRequest } from "./mercadopago-http";
import { decryptSecret as decrypt, encryptSecret as encrypt } from "#server/auth/encryption";
import { requireSecondFactor } from "#server/accounts/two-factor";

/**
 * Organizers connect their own Mercado Pago account (OAuth, decisions 29 and 31) so
 * buyers pay straight into it and our service fee is taken as the
 * preference's `marketplace_fee`. Tokens are kept encrypted and refreshed by a
 * job before they expire (Mercado Pago's last 180 days).
 */

export const MERCADOPAGO_AUTHORIZATION_URL = "https://auth.mercadopago.com/authorization";
export const MERCADOPAGO_CALLBACK_PATH = "/organizacion/metodos-de-pago/mercadopago/callback";
/** Job kind that renews an account's tokens (payload `{ accountId }`). */
export const MERCADOPAGO_REFRESH_JOB = "mercadopago-refresh-token";
/** Tokens are renewed this long before they expire. */
export const REFRESH_BEFORE_MS = 30 * 24 * 3600_000;
/** How long the browser has to come back from Mercado Pago's consent screen. */
const STATE_TTL_MS = 15 * 60_000;


export const NOT_CONFIGURED = "La conexión con Mercado Pago no está configurada en este servidor.";

export function isMercadoPagoConnectConfigured(): boolean {
  const e = env();
  return Boolean(e.MERCADOPAGO_CLIENT_ID && e.MERCADOPAGO_CLIENT_SECRET);
}

export function mercadoPagoCallbackUrl(): string {
  return `${appUrl()}${MERCADOPAGO_CALLBACK_PATH}`;
}

// ───────────────────────── Token encryption ─────────────────────────

const TOKENS = "mercadopago-oauth-tokens";

/** The organizer's tokens, encrypted at rest (server/auth/encryption.ts). */
export function encryptSecret(plain: string): string {
  return encrypt(plain, TOKENS);
}

export function decryptSecret(stored: string): string {
  return decrypt(stored, TOKENS);
}

// ───────────────────────── OAuth state ─────────────────────────

interface OAuthState {
  organizationId: string;
  userId: string;
  expiresAt: number;
  nonce: string;
}

function stateMac(payload: string): string {
  return crypto.createHmac("sha256", authSecret()).update(`mercadopago-oauth-state:${payload}`).digest("base64url");
}

export function signOAuthState(state: OAuthState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url");
  return `${payload}.${stateMac(payload)}`;
}

export function verifyOAuthState(value: string | null | undefined, now: Date): OAuthState | null {
  if (!value) return null;
  const [payload, mac] = value.split(".");
  if (!payload || !mac) return null;
  const expected = Buffer.from(stateMac(payload));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  try {
    const state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as OAuthState;
    if (typeof state.expiresAt !== "number" || state.expiresAt < now.getTime()) return null;
    return state;
  } catch {
    return null;
  }
}

// ───────────────────────── Reading accounts (server use, no authorization) ─────────────────────────

export async function accountForOrganization(db: DbOrTx, organizationId: string): Promise<MercadoPagoAccountRow | null> {
  const [row] = await db.select().from(mercadopagoAccounts).where(eq(mercadopagoAccounts.organizationId, organizationId));
  return row ?? null;
}

export async function accountForMercadoPagoUser(db: DbOrTx, mpUserId: string): Promise<MercadoPagoAccountRow | null> {
  const [row] = await db.select().from(mercadopagoAccounts).where(eq(mercadopagoAccounts.mpUserId, mpUserId)).limit(1);
  return row ?? null;
}

/** An account whose access token still works at `now` (an expired one falls back to the platform's token). */
export function isUsable(account: MercadoPagoAccountRow | null, now: Date): account is MercadoPagoAccountRow {
  return Boolean(account && account.expiresAt.getTime() > now.getTime());
}

export function accessTokenOf(account: MercadoPagoAccountRow): string {
  return decryptSecret(account.accessTokenEncrypted);
}

// ───────────────────────── OAuth token endpoint ─────────────────────────

/** POST /oauth/token answer (Mercado Pago's OAuth reference). */
interface OAuthTokenResponse {
  access_token: string;
  token_type?: string;
  expires_in: number;
  scope?: string;
  user_id: number | string;
  refresh_token?: string;
  public_key?: string;
  live_mode?: boolean;
}

async function requestToken(body: Record<string, string>): Promise<OAuthTokenResponse> {
  const e = env();
  const response = await mercadoPagoRequest<OAuthTokenResponse>("POST", "/oauth/token", {
    body: { client_id: e.MERCADOPAGO_CLIENT_ID, client_secret: e.MERCADOPAGO_CLIENT_SECRET, ...body },
  });
  if (response.status !== 200 && response.status !== 201) {
    throw new MercadoPagoOAuthError(response.status, response.json);
  }
  const json = response.json;
  if (!json?.access_token || json.user_id === undefined || typeof json.expires_in !== "number") throw new MercadoPagoOAuthError(response.status, null);
  return json;
}

export class MercadoPagoOAuthError extends Error {
  constructor(
    readonly status: number,
    body: unknown,
  ) {
    const b = (body ?? {}) as { error?: unknown; message?: unknown };
    super(`Mercado Pago OAuth respondió ${status}${b.error ? ` (${String(b.error)})` : ""}${b.message ? `: ${String(b.message)}` : ""}`);
    this.name = "MercadoPagoOAuthError";
  }
}

function tokenColumns(token: OAuthTokenResponse, now: Date) {
  return {
    mpUserId: String(token.user_id),
    accessTokenEncrypted: encryptSecret(token.access_token),
    refreshTokenEncrypted: token.refresh_token ? encryptSecret(token.refresh_token) : null,
    publicKey: token.public_key ?? null,
    liveMode: token.live_mode ?? true,
    scope: token.scope ?? null,
    expiresAt: new Date(now.getTime() + token.expires_in * 1000),
    updatedAt: now,
  };
}

async function scheduleRefresh(db: DbOrTx, account: MercadoPagoAccountRow, now: Date) {
  if (!account.refreshTokenEncrypted) return;
  const at = new Date(Math.max(now.getTime(), account.expiresAt.getTime() - REFRESH_BEFORE_MS));
  await enqueue(db, MERCADOPAGO_REFRESH_JOB, { accountId: account.id }, at);
}

// ───────────────────────── Use cases ─────────────────────────

const organizationInput = z.object({ organizationId: z.string().min(1, "Elegí una organización.") });

export interface MercadoPagoConnection {
  /** The server has the marketplace application's credentials (client id and secret). */
  configured: boolean;
  /** Payments run on the local sandbox (no platform access token). */
  sandbox: boolean;
  account: {
    mpUserId: string;
    connectedAt: Date;
    expiresAt: Date;
    refreshedAt: Date | null;
    liveMode: boolean;
    expired: boolean;
    lastRefreshError: string | null;
  } | null;
}

/** What /organizacion/metodos-de-pago shows. Needs `money:manage`. */
export async function getMercadoPagoConnection(ctx: Ctx, input: DomainInput<typeof organizationInput>): Promise<MercadoPagoConnection> {
  const { organizationId } = parseInput(organizationInput, input);
  await requireCapability(ctx, organizationId, "money:manage");
  const account = await accountForOrganization(ctx.db, organizationId);
  return {
    configured: isMercadoPagoConnectConfigured(),
    sandbox: paymentsMode() === "sandbox",
    account: account
      ? {
          mpUserId: account.mpUserId,
          connectedAt: account.connectedAt,
          expiresAt: account.expiresAt,
          refreshedAt: account.refreshedAt,
          liveMode: account.liveMode,
          expired: !isUsable(account, ctx.now),
          lastRefreshError: account.lastRefreshError,
        }
      : null,
  };
}

/**
 * "Conectar Mercado Pago": the URL of Mercado Pago's consent screen, with a
 * signed state naming the organization and the member who asked (checked
 * again on the way back, so another person's browser cannot complete it).
 */
export async function startMercadoPagoConnection(ctx: Ctx, input: DomainInput<typeof organizationInput>): Promise<{ url: string }> {
  const { organizationId } = parseInput(organizationInput, input);
  await requireCapability(ctx, organizationId, "money:manage");
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  if (!isMercadoPagoConnectConfigured()) throw new Conflict(NOT_CONFIGURED);
  // Where the organization's money goes: a stolen session alone must not be able to change it.
  await requireSecondFactor(ctx);
  const state = signOAuthState({
    organizationId,
    userId: ctx.actor.userId,
    expiresAt: ctx.now.getTime() + STATE_TTL_MS,
    nonce: crypto.randomBytes(12).toString("base64url"),
  });
  const url = new URL(MERCADOPAGO_AUTHORIZATION_URL);
  url.searchParams.set("client_id", env().MERCADOPAGO_CLIENT_ID!);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("platform_id", "mp");
  url.searchParams.set("state", state);
  url.searchParams.set("redirect_uri", mercadoPagoCallbackUrl());
  return { url: url.toString() };
}

const callbackInput = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
});

export const CONNECT_CANCELLED = "No conectamos tu cuenta: cancelaste la autorización en Mercado Pago.";
export const CONNECT_EXPIRED = "El pedido de conexión venció o no es válido. Volvé a tocar «Conectar Mercado Pago».";
export const CONNECTED_MESSAGE = "¡Listo! Conectamos tu cuenta de Mercado Pago.";
export const DISCONNECTED_MESSAGE = "Desconectamos tu cuenta de Mercado Pago.";
export const CONNECT_FAILED = "Mercado Pago no confirmó la conexión. Probá de nuevo en unos minutos.";

/**
 * The OAuth callback: checks the state (same member, not expired), exchanges
 * the code at POST /oauth/token and stores the tokens encrypted. Reconnecting
 * replaces the previous account. Returns the organization, for the redirect.
 */
export async function finishMercadoPagoConnection(ctx: Ctx, input: DomainInput<typeof callbackInput>): Promise<{ organizationId: string; mpUserId: string }> {
  const { code, state: rawState, error } = parseInput(callbackInput, input);
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const state = verifyOAuthState(rawState, ctx.now);
  if (!state) throw new Invalid({ _form: [CONNECT_EXPIRED] }, CONNECT_EXPIRED);
  if (state.userId !== ctx.actor.userId) throw new Forbidden();
  await requireCapability(ctx, state.organizationId, "money:manage");
  if (error || !code) throw new Invalid({ _form: [CONNECT_CANCELLED] }, CONNECT_CANCELLED);
  if (!isMercadoPagoConnectConfigured()) throw new Conflict(NOT_CONFIGURED);

  let token: OAuthTokenResponse;
  try {
    token = await requestToken({ grant_type: "authorization_code", code, redirect_uri: mercadoPagoCallbackUrl() });
  } catch (cause) {
    console.error("Mercado Pago OAuth: no se pudo canjear el código", cause instanceof Error ? cause.message : cause);
    throw new Conflict(CONNECT_FAILED);
  }
  const values = tokenColumns(token, ctx.now);
  const account = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mercadopagoAccounts)
      .values({ organizationId: state.organizationId, ...values, connectedAt: ctx.now, connectedByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null })
      .onConflictDoUpdate({
        target: mercadopagoAccounts.organizationId,
        set: { ...values, connectedAt: ctx.now, connectedByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null, refreshedAt: null, lastRefreshError: null },
      })
      .returning();
    await scheduleRefresh(tx, row, ctx.now);
    await recordAudit(tx, ctx, { organizationId: row.organizationId, action: "mercadopago.connect", targetId: row.id, data: { mpUserId: row.mpUserId } });
    return row;
  });
  return { organizationId: account.organizationId, mpUserId: account.mpUserId };
}

/** "Desconectar": forgets the tokens; new checkouts use the platform's account. True when there was one. */
export async function disconnectMercadoPago(ctx: Ctx, input: DomainInput<typeof organizationInput>): Promise<boolean> {
  const { organizationId } = parseInput(organizationInput, input);
  await requireCapability(ctx, organizationId, "money:manage");
  const deleted = await ctx.db.delete(mercadopagoAccounts).where(eq(mercadopagoAccounts.organizationId, organizationId)).returning({ id: mercadopagoAccounts.id, mpUserId: mercadopagoAccounts.mpUserId });
  if (deleted.length) await recordAudit(ctx.db, ctx, { organizationId, action: "mercadopago.disconnect", targetId: deleted[0].id, data: { mpUserId: deleted[0].mpUserId } });
  return deleted.length > 0;
}

/**
 * Renews an account's tokens with grant_type refresh_token (the job's body;
 * callable directly). "not-due" when it is still far from expiring (a job
 * left from an earlier connection), "gone" when the account was disconnected.
 * A failure is recorded on the account and thrown, so the job retries.
 */
export async function refreshMercadoPagoToken(
  db: DbOrTx,
  accountId: string,
  now: Date,
  options: { force?: boolean } = {},
): Promise<"refreshed" | "not-due" | "gone"> {
  const [account] = await db.select().from(mercadopagoAccounts).where(eq(mercadopagoAccounts.id, accountId));
  if (!account || !account.refreshTokenEncrypted) return "gone";
  if (!options.force && account.expiresAt.getTime() - now.getTime() > REFRESH_BEFORE_MS + 60_000) return "not-due";
  let token: OAuthTokenResponse;
  try {
    token = await requestToken({ grant_type: "refresh_token", refresh_token: decryptSecret(account.refreshTokenEncrypted) });
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    await db.update(mercadopagoAccounts).set({ lastRefreshError: message.slice(0, 500), updatedAt: now }).where(eq(mercadopagoAccounts.id, accountId));
    throw cause;
  }
  const values = tokenColumns(token, now);
  const [updated] = await db
    .update(mercadopagoAccounts)
    .set({ ...values, refreshTokenEncrypted: values.refreshTokenEncrypted ?? account.refreshTokenEncrypted, refreshedAt: now, lastRefreshError: null })
    .where(eq(mercadopagoAccounts.id, accountId))
    .returning();
  if (!updated) return "gone";
  await scheduleRefresh(db, updated, now);
  return "refreshed";
}
