import crypto from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from "jose";
import { authSecret } from "#server/env";
import { ROLES, type Role } from "#server/context";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 15 * 24 * 60 * 60 * 1000;

/**
 * What each token signed with AUTH_SECRET is for (decision 146). The purpose goes in the `aud` claim and in
 * the `typ` header, and every verifier asks for its own: a token made for one thing (the email-verification
 * link) is worth nothing as another (an access token), however valid its signature. The door session
 * (server/door/access.ts) has carried its own audience, "door", from the start; the table in
 * docs/authorization.md lists every token and who verifies it.
 */
export const TOKEN_PURPOSES = {
  access: "tribuna:access",
  verifyEmail: "tribuna:verify-email",
} as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[keyof typeof TOKEN_PURPOSES];

const key = () => new TextEncoder().encode(authSecret());
const typeOf = (purpose: TokenPurpose) => `${purpose}+jwt`;

/** Signs claims for one purpose (HS256 under AUTH_SECRET): `aud` and `typ` name it. */
export async function signPurposeToken(
  purpose: TokenPurpose,
  claims: Record<string, unknown>,
  options: { subject: string; now: Date; ttlSeconds: number },
): Promise<string> {
  const iat = Math.floor(options.now.getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: typeOf(purpose) })
    .setAudience(purpose)
    .setSubject(options.subject)
    .setIssuedAt(iat)
    .setExpirationTime(iat + options.ttlSeconds)
    .sign(key());
}

export type PurposeTokenCheck = { ok: true; payload: JWTPayload & { sub: string } } | { ok: false; reason: "expired" | "invalid" };

/** Verifies a token made for `purpose` only: another purpose, none, or a bad signature is "invalid". */
export async function verifyPurposeToken(token: string, purpose: TokenPurpose, now: Date): Promise<PurposeTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: ["HS256"], audience: purpose, typ: typeOf(purpose), currentDate: now });
    if (typeof payload.sub !== "string") return { ok: false, reason: "invalid" };
    return { ok: true, payload: payload as JWTPayload & { sub: string } };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: "expired" };
    return { ok: false, reason: "invalid" };
  }
}

export interface AccessClaims {
  sub: string;
  email: string;
  roles: Role[];
  /** The session (sign-in) it belongs to: an access token is honoured only while that session is active. */
  sid: string;
}

export async function signAccessToken(claims: AccessClaims, now: Date): Promise<string> {
  return signPurposeToken(TOKEN_PURPOSES.access, { email: claims.email, roles: claims.roles, sid: claims.sid }, { subject: claims.sub, now, ttlSeconds: ACCESS_TOKEN_TTL_SECONDS });
}

export type AccessTokenCheck = { ok: true; claims: AccessClaims } | { ok: false; reason: "expired" | "invalid" };

/**
 * An access token's claims. Without `sid` it is refused: every access token is issued for a session (tokens
 * signed before decision 146 had no purpose and are refused too; the client's refresh token replaces them).
 */
export async function verifyAccessToken(token: string, now: Date): Promise<AccessTokenCheck> {
  const check = await verifyPurposeToken(token, TOKEN_PURPOSES.access, now);
  if (!check.ok) return check;
  const { payload } = check;
  if (typeof payload.email !== "string" || typeof payload.sid !== "string") return { ok: false, reason: "invalid" };
  const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is Role => ROLES.includes(r as Role)) : [];
  return { ok: true, claims: { sub: payload.sub, email: payload.email, roles, sid: payload.sid } };
}

/** Opaque random secret (refresh tokens, sign-in links). */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString("base64url");
}

/** Stored form of a token: we never keep the token itself. */
export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export function randomDigits(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += crypto.randomInt(0, 10).toString();
  return out;
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
