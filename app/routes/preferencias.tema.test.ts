import { describe, expect, it } from "vitest";
import { action, loader } from "./preferencias.tema";

function post(fields: Record<string, string>) {
  return action({
    request: new Request("http://localhost/preferencias/tema", { method: "POST", body: new URLSearchParams(fields) }),
    params: {},
    context: {},
  });
}

/** `data()` results carry their init; redirects are Responses. */
function setCookieOf(result: unknown): string | null {
  if (result instanceof Response) return result.headers.get("set-cookie");
  const init = (result as { init?: { headers?: HeadersInit } }).init;
  return new Headers(init?.headers).get("set-cookie");
}

describe("POST /preferencias/tema", () => {
  it("without JavaScript: sets the cookie and goes back to the page", async () => {
    const result = await post({ theme: "light", redirectTo: "/ayuda?x=1" });
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/ayuda?x=1");
    expect(setCookieOf(response)).toMatch(/^theme=light; Path=\/; SameSite=Lax; Max-Age=31536000/);
    expect(setCookieOf(response)).not.toContain("HttpOnly");
  });

  it("with a fetcher (no redirectTo): answers the theme and sets the cookie", async () => {
    for (const theme of ["dark", "light", "system"]) {
      const result = (await post({ theme })) as { data: unknown };
      expect(result.data).toEqual({ theme });
      expect(setCookieOf(result)).toMatch(new RegExp(`^theme=${theme};`));
    }
  });

  it("never redirects to another site", async () => {
    for (const redirectTo of ["https://evil.com", "//evil.com", "/\\evil.com", "javascript:alert(1)"]) {
      const response = (await post({ theme: "dark", redirectTo })) as Response;
      expect(response.headers.get("location")).toBe("/");
    }
  });

  it("refuses an unknown theme without setting a cookie", async () => {
    const result = (await post({ theme: "rosa" })) as { data: unknown; init: ResponseInit };
    expect(result.init.status).toBe(400);
    expect(setCookieOf(result)).toBeNull();
  });

  it("GET goes home", () => {
    const response = loader();
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
  });
});
