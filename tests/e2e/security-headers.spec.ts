import type { APIResponse } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The security headers (decision 119, server/http/security-headers.ts and csp.ts)
 * on every kind of answer the production server gives, asked of the real
 * server: public pages (fresh and from the micro-cache), a signed-in page,
 * the back office, the door screen, a redirect, a 404, a single-fetch data
 * request, GraphQL, a resource route, built assets, public files, and the
 * refusals of a foreign form and of a hostile URL. HSTS is only sent over https (this server is
 * http; server/http/security-headers.test.ts covers https).
 */
async function mintTokens(user: { id: string; email: string; roles: string[] }) {
  const [{ getDb }, { startSession }] = await Promise.all([import("#server/db/client"), import("#server/auth/sessions")]);
  return startSession(await getDb(), { id: user.id, email: user.email, roles: user.roles as never }, new Date());
}

function expectBaseHeaders(label: string, response: APIResponse, options: { camera?: boolean } = {}) {
  const headers = response.headers();
  expect(headers["x-frame-options"], label).toBe("DENY");
  expect(headers["content-security-policy"], label).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"], label).toBe("nosniff");
  expect(headers["referrer-policy"], label).toBe("strict-origin-when-cross-origin");
  expect(headers["cross-origin-opener-policy"], label).toBe("same-origin-allow-popups");
  expect(headers["permissions-policy"], label).toMatch(options.camera ? /^camera=\(self\), microphone=\(\), geolocation=\(\)/ : /^camera=\(\), microphone=\(\), geolocation=\(\)/);
  expect(headers["strict-transport-security"], label).toBeUndefined();
  expect(headers["x-powered-by"], label).toBeUndefined();
}

/** An HTML page: the full policy with this response's nonce, and every script carries it. */
async function expectPagePolicy(label: string, response: APIResponse): Promise<string> {
  const policy = response.headers()["content-security-policy"] ?? "";
  const nonce = policy.match(/'nonce-([^']+)'/)?.[1] ?? "";
  expect(nonce, label).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(policy, label).toContain("object-src 'none'");
  expect(policy, label).toContain("base-uri 'none'");
  const html = await response.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  for (const tag of scripts) expect(tag, `${label}: ${tag}`).toContain(`nonce="${nonce}"`);
  return nonce;
}

test.describe("encabezados de seguridad", () => {
  test("every kind of answer carries them; pages carry a policy with a nonce of their own, also from the micro-cache", async ({ playwright, factory, baseURL }) => {
    const event = await factory.event({ name: `Fiesta Encabezados ${factory.uniqueWord()}`, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
    const tokens = await mintTokens(event.owner);
    const anonymous = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
    const owner = await playwright.request.newContext({
      baseURL,
      maxRedirects: 0,
      extraHTTPHeaders: { cookie: `at=${tokens.accessToken}; rt=${tokens.refreshToken}` },
    });

    // Public pages: the event page twice (the second from the micro-cache), the home page and a content page.
    const eventPath = `/eventos/${event.slug}`;
    const fresh = await anonymous.get(eventPath);
    const cached = await anonymous.get(eventPath);
    expect(fresh.status()).toBe(200);
    expect(cached.headers()["x-cache"]).toBe("HIT");
    const nonces = [];
    for (const [label, response] of [
      ["event page", fresh],
      ["event page from the micro-cache", cached],
      ["home", await anonymous.get("/")],
      ["help", await anonymous.get("/ayuda")],
      ["signed-in page", await owner.get("/cuenta/mis-tickets")],
      ["back office", await owner.get("/organizacion/webhooks")],
      ["404 page", await anonymous.get(`/no-existe-${factory.uniqueWord()}`)],
    ] as const) {
      expect(response.headers()["content-type"], label).toMatch(/^text\/html/);
      expectBaseHeaders(label, response);
      nonces.push(await expectPagePolicy(label, response));
    }
    expect(new Set(nonces).size, "a nonce is never reused").toBe(nonces.length);

    // The door screen: the only page that may use the camera.
    const door = await anonymous.get(`/vivos/acreditacion/${event.slug}`);
    expect(door.status()).toBe(200);
    expectBaseHeaders("door screen", door, { camera: true });
    await expectPagePolicy("door screen", door);

    // Answers that are not pages: frame-ancestors only, and every other header.
    const home = await (await anonymous.get("/")).text();
    const asset = home.match(/<link rel="modulepreload" href="(\/assets\/[^"]+)"/)?.[1];
    expect(asset).toBeTruthy();
    const others: [string, APIResponse, number][] = [
      ["redirect to sign in", await anonymous.get("/cuenta/mis-tickets"), 302],
      ["single-fetch data", await anonymous.get(`${eventPath}.data`), 200],
      ["GraphQL", await anonymous.post("/api/graphql", { data: { query: "{ __typename }" } }), 200],
      ["GraphQL refusal", await anonymous.post("/api/graphql", { data: { query: "{ nada }" }, headers: { accept: "application/graphql-response+json" } }), 400],
      ["resource route", await anonymous.get("/imagenes/no-existe.webp"), 404],
      ["built asset", await anonymous.get(asset!), 200],
      ["public file", await anonymous.get("/robots.txt"), 200],
    ];
    for (const [label, response, status] of others) {
      expect(response.status(), label).toBe(status);
      expectBaseHeaders(label, response);
      expect(response.headers()["content-security-policy"], label).toBe("frame-ancestors 'none'");
    }

    // A form posted from another site: the Spanish 403 page, with the headers too.
    const foreign = await anonymous.post(eventPath, { headers: { origin: "https://otro-sitio.example" }, form: { intent: "x" } });
    expect(foreign.status()).toBe(403);
    expect(await foreign.text()).toContain("No pudimos procesar el formulario");
    expectBaseHeaders("foreign form", foreign);

    // Refused by the guards before any page runs (a control character in the URL): the headers too.
    const hostile = await anonymous.get(`${eventPath}%00`);
    expect(hostile.status()).toBe(400);
    expectBaseHeaders("hostile URL", hostile);

    await anonymous.dispose();
    await owner.dispose();
  });
});
