import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rotateRefreshToken } from "#server/auth/sessions";
import { RATE_LIMIT_WINDOW_MS, LIMITS } from "#server/auth/rate-limit";
import { verifyAccessToken } from "#server/auth/tokens";
import { getDb } from "#server/db/client";
import { auditLog, sessions, users } from "#server/db/schema";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { ANONYMOUS } from "#server/context";
import { BAD_CREDENTIALS, impersonatedLogin, login, register } from "./auth";

const TOO_MANY = "Hiciste demasiados intentos. Esperá 15 minutos y volvé a probar.";
let ipCounter = 0;
/** A fresh client address per test, so rate limits of one test do not leak into another. */
const freshIp = () => `198.51.100.${++ipCounter}`;

async function claimsOf(accessToken: string) {
  const check = await verifyAccessToken(accessToken, new Date());
  if (!check.ok) throw new Error(`access token refused: ${check.reason}`);
  return check.claims;
}

/** What a client can see of a failure. */
function visible(error: unknown) {
  const e = error as { code?: string; message?: string; fieldErrors?: unknown };
  return { code: e.code, message: e.message, fieldErrors: e.fieldErrors };
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return visible(error);
  }
  throw new Error("expected a failure");
}

describe("register", () => {
  it("registers a person and signs them in with the same password", async () => {
    const ctx = await ctxAs();
    const tokens = await register(ctx, { firstName: "María José", lastName: "Núñez", email: "Maria.Nunez@Example.com", password: "clave-segura-1" });
    const check = await verifyAccessToken(tokens.accessToken, new Date());
    expect(check.ok && check.claims.email).toBe("maria.nunez@example.com");

    const again = await login(ctx, { email: "maria.nunez@example.com", password: "clave-segura-1" });
    expect(again.refreshToken).not.toBe(tokens.refreshToken);
  });

  it("refuses a second account with the same email, in Spanish, next to the field", async () => {
    const ctx = await ctxAs();
    await register(ctx, { firstName: "Juan", lastName: "Pérez", email: "juan@example.com", password: "clave-segura-1" });
    await expect(
      register(ctx, { firstName: "Juan", lastName: "Pérez", email: "JUAN@example.com", password: "otra-clave-2" }),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { email: [expect.stringContaining("Ya existe una cuenta")] } });
  });

  it("answers bad input with the spec's messages per field", async () => {
    const ctx = await ctxAs();
    await expect(register(ctx, { firstName: " Ana", lastName: "Gómez2", email: "ana@example", password: "corta" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: {
        firstName: ["Este campo no puede contener espacios al inicio o al final"],
        lastName: [expect.stringContaining("solo letras")],
        email: ["Este campo debe ser un email válido"],
        password: ["Este campo debe tener al menos 8 caracteres"],
      },
    });
    await expect(register(ctx, {})).rejects.toMatchObject({
      fieldErrors: {
        firstName: ["Este campo es obligatorio"],
        lastName: ["Este campo es obligatorio"],
        email: ["Este campo es obligatorio"],
        password: ["Este campo es obligatorio"],
      },
    });
  });

  it("keeps only an argon2id hash of the password", async () => {
    const ctx = await ctxAs();
    await register(ctx, { firstName: "Lía", lastName: "Sosa", email: "lia@example.com", password: "clave-segura-1" });
    const [row] = await (await getDb()).select().from(users).where(eq(users.email, "lia@example.com"));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain("clave-segura-1");
    expect(row.roles).toEqual([]);
  });
});

