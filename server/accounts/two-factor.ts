import crypto from "node:crypto";
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { z } from "zod";
import { TWO_FACTOR_CODE_MESSAGE, twoFactorCodeForm } from "#common/two-factor";
import type { Ctx } from "#server/context";
import { sessions, twoFactorDevices, twoFactorKeys, twoFactorRecoveryCodes, twoFactorVerifications } from "#server/db/schema";
import { decryptSecret, encryptSecret } from "#server/auth/encryption";
import { takeAttempt } from "#server/auth/rate-limit";
import { hashToken, randomToken } from "#server/auth/tokens";
import { Conflict, Forbidden, Invalid, Unauthenticated } from "#server/errors";
import { parseInput } from "#server/validation";
import { qrSvg } from "#server/tickets/qr";

/**
 * Two-factor sign-in (decision 100): a TOTP app (Google Authenticator,
 * Authy, 1Password…) or a one-time recovery code. Signing in itself keeps the
 * spec's contract (login returns tokens); what moves money or power asks for
 * the second factor on top (`requireSecondFactor`): connecting Mercado Pago,
 * role changes and withdrawals. A sign-in that proved it (one device, one
 * session family) is not asked again for VERIFICATION_TTL_MS; a browser the
 * person asked to remember (decision 133) is not asked again, in any sign-in
 * of that person, for REMEMBERED_DEVICE_DAYS.
 */
export const VERIFICATION_TTL_MS = 12 * 60 * 60 * 1000;
export const REMEMBERED_DEVICE_DAYS = 30;
const REMEMBERED_DEVICE_MS = REMEMBERED_DEVICE_DAYS * 24 * 60 * 60 * 1000;
/** A device is remembered only right after a code proved the second factor, not hours later from the same sign-in. */
const REMEMBER_AFTER_CODE_MS = 10 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = "Tribuna";
const ATTEMPTS_PER_WINDOW = 5;

export const TWO_FACTOR_MESSAGES = {
  code: TWO_FACTOR_CODE_MESSAGE,
  wrongCode: "Ese código no es válido o ya se usó. Probá con el que muestra ahora tu app.",
  notStarted: "Primero empezá la activación para ver el código QR.",
  alreadyOn: "La verificación en dos pasos ya está activada.",
  notOn: "La verificación en dos pasos no está activada.",
  enrolFirst: "Para hacer esto necesitás activar la verificación en dos pasos (Mi cuenta → Seguridad).",
  verifyFirst: "Para hacer esto confirmá que sos vos con el código de tu app de verificación.",
} as const;

/** Why a sensitive action was refused: the page links to the matching step. */
export class SecondFactorRequired extends Forbidden {
  declare reason: "SECOND_FACTOR_ENROL" | "SECOND_FACTOR_VERIFY";

  constructor(step: "enrol" | "verify") {
    super(step === "enrol" ? TWO_FACTOR_MESSAGES.enrolFirst : TWO_FACTOR_MESSAGES.verifyFirst);
    this.reason = step === "enrol" ? "SECOND_FACTOR_ENROL" : "SECOND_FACTOR_VERIFY";
  }
}

function requireUser(ctx: Ctx) {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  return ctx.actor;
}

function totpFor(secret: string, email: string) {
  return new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
}

const codeInput = twoFactorCodeForm;
export type TwoFactorCodeInput = z.input<typeof codeInput>;

async function currentFamily(ctx: Ctx): Promise<string | null> {
  const actor = requireUser(ctx);
  if (!actor.sessionId) return null;
  const [row] = await ctx.db.select({ familyId: sessions.familyId }).from(sessions).where(eq(sessions.id, actor.sessionId));
  return row?.familyId ?? null;
}

async function markVerified(ctx: Ctx, userId: string) {
  const familyId = await currentFamily(ctx);
  if (!familyId) return;
  await ctx.db
    .insert(twoFactorVerifications)
    .values({ familyId, userId, verifiedAt: ctx.now })
    .onConflictDoUpdate({ target: twoFactorVerifications.familyId, set: { verifiedAt: ctx.now } });
}

