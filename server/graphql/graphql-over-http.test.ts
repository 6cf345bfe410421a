import http from "node:http";
import type { AddressInfo } from "node:net";
import { auditServer } from "graphql-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimit } from "#server/http/body-limit";
import { clientAddress, compress, directRoute, withRequestOrigin } from "#server/http/direct-route";
import { refuseHostileRequests } from "#server/http/request-guard";
import { securityHeaders } from "#server/http/security-headers";
import { graphqlListener, yoga } from "./yoga";

// /api/graphql as the production server serves it (server.ts): the same guards, then the short path for the usual
// JSON POST and yoga's Node listener for the rest. `fallbacks` counts what went yoga's whole way.
let server: http.Server;
let endpoint = "";
let fallbacks = 0;

beforeAll(async () => {
  const guards = [securityHeaders({ https: false, setUpFront: true }), compress(), bodyLimit(), refuseHostileRequests(), clientAddress({ trustProxy: false })];
  const listener = graphqlListener((req, res) => {
    fallbacks++;
    return yoga.requestListener(req, res);
  });
  server = http.createServer(directRoute(guards, withRequestOrigin(listener, { trustProxy: false, fixedOrigin: false })));
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/graphql`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("GraphQL over HTTP (decision 179)", () => {
  it("passes every audit of graphql-http: 61 of 61, no warnings, no notices", async () => {
    const results = await auditServer({ url: endpoint });
    const notOk = results.filter((result) => result.status !== "ok").map((result) => `${result.status}: ${result.name} (${result.reason})`);
    expect(notOk).toEqual([]);
    expect(results).toHaveLength(61);
  });

  const overLimit = `{ ${Array.from({ length: 16 }, (_, i) => `e${i}: events(limit: 1) { total }`).join(" ")} }`;
  // [case, body, status with Accept: application/json, status with Accept: application/graphql-response+json, code].
  // The first five are not well-formed GraphQL-over-HTTP requests; the rest are.
  const cases: [string, string, number, number, string | null][] = [
    ["a body that is not JSON", '{ "query": ', 400, 400, "BAD_REQUEST"],
    ["a body that is not an object", "[1]", 400, 400, "BAD_REQUEST"],
    ["a misspelt parameter", JSON.stringify({ qeury: "{ __typename }" }), 400, 400, "BAD_REQUEST"],
    ["an operationName that is not a text", JSON.stringify({ query: "{ __typename }", operationName: 7 }), 400, 400, "BAD_REQUEST"],
    ["variables that are not an object", JSON.stringify({ query: "{ __typename }", variables: [7] }), 400, 400, "BAD_REQUEST"],
    ["a document that does not parse", JSON.stringify({ query: "{ events { total " }), 200, 400, "GRAPHQL_PARSE_FAILED"],
    ["a document that does not validate", JSON.stringify({ query: "{ events { itemz { id } } }" }), 200, 400, "GRAPHQL_VALIDATION_FAILED"],
    ["a document over the limits", JSON.stringify({ query: overLimit }), 200, 400, "GRAPHQL_VALIDATION_FAILED"],
    ["an operation that cannot be chosen", JSON.stringify({ query: "query A { __typename } query B { __typename }" }), 200, 400, "OPERATION_RESOLUTION_FAILURE"],
    ["a variable of the wrong type", JSON.stringify({ query: "query Q($limit: Int) { events(limit: $limit) { total } }", variables: { limit: "x" } }), 200, 400, "BAD_USER_INPUT"],
    ["a field error (not signed in): data comes back", JSON.stringify({ query: "{ current { id } }" }), 200, 200, "UNAUTHENTICATED"],
    ["a query that runs", JSON.stringify({ query: "{ __typename }" }), 200, 200, null],
  ];

  async function post(body: string, accept: string, contentType = "application/json") {
    const before = fallbacks;
    const response = await fetch(endpoint, { method: "POST", headers: { "content-type": contentType, accept }, body });
    const text = await response.text();
    let code: string | null = null;
    try {
      code = (JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code ?? null;
    } catch {
      code = "not JSON";
    }
    return { status: response.status, contentType: response.headers.get("content-type"), code, viaYoga: fallbacks > before };
  }

  it.each(cases)("%s: the status each Accept asks for, on the short path and on yoga's", async (_name, body, jsonStatus, graphqlResponseStatus, code) => {
    const wellFormed = jsonStatus === 200;
    const short = await post(body, "application/json");
    expect({ status: short.status, code: short.code, contentType: short.contentType }).toEqual({ status: jsonStatus, code, contentType: "application/json; charset=utf-8" });
    // The usual JSON POST of a well-formed request is answered without yoga's HTTP layer (decision 142).
    expect(short.viaYoga).toBe(!wellFormed);

    const general = await post(body, "application/json", "application/json;charset=utf-8");
    expect({ status: general.status, code: general.code, viaYoga: general.viaYoga }).toEqual({ status: jsonStatus, code, viaYoga: true });

    const strict = await post(body, "application/graphql-response+json");
    expect({ status: strict.status, code: strict.code, contentType: strict.contentType }).toEqual({
      status: graphqlResponseStatus,
      code,
      contentType: "application/graphql-response+json; charset=utf-8",
    });
  });
});
