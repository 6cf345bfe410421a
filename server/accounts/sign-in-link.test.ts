import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LIMITS } from "#server/auth/rate-limit";
import { verifyAccessToken } from "#server/auth/tokens";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { emailLog, users } from "#server/db/schema";
import { createTestUser, ctxAs } from "#tests/support/context";
import { emailsTo, lastSignInToken } from "#tests/support/mailbox";
import {
  BAD_LINK,
  LINK_FOR_EXISTING_ACCOUNT,
  SIGN_IN_LINK_TTL_MS,
  createSignInLink,
  finishSignInFromLink,
  registerFromLink,
  safeReturnPath,
} from "./sign-in-link";

let ipCounter = 0;
const freshIp = () => `203.0.113.${100 + ++ipCounter}`;
const T0 = new Date("2030-07-01T20:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const ctxAt = async (ms: number, ip = freshIp()) => ctxAs(ANONYMOUS, at(ms), ip);
const badLink = { code: "BAD_USER_INPUT", message: BAD_LINK, fieldErrors: { token: [BAD_LINK] } };

async function subjectOf(accessToken: string, now: Date) {
  const check = await verifyAccessToken(accessToken, now);
  if (!check.ok) throw new Error(check.reason);
  return check.claims.sub;
}

describe("createSignInLink", () => {
  it("emails a link to an existing person and says it found them", async () => {
    const user = await createTestUser({ email: "habitue@example.com" });
    const result = await createSignInLink(await ctxAt(0), { email: "Habitue@Example.com", returnTo: "/eventos/rock" });
    expect(result).toEqual({ userFound: true, emailTo: "habitue@example.com", logEmailId: expect.any(String) });

    const [logged] = await (await getDb()).select().from(emailLog).where(eq(emailLog.id, result.logEmailId));
    expect(logged).toMatchObject({ to: user.email, kind: "sign-in-link", subject: "Tu enlace para ingresar a Tribuna" });
    expect(logged.text).toMatch(/^Ingresar a Tribuna: http:\/\/localhost:3000\/cuenta\/enlace\?token=/);
    expect(logged.text).toContain("vence en 30 minutos");
  });

  it("emails a sign-up link to a new address and says it did not find anyone", async () => {
    const result = await createSignInLink(await ctxAt(0), { email: "nueva@example.com" });
    expect(result).toMatchObject({ userFound: false, emailTo: "nueva@example.com" });
    const [logged] = await emailsTo("nueva@example.com", "sign-in-link");
    expect(logged.id).toBe(result.logEmailId);
    expect(logged.subject).toBe("Terminá de crear tu cuenta en Tribuna");
  });

  it("refuses a malformed email in Spanish", async () => {
    await expect(createSignInLink(await ctxAt(0), { email: "nueva@" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { email: ["Este campo debe ser un email válido"] },
    });
  });

  it(`sends at most ${LIMITS.email} links to one address in 15 minutes`, async () => {
    for (let i = 0; i < LIMITS.email; i++) await createSignInLink(await ctxAt(i), { email: "inundada@example.com" });
    await expect(createSignInLink(await ctxAt(10), { email: "inundada@example.com" })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(await emailsTo("inundada@example.com")).toHaveLength(LIMITS.email);
  });
});

describe("finishSignInFromLink", () => {
  async function linkFor(returnTo?: string | null) {
    const user = await createTestUser();
    await createSignInLink(await ctxAt(0), { email: user.email, returnTo });
    return { user, token: await lastSignInToken(user.email) };
  }

  it("signs in the person the link was sent to and hands back where they were going", async () => {
    const { user, token } = await linkFor("/eventos/rock-en-el-parque?fecha=2");
    const result = await finishSignInFromLink(await ctxAt(60_000), { token });
    expect(await subjectOf(result.accessToken, at(60_000))).toBe(user.id);
    expect(result.returnTo).toBe("/eventos/rock-en-el-parque?fecha=2");
  });

  it("works once, even when two clicks race", async () => {
    const { token } = await linkFor();
    const results = await Promise.allSettled([
      finishSignInFromLink(await ctxAt(1000), { token }),
      finishSignInFromLink(await ctxAt(1000), { token }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    await expect(finishSignInFromLink(await ctxAt(2000), { token })).rejects.toMatchObject(badLink);
  });

  it("expires after 30 minutes", async () => {
    const { token } = await linkFor();
    await expect(finishSignInFromLink(await ctxAt(SIGN_IN_LINK_TTL_MS), { token })).rejects.toMatchObject(badLink);
    await expect(finishSignInFromLink(await ctxAt(SIGN_IN_LINK_TTL_MS - 1000), { token })).resolves.toHaveProperty("accessToken");
  });

  it("refuses made-up tokens and sign-up links", async () => {
    await expect(finishSignInFromLink(await ctxAt(0), { token: "inventado" })).rejects.toMatchObject(badLink);
    await expect(finishSignInFromLink(await ctxAt(0), { token: "" })).rejects.toMatchObject(badLink);
    await createSignInLink(await ctxAt(0), { email: "sin-cuenta@example.com" });
    const token = await lastSignInToken("sin-cuenta@example.com");
    await expect(finishSignInFromLink(await ctxAt(1000), { token })).rejects.toMatchObject(badLink);
    // The sign-up link is still good for what it was meant for.
    await expect(registerFromLink(await ctxAt(2000), { token, firstName: "Paz", lastName: "Ríos" })).resolves.toHaveProperty("accessToken");
  });

  it.each([
    ["https://malicioso.example/robar", null],
    ["//malicioso.example/robar", null],
    ["/\\malicioso.example/robar", null],
    ["/\t/malicioso.example/robar", null],
    ["/\n/malicioso.example", null],
    ["javascript:alert(1)", null],
    ["eventos/rock", null],
    ["/eventos/rock#entradas", "/eventos/rock#entradas"],
    ["/cuenta/mis-tickets", "/cuenta/mis-tickets"],
  ])("keeps %j as return path only if it stays on the site (%j)", async (returnTo, expected) => {
    const { token } = await linkFor(returnTo);
    expect((await finishSignInFromLink(await ctxAt(1000), { token })).returnTo).toBe(expected);
  });
});

describe("registerFromLink", () => {
  async function signUpLink(email: string, returnTo?: string) {
    await createSignInLink(await ctxAt(0), { email, returnTo });
    return lastSignInToken(email);
  }

  it("creates the account for the emailed address with the names given, and signs in", async () => {
    const token = await signUpLink("Recien.Llegada@Example.com", "/cuenta/mis-tickets");
    const result = await registerFromLink(await ctxAt(60_000), { token, firstName: "Ñusta", lastName: "Quispe Mamaní" });
    const [created] = await (await getDb()).select().from(users).where(eq(users.email, "recien.llegada@example.com"));
    expect(created).toMatchObject({ firstName: "Ñusta", lastName: "Quispe Mamaní", passwordHash: null, roles: [] });
    expect(await subjectOf(result.accessToken, at(60_000))).toBe(created.id);
    expect(result.returnTo).toBe("/cuenta/mis-tickets");
  });

  it("works once", async () => {
    const token = await signUpLink("una-vez@example.com");
    await registerFromLink(await ctxAt(1000), { token, firstName: "Uno", lastName: "Solo" });
    await expect(registerFromLink(await ctxAt(2000), { token, firstName: "Dos", lastName: "Veces" })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("expires after 30 minutes", async () => {
    const token = await signUpLink("tarde@example.com");
    await expect(registerFromLink(await ctxAt(SIGN_IN_LINK_TTL_MS), { token, firstName: "Tarde", lastName: "Mente" })).rejects.toMatchObject(badLink);
  });

  it("checks the names in Spanish and keeps the link for a second try", async () => {
    const token = await signUpLink("corrige@example.com");
    await expect(registerFromLink(await ctxAt(1000), { token, firstName: "Ana ", lastName: "" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { firstName: ["Este campo no puede contener espacios al inicio o al final"], lastName: ["Este campo es obligatorio"] },
    });
    await expect(registerFromLink(await ctxAt(2000), { token, firstName: "Ana", lastName: "Paz" })).resolves.toHaveProperty("accessToken");
  });

  it("does not make a second account for someone who already has one", async () => {
    const user = await createTestUser();
    await createSignInLink(await ctxAt(0), { email: user.email });
    const token = await lastSignInToken(user.email);
    await expect(registerFromLink(await ctxAt(1000), { token, firstName: "Otra", lastName: "Persona" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { token: [LINK_FOR_EXISTING_ACCOUNT] },
    });
    await expect(finishSignInFromLink(await ctxAt(2000), { token })).resolves.toHaveProperty("accessToken");
  });

  it("lets a sign-up link sign in once the account exists (another tab signed up meanwhile)", async () => {
    const token = await signUpLink("dos-pestanas@example.com");
    await createTestUser({ email: "dos-pestanas@example.com" });
    await expect(registerFromLink(await ctxAt(1000), { token, firstName: "Dos", lastName: "Pestañas" })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    await expect(finishSignInFromLink(await ctxAt(2000), { token })).resolves.toHaveProperty("accessToken");
  });
});

describe("safeReturnPath", () => {
  it("keeps same-site paths and drops everything that could leave the site", () => {
    expect(safeReturnPath("/")).toBe("/");
    expect(safeReturnPath("/organizacion/mis-eventos?page=2")).toBe("/organizacion/mis-eventos?page=2");
    for (const bad of [null, undefined, "", "//evil.example", "/\\evil.example", "/\\/evil.example", "/\r\n/evil.example", "/\u0000x", "http://localhost:3000/x", "x"]) {
      expect(safeReturnPath(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});