function newRecoveryCodes(): string[] {
  // 10 characters from an alphabet without 0/O or 1/I, shown as XXXXX-XXXXX.
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => Array.from({ length: 10 }, () => alphabet[crypto.randomInt(0, alphabet.length)]).join(""));
}

export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

export interface TwoFactorStatus {
  enabled: boolean;
  /** When this sign-in's proof stops counting; null: not proved on this device (or no second factor). */
  verifiedUntil: Date | null;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(ctx: Ctx): Promise<TwoFactorStatus> {
  const actor = requireUser(ctx);
  const [key] = await ctx.db.select().from(twoFactorKeys).where(eq(twoFactorKeys.userId, actor.userId));
  if (!key?.enabledAt) return { enabled: false, verifiedUntil: null, recoveryCodesLeft: 0 };
  const familyId = await currentFamily(ctx);
  const [verification] = familyId ? await ctx.db.select().from(twoFactorVerifications).where(eq(twoFactorVerifications.familyId, familyId)) : [];
  const until = verification ? new Date(verification.verifiedAt.getTime() + VERIFICATION_TTL_MS) : null;
  const [{ left }] = await ctx.db
    .select({ left: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, actor.userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return { enabled: true, verifiedUntil: until && until > ctx.now ? until : null, recoveryCodesLeft: left };
}

/**
 * Starts (or restarts) an enrolment: a new key, kept encrypted and unused
 * until a first code confirms it. Returns what the app needs: the otpauth
 * URI as a QR and the key to type by hand.
 */
export async function startTwoFactorEnrolment(ctx: Ctx): Promise<{ secret: string; otpauthUri: string; qrSvg: string }> {
  const actor = requireUser(ctx);
  const [current] = await ctx.db.select().from(twoFactorKeys).where(eq(twoFactorKeys.userId, actor.userId));
  if (current?.enabledAt) throw new Conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const secret = new Secret({ size: 20 }).base32;
  await ctx.db
    .insert(twoFactorKeys)
    .values({ userId: actor.userId, secretEncrypted: encryptSecret(secret, "two-factor-keys"), createdAt: ctx.now })
    .onConflictDoUpdate({ target: twoFactorKeys.userId, set: { secretEncrypted: encryptSecret(secret, "two-factor-keys"), lastStep: null, createdAt: ctx.now } });
  const otpauthUri = totpFor(secret, actor.email).toString();
  return { secret, otpauthUri, qrSvg: await qrSvg(otpauthUri) };
}

/** The key of an enrolment in progress, to show its QR again after a wrong first code. */
export async function pendingTwoFactorEnrolment(ctx: Ctx): Promise<{ secret: string; otpauthUri: string; qrSvg: string } | null> {
  const actor = requireUser(ctx);
  const [key] = await ctx.db.select().from(twoFactorKeys).where(eq(twoFactorKeys.userId, actor.userId));
  if (!key || key.enabledAt) return null;
  const secret = decryptSecret(key.secretEncrypted, "two-factor-keys");
  const otpauthUri = totpFor(secret, actor.email).toString();
  return { secret, otpauthUri, qrSvg: await qrSvg(otpauthUri) };
}

/**
 * Accepts a TOTP code once: the step it matched must be later than the last
 * accepted one, written in the same conditional update (two requests with the
 * same code: one wins).
 */
async function acceptTotp(ctx: Ctx, userId: string, email: string, secretEncrypted: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const totp = totpFor(decryptSecret(secretEncrypted, "two-factor-keys"), email);
  const delta = totp.validate({ token: code, timestamp: ctx.now.getTime(), window: 1 });
  if (delta === null) return false;
  const step = Math.floor(ctx.now.getTime() / 1000 / 30) + delta;
  const taken = await ctx.db
    .update(twoFactorKeys)
    .set({ lastStep: step })
    .where(and(eq(twoFactorKeys.userId, userId), sql`(${twoFactorKeys.lastStep} is null or ${twoFactorKeys.lastStep} < ${step})`))
    .returning({ userId: twoFactorKeys.userId });
  return taken.length === 1;
}

async function acceptRecoveryCode(ctx: Ctx, userId: string, code: string): Promise<boolean> {
  if (!/^[A-Z0-9]{10}$/.test(code)) return false;
  const used = await ctx.db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: ctx.now })
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), eq(twoFactorRecoveryCodes.codeHash, hashToken(code)), isNull(twoFactorRecoveryCodes.usedAt)))
    .returning({ id: twoFactorRecoveryCodes.id });
  return used.length === 1;
}

