import { createSchema, createYoga } from "graphql-yoga";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GENERIC_ERROR } from "#server/errors";
import { maskError } from "#server/graphql/yoga";
import { setFaultReporter } from "#server/monitoring";
import { errorCode, gql } from "#tests/support/graphql";

/**
 * Only a real server fault is INTERNAL_SERVER_ERROR, and only those reach
 * monitoring (Sentry through server/monitoring.ts). A client's mistake or a
 * domain answer is a 4xx-kind answer that nobody is paged for.
 */
let reported: unknown[] = [];
let previous: ReturnType<typeof setFaultReporter>;
beforeEach(() => {
  reported = [];
  previous = setFaultReporter((error) => reported.push(error));
});
afterEach(() => {
  setFaultReporter(previous);
});

describe("faults reach monitoring; client mistakes do not", () => {
  it("a resolver that crashes: INTERNAL_SERVER_ERROR with the generic Spanish message, nothing internal, reported once", async () => {
    // A schema of its own whose resolver fails the way a lost database connection does, behind our real error mask.
    const crash = new Error("connect ECONNREFUSED 10.0.0.5:5432 (select * from users)");
    const server = createYoga({
      schema: createSchema({ typeDefs: "type Query { balance: Int, ok: Int }", resolvers: { Query: { balance: () => { throw crash; }, ok: () => 1 } } }),
      maskedErrors: { maskError },
      logging: false,
    });
    const response = await server.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ balance ok }" }),
    });
    const body = await response.json();
    expect(body.data).toEqual({ balance: null, ok: 1 });
    expect(body.errors).toEqual([{ message: GENERIC_ERROR, path: ["balance"], locations: [{ line: 1, column: 3 }], extensions: { code: "INTERNAL_SERVER_ERROR" } }]);
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|select \*|at .*\.ts/);
    expect(reported).toEqual([crash]);
  });

  it("bad variables, a query over the limits, an unknown field and domain answers are not faults: typed codes, nothing reported", async () => {
    const badVariable = await gql(`query Events($limit: Int) { events(limit: $limit) { total } }`, { variables: { limit: "x" } });
    expect(errorCode(badVariable)).toBe("BAD_USER_INPUT");
    const overLimits = await gql(`{ ${Array.from({ length: 40 }, (_, i) => `e${i}: events(limit: 1) { total }`).join(" ")} }`);
    expect(errorCode(overLimits)).toBe("GRAPHQL_VALIDATION_FAILED");
    const unknownField = await gql(`{ nada }`);
    expect(errorCode(unknownField)).toBe("GRAPHQL_VALIDATION_FAILED");
    const anonymous = await gql(`{ myTickets { total } }`);
    expect(errorCode(anonymous)).toBe("UNAUTHENTICATED");
    const missing = await gql(`{ event(slug: "no-existe-${Date.now()}") { id } }`);
    expect(missing.body.errors?.map((e) => e.extensions?.code) ?? []).not.toContain("INTERNAL_SERVER_ERROR");
    for (const result of [badVariable, overLimits, unknownField, anonymous]) expect(result.status).toBeLessThan(500);
    expect(reported).toEqual([]);
  });
});
