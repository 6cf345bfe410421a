import { Authenticator } from "remix-auth";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { signInWithGoogle, type GoogleSignIn } from "./google";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { appUrl, env, secureCookies } from "#server/env";
import { clientIp } from "#server/auth/request-auth";

/** Google's documented OAuth 2.0 / OpenID Connect endpoints. */
export const GOOGLE_ENDPOINTS = {
  authorization: "https://accounts.google.com/o/oauth2/v2/auth",
  token: "https://oauth2.googleapis.com/token",
  userinfo: "https://openidconnect.googleapis.com/v1/userinfo",
  revocation: "https://oauth2.googleapis.com/revoke",
} as const;

export const GOOGLE_CALLBACK_PATH = "/cuenta/google/callback";
export const GOOGLE_STATE_COOKIE = "google-oauth";

export function googleEnabled(): boolean {
  const e = env();
  return Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET);
}

export class GoogleProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GoogleProfileError";
  }
}

/** Reads the signed-in Google account (OpenID Connect userinfo) with the access token Google gave us. */
export async function fetchGoogleProfile(accessToken: string): Promise<unknown> {
  const response = await fetch(GOOGLE_ENDPOINTS.userinfo, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
  });
  if (!response.ok) throw new GoogleProfileError(`Google userinfo answered ${response.status}`);
  return response.json();
}

export interface GoogleStrategyConfig {
  clientId: string;
  clientSecret: string;
  redirectURI: string;
}

/**
 * remix-auth-oauth2 with Google's endpoints, PKCE (S256) and the
 * `openid email profile` scopes. The verify step asks Google who signed in and
 * hands the profile to the accounts domain, which returns our own tokens.
 */
export class GoogleStrategy extends OAuth2Strategy<GoogleSignIn> {
  override name = "google";

  constructor(config: GoogleStrategyConfig) {
    super(
      {
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        redirectURI: config.redirectURI,
        authorizationEndpoint: GOOGLE_ENDPOINTS.authorization,
        tokenEndpoint: GOOGLE_ENDPOINTS.token,
        tokenRevocationEndpoint: GOOGLE_ENDPOINTS.revocation,
        scopes: ["openid", "email", "profile"],
        cookie: {
          name: GOOGLE_STATE_COOKIE,
          path: "/",
          httpOnly: true,
          sameSite: "Lax",
          ...(secureCookies() ? { secure: true as const } : {}),
        },
      },
      async ({ request, tokens }) => {
        const profile = await fetchGoogleProfile(tokens.accessToken());
        const ctx = { db: await getDb(), actor: ANONYMOUS, now: new Date(), ip: clientIp(request) };
        return signInWithGoogle(ctx, profile);
      },
    );
  }

  /** Always let the person pick the Google account (shared computers, several accounts). */
  protected override authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    const out = super.authorizationParams(params, request);
    out.set("prompt", "select_account");
    return out;
  }
}

let authenticator: Authenticator<GoogleSignIn> | undefined;

/** The app's authenticator, or null when Google is not configured (the button is hidden and the routes answer 404). */
export function getGoogleAuthenticator(): Authenticator<GoogleSignIn> | null {
  if (!googleEnabled()) return null;
  if (!authenticator) {
    const e = env();
    authenticator = new Authenticator<GoogleSignIn>();
    authenticator.use(
      new GoogleStrategy({
        clientId: e.GOOGLE_CLIENT_ID!,
        clientSecret: e.GOOGLE_CLIENT_SECRET!,
        redirectURI: `${appUrl()}${GOOGLE_CALLBACK_PATH}`,
      }),
      "google",
    );
  }
  return authenticator;
}