/** Guesses are limited per person (a 6-digit code is a small space). */
async function limitGuesses(ctx: Ctx, userId: string) {
  return takeAttempt(ctx.db, [{ key: `two-factor:user:${userId}`, limit: ATTEMPTS_PER_WINDOW }], ctx.now);
}

/** Confirms the enrolment with a first code; returns the recovery codes, shown this once. */
export async function confirmTwoFactorEnrolment(ctx: Ctx, input: TwoFactorCodeInput): Promise<{ recoveryCodes: string[] }> {
  const actor = requireUser(ctx);
  const { code } = parseInput(codeInput, input);
  const [key] = await ctx.db.select().from(twoFactorKeys).where(eq(twoFactorKeys.userId, actor.userId));
  if (!key) throw new Invalid({ code: [TWO_FACTOR_MESSAGES.notStarted] }, TWO_FACTOR_MESSAGES.notStarted);
  if (key.enabledAt) throw new Conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const attempt = await limitGuesses(ctx, actor.userId);
  if (!(await acceptTotp(ctx, actor.userId, actor.email, key.secretEncrypted, code))) {
    throw new Invalid({ code: [TWO_FACTOR_MESSAGES.wrongCode] }, TWO_FACTOR_MESSAGES.wrongCode);
  }
  await attempt.release();
  const codes = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    await tx.update(twoFactorKeys).set({ enabledAt: ctx.now }).where(eq(twoFactorKeys.userId, actor.userId));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, actor.userId));
    await tx.insert(twoFactorRecoveryCodes).values(codes.map((c) => ({ userId: actor.userId, codeHash: hashToken(c), createdAt: ctx.now })));
  });
  await markVerified(ctx, actor.userId);
  return { recoveryCodes: codes.map(formatRecoveryCode) };
}

/** Proves the second factor for this sign-in (a TOTP code, or a recovery code that is then spent). */
export async function verifySecondFactor(ctx: Ctx, input: TwoFactorCodeInput): Promise<TwoFactorStatus> {
  const actor = requireUser(ctx);
  const { code } = parseInput(codeInput, input);
  const [key] = await ctx.db.select().from(twoFactorKeys).where(eq(twoFactorKeys.userId, actor.userId));
  if (!key?.enabledAt) throw new Conflict(TWO_FACTOR_MESSAGES.notOn);
  const attempt = await limitGuesses(ctx, actor.userId);
  const ok = (await acceptTotp(ctx, actor.userId, actor.email, key.secretEncrypted, code)) || (await acceptRecoveryCode(ctx, actor.userId, code));
  if (!ok) throw new Invalid({ code: [TWO_FACTOR_MESSAGES.wrongCode] }, TWO_FACTOR_MESSAGES.wrongCode);
  await attempt.release();
  await markVerified(ctx, actor.userId);
  return twoFactorStatus(ctx);
}

