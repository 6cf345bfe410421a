import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { gql } from "#tests/support/graphql";

/**
 * Control characters over GraphQL (server/http/request-guard.ts): NUL used to reach PostgreSQL
 * and come back as INTERNAL_SERVER_ERROR. Now a string variable or literal
 * with one is BAD_USER_INPUT naming the field, before any resolver runs.
 */
describe("control characters over GraphQL", () => {
  it("a NUL in a string literal is BAD_USER_INPUT on the argument, with no data", async () => {
    const result = await gql(`{ event(slug: "ab\\u0000c") { id } }`);
    expect(result.status).toBeLessThan(500);
    expect(result.body.data ?? null).toBeNull();
    const [error] = result.body.errors!;
    expect(error.extensions?.code).toBe("BAD_USER_INPUT");
    expect(error.extensions?.field).toBe("slug");
    expect(error.message).toBe("Revisá «slug»: no puede contener caracteres de control.");
  });

  it("a NUL in a variable, top level or nested in an input, is BAD_USER_INPUT with its path", async () => {
    const bySlug = await gql(`query($slug: String!) { event(slug: $slug) { id } }`, { variables: { slug: "ab\u0000c" } });
    expect(bySlug.status).toBeLessThan(500);
    expect(bySlug.body.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "slug" });

    const login = await gql(`mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { accessToken } }`, {
      variables: { email: "a\u0000b@c.co", password: "12345678" },
    });
    expect(login.body.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "email" });
    expect(login.body.data ?? null).toBeNull();
  });

  it("any C0 control character, anywhere in a string, never gives a server error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 8 }), fc.integer({ min: 0, max: 31 }).filter((c) => c !== 9 && c !== 10 && c !== 13), fc.string({ maxLength: 8 }), async (before, code, after) => {
        const slug = `${before}${String.fromCharCode(code)}${after}`;
        const result = await gql(`query($slug: String!) { event(slug: $slug) { id } }`, { variables: { slug } });
        expect(result.status).toBeLessThan(500);
        expect(result.body.errors![0].extensions?.code).toBe("BAD_USER_INPUT");
      }),
      { seed: 20261124, numRuns: 25 },
    );
  });

  it("line breaks pass the door (multi-line fields exist) and a single-line field's schema refuses them next to the field", async () => {
    const result = await gql(`mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { accessToken } }`, {
      variables: { email: "ana\n@example.com", password: "12345678" },
    });
    expect(result.status).toBeLessThan(500);
    const [error] = result.body.errors!;
    expect(error.extensions?.code).toBe("BAD_USER_INPUT");
    expect(error.extensions?.fieldErrors).toHaveProperty("email");
  });
});
