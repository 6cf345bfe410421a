import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "#server/db/client";
import { emailLog } from "#server/db/schema";
import { GRAPHQL_LIMITS } from "#server/graphql/limits";
import { validationError } from "#server/graphql/client-errors";
import { createTestUser } from "#tests/support/context";
import { errorCode, gql, gqlGet, postRaw } from "#tests/support/graphql";

/**
 * What one request may ask for (decision 101), and client mistakes answered
 * as client errors. No test here measures a time: a refused query is refused
 * before any resolver runs, which the absence of data shows.
 */
describe("GraphQL limits", () => {
  /** A refusal as an integrator reads it: a 400, no data, the typed code and the Spanish reason. */
  function expectRefused(result: Awaited<ReturnType<typeof gql>>, message: RegExp) {
    expect(result.status).toBe(400);
    expect(result.body.data ?? null).toBeNull();
    const limited = result.body.errors!.filter((e) => message.test(e.message));
    expect(limited, JSON.stringify(result.body.errors)).toHaveLength(1);
    expect(limited[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  }

  it("refuses an over-aliased query (300 × events) with a 4xx and a Spanish message, without running it", async () => {
    const query = `{ ${Array.from({ length: 300 }, (_, i) => `e${i}: events(limit: 50) { total }`).join(" ")} }`;
    const result = await gql(query);
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    expect(result.body.data ?? null).toBeNull();
    expect(result.body.errors!.map((e) => e.message).join(" ")).toMatch(/demasiados alias|demasiado larga/);
  });

  it("refuses each limit on its own: over-aliased, over-deep, over-costly, too long, too many directives — 400 and GRAPHQL_VALIDATION_FAILED", async () => {
    // One alias over the limit, nothing else near a limit.
    expectRefused(await gql(`{ ${Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, (_, i) => `e${i}: events(limit: 1) { total }`).join(" ")} }`), /^La consulta usa demasiados alias \(máximo 15\)\.$/);

    // Our schema has no cycles, so a deep enough query also names fields that do not exist: the depth error comes with them.
    expectRefused(await gql(`{ events { items { organization { a { b { c { d { e { f { g } } } } } } } } } }`), /^La consulta tiene demasiados niveles \(máximo 8\)\.$/);

    // 14 aliases (under 15), about 800 tokens (under 2000), depth 4: only the cost is over.
    const fields = "id slug name description status venue { name address city province } organization { slug name } dates { id startsAt endsAt status } ticketTypes { id name description price available hidden presale paymentMethod minPerOrder maxPerOrder }";
    const costly = await gql(`{ ${Array.from({ length: 14 }, (_, i) => `e${i}: events(limit: 50) { items { ${fields} } }`).join(" ")} }`);
    expectRefused(costly, /^La consulta pide demasiado de una vez \(costo máximo 1000\)\.$/);

    expectRefused(await gql(`{ events(limit: 1) { total ${"__typename ".repeat(GRAPHQL_LIMITS.tokens)}} }`), /^La consulta es demasiado larga \(máximo 2000 tokens\)\.$/);
    expectRefused(await gql(`{ events(limit: 1) { total ${"@include(if: true) ".repeat(GRAPHQL_LIMITS.directives + 1)}} }`), /^La consulta usa demasiadas directivas \(máximo 20\)\.$/);
  });

  it("a refused query runs nothing: 16 aliased sign-in links send no email, while one goes out", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const sent = async () => (await db.select().from(emailLog).where(eq(emailLog.to, user.email))).length;
    const link = (i: number) => `l${i}: createSignInLink(email: "${user.email}") { userFound }`;
    const refused = await gql(`mutation { ${Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, (_, i) => link(i)).join(" ")} }`, { ip: "198.51.100.14" });
    expectRefused(refused, /demasiados alias/);
    expect(await sent()).toBe(0);
    // The same mutation within the limits does run (so the zero above is the refusal, not a mutation that sends nothing).
    const one = await gql(`mutation { ${link(0)} }`, { ip: "198.51.100.15" });
    expect(one.body.data).toEqual({ l0: { userFound: true } });
    expect(await sent()).toBe(1);
  });

  it("lets every example of docs/api.md through the limits", async () => {
    const docs = fs.readFileSync(path.resolve("docs/api.md"), "utf8");
    const blocks = [...docs.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]);
    for (const block of blocks) {
      const result = await gql(block);
      const limited = (result.body.errors ?? []).filter((e) => /demasiad/.test(e.message));
      expect(limited, block).toEqual([]);
    }
    expect(GRAPHQL_LIMITS.aliases).toBeGreaterThan(1);
  });
});

describe("client mistakes are client errors", () => {
  it.each([1.5, "x", 2147483648, 99999999999])("a limit of %j answers BAD_USER_INPUT with the variable, in Spanish", async (value) => {
    const result = await gql(`query Events($limit: Int) { events(limit: $limit) { total } }`, { variables: { limit: value } });
    expect(result.status).toBe(400);
    expect(errorCode(result)).toBe("BAD_USER_INPUT");
    expect(result.body.errors![0].extensions!.field).toBe("limit");
    expect(result.body.errors![0].message).toMatch(/^Revisá «limit»: tiene que ser un número entero/);
  });

  it("a missing required variable and a wrong field inside an input are BAD_USER_INPUT with their path", async () => {
    const missing = await gql(`query Event($slug: String!) { event(slug: $slug) { id } }`);
    expect(errorCode(missing)).toBe("BAD_USER_INPUT");
    expect(missing.body.errors![0].message).toBe("Falta la variable «$slug» (String!).");

    const wrong = await gql(`mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId } }`, {
      variables: { input: { eventSlug: "x", items: [{ ticketId: "t", qty: 1.5 }], payer: {}, paymentMethod: "MERCADO_PAGO" } },
    });
    expect(errorCode(wrong)).toBe("BAD_USER_INPUT");
    expect(wrong.body.errors![0].extensions!.field).toMatch(/^input/);
  });
});

