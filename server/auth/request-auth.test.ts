import { describe, expect, it } from "vitest";
import { logout } from "#server/accounts/auth";
import { getDb } from "#server/db/client";
import { createTestUser, ctxAs } from "#tests/support/context";
import { cookieHeader } from "#tests/support/graphql";
import { authenticateRequest, readTokens } from "./request-auth";
import { rotateRefreshToken, startSession, type Tokens } from "./sessions";
import { SignJWT } from "jose";
import { authSecret } from "#server/env";
import { ACCESS_TOKEN_TTL_SECONDS, verifyAccessToken } from "./tokens";

const URL_ = "http://localhost/cuenta/mi-cuenta";

function withHeaders(tokens: Partial<Tokens>) {
  const headers = new Headers();
  if (tokens.accessToken) headers.set("x-access-token", tokens.accessToken);
  if (tokens.refreshToken) headers.set("x-refresh-token", tokens.refreshToken);
  return new Request(URL_, { headers });
}

function withCookies(tokens: Partial<Tokens>) {
  return new Request(URL_, { headers: { cookie: `theme=dark; ${cookieHeader(tokens)}` } });
}

async function whoIs(request: Request, now = new Date()) {
  const auth = await authenticateRequest(await getDb(), request, now);
  return auth.actor.kind === "user" ? auth.actor.userId : null;
}

async function signIn(now = new Date()) {
  const user = await createTestUser();
  return { user, tokens: await startSession(await getDb(), user, now) };
}

describe("who is asking", () => {
  it("reads tokens from headers (API clients) or from the at/rt cookies (browsers), headers first", async () => {
    const { user, tokens } = await signIn();
    const other = await signIn();
    expect(await whoIs(withHeaders(tokens))).toBe(user.id);
    expect(await whoIs(withCookies(tokens))).toBe(user.id);

    const both = new Request(URL_, { headers: { "x-access-token": tokens.accessToken, cookie: cookieHeader(other.tokens) } });
    expect(await whoIs(both)).toBe(user.id);
    expect(readTokens(both)).toEqual({ accessToken: tokens.accessToken, refreshToken: null, fromHeaders: true });
  });

  it("carries the roles and the session id of the access token", async () => {
    const user = await createTestUser({ roles: ["promoter", "promoter_lead"] });
    const tokens = await startSession(await getDb(), user, new Date());
    const auth = await authenticateRequest(await getDb(), withHeaders(tokens));
    expect(auth.actor).toEqual({ kind: "user", userId: user.id, email: user.email, roles: ["promoter", "promoter_lead"], sessionId: expect.any(String) });
    expect(auth.refreshed).toBeUndefined();
    expect(auth.stale).toBe(false);
  });

  it("lets a request with an expired access token and a good refresh token through, with fresh tokens", async () => {
    const signedInAt = new Date(Date.now() - 2 * ACCESS_TOKEN_TTL_SECONDS * 1000);
    const { user, tokens } = await signIn(signedInAt);
    const now = new Date();
    const auth = await authenticateRequest(await getDb(), withCookies(tokens), now);
    expect(auth.actor).toMatchObject({ kind: "user", userId: user.id });
    expect(auth.refreshed?.refreshToken).toEqual(expect.any(String));
    expect(auth.refreshed?.refreshToken).not.toBe(tokens.refreshToken);
    expect(auth.fromHeaders).toBe(false);
    // The fresh access token works on its own.
    expect(await whoIs(withHeaders({ accessToken: auth.refreshed!.accessToken }))).toBe(user.id);
  });

  it("rotates once per request even when several loaders ask", async () => {
    const { tokens } = await signIn(new Date(Date.now() - 2 * ACCESS_TOKEN_TTL_SECONDS * 1000));
    const request = withHeaders(tokens);
    const db = await getDb();
    const [a, b] = await Promise.all([authenticateRequest(db, request), authenticateRequest(db, request)]);
    expect(a.refreshed).toEqual(b.refreshed);
  });

  it("treats forged, expired or unknown tokens as nobody and tells the client to drop them", async () => {
    const { tokens } = await signIn(new Date(Date.now() - 2 * ACCESS_TOKEN_TTL_SECONDS * 1000));
    const db = await getDb();
    const forged = tokens.accessToken.slice(0, -4) + (tokens.accessToken.endsWith("AAAA") ? "BBBB" : "AAAA");
    for (const request of [withHeaders({ accessToken: forged }), withHeaders({ accessToken: tokens.accessToken }), withCookies({ refreshToken: "inventado" })]) {
      const auth = await authenticateRequest(db, request);
      expect(auth.actor).toEqual({ kind: "anonymous" });
      expect(auth.stale).toBe(true);
    }
    const nothing = await authenticateRequest(db, new Request(URL_));
    expect(nothing).toMatchObject({ actor: { kind: "anonymous" }, stale: false });
  });
});

