import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GRAPHQL_LIMITS } from "#server/graphql/limits";
import { errorCode, gql } from "#tests/support/graphql";

/**
 * What one request may ask for (decision 101), and client mistakes answered
 * as client errors. No test here measures a time: a refused query is refused
 * before any resolver runs, which the absence of data shows.
 */
describe("GraphQL limits", () => {
  it("refuses an over-aliased query (300 × events) with a 4xx and a Spanish message, without running it", async () => {
    const query = `{ ${Array.from({ length: 300 }, (_, i) => `e${i}: events(limit: 50) { total }`).join(" ")} }`;
    const result = await gql(query);
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    expect(result.body.data ?? null).toBeNull();
    expect(result.body.errors!.map((e) => e.message).join(" ")).toMatch(/demasiados alias|demasiado larga/);
  });

  it("refuses an over-deep and an over-costly query", async () => {
    // Our schema has no cycles, so a deep enough query also names fields that do not exist: the depth error comes with them.
    const deep = await gql(`{ events { items { organization { a { b { c { d { e { f { g } } } } } } } } } }`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors!.some((e) => /demasiados niveles/.test(e.message))).toBe(true);

    const fields = "id slug name description status venue { name address city province } organization { slug name } dates { id startsAt endsAt status } ticketTypes { id name description price available hidden presale paymentMethod minPerOrder maxPerOrder }";
    const costly = await gql(`{ ${Array.from({ length: 14 }, (_, i) => `e${i}: events(limit: 50) { items { ${fields} } }`).join(" ")} }`);
    expect(costly.status).toBe(400);
    expect(costly.body.errors!.some((e) => /demasiado de una vez|demasiado larga/.test(e.message))).toBe(true);
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
