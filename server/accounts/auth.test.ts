import { describe, expect, it } from "vitest";
import { verifyAccessToken } from "#server/auth/tokens";
import { ctxAs } from "#tests/support/context";
import { login, register } from "./auth";

describe("register and login", () => {
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
});