describe("tokens signed before access tokens named their purpose (decision 146)", () => {
  it("an old access token is not honoured, but its refresh token signs the browser in again with a new one", async () => {
    const { user, tokens } = await signIn();
    const check = await verifyAccessToken(tokens.accessToken, new Date());
    if (!check.ok) throw new Error("a fresh access token did not verify");
    // The shape access tokens had: same secret and claims, no `aud` nor `typ`.
    const iat = Math.floor(Date.now() / 1000);
    const old = await new SignJWT({ email: user.email, roles: [], sid: check.claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(new TextEncoder().encode(authSecret()));
    expect(await whoIs(withHeaders({ accessToken: old }))).toBeNull();
    const auth = await authenticateRequest(await getDb(), withCookies({ accessToken: old, refreshToken: tokens.refreshToken }));
    expect(auth.actor).toMatchObject({ kind: "user", userId: user.id });
    expect(await whoIs(withHeaders({ accessToken: auth.refreshed!.accessToken }))).toBe(user.id);
  });
});

describe("logout", () => {
  it("ends the sign-in: its access tokens and its refresh token stop working at once", async () => {
    const { user, tokens } = await signIn();
    const db = await getDb();
    const auth = await authenticateRequest(db, withHeaders(tokens));
    const signedOut = await logout(await ctxAs(auth.actor), tokens.refreshToken);
    expect(signedOut).toMatchObject({ id: user.id, email: user.email });

    expect(await whoIs(withHeaders({ accessToken: tokens.accessToken }))).toBeNull();
    await expect(rotateRefreshToken(db, tokens.refreshToken, new Date())).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("also works when the client only sends its access token", async () => {
    const { tokens } = await signIn();
    const db = await getDb();
    const auth = await authenticateRequest(db, withHeaders({ accessToken: tokens.accessToken }));
    await logout(await ctxAs(auth.actor), null);
    expect(await whoIs(withHeaders({ accessToken: tokens.accessToken }))).toBeNull();
    await expect(rotateRefreshToken(db, tokens.refreshToken, new Date())).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("kills the access tokens issued by earlier refreshes of the same sign-in", async () => {
    const { tokens } = await signIn();
    const db = await getDb();
    const next = await rotateRefreshToken(db, tokens.refreshToken, new Date());
    await logout(await ctxAs(), next.refreshToken);
    expect(await whoIs(withHeaders({ accessToken: tokens.accessToken }))).toBeNull();
    expect(await whoIs(withHeaders({ accessToken: next.accessToken }))).toBeNull();
  });

  it("leaves the person's other devices signed in", async () => {
    const { user, tokens } = await signIn();
    const phone = await startSession(await getDb(), user, new Date());
    await logout(await ctxAs(), tokens.refreshToken);
    expect(await whoIs(withHeaders({ accessToken: phone.accessToken }))).toBe(user.id);
  });

  it("says nothing about the owner of a token that was already signed out", async () => {
    const { tokens } = await signIn();
    await logout(await ctxAs(), tokens.refreshToken);
    expect(await logout(await ctxAs(), tokens.refreshToken)).toBeNull();
    expect(await logout(await ctxAs(), "inventado")).toBeNull();
  });
});
