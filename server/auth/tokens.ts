import crypto from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { authSecret } from "#server/env";
import { ROLES, type Role } from "#server/context";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 15 * 24 * 60 * 60 * 1000;

export interface AccessClaims {
  sub: string;
  email: string;
  roles: Role[];
  sid?: string;
}

const key = () => new TextEncoder().encode(authSecret());

export async function signAccessToken(claims: AccessClaims, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ email: claims.email, roles: claims.roles, ...(claims.sid ? { sid: claims.sid } : {}) })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(key());
}

export type AccessTokenCheck = { ok: true; claims: AccessClaims } | { ok: false; reason: "expired" | "invalid" };

export async function verifyAccessToken(token: string, now: Date): Promise<AccessTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: ["HS256"], currentDate: now });
    const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is Role => ROLES.includes(r as Role)) : [];
    if (typeof payload.sub !== "string" || typeof payload.email !== "string") return { ok: false, reason: "invalid" };
    return {
      ok: true,
      claims: { sub: payload.sub, email: payload.email, roles, sid: typeof payload.sid === "string" ? payload.sid : undefined },
    };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: "expired" };
    return { ok: false, reason: "invalid" };
  }
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