/** This person's session: who impersonates in it, if anyone, and when its sign-in last proved the second factor (null: never). */
async function sessionVerification(ctx: Ctx, userId: string, sessionId: string) {
  const [row] = await ctx.db
    .select({ verifiedAt: twoFactorVerifications.verifiedAt, impersonatorId: sessions.impersonatorId })
    .from(sessions)
    .leftJoin(twoFactorVerifications, eq(twoFactorVerifications.familyId, sessions.familyId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
  return row;
}

/**
 * Remembers this browser for REMEMBERED_DEVICE_DAYS (decision 133): returns
 * the token for its cookie (kept only hashed). Only right after this sign-in
 * proved the second factor with a code, and never for an impersonated session.
 */
export async function rememberThisDevice(ctx: Ctx): Promise<{ token: string; expiresAt: Date }> {
  const actor = requireUser(ctx);
  if (!actor.sessionId) throw new SecondFactorRequired("verify");
  const row = await sessionVerification(ctx, actor.userId, actor.sessionId);
  if (!row?.verifiedAt || row.impersonatorId || ctx.now.getTime() - row.verifiedAt.getTime() > REMEMBER_AFTER_CODE_MS) throw new SecondFactorRequired("verify");
  const token = randomToken();
  const expiresAt = new Date(ctx.now.getTime() + REMEMBERED_DEVICE_MS);
  await ctx.db.insert(twoFactorDevices).values({ userId: actor.userId, tokenHash: hashToken(token), createdAt: ctx.now, expiresAt });
  return { token, expiresAt };
}

/** Whether the browser's remembered-device token is this person's and still valid. */
async function isRememberedDevice(ctx: Ctx, userId: string, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const [row] = await ctx.db
    .select({ id: twoFactorDevices.id })
    .from(twoFactorDevices)
    .where(and(eq(twoFactorDevices.userId, userId), eq(twoFactorDevices.tokenHash, hashToken(token)), gt(twoFactorDevices.expiresAt, ctx.now)));
  return Boolean(row);
}

/** How many browsers the person has remembered, and until when this one is (null: not remembered). */
export async function rememberedDevices(ctx: Ctx): Promise<{ count: number; thisDeviceUntil: Date | null }> {
  const actor = requireUser(ctx);
  const rows = await ctx.db
    .select({ tokenHash: twoFactorDevices.tokenHash, expiresAt: twoFactorDevices.expiresAt })
    .from(twoFactorDevices)
    .where(and(eq(twoFactorDevices.userId, actor.userId), gt(twoFactorDevices.expiresAt, ctx.now)));
  const mine = actor.deviceToken && actor.deviceToken.length <= 200 ? hashToken(actor.deviceToken) : null;
  return { count: rows.length, thisDeviceUntil: rows.find((r) => r.tokenHash === mine)?.expiresAt ?? null };
}

/** Forgets every remembered browser of the person (the page's "Olvidar los dispositivos recordados"). */
export async function forgetRememberedDevices(ctx: Ctx): Promise<number> {
  const actor = requireUser(ctx);
  const gone = await ctx.db.delete(twoFactorDevices).where(eq(twoFactorDevices.userId, actor.userId)).returning({ id: twoFactorDevices.id });
  return gone.length;
}

/** Turns it off, which itself needs a valid code (a stolen session alone cannot). */
export async function disableTwoFactor(ctx: Ctx, input: TwoFactorCodeInput): Promise<TwoFactorStatus> {
  await verifySecondFactor(ctx, input);
  const actor = requireUser(ctx);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(twoFactorDevices).where(eq(twoFactorDevices.userId, actor.userId));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, actor.userId));
    await tx.delete(twoFactorVerifications).where(eq(twoFactorVerifications.userId, actor.userId));
    await tx.delete(twoFactorKeys).where(eq(twoFactorKeys.userId, actor.userId));
  });
  return twoFactorStatus(ctx);
}

/**
 * The gate for what moves money or power. Refuses (SecondFactorRequired,
 * FORBIDDEN) when the person has no second factor yet, or when neither this
 * sign-in proved it in the last VERIFICATION_TTL_MS nor this browser is one
 * the person asked to remember (decision 133). Impersonated sessions never
 * pass: an admin acting as someone cannot use their second factor.
 */
export async function requireSecondFactor(ctx: Ctx): Promise<void> {
  const actor = requireUser(ctx);
  const [key] = await ctx.db.select({ enabledAt: twoFactorKeys.enabledAt }).from(twoFactorKeys).where(eq(twoFactorKeys.userId, actor.userId));
  if (!key?.enabledAt) throw new SecondFactorRequired("enrol");
  if (!actor.sessionId) throw new SecondFactorRequired("verify");
  const row = await sessionVerification(ctx, actor.userId, actor.sessionId);
  if (!row || row.impersonatorId) throw new SecondFactorRequired("verify");
  if (row.verifiedAt && row.verifiedAt.getTime() + VERIFICATION_TTL_MS > ctx.now.getTime()) return;
  if (await isRememberedDevice(ctx, actor.userId, actor.deviceToken)) return;
  throw new SecondFactorRequired("verify");
}
