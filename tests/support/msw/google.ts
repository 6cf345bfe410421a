import crypto from "node:crypto";
import { http, HttpResponse } from "msw";

/**
 * Google's OAuth 2.0 / OpenID Connect endpoints, mocked with the payloads
 * Google documents:
 * - token exchange: https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code
 * - userinfo: https://developers.google.com/identity/openid-connect/openid-connect#obtaininguserprofileinformation
 *
 * The browser step (accounts.google.com consent screen) is played by
 * `googleConsent()`: given the authorization URL our app redirected to, it
 * returns the callback URL Google would send the browser back to.
 */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
export const GOOGLE_USERINFO_URL = "https://openidconnect.googleapis.com/v1/userinfo";

export const GOOGLE_TEST_CLIENT = {
  clientId: "1234567890-tribuna.apps.googleusercontent.com",
  clientSecret: "GOCSPX-test-secret",
} as const;

export interface GoogleUserinfo {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  locale?: string;
  hd?: string;
}

let sequence = 0;

/** A Google account as the userinfo endpoint describes it. */
export function googleProfile(overrides: Partial<GoogleUserinfo> = {}): GoogleUserinfo {
  sequence += 1;
  const given = overrides.given_name ?? "Lucía";
  const family = overrides.family_name ?? "Fernández";
  return {
    sub: `1101694844743862${String(sequence).padStart(5, "0")}`,
    name: `${given} ${family}`,
    given_name: given,
    family_name: family,
    picture: "https://lh3.googleusercontent.com/a/ACg8ocJ-test=s96-c",
    email: `lucia.${sequence}@gmail.com`,
    email_verified: true,
    ...overrides,
  };
}

interface PendingCode {
  profile: GoogleUserinfo;
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
}

const codes = new Map<string, PendingCode>();
const accessTokens = new Map<string, GoogleUserinfo>();
/** Every token request the mock received (form fields and Authorization header), for assertions. */
export const googleTokenRequests: { body: Record<string, string>; authorization: string | null }[] = [];

export function resetGoogleMock() {
  codes.clear();
  accessTokens.clear();
  googleTokenRequests.length = 0;
}

/**
 * Plays the person choosing `profile` on Google's consent screen for the
 * authorization request our app started. Returns the redirect back to us
 * (`redirect_uri?code=…&state=…`), or with `error=access_denied` when they cancel.
 */
export function googleConsent(authorizationUrl: string, profile: GoogleUserinfo | "cancel"): string {
  const url = new URL(authorizationUrl);
  const redirectUri = url.searchParams.get("redirect_uri");
  const state = url.searchParams.get("state");
  if (!redirectUri || !state) throw new Error("Google mock: authorization URL without redirect_uri or state");
  const back = new URL(redirectUri);
  back.searchParams.set("state", state);
  if (profile === "cancel") {
    back.searchParams.set("error", "access_denied");
    return back.toString();
  }
  const code = `4/0A${crypto.randomBytes(24).toString("base64url")}`;
  codes.set(code, {
    profile,
    clientId: url.searchParams.get("client_id") ?? "",
    redirectUri,
    codeChallenge: url.searchParams.get("code_challenge"),
  });
  back.searchParams.set("code", code);
  back.searchParams.set("scope", "email profile openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile");
  back.searchParams.set("authuser", "0");
  back.searchParams.set("prompt", "consent");
  return back.toString();
}

function fakeIdToken(profile: GoogleUserinfo, clientId: string) {
  const enc = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  return [
    enc({ alg: "RS256", kid: "test", typ: "JWT" }),
    enc({ iss: "https://accounts.google.com", aud: clientId, azp: clientId, iat: now, exp: now + 3600, ...profile }),
    "signature",
  ].join(".");
}

const invalidGrant = () => HttpResponse.json({ error: "invalid_grant", error_description: "Bad Request" }, { status: 400 });

export const googleHandlers = [
  http.post(GOOGLE_TOKEN_URL, async ({ request }) => {
    const body = Object.fromEntries(new URLSearchParams(await request.text()));
    const authorization = request.headers.get("authorization");
    googleTokenRequests.push({ body, authorization });

    // Client authentication: HTTP Basic (client_secret_basic) or form fields (client_secret_post).
    let clientId = body.client_id;
    let clientSecret = body.client_secret;
    if (authorization?.startsWith("Basic ")) {
      const [id, secret] = Buffer.from(authorization.slice(6), "base64").toString().split(":");
      clientId = decodeURIComponent(id);
      clientSecret = decodeURIComponent(secret ?? "");
    }
    if (clientId !== GOOGLE_TEST_CLIENT.clientId || clientSecret !== GOOGLE_TEST_CLIENT.clientSecret) {
      return HttpResponse.json({ error: "invalid_client", error_description: "Unauthorized" }, { status: 401 });
    }
    if (body.grant_type !== "authorization_code") {
      return HttpResponse.json({ error: "unsupported_grant_type", error_description: "Invalid grant_type: " + body.grant_type }, { status: 400 });
    }
    const pending = codes.get(body.code ?? "");
    if (!pending) return invalidGrant();
    codes.delete(body.code); // codes work once
    if (pending.clientId !== clientId || pending.redirectUri !== body.redirect_uri) return invalidGrant();
    if (pending.codeChallenge) {
      const challenge = crypto.createHash("sha256").update(body.code_verifier ?? "").digest("base64url");
      if (challenge !== pending.codeChallenge) return invalidGrant();
    }
    const accessToken = `ya29.${crypto.randomBytes(24).toString("base64url")}`;
    accessTokens.set(accessToken, pending.profile);
    return HttpResponse.json({
      access_token: accessToken,
      expires_in: 3599,
      scope: "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
      token_type: "Bearer",
      id_token: fakeIdToken(pending.profile, clientId),
    });
  }),

  http.get(GOOGLE_USERINFO_URL, ({ request }) => {
    const header = request.headers.get("authorization") ?? "";
    const profile = header.startsWith("Bearer ") ? accessTokens.get(header.slice(7)) : undefined;
    if (!profile) {
      return HttpResponse.json(
        { error: "invalid_request", error_description: "Invalid Credentials" },
        { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"' } },
      );
    }
    return HttpResponse.json(profile);
  }),
];
