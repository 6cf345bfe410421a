import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { jobs, memberships, mercadopagoAccounts, users } from "#server/db/schema";
import { runDueJobs } from "#server/jobs/queue";
import { jobHandlers } from "#server/worker/handlers";
import {
  CONNECT_CANCELLED,
  CONNECT_EXPIRED,
  CONNECTED_MESSAGE,
  DISCONNECTED_MESSAGE,
  MERCADOPAGO_REFRESH_JOB,
  REFRESH_BEFORE_MS,
  accessTokenOf,
  decryptSecret,
  refreshMercadoPagoToken,
} from "#server/payments/mercadopago-accounts";
import { createTestUser } from "#tests/support/context";
import { createProducer } from "#tests/support/factories";
import { MP_APP, MP_PLATFORM, mercadoPagoConsent, mercadoPagoHandlers, mercadoPagoSeller, requestsTo, resetMercadoPagoMock } from "#tests/support/msw/mercadopago";
import { formRequest, getRequest, run, type RouteResult } from "#tests/support/remix";
import * as page from "./organizacion.metodos-de-pago";
import * as callback from "./organizacion_.metodos-de-pago.mercadopago.callback";
import { enrolSecondFactor } from "#tests/support/two-factor";
import { TWO_FACTOR_MESSAGES } from "#server/accounts/two-factor";
import { gql } from "#tests/support/graphql";

process.env.MERCADOPAGO_ACCESS_TOKEN = MP_PLATFORM.accessToken;
process.env.MERCADOPAGO_CLIENT_ID = MP_APP.clientId;
process.env.MERCADOPAGO_CLIENT_SECRET = MP_APP.clientSecret;

