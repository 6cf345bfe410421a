import { expect, test } from "./fixtures";

/**
 * The micro-cache of anonymous public pages (decision 103, server/http/page-cache.ts)
 * on the production server: the plain event page is rendered once and served
 * to the next anonymous visitors, never to someone whose page is their own
 * (signed in, a saved cart, an access code), and an organizer's change to
 * the event drops the copy at once.
 */
async function mintTokens(user: { id: string; email: string; roles: string[] }) {
  const [{ getDb }, { startSession }] = await Promise.all([import("#server/db/client"), import("#server/auth/sessions")]);
  return startSession(await getDb(), { id: user.id, email: user.email, roles: user.roles as never }, new Date());
}

test.describe("micro-caché de páginas públicas", () => {
  test("sirve la página anónima desde el caché, nunca la de otra persona, y la renueva cuando el evento cambia", async ({ playwright, factory, baseURL }) => {
    const event = await factory.event({
      name: `Fiesta Caché ${factory.uniqueWord()}`,
      ticketTypes: [
        { name: "General", price: 1_000_000, stock: 100 },
        { name: "Invitados", price: 0, stock: 10, hidden: true, accessCode: "AMIGOS" },
      ],
    });
    const path = `/eventos/${event.slug}`;
    // A fresh client per request: no cookie jar carries over from one to the next.
    const get = async (headers: Record<string, string> = {}) => {
      const client = await playwright.request.newContext({ baseURL });
      const response = await client.get(path, { headers });
      const result = { status: response.status(), cache: response.headers()["x-cache"], cacheControl: response.headers()["cache-control"], html: await response.text() };
      await client.dispose();
      return result;
    };

    const first = await get();
    expect(first.status).toBe(200);
    expect(first.cacheControl).toMatch(/public/);
    expect((await get()).cache).toBe("HIT");
    expect(first.html).not.toContain("Invitados");

    // A saved cart with the access code: the hidden ticket shows, and that page is nobody else's.
    const cart = encodeURIComponent(JSON.stringify({ items: [], accessCode: "AMIGOS" }));
    const withCode = await get({ cookie: `incomplete-saved-order--${event.slug}=${cart}` });
    expect(withCode.cache).toBeUndefined();
    expect(withCode.html).toContain("Invitados");
    const anonymousAgain = await get();
    expect(anonymousAgain.cache).toBe("HIT");
    expect(anonymousAgain.html).not.toContain("Invitados");

    // Signed in: rendered for that person, never kept.
    const buyer = await factory.user({ firstName: "Ramona" });
    const tokens = await mintTokens(buyer);
    const signedIn = await get({ cookie: `at=${tokens.accessToken}; rt=${tokens.refreshToken}` });
    expect(signedIn.cache).toBeUndefined();
    expect(signedIn.cacheControl).toMatch(/private/);
    expect((await get()).html).not.toContain("Ramona");

    // The organizer pauses the sale through the API: the next anonymous visitor sees it at once.
    const owner = await mintTokens(event.owner);
    const client = await playwright.request.newContext({ baseURL });
    const paused = await client.post("/api/graphql", {
      headers: { "content-type": "application/json", "x-access-token": owner.accessToken },
      data: { query: "mutation($input: StatusInput!) { setEventStatus(input: $input) { status } }", variables: { input: { id: event.eventId, status: "paused" } } },
    });
    expect((await paused.json()).data.setEventStatus.status).toBe("paused");
    await client.dispose();
    const afterChange = await get();
    expect(afterChange.cache).toBe("MISS");
    expect(afterChange.html).toContain("La venta está pausada");
  });
});
