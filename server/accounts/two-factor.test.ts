import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import type { Ctx } from "#server/context";
import { revokeAllSessions, startSession } from "#server/auth/sessions";
import { verifyAccessToken } from "#server/auth/tokens";
import { getDb } from "#server/db/client";
import { createTestUser } from "#tests/support/context";
import {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  forgetRememberedDevices,
  REMEMBERED_DEVICE_DAYS,
  rememberedDevices,
  rememberThisDevice,
  requireSecondFactor,
  startTwoFactorEnrolment,
  twoFactorStatus,
  TWO_FACTOR_MESSAGES,
  verifySecondFactor,
  VERIFICATION_TTL_MS,
} from "./two-factor";

const T0 = new Date("2026-11-24T15:00:00.000Z");
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

/** A signed-in context as the request path builds it: the actor carries its session id. */
async function signedIn(user: { id: string; email: string; roles: string[] }, now = T0, options: { impersonatorId?: string } = {}): Promise<Ctx> {
  const db = await getDb();
  const tokens = await startSession(db, user, now, options);
  const check = await verifyAccessToken(tokens.accessToken, now);
  if (!check.ok) throw new Error("token");
  return { db, now, ip: "203.0.113.9", actor: { kind: "user", userId: user.id, email: user.email, roles: [], sessionId: check.claims.sid } };
}

function codeAt(secret: string, when: Date) {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: when.getTime() });
}

async function enrolled() {
  const user = await createTestUser({ roles: ["producer"] });
  const ctx = await signedIn(user);
  const { secret, otpauthUri, qrSvg } = await startTwoFactorEnrolment(ctx);
  expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Tribuna:.+\?issuer=Tribuna&secret=[A-Z2-7]+/);
  expect(qrSvg).toContain("<svg");
  const { recoveryCodes } = await confirmTwoFactorEnrolment(ctx, { code: codeAt(secret, T0) });
  return { user, ctx, secret, recoveryCodes };
}