const server = setupServer(...mercadoPagoHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  server.resetHandlers();
  resetMercadoPagoMock();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

type Cookies = Record<string, string>;

async function signedIn(userId: string): Promise<Cookies> {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const tokens = await startSession(db, user, new Date());
  return { at: tokens.accessToken, rt: tokens.refreshToken };
}

/** An owner whose sign-in proved the second factor (connecting Mercado Pago asks for it). */
async function owner() {
  const p = await createProducer();
  const cookies = await signedIn(p.user.id);
  await enrolSecondFactor(p.user, cookies.at);
  return { ...p, cookies };
}

/** Like `run`, but a thrown `data(…, { status })` (403/404 pages) is a result too. */
async function pageResult<T = any>(fn: (args: any) => unknown, request: Request): Promise<RouteResult<T>> {
  try {
    return await run<T>(fn, request);
  } catch (error) {
    const e = error as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (e?.type === "DataWithResponseInit") return { status: e.init?.status ?? 200, headers: new Headers(e.init?.headers), location: null, cookies: {}, data: e.data as T };
    throw error;
  }
}

function flashOf(result: RouteResult) {
  const raw = result.cookies.flash?.value;
  return raw ? JSON.parse(raw) : null;
}

const PATH = "/organizacion/metodos-de-pago";

async function connect(cookies: Cookies, seller: { userId: string } | "cancel", organizationId?: string) {
  const path = organizationId ? `${PATH}?organizationId=${organizationId}` : PATH;
  const start = await run(page.action, formRequest(path, { intent: "connect" }, { cookies }));
  expect(start.status).toBe(302);
  const back = new URL(mercadoPagoConsent(start.location!, seller));
  const done = await pageResult(callback.loader, getRequest(back.pathname + back.search, { cookies }));
  return { start, done };
}

async function accountOf(organizationId: string) {
  const [row] = await (await getDb()).select().from(mercadopagoAccounts).where(eq(mercadopagoAccounts.organizationId, organizationId));
  return row;
}

describe("/organizacion/metodos-de-pago: connecting asks for the second factor", () => {
  it("without two-factor the owner is sent to turn it on; on a sign-in that has not proved it, to confirm it and come back", async () => {
    const p = await createProducer();
    const cookies = await signedIn(p.user.id);
    const refused = await run(page.action, formRequest(PATH, { intent: "connect" }, { cookies }));
    expect(refused.location).toBe("/cuenta/seguridad");
    expect(flashOf(refused)).toEqual({ type: "error", message: TWO_FACTOR_MESSAGES.enrolFirst });

    await enrolSecondFactor(p.user, cookies.at);
    const otherDevice = await signedIn(p.user.id);
    const confirm = await run(page.action, formRequest(PATH, { intent: "connect" }, { cookies: otherDevice }));
    expect(confirm.location).toBe(`/cuenta/verificacion?returnTo=${encodeURIComponent(PATH)}`);
    expect(flashOf(confirm)).toEqual({ type: "error", message: TWO_FACTOR_MESSAGES.verifyFirst });
    expect(await accountOf(p.organization.id)).toBeUndefined();
  });

  it("over GraphQL, connectMercadoPago answers FORBIDDEN with the missing step in extensions.reason", async () => {
    const p = await createProducer();
    const cookies = await signedIn(p.user.id);
    const CONNECT = `mutation($input: OrganizationPaymentInput!) { connectMercadoPago(input: $input) { url } }`;
    const enrolFirst = await gql(CONNECT, { tokens: { accessToken: cookies.at }, variables: { input: { organizationId: p.organization.id } } });
    expect(enrolFirst.body.errors?.[0].extensions).toMatchObject({ code: "FORBIDDEN", reason: "SECOND_FACTOR_ENROL" });
    await enrolSecondFactor(p.user, cookies.at);
    const otherDevice = await signedIn(p.user.id);
    const verifyFirst = await gql(CONNECT, { tokens: { accessToken: otherDevice.at }, variables: { input: { organizationId: p.organization.id } } });
    expect(verifyFirst.body.errors?.[0].extensions).toMatchObject({ code: "FORBIDDEN", reason: "SECOND_FACTOR_VERIFY" });
  });
});

describe("/organizacion/metodos-de-pago: connecting Mercado Pago by OAuth", () => {
  it("sends the owner to Mercado Pago's consent screen and stores the tokens encrypted on the way back", async () => {
    const { organization, cookies } = await owner();
    const before = await run(page.loader, getRequest(PATH, { cookies }));
    expect(before.data).toMatchObject({ configured: true, sandbox: false, account: null });
    expect(before.data.bankAccountsHref).toMatch(/^\/organizacion\/cuentas-bancarias/);

    const seller = mercadoPagoSeller();
    const { start, done } = await connect(cookies, seller);
    const auth = new URL(start.location!);
    expect(auth.origin + auth.pathname).toBe("https://auth.mercadopago.com/authorization");
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      client_id: MP_APP.clientId,
      response_type: "code",
      platform_id: "mp",
      redirect_uri: "http://localhost:3000/organizacion/metodos-de-pago/mercadopago/callback",
    });
    expect(auth.searchParams.get("state")).toBeTruthy();

    expect(done.status).toBe(302);
    expect(done.location).toBe(`${PATH}?organizationId=${organization.id}`);
    expect(flashOf(done)).toEqual({ type: "success", message: CONNECTED_MESSAGE });
    const [exchange] = requestsTo("POST", "/oauth/token");
    expect(exchange.body).toMatchObject({ client_id: MP_APP.clientId, client_secret: MP_APP.clientSecret, grant_type: "authorization_code", redirect_uri: "http://localhost:3000/organizacion/metodos-de-pago/mercadopago/callback" });

    const account = await accountOf(organization.id);
    expect(account.mpUserId).toBe(seller.userId);
    expect(account.publicKey).toMatch(/^APP_USR-/);
    // The row never holds the tokens in clear.
    const plainAccess = accessTokenOf(account);
    const plainRefresh = decryptSecret(account.refreshTokenEncrypted!);
    expect(plainAccess).toMatch(new RegExp(`^APP_USR-.*-${seller.userId}$`));
    expect(plainRefresh).toMatch(/^TG-/);
    expect(JSON.stringify(account)).not.toContain(plainAccess);
    expect(JSON.stringify(account)).not.toContain(plainRefresh);
    expect(account.accessTokenEncrypted).not.toContain(seller.userId);
    // 180 days, as Mercado Pago says (expires_in 15552000 s).
    expect(Math.round((account.expiresAt.getTime() - account.connectedAt.getTime()) / 86_400_000)).toBe(180);

    const after = await run(page.loader, getRequest(PATH, { cookies }));
    expect(after.data.account).toMatchObject({ mpUserId: seller.userId, expired: false, liveMode: true });
  });

  it("refreshes the tokens before they expire (job), rotating the refresh token", async () => {
    const { organization, cookies } = await owner();
    const seller = mercadoPagoSeller();
    await connect(cookies, seller);
    const db = await getDb();
    const first = await accountOf(organization.id);
    const oldAccess = accessTokenOf(first);
    const oldRefresh = decryptSecret(first.refreshTokenEncrypted!);
    const [job] = (await db.select().from(jobs).where(eq(jobs.kind, MERCADOPAGO_REFRESH_JOB))).filter((j) => j.payload.accountId === first.id);
    expect(job.runAt.getTime()).toBe(first.expiresAt.getTime() - REFRESH_BEFORE_MS);

    // Far from expiring, a direct call does nothing.
    expect(await refreshMercadoPagoToken(db, first.id, new Date())).toBe("not-due");
    // When the job comes due, it renews them.
    const due = new Date(job.runAt.getTime() + 1000);
    await runDueJobs(db, jobHandlers, due);
    // (Other tests' accounts may come due too; their tokens died with the mock's reset.)
    const [ran] = await db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(ran.doneAt).not.toBeNull();
    const second = await accountOf(organization.id);
    expect(accessTokenOf(second)).not.toBe(oldAccess);
    expect(decryptSecret(second.refreshTokenEncrypted!)).not.toBe(oldRefresh);
    expect(second.refreshedAt!.getTime()).toBe(due.getTime());
    expect(second.expiresAt.getTime()).toBe(due.getTime() + 15_552_000_000);
    const refreshCall = requestsTo("POST", "/oauth/token").at(-1)!;
    expect(refreshCall.body).toMatchObject({ grant_type: "refresh_token", refresh_token: oldRefresh, client_id: MP_APP.clientId });
    // The next renewal is queued.
    const next = (await db.select().from(jobs).where(eq(jobs.kind, MERCADOPAGO_REFRESH_JOB))).filter((j) => j.payload.accountId === first.id && !j.doneAt);
    expect(next).toHaveLength(1);
    expect(next[0].runAt.getTime()).toBe(second.expiresAt.getTime() - REFRESH_BEFORE_MS);

    // A refresh Mercado Pago refuses (rotated token) is recorded and retried.
    await db.update(mercadopagoAccounts).set({ refreshTokenEncrypted: first.refreshTokenEncrypted }).where(eq(mercadopagoAccounts.id, first.id));
    await expect(refreshMercadoPagoToken(db, first.id, due, { force: true })).rejects.toThrow(/invalid_grant/);
    expect((await accountOf(organization.id)).lastRefreshError).toMatch(/400/);
    expect((await run(page.loader, getRequest(PATH, { cookies }))).data.account.lastRefreshError).toBeTruthy();
  });

  it("disconnects: the tokens are forgotten", async () => {
    const { organization, cookies } = await owner();
    await connect(cookies, mercadoPagoSeller());
    const result = await run(page.action, formRequest(PATH, { intent: "disconnect" }, { cookies }));
    expect(result.status).toBe(302);
    expect(flashOf(result)).toEqual({ type: "success", message: DISCONNECTED_MESSAGE });
    expect(await accountOf(organization.id)).toBeUndefined();
  });

  it("a cancelled consent, an expired or tampered state, or another person's browser connect nothing", async () => {
    const { organization, cookies } = await owner();
    const cancelled = await connect(cookies, "cancel");
    expect(cancelled.done.status).toBe(302);
    expect(flashOf(cancelled.done)).toEqual({ type: "error", message: CONNECT_CANCELLED });

    const start = await run(page.action, formRequest(PATH, { intent: "connect" }, { cookies }));
    const back = new URL(mercadoPagoConsent(start.location!, mercadoPagoSeller()));
    const tampered = new URL(back);
    tampered.searchParams.set("state", back.searchParams.get("state")!.replace(/^./, (c) => (c === "e" ? "f" : "e")));
    const bad = await pageResult(callback.loader, getRequest(tampered.pathname + tampered.search, { cookies }));
    expect(flashOf(bad)).toEqual({ type: "error", message: CONNECT_EXPIRED });

    // A member of the same organization who did not start it.
    const other = await createTestUser({ roles: ["producer"] });
    await (await getDb()).insert(memberships).values({ organizationId: organization.id, userId: other.id, role: "admin" });
    const stolen = await pageResult(callback.loader, getRequest(back.pathname + back.search, { cookies: await signedIn(other.id) }));
    expect(stolen.status).toBe(403);

    // Fifteen minutes later the state is no longer valid.
    vi.useFakeTimers({ now: Date.now() + 16 * 60_000, toFake: ["Date"] });
    try {
      const late = await pageResult(callback.loader, getRequest(back.pathname + back.search, { cookies }));
      expect(flashOf(late)).toEqual({ type: "error", message: CONNECT_EXPIRED });
    } finally {
      vi.useRealTimers();
    }
    expect(await accountOf(organization.id)).toBeUndefined();
    expect(requestsTo("POST", "/oauth/token")).toHaveLength(0);
  });

  it("only owners and admins (money:manage) see or change it", async () => {
    const { organization } = await owner();
    const operator = await createTestUser({ roles: ["producer"] });
    await (await getDb()).insert(memberships).values({ organizationId: organization.id, userId: operator.id, role: "operator" });
    const cookies = await signedIn(operator.id);
    expect((await pageResult(page.loader, getRequest(`${PATH}?organizationId=${organization.id}`, { cookies }))).status).toBe(403);
    const post = await pageResult(page.action, formRequest(`${PATH}?organizationId=${organization.id}`, { intent: "connect" }, { cookies }));
    expect(post.status).toBe(403);
  });
});
