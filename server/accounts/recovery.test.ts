import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LIMITS, RATE_LIMIT_WINDOW_MS } from "#server/auth/rate-limit";
import { rotateRefreshToken, startSession } from "#server/auth/sessions";
import { verifyAccessToken } from "#server/auth/tokens";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { recoveryCodes } from "#server/db/schema";
import { createTestUser, ctxAs } from "#tests/support/context";
import { emailsTo, lastEmailTo, lastRecoveryCode } from "#tests/support/mailbox";
import { login } from "./auth";
import { BAD_CODE, RECOVERY_CODE_TTL_MS, RECOVERY_MAX_ATTEMPTS, recoverPassword, recoverPasswordCode } from "./recovery";

const TOO_MANY = "Hiciste demasiados intentos. Esperá 15 minutos y volvé a probar.";
let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;
const T0 = new Date("2030-06-01T09:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const ctxAt = async (ms: number, ip = freshIp()) => ctxAs(ANONYMOUS, at(ms), ip);

/** A code that is not the one emailed. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

const badCode = { code: "BAD_USER_INPUT", message: BAD_CODE, fieldErrors: { code: [BAD_CODE] } };

describe("recoverPasswordCode", () => {
  it("emails a 6-digit code to the account's address, logged in the email log", async () => {
    const user = await createTestUser({ email: "olvidadiza@example.com" });
    expect(await recoverPasswordCode(await ctxAt(0), { email: "Olvidadiza@Example.com" })).toBe(true);
    const email = await lastEmailTo(user.email, "recovery-code");
    const code = await lastRecoveryCode(user.email);
    expect(code).toMatch(/^\d{6}$/);
    expect(email.subject).toContain(code);
    expect(email.html).toContain(code);
    expect(email.text).toContain("Vence en 15 minutos");
    // Only a hash is kept in the database.
    const rows = await (await getDb()).select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].codeHash).not.toContain(code);
  });

  it("answers the same for an email without account, and sends nothing", async () => {
    expect(await recoverPasswordCode(await ctxAt(0), { email: "nadie-aca@example.com" })).toBe(true);
    expect(await emailsTo("nadie-aca@example.com")).toEqual([]);
  });

  it("refuses a malformed email in Spanish", async () => {
    await expect(recoverPasswordCode(await ctxAt(0), { email: "no-es-email" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { email: ["Este campo debe ser un email válido"] },
    });
  });

  it(`sends at most ${LIMITS.email} codes to one address in 15 minutes`, async () => {
    const user = await createTestUser();
    for (let i = 0; i < LIMITS.email; i++) await recoverPasswordCode(await ctxAt(i * 1000), { email: user.email });
    await expect(recoverPasswordCode(await ctxAt(10_000), { email: user.email })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: TOO_MANY });
    expect(await emailsTo(user.email, "recovery-code")).toHaveLength(LIMITS.email);
    // Someone typing emails without accounts is limited the same way (no hint either way).
    for (let i = 0; i < LIMITS.email; i++) await recoverPasswordCode(await ctxAt(i * 1000), { email: "fantasma@example.com" });
    await expect(recoverPasswordCode(await ctxAt(10_000), { email: "fantasma@example.com" })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    // After the window it works again.
    await expect(recoverPasswordCode(await ctxAt(RATE_LIMIT_WINDOW_MS + 5000), { email: user.email })).resolves.toBe(true);
  });

  it(`serves at most ${LIMITS.ip} requests from one address in 15 minutes`, async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMITS.ip; i++) await recoverPasswordCode(await ctxAt(0, ip), { email: `persona${i}@example.org` });
    const user = await createTestUser();
    await expect(recoverPasswordCode(await ctxAt(0, ip), { email: user.email })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: TOO_MANY });
    await expect(recoverPasswordCode(await ctxAt(0), { email: user.email })).resolves.toBe(true);
  });
});

describe("recoverPassword", () => {
  async function withCode() {
    const user = await createTestUser();
    await recoverPasswordCode(await ctxAt(0), { email: user.email });
    return { user, code: await lastRecoveryCode(user.email) };
  }

  it("sets the new password and signs in with the code", async () => {
    const { user, code } = await withCode();
    const tokens = await recoverPassword(await ctxAt(60_000), { email: user.email, code, password: "nueva-clave-99" });
    const check = await verifyAccessToken(tokens.accessToken, at(60_000));
    expect(check.ok && check.claims.sub).toBe(user.id);

    await expect(login(await ctxAt(70_000), { email: user.email, password: "nueva-clave-99" })).resolves.toHaveProperty("accessToken");
    await expect(login(await ctxAt(70_000), { email: user.email, password: user.password })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("signs out every other device: whoever had the account loses it", async () => {
    const { user, code } = await withCode();
    const db = await getDb();
    const before = await startSession(db, user, T0);
    const tokens = await recoverPassword(await ctxAt(60_000), { email: user.email, code, password: "nueva-clave-99" });
    await expect(rotateRefreshToken(db, before.refreshToken, at(61_000))).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(rotateRefreshToken(db, tokens.refreshToken, at(61_000))).resolves.toHaveProperty("accessToken");
  });

  it("counts a wrong code and says so next to the code field", async () => {
    const { user, code } = await withCode();
    await expect(recoverPassword(await ctxAt(1000), { email: user.email, code: wrong(code), password: "nueva-clave-99" })).rejects.toMatchObject(badCode);
    const [row] = await (await getDb()).select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(row.attempts).toBe(1);
  });

  it(`allows ${RECOVERY_MAX_ATTEMPTS} tries per code; after that even the right code is refused`, async () => {
    const { user, code } = await withCode();
    for (let i = 0; i < RECOVERY_MAX_ATTEMPTS - 1; i++) {
      await expect(recoverPassword(await ctxAt(1000), { email: user.email, code: wrong(code), password: "nueva-clave-99" })).rejects.toMatchObject(badCode);
    }
    // The fifth try is still a try…
    const { user: other, code: otherCode } = await withCode();
    for (let i = 0; i < RECOVERY_MAX_ATTEMPTS - 1; i++) {
      await expect(recoverPassword(await ctxAt(1000), { email: other.email, code: wrong(otherCode), password: "nueva-clave-99" })).rejects.toThrow();
    }
    await expect(recoverPassword(await ctxAt(2000), { email: other.email, code: otherCode, password: "nueva-clave-99" })).resolves.toHaveProperty("accessToken");
    // …but after five wrong ones, the code is spent.
    await expect(recoverPassword(await ctxAt(1000), { email: user.email, code: wrong(code), password: "nueva-clave-99" })).rejects.toMatchObject(badCode);
    await expect(recoverPassword(await ctxAt(2000), { email: user.email, code, password: "nueva-clave-99" })).rejects.toMatchObject(badCode);
  });

  it("cannot be out-guessed by sending many tries at the same time", async () => {
    const { user, code } = await withCode();
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const results = await Promise.allSettled(
      guesses.map(async (guess) => recoverPassword(await ctxAt(1000), { email: user.email, code: guess, password: "nueva-clave-99" })),
    );
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    const [row] = await (await getDb()).select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(row.attempts).toBe(RECOVERY_MAX_ATTEMPTS);
    await expect(recoverPassword(await ctxAt(2000), { email: user.email, code, password: "nueva-clave-99" })).rejects.toMatchObject(badCode);
  });

  it("expires after 15 minutes", async () => {
    const { user, code } = await withCode();
    await expect(recoverPassword(await ctxAt(RECOVERY_CODE_TTL_MS), { email: user.email, code, password: "nueva-clave-99" })).rejects.toMatchObject(badCode);
    await expect(recoverPassword(await ctxAt(RECOVERY_CODE_TTL_MS - 1000), { email: user.email, code, password: "nueva-clave-99" })).resolves.toHaveProperty("accessToken");
  });

  it("works once", async () => {
    const { user, code } = await withCode();
    await recoverPassword(await ctxAt(1000), { email: user.email, code, password: "nueva-clave-99" });
    await expect(recoverPassword(await ctxAt(2000), { email: user.email, code, password: "otra-clave-77" })).rejects.toMatchObject(badCode);
    await expect(login(await ctxAt(3000), { email: user.email, password: "nueva-clave-99" })).resolves.toHaveProperty("accessToken");
  });

  it("forgets the old code when a new one is requested", async () => {
    const { user, code: first } = await withCode();
    await recoverPasswordCode(await ctxAt(5000), { email: user.email });
    const second = await lastRecoveryCode(user.email);
    if (first !== second) {
      await expect(recoverPassword(await ctxAt(6000), { email: user.email, code: first, password: "nueva-clave-99" })).rejects.toMatchObject(badCode);
    }
    await expect(recoverPassword(await ctxAt(7000), { email: user.email, code: second, password: "nueva-clave-99" })).resolves.toHaveProperty("accessToken");
  });

  it("gives the same answer for an email without account", async () => {
    await expect(recoverPassword(await ctxAt(0), { email: "nadie@example.com", code: "123456", password: "nueva-clave-99" })).rejects.toMatchObject(badCode);
  });

  it("checks the new password and the code's shape in Spanish", async () => {
    const { user, code } = await withCode();
    await expect(recoverPassword(await ctxAt(1000), { email: user.email, code: "12a", password: "corta" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { code: ["Ingresá los 6 números del código"], password: ["Este campo debe tener al menos 8 caracteres"] },
    });
    // A refused form does not spend a try.
    await expect(recoverPassword(await ctxAt(2000), { email: user.email, code, password: "nueva-clave-99" })).resolves.toHaveProperty("accessToken");
  });
});