describe("two-factor sign-in (TOTP)", () => {
  it("enrols with a first code from the app, hands out ten one-time recovery codes and counts this sign-in as verified", async () => {
    const user = await createTestUser();
    const ctx = await signedIn(user);
    const { secret } = await startTwoFactorEnrolment(ctx);
    await expect(confirmTwoFactorEnrolment(ctx, { code: "123456" === codeAt(secret, T0) ? "654321" : "123456" })).rejects.toMatchObject({
      fieldErrors: { code: [TWO_FACTOR_MESSAGES.wrongCode] },
    });
    expect((await twoFactorStatus(ctx)).enabled).toBe(false);
    const { recoveryCodes } = await confirmTwoFactorEnrolment(ctx, { code: codeAt(secret, T0) });
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(await twoFactorStatus(ctx)).toEqual({ enabled: true, verifiedUntil: at(T0, VERIFICATION_TTL_MS), recoveryCodesLeft: 10 });
    await expect(startTwoFactorEnrolment(ctx)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("gates money and power: no second factor → enrol first; a new sign-in → verify; verified → allowed until it expires", async () => {
    const newcomer = await createTestUser({ roles: ["producer"] });
    await expect(requireSecondFactor(await signedIn(newcomer))).rejects.toMatchObject({ code: "FORBIDDEN", reason: "SECOND_FACTOR_ENROL", message: TWO_FACTOR_MESSAGES.enrolFirst });

    const { user, ctx, secret } = await enrolled();
    await expect(requireSecondFactor(ctx)).resolves.toBeUndefined();

    const otherDevice = await signedIn(user, at(T0, 60_000));
    await expect(requireSecondFactor(otherDevice)).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY", message: TWO_FACTOR_MESSAGES.verifyFirst });
    await verifySecondFactor(otherDevice, { code: codeAt(secret, at(T0, 60_000)) });
    await expect(requireSecondFactor(otherDevice)).resolves.toBeUndefined();

    const later = { ...otherDevice, now: at(T0, 60_000 + VERIFICATION_TTL_MS) };
    await expect(requireSecondFactor(later)).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
  });

  it("accepts each code once: the same TOTP code twice, or a spent recovery code, is refused", async () => {
    const { user, secret, recoveryCodes } = await enrolled();
    const device = await signedIn(user, at(T0, 90_000));
    const code = codeAt(secret, at(T0, 90_000));
    await verifySecondFactor(device, { code });
    await expect(verifySecondFactor(device, { code })).rejects.toMatchObject({ fieldErrors: { code: [TWO_FACTOR_MESSAGES.wrongCode] } });

    const lost = await signedIn(user, at(T0, 120_000));
    // Typed as people do: lower case, spaces instead of the dash.
    const status = await verifySecondFactor(lost, { code: recoveryCodes[3].toLowerCase().replace("-", " ") });
    expect(status.recoveryCodesLeft).toBe(9);
    await expect(verifySecondFactor(lost, { code: recoveryCodes[3] })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("limits guesses per person, and a wrong code never unlocks", async () => {
    const { user } = await enrolled();
    const device = await signedIn(user, at(T0, 60_000));
    const results = [];
    for (let i = 0; i < 6; i += 1) results.push(await verifySecondFactor(device, { code: String(100000 + i) }).catch((e: { code: string }) => e.code));
    expect(results.slice(0, 5)).toEqual(Array(5).fill("BAD_USER_INPUT"));
    expect(results[5]).toBe("TOO_MANY_REQUESTS");
    await expect(requireSecondFactor(device)).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
  });

  it("an admin impersonating someone never passes their second factor; turning it off needs a valid code", async () => {
    const { user, ctx, secret } = await enrolled();
    const admin = await createTestUser({ roles: ["admin"] });
    const impersonated = await signedIn(user, at(T0, 30_000), { impersonatorId: admin.id });
    await verifySecondFactor(impersonated, { code: codeAt(secret, at(T0, 30_000)) });
    await expect(requireSecondFactor(impersonated)).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });

    await expect(disableTwoFactor({ ...ctx, now: at(T0, 600_000) }, { code: "000000" })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    const off = await disableTwoFactor({ ...ctx, now: at(T0, 600_000) }, { code: codeAt(secret, at(T0, 600_000)) });
    expect(off).toEqual({ enabled: false, verifiedUntil: null, recoveryCodesLeft: 0 });
    await expect(requireSecondFactor(ctx)).rejects.toMatchObject({ reason: "SECOND_FACTOR_ENROL" });
  });
});

describe("a remembered browser (decision 133)", () => {
  const DAY = 24 * 60 * 60 * 1000;
  /** A new sign-in of the person in the browser that holds `deviceToken` (its cookie), at `when`. */
  const newSignIn = async (user: { id: string; email: string; roles: string[] }, when: Date, deviceToken?: string, options: { impersonatorId?: string } = {}) => {
    const ctx = await signedIn(user, when, options);
    return deviceToken && ctx.actor.kind === "user" ? { ...ctx, actor: { ...ctx.actor, deviceToken } } : ctx;
  };

  it("asked right after a code, a browser skips the code in every new sign-in of that person for 30 days; others, later or forgotten ones do not", async () => {
    const { user, secret } = await enrolled();
    const laptop = await signedIn(user, at(T0, 60_000));
    // Remembering needs a code on this sign-in first.
    await expect(rememberThisDevice(laptop)).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
    await verifySecondFactor(laptop, { code: codeAt(secret, at(T0, 60_000)) });
    const { token, expiresAt } = await rememberThisDevice({ ...laptop, now: at(T0, 120_000) });
    expect(expiresAt).toEqual(at(T0, 120_000 + REMEMBERED_DEVICE_DAYS * DAY));

    // Signed out and in again days later, in the same browser: no code; the page says until when.
    const later = await newSignIn(user, at(T0, 3 * DAY), token);
    await expect(requireSecondFactor(later)).resolves.toBeUndefined();
    expect(await rememberedDevices(later)).toEqual({ count: 1, thisDeviceUntil: expiresAt });
    // Another browser (no cookie, or a made-up one) still needs the code.
    await expect(requireSecondFactor(await newSignIn(user, at(T0, 3 * DAY)))).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
    await expect(requireSecondFactor(await newSignIn(user, at(T0, 3 * DAY), "x".repeat(43)))).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
    // Another person signing in in that browser: the token is not theirs.
    const other = await enrolled();
    await expect(requireSecondFactor(await newSignIn(other.user, at(T0, 3 * DAY), token))).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
    // An admin impersonating the person in that browser: never.
    const admin = await createTestUser({ roles: ["admin"] });
    await expect(requireSecondFactor(await newSignIn(user, at(T0, 3 * DAY), token, { impersonatorId: admin.id }))).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
    // Thirty days on, the code again.
    await expect(requireSecondFactor(await newSignIn(user, at(T0, 120_000 + REMEMBERED_DEVICE_DAYS * DAY + 1000), token))).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });

    // Hours after the code, the same sign-in cannot remember another browser (a stolen session cannot mint one).
    await expect(rememberThisDevice({ ...laptop, now: at(T0, 60 * 60_000) })).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });

    // Forgetting the devices: the browser needs the code again.
    expect(await forgetRememberedDevices(later)).toBe(1);
    await expect(requireSecondFactor(await newSignIn(user, at(T0, 4 * DAY), token))).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
  });

  it("turning two-factor off, or a password recovery (every session ended), forgets the remembered browsers", async () => {
    const { user, ctx, secret } = await enrolled();
    const { token: first } = await rememberThisDevice(ctx);
    await revokeAllSessions(ctx.db, user.id, at(T0, 60_000));
    expect(await rememberedDevices(await newSignIn(user, at(T0, 120_000), first))).toEqual({ count: 0, thisDeviceUntil: null });
    const { token } = await rememberThisDevice(ctx);
    const off = { ...ctx, now: at(T0, 600_000) };
    await disableTwoFactor(off, { code: codeAt(secret, at(T0, 600_000)) });
    expect(await rememberedDevices(await newSignIn(user, at(T0, DAY), token))).toEqual({ count: 0, thisDeviceUntil: null });
  });
});