describe("login", () => {
  it("signs in with any capitalisation of the email and carries the roles in the access token", async () => {
    const user = await createTestUser({ email: "productora@example.com", roles: ["producer"] });
    const tokens = await login(await ctxAs(ANONYMOUS, new Date(), freshIp()), { email: "Productora@Example.com", password: user.password });
    const claims = await claimsOf(tokens.accessToken);
    expect(claims).toMatchObject({ sub: user.id, email: "productora@example.com", roles: ["producer"] });
    expect(claims.sid).toEqual(expect.any(String));
  });

  it("gives the same answer for a wrong password, an unknown email and an account without password", async () => {
    const user = await createTestUser();
    const google = await createTestUser({ passwordHash: null, googleId: "google-123" });
    const ctx = await ctxAs(ANONYMOUS, new Date(), freshIp());
    const wrongPassword = await failure(login(ctx, { email: user.email, password: "no-es-la-clave" }));
    const unknownEmail = await failure(login(ctx, { email: "nadie@example.com", password: "no-es-la-clave" }));
    const noPassword = await failure(login(ctx, { email: google.email, password: "no-es-la-clave" }));
    expect(wrongPassword).toEqual({ code: "UNAUTHENTICATED", message: BAD_CREDENTIALS, fieldErrors: { password: [BAD_CREDENTIALS] } });
    expect(unknownEmail).toEqual(wrongPassword);
    expect(noPassword).toEqual(wrongPassword);
  });

  it(`stops guessing one email after ${LIMITS.email} failures, from any address, for 15 minutes`, async () => {
    const user = await createTestUser();
    const start = new Date("2030-03-01T12:00:00Z");
    for (let i = 0; i < LIMITS.email; i++) {
      const ctx = await ctxAs(ANONYMOUS, new Date(start.getTime() + i * 1000), freshIp());
      await expect(login(ctx, { email: user.email, password: `intento-${i}-malo` })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    }
    const later = new Date(start.getTime() + 60_000);
    // Even the right password waits: the limit is on the email, whatever the address.
    await expect(login(await ctxAs(ANONYMOUS, later, freshIp()), { email: user.email, password: user.password })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: TOO_MANY,
    });
    // Another person is not affected.
    const other = await createTestUser();
    await expect(login(await ctxAs(ANONYMOUS, later, freshIp()), { email: other.email, password: other.password })).resolves.toHaveProperty("accessToken");
    // After the window, the owner gets in.
    const afterWindow = new Date(start.getTime() + RATE_LIMIT_WINDOW_MS + 1000);
    await expect(login(await ctxAs(ANONYMOUS, afterWindow, freshIp()), { email: user.email, password: user.password })).resolves.toHaveProperty("accessToken");
  });

  it(`stops one address after ${LIMITS.ip} failures over any emails`, async () => {
    const ip = freshIp();
    const now = new Date("2030-03-02T12:00:00Z");
    const ctx = await ctxAs(ANONYMOUS, now, ip);
    for (let i = 0; i < LIMITS.ip; i++) {
      await expect(login(ctx, { email: `desconocido${i}@example.com`, password: "clave-cualquiera" })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    }
    const user = await createTestUser();
    await expect(login(ctx, { email: user.email, password: user.password })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: TOO_MANY });
    await expect(login(await ctxAs(ANONYMOUS, now, freshIp()), { email: user.email, password: user.password })).resolves.toHaveProperty("accessToken");
  });

  it("checks at most 5 wrong passwords per email, however many are sent at the same time", async () => {
    const user = await createTestUser();
    const now = new Date("2030-03-04T12:00:00Z");
    const attempt = async (i: number) => {
      try {
        await login(await ctxAs(ANONYMOUS, now, freshIp()), { email: user.email, password: `intento-${i}-malo` });
        return "OK";
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(i)));
    const afterwards = [];
    for (let i = 0; i < 8; i++) afterwards.push(await attempt(100 + i));
    const codes = [...burst, ...afterwards];
    expect(codes.every((c) => c === "UNAUTHENTICATED" || c === "TOO_MANY_REQUESTS")).toBe(true);
    // Only this many passwords were actually tried against the account.
    expect(codes.filter((c) => c === "UNAUTHENTICATED")).toHaveLength(LIMITS.email);
    await expect(login(await ctxAs(ANONYMOUS, now, freshIp()), { email: user.email, password: user.password })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("does not count successful sign-ins against the address", async () => {
    const user = await createTestUser();
    const ctx = await ctxAs(ANONYMOUS, new Date("2030-03-05T12:00:00Z"), freshIp());
    for (let i = 0; i < LIMITS.ip + 2; i++) await login(ctx, { email: user.email, password: user.password });
    await expect(login(ctx, { email: "nadie@example.com", password: "clave-cualquiera" })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("forgets an email's failures after a successful sign-in", async () => {
    const user = await createTestUser();
    const ctx = await ctxAs(ANONYMOUS, new Date("2030-03-03T12:00:00Z"), freshIp());
    for (let i = 0; i < LIMITS.email - 1; i++) await expect(login(ctx, { email: user.email, password: "mala-clave-1" })).rejects.toThrow();
    await login(ctx, { email: user.email, password: user.password });
    for (let i = 0; i < LIMITS.email - 1; i++) await expect(login(ctx, { email: user.email, password: "mala-clave-2" })).rejects.toThrow(BAD_CREDENTIALS);
    await expect(login(ctx, { email: user.email, password: user.password })).resolves.toHaveProperty("accessToken");
  });
});

describe("impersonatedLogin", () => {
  it("lets an admin sign in as someone else, audited, with the admin remembered in the session", async () => {
    const admin = await createTestUser({ roles: ["admin"] });
    const target = await createTestUser({ roles: ["promoter"] });
    const now = new Date();
    const tokens = await impersonatedLogin(await ctxAs(actorFor(admin), now), { email: target.email.toUpperCase() });

    const claims = await claimsOf(tokens.accessToken);
    expect(claims).toMatchObject({ sub: target.id, email: target.email, roles: ["promoter"] });

    const db = await getDb();
    const [session] = await db.select().from(sessions).where(eq(sessions.id, claims.sid!));
    expect(session).toMatchObject({ userId: target.id, impersonatorId: admin.id });

    const audit = await db.select().from(auditLog).where(eq(auditLog.targetId, target.id));
    expect(audit).toEqual([
      expect.objectContaining({ actorId: admin.id, action: "impersonate", targetId: target.id, data: { email: target.email } }),
    ]);

    // The impersonation survives a refresh: the next session still names the admin.
    const next = await rotateRefreshToken(db, tokens.refreshToken, new Date(now.getTime() + 1000));
    const nextClaims = await claimsOf(next.accessToken);
    const [nextSession] = await db.select().from(sessions).where(eq(sessions.id, nextClaims.sid!));
    expect(nextSession.impersonatorId).toBe(admin.id);
  });

  it("refuses everyone who is not an admin, and leaves no trace", async () => {
    const target = await createTestUser();
    const db = await getDb();
    for (const roles of [[], ["producer"], ["promoter", "promoter_lead"], ["marketing"]] as const) {
      const someone = await createTestUser({ roles: [...roles] });
      await expect(impersonatedLogin(await ctxAs(actorFor(someone)), { email: target.email })).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    await expect(impersonatedLogin(await ctxAs(), { email: target.email })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect(await db.select().from(auditLog).where(eq(auditLog.targetId, target.id))).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, target.id))).toEqual([]);
  });

  it("says when there is nobody with that email", async () => {
    const admin = await createTestUser({ roles: ["admin"] });
    await expect(impersonatedLogin(await ctxAs(actorFor(admin)), { email: "nadie@example.com" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
