import { eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GOOGLE_EMAIL_NOT_VERIFIED } from "#server/accounts/google";
import { verifyAccessToken } from "#server/auth/tokens";
import { getDb } from "#server/db/client";
import { users } from "#server/db/schema";
import { createTestUser } from "#tests/support/context";
import {
  GOOGLE_TEST_CLIENT,
  GOOGLE_USERINFO_URL,
  googleConsent,
  googleHandlers,
  googleProfile,
  googleTokenRequests,
  resetGoogleMock,
} from "#tests/support/msw/google";
import { cookiesAfter, formRequest, getRequest, run } from "#tests/support/remix";
import * as google from "./cuenta.google._index";
import * as callback from "./cuenta.google.callback";
import * as finalizar from "./cuenta.finalizar-google";
import * as signIn from "./cuenta.iniciar-sesion._index";
import * as loginEmail from "./cuenta.iniciar-sesion.email";

// Google is configured for this file (env() is read lazily, on the first request).
process.env.GOOGLE_CLIENT_ID = GOOGLE_TEST_CLIENT.clientId;
process.env.GOOGLE_CLIENT_SECRET = GOOGLE_TEST_CLIENT.clientSecret;

// MSW stands in for Google only; our routes, strategy and domain run for real.
const server = setupServer(...googleHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
// Failed sign-ins are logged on purpose; keep the test output readable.
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  server.resetHandlers();
  resetGoogleMock();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

/** "Con Google": our redirect to Google, and the state cookie the browser keeps. */
async function startGoogle(cookies: Record<string, string> = {}) {
  const start = await run(google.loader, getRequest("/cuenta/google", { cookies }));
  expect(start.status).toBe(302);
  return { authorizationUrl: start.location!, jar: cookiesAfter(start, cookies) };
}

async function finishGoogle(callbackUrl: string, jar: Record<string, string>) {
  const url = new URL(callbackUrl);
  return run(callback.loader, getRequest(url.pathname + url.search, { cookies: jar }));
}

async function emailOf(accessToken: string) {
  const check = await verifyAccessToken(accessToken, new Date());
  return check.ok ? check.claims.email : null;
}

async function userByEmail(email: string) {
  const [row] = await (await getDb()).select().from(users).where(eq(users.email, email));
  return row;
}

describe("Google sign-in (remix-auth OAuth2 against Google's endpoints, mocked)", () => {
  it("shows the button when configured and sends the browser to Google with PKCE and our callback", async () => {
    expect((await run(signIn.loader, getRequest("/cuenta/iniciar-sesion"))).data.googleEnabled).toBe(true);
    const { authorizationUrl, jar } = await startGoogle();
    const url = new URL(authorizationUrl);
    expect(url.origin + url.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: GOOGLE_TEST_CLIENT.clientId,
      redirect_uri: "http://localhost:3000/cuenta/google/callback",
      scope: "openid email profile",
      code_challenge_method: "S256",
      prompt: "select_account",
    });
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("code_challenge")).toBeTruthy();
    expect(Object.keys(jar).some((name) => name.startsWith("google-oauth"))).toBe(true);
  });

  it("a new person: creates the account with Google's names, signs in and asks for the missing fields", async () => {
    const profile = googleProfile({ given_name: "Lucía", family_name: "Fernández" });
    const { authorizationUrl, jar } = await startGoogle();
    const result = await finishGoogle(googleConsent(authorizationUrl, profile), jar);

    expect(result.status).toBe(302);
    expect(result.location).toBe("/cuenta/finalizar-google");
    expect(await emailOf(result.cookies.at.value)).toBe(profile.email);
    expect(result.cookies.rt.value).toBeTruthy();

    const row = await userByEmail(profile.email);
    expect(row).toMatchObject({ googleId: profile.sub, firstName: "Lucía", lastName: "Fernández", passwordHash: null });

    // The code was exchanged as Google documents it: client credentials and the PKCE verifier.
    expect(googleTokenRequests).toHaveLength(1);
    expect(googleTokenRequests[0].authorization).toMatch(/^Basic /);
    expect(googleTokenRequests[0].body).toMatchObject({ grant_type: "authorization_code", redirect_uri: "http://localhost:3000/cuenta/google/callback" });
    expect(googleTokenRequests[0].body.code_verifier).toBeTruthy();

    const page = await run(finalizar.loader, getRequest("/cuenta/finalizar-google", { cookies: cookiesAfter(result, jar) }));
    expect(page.data.missing).toEqual(["documentType", "documentNumber", "phoneNumber"]);
  });

  it("an existing account with the same verified email is linked, and the saved return path is honoured", async () => {
    const existing = await createTestUser({ documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" });
    const profile = googleProfile({ email: existing.email, given_name: "Otro", family_name: "Nombre" });
    const { authorizationUrl, jar } = await startGoogle({ "loggin-callback": "/eventos/la-fiesta" });
    const result = await finishGoogle(googleConsent(authorizationUrl, profile), jar);

    expect(result.status).toBe(302);
    expect(result.location).toBe("/eventos/la-fiesta");
    expect(result.cookies["loggin-callback"].maxAge).toBe(0);
    const row = await userByEmail(existing.email);
    expect(row.id).toBe(existing.id);
    expect(row.googleId).toBe(profile.sub);
    expect(row.firstName).toBe("Sofía"); // our data is not overwritten by Google's
    // The password keeps working too.
    const login = await run(loginEmail.action, formRequest("/cuenta/iniciar-sesion/email", { email: existing.email, password: existing.password }));
    expect(login.status).toBe(302);
  });

  it("a Google account whose email is not verified is not linked to an existing account", async () => {
    const existing = await createTestUser();
    const { authorizationUrl, jar } = await startGoogle();
    const result = await finishGoogle(googleConsent(authorizationUrl, googleProfile({ email: existing.email, email_verified: false })), jar);

    expect(result.status).toBe(302);
    expect(result.location).toBe("/cuenta/iniciar-sesion?error=google-email");
    expect(result.cookies.at).toBeUndefined();
    expect((await userByEmail(existing.email)).googleId).toBeNull();
    const page = await run(signIn.loader, getRequest(result.location!));
    expect(page.data.error).toBe(GOOGLE_EMAIL_NOT_VERIFIED);
  });

  it("cancelling on Google's screen comes back to the sign-in choices, signed out", async () => {
    const { authorizationUrl, jar } = await startGoogle();
    const result = await finishGoogle(googleConsent(authorizationUrl, "cancel"), jar);
    expect(result.location).toBe("/cuenta/iniciar-sesion");
    expect(result.cookies.at).toBeUndefined();
    expect(googleTokenRequests).toHaveLength(0);
  });

  it("a callback that this browser did not start (no or other state cookie) is refused before talking to Google", async () => {
    const { authorizationUrl } = await startGoogle();
    const forged = googleConsent(authorizationUrl, googleProfile());
    const other = await startGoogle();
    const result = await finishGoogle(forged, other.jar);
    expect(result.location).toBe("/cuenta/iniciar-sesion?error=google");
    expect(result.cookies.at).toBeUndefined();
    expect(googleTokenRequests).toHaveLength(0);
  });

  it("a replayed code is refused by Google and the person is told to try again", async () => {
    const { authorizationUrl, jar } = await startGoogle();
    const back = googleConsent(authorizationUrl, googleProfile());
    expect((await finishGoogle(back, jar)).status).toBe(302);
    const replay = await finishGoogle(back, jar);
    expect(replay.location).toBe("/cuenta/iniciar-sesion?error=google");
    expect(replay.cookies.at).toBeUndefined();
  });

  it("when Google's userinfo fails, nobody is signed in", async () => {
    server.use(http.get(GOOGLE_USERINFO_URL, () => HttpResponse.json({ error: "backend_error" }, { status: 503 })));
    const profile = googleProfile();
    const { authorizationUrl, jar } = await startGoogle();
    const result = await finishGoogle(googleConsent(authorizationUrl, profile), jar);
    expect(result.location).toBe("/cuenta/iniciar-sesion?error=google");
    expect(result.cookies.at).toBeUndefined();
    expect(await userByEmail(profile.email)).toBeUndefined();
  });
});