describe("a query graphql-js refuses is answered in Spanish, with the field, and a 4xx", () => {
  it.each([
    [`{ events { itemz { id } } }`, "El campo «itemz» no existe en EventList.", "itemz"],
    [`{ events(limite: 3) { total } }`, "El argumento «limite» no existe en «Query.events».", "limite"],
    [`{ event { id } }`, "Falta el argumento «slug» (String!) de «event».", "slug"],
    [`{ events { total { x } } }`, "El campo «total» (Int!) no tiene subcampos: sacale la selección { … }.", "total"],
    [`{ events }`, "El campo «events» (EventList) necesita una selección de subcampos, por ejemplo { id }.", "events"],
    [`query Q($x: String) { events(limit: $x) { total } }`, "La variable «$x» es de tipo String y ahí se espera Int.", "x"],
    [`query Q($x: Int) { events { total } }`, "La variable «$x» está declarada pero no se usa.", "x"],
    [`{ events(limit: "x") { total } }`, "Revisá el valor: tiene que ser un número entero.", undefined],
  ])("%s", async (query, message, field) => {
    const result = await gql(query);
    expect(result.status).toBe(400);
    expect(result.body.data ?? null).toBeNull();
    const [error] = result.body.errors!;
    // Outside production a suggestion may follow ("¿Quisiste decir «items»?"); the reason comes first.
    expect(error.message.startsWith(message), error.message).toBe(true);
    expect(error.extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", ...(field ? { field } : {}) });
    expect(error.message).not.toMatch(/Cannot|Unknown|Did you mean|Expected|must/);
  });

  // GraphQL over HTTP (decision 179): 400 for application/graphql-response+json; 200 for application/json (also
  // what */* gets), whose legacy clients cannot tell a 4xx of ours from a proxy's.
  it("is 400 for application/graphql-response+json and 200 for application/json, and the same the second time (validation results are cached)", async () => {
    const cases: [string, number][] = [["application/graphql-response+json", 400], ["application/json", 200], ["*/*", 200], ["application/graphql-response+json", 400], ["application/json", 200]];
    for (const [accept, status] of cases) {
      const unknown = await gql(`{ events { itemz { id } } }`, { headers: { accept } });
      expect(unknown.status, accept).toBe(status);
      expect(unknown.body.data, accept).toBeUndefined();
      expect(unknown.body.errors!.map((e) => e.message.replace(/ ¿Quisiste decir.*$/, "")), accept).toEqual(["El campo «itemz» no existe en EventList."]);
      const badVariable = await gql(`query Events($limit: Int) { events(limit: $limit) { total } }`, { variables: { limit: "x" }, headers: { accept } });
      expect(badVariable.status, accept).toBe(status);
      expect(errorCode(badVariable)).toBe("BAD_USER_INPUT");
      const overLimit = await gql(`{ ${Array.from({ length: 16 }, (_, i) => `e${i}: events(limit: 1) { total }`).join(" ")} }`, { headers: { accept } });
      expect(overLimit.status, accept).toBe(status);
      expect(errorCode(overLimit)).toBe("GRAPHQL_VALIDATION_FAILED");
      const notJson = await postRaw("{nope", { contentType: "application/json", headers: { accept } });
      expect(notJson.status, accept).toBe(400);
    }
  });

  it("a syntax error, a body that is not JSON and a mutation by GET are 4xx in Spanish too", async () => {
    const syntax = await gql(`{ events { total `);
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors).toEqual([{ message: "La consulta tiene un error de sintaxis (línea 1, columna 18).", locations: [{ line: 1, column: 18 }], extensions: { code: "GRAPHQL_PARSE_FAILED" } }]);

    const notJson = await postRaw("{nope", { contentType: "application/json" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors).toEqual([{ message: "El cuerpo del pedido no es JSON válido.", extensions: { code: "BAD_REQUEST" } }]);

    const byGet = await gqlGet(`mutation { logout }`);
    expect(byGet.status).toBe(405);
    expect(byGet.body.errors![0].message).toBe("Las mutaciones van por POST.");
  });

  it("suggests a field by name outside production, never in production (decision 101)", () => {
    const error = { message: 'Cannot query field "itemz" on type "EventList". Did you mean "items" or "item"?' };
    expect(validationError(error, false).message).toBe("El campo «itemz» no existe en EventList. ¿Quisiste decir «items» o «item»?");
    expect(validationError(error, true).message).toBe("El campo «itemz» no existe en EventList.");
    expect(validationError({ message: 'Cannot query field "itemz" on type "EventList". [Suggestion hidden]' }, true).message).toBe("El campo «itemz» no existe en EventList.");
    // A message no rule knows yet: still Spanish, never the suggestion.
    expect(validationError({ message: 'Some new rule about "x". Did you mean "y"?' }, true).message).toBe('La consulta no es válida: Some new rule about "x".');
  });
});
