import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { requireSecondFactor } from "#server/accounts/two-factor";
import { TRUSTED_DEVICE_COOKIE } from "#server/auth/cookies";
import { authenticateRequest } from "#server/auth/request-auth";
import { verifyAccessToken } from "#server/auth/tokens";
import { getDb } from "#server/db/client";
import { createTestUser } from "#tests/support/context";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as security from "./cuenta.seguridad";
import * as verification from "./cuenta.verificacion";

function code(secret: string) {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
}

async function signedInBrowser() {
  const user = await createTestUser({ roles: ["producer"] });
  const tokens = await startSession(await getDb(), user, new Date());
  const check = await verifyAccessToken(tokens.accessToken, new Date());
  const sessionId = check.ok ? check.claims.sid : undefined;
  return { user, cookies: { at: tokens.accessToken, rt: tokens.refreshToken }, sessionId };
}

describe("/cuenta/seguridad and /cuenta/verificacion without JavaScript", () => {
  it("turns two-factor on with the QR's key and a first code, shows the recovery codes once, and a new device must confirm before a sensitive action", async () => {
    const { user, cookies } = await signedInBrowser();
    const started = await run(security.action, formRequest("/cuenta/seguridad", { intent: "start" }, { cookies }));
    expect(started.location).toBe("/cuenta/seguridad#activar");
    const page = await run(security.loader, getRequest("/cuenta/seguridad", { cookies }));
    expect(page.data.status.enabled).toBe(false);
    expect(page.data.pending.qrSvg).toContain("<svg");
    const secret: string = page.data.pending.secret;

    const wrong = await run(security.action, formRequest("/cuenta/seguridad", { intent: "confirm", code: "12" }, { cookies }));
    expect(wrong.status).toBe(400);
    expect(wrong.data.result.error.code).toEqual(["Ingresá los 6 números de tu app o un código de recuperación"]);

    const confirmed = await run(security.action, formRequest("/cuenta/seguridad", { intent: "confirm", code: code(secret) }, { cookies }));
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.recoveryCodes).toHaveLength(10);
    expect((await run(security.loader, getRequest("/cuenta/seguridad", { cookies }))).data.status).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });

    // Another device: the gate refuses until this sign-in confirms, then /cuenta/verificacion sends it back.
    const other = await startSession(await getDb(), user, new Date());
    const otherCookies = { at: other.accessToken, rt: other.refreshToken };
    const sid = (await verifyAccessToken(other.accessToken, new Date())) as { ok: true; claims: { sid: string } };
    const ctx = { db: await getDb(), now: new Date(), actor: { kind: "user" as const, userId: user.id, email: user.email, roles: [], sessionId: sid.claims.sid } };
    await expect(requireSecondFactor(ctx)).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });
    const recovery = confirmed.data.recoveryCodes[0];
    const verified = await run(
      verification.action,
      formRequest("/cuenta/verificacion?returnTo=/organizacion/metodos-de-pago", { code: recovery }, { cookies: otherCookies }),
    );
    expect(verified.location).toBe("/organizacion/metodos-de-pago");
    await expect(requireSecondFactor(ctx)).resolves.toBeUndefined();
  });

  it("never sends anyone to another site after verifying, and needs a session", async () => {
    const anonymous = await run(verification.loader, getRequest("/cuenta/verificacion"));
    expect(anonymous.location).toMatch(/^\/cuenta\/iniciar-sesion\/email/);
    const { cookies } = await signedInBrowser();
    // Without two-factor on, the verification page sends to the security page.
    const notOn = await run(verification.loader, getRequest("/cuenta/verificacion?returnTo=https://malo.example/x", { cookies }));
    expect(notOn.location).toBe("/cuenta/seguridad");
  });
});

describe("/cuenta/verificacion: remembering this browser (decision 133)", () => {
  it("with the box ticked, a 30-day HttpOnly cookie lets the next sign-in in this browser skip the code; /cuenta/seguridad says so and forgets it", async () => {
    const { user, cookies } = await signedInBrowser();
    await run(security.action, formRequest("/cuenta/seguridad", { intent: "start" }, { cookies }));
    const secret: string = (await run(security.loader, getRequest("/cuenta/seguridad", { cookies }))).data.pending.secret;
    const confirmed = await run(security.action, formRequest("/cuenta/seguridad", { intent: "confirm", code: code(secret) }, { cookies }));
    // (The app's current code was just spent on the confirmation: the next step uses a recovery code.)
    const recovery: string = confirmed.data.recoveryCodes[0];

    // Signed in again (a new session) in the same browser: asked to confirm, with the box ticked.
    const again = await startSession(await getDb(), user, new Date());
    const browser = { at: again.accessToken, rt: again.refreshToken };
    const unticked = await run(verification.action, formRequest("/cuenta/verificacion?returnTo=/organizacion/extracciones", { code: "12" }, { cookies: browser }));
    expect(unticked.status).toBe(400);
    expect(unticked.cookies[TRUSTED_DEVICE_COOKIE]).toBeUndefined();
    const verified = await run(
      verification.action,
      formRequest("/cuenta/verificacion?returnTo=/organizacion/extracciones", { code: recovery, rememberDevice: "on" }, { cookies: browser }),
    );
    expect(verified.location).toBe("/organizacion/extracciones");
    const device = verified.cookies[TRUSTED_DEVICE_COOKIE];
    expect(device.value).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(device.maxAge).toBe(30 * 24 * 60 * 60);
    expect(device.attributes).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/"]));

    // Signed out and in again: a new session in that browser, which sends the device cookie. No code asked.
    const next = await startSession(await getDb(), user, new Date());
    const nextCookies = { at: next.accessToken, rt: next.refreshToken, [TRUSTED_DEVICE_COOKIE]: device.value };
    const actorOf = async (c: Record<string, string>) => ({ db: await getDb(), now: new Date(), actor: (await authenticateRequest(await getDb(), getRequest("/organizacion/extracciones", { cookies: c }))).actor });
    await expect(requireSecondFactor(await actorOf(nextCookies))).resolves.toBeUndefined();
    // The same sign-in from a browser without the cookie still must confirm.
    await expect(requireSecondFactor(await actorOf({ at: next.accessToken, rt: next.refreshToken }))).rejects.toMatchObject({ reason: "SECOND_FACTOR_VERIFY" });

    const page = await run(security.loader, getRequest("/cuenta/seguridad", { cookies: nextCookies }));
    expect(page.data.devices.count).toBe(1);
    expect(page.data.devices.thisDeviceUntil).toMatch(/\d/);

    const forgot = await run(security.action, formRequest("/cuenta/seguridad", { intent: "forget-devices" }, { cookies: nextCookies }));
    expect(forgot.location).toBe("/cuenta/seguridad");
    expect(forgot.cookies[TRUSTED_DEVICE_COOKIE].maxAge).toBe(0);
    const fresh = await startSession(await getDb(), user, new Date());
    await expect(requireSecondFactor(await actorOf({ at: fresh.accessToken, rt: fresh.refreshToken, [TRUSTED_DEVICE_COOKIE]: device.value }))).rejects.toMatchObject({
      reason: "SECOND_FACTOR_VERIFY",
    });
  });
});
