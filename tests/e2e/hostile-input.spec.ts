import { expect, test } from "./fixtures";

/**
 * The production server (Express, Remix and GraphQL together) answers
 * hostile input as the client's mistake: NUL bytes in a form, a page URL
 * and a GraphQL variable get a 400 or BAD_USER_INPUT in Spanish, never a
 * 5xx (decision 118). The same checks run against the guards alone in
 * server/http/request-guard.test.ts and tests/contract/control-characters.test.ts.
 */
test.describe("entrada hostil", () => {
  test("un carácter nulo en un formulario, una dirección o una variable de GraphQL no rompe nada", async ({ request, baseURL }) => {
    const form = await request.post("/cuenta/iniciar-sesion/email", {
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(baseURL!).origin },
      data: "email=a%00b%40c.co&password=12345678",
    });
    expect(form.status()).toBe(400);
    expect(await form.text()).toContain("caracteres de control");

    for (const path of ["/?q=ab%00c", "/eventos/ab%00c"]) {
      const page = await request.get(path);
      expect(page.status(), path).toBe(400);
      expect(await page.text()).toContain('lang="es-AR"');
    }

    const graphql = await request.post("/api/graphql", {
      data: { query: "query($slug: String!) { event(slug: $slug) { id } }", variables: { slug: "ab\u0000c" } },
    });
    expect(graphql.status()).toBeLessThan(500);
    const body = await graphql.json();
    expect(body.errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "slug" });
  });

  test("un formulario con una fila 100.000.000 se rechaza al instante y el servidor sigue atendiendo", async ({ request, baseURL }) => {
    const refused = await request.post("/organizacion/cupones", {
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(baseURL!).origin },
      data: "code=HOLA&ticketTypeIds%5B100000000%5D=x",
    });
    expect(refused.status()).toBe(400);
    expect((await request.get("/")).status()).toBe(200);
  });
});
