import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { createTestUser } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { cookieHeader } from "#tests/support/graphql";
import { knownRequestHooks, requestHookCounts } from "./json-post";
import { createGraphQLServer, graphqlListener, yoga } from "./yoga";

// Two real HTTP servers on the same yoga: one as production serves /api/graphql (the short path for the usual JSON
// POST, yoga's Node listener for the rest), one with yoga's Node listener alone. Every request goes to both and the
// answers must be the same: status line, every header (but Date) and body. Token values differ between two
// sign-ins, so they are compared by shape.
let fallbacks = 0;
const servers: http.Server[] = [];
let shortBase = "";
let yogaBase = "";

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<string> {
  const server = http.createServer(listener);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  shortBase = await listen(
    graphqlListener((req, res) => {
      fallbacks++;
      return yoga.requestListener(req, res);
    }),
  );
  yogaBase = await listen(yoga.requestListener);
});
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

interface Answer {
  statusLine: string;
  headers: string[];
  body: string;
}

const TOKEN = /^(x-access-token|x-refresh-token): .+$/;
const COOKIE_TOKEN = /^(set-cookie: (?:at|rt)=)[^;]+/;
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;

interface Sent {
  method?: string;
  path?: string;
  headers: Record<string, string>;
  body?: string;
}

function send(base: string, init: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${init.path ?? "/api/graphql"}`, { method: init.method ?? "POST", headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const line = `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`;
          if (/^date:/i.test(line)) continue;
          // A new token is new on every sign-in: its presence and shape count, not its value.
          headers.push(line.replace(TOKEN, "$1: <token>").replace(COOKIE_TOKEN, "$1<token>").replace(/Expires=[^;]+/, "Expires=<date>"));
        }
        const body = Buffer.concat(chunks).toString("utf8").replace(JWT, "<jwt>");
        resolve({ statusLine: `${res.statusCode} ${res.statusMessage}`, headers: headers.sort(), body });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

const json = { "content-type": "application/json", accept: "application/json" };
const post = (body: unknown, headers: Record<string, string> = {}): Sent => ({ headers: { ...json, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

/**
 * Sends `request` both ways; returns the short path's answer after checking it is yoga's, and whether it fell back.
 * Yoga gets it once before, so that both answers come from a document run as often (a document's second run is
 * compiled, ./compiled-execution.ts, and a compiled result lists `data` before `errors`).
 */
async function both(request: Sent) {
  await send(yogaBase, request);
  const before = fallbacks;
  const short = await send(shortBase, request);
  const fellBack = fallbacks > before;
  const plain = await send(yogaBase, request);
  expect(short).toEqual(plain);
  return { answer: short, fellBack };
}

describe("the short path for JSON POSTs (decision 142)", () => {
  it("is on: yoga's request-level hooks are the ones it stands in for, with GraphiQL (here) and without it (production)", () => {
    expect(requestHookCounts(yoga)).toEqual({ ...knownRequestHooks({ graphiql: true }), instrumentation: false });
    const production = createGraphQLServer({ graphiql: false });
    expect(requestHookCounts(production)).toEqual({ ...knownRequestHooks({ graphiql: false }), instrumentation: false });
  });

  it("answers queries, variables, operation names and extensions as yoga does", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
    const cases = [
      { query: "{ __typename }" },
      { query: "query Evento($slug: String!) { event(slug: $slug) { name slug } }", variables: { slug: event.slug }, operationName: "Evento" },
      { query: "query A { __typename } query B { __schema { queryType { name } } }", operationName: "B", extensions: {} },
      { query: "{ __typename }", variables: null, operationName: null, extensions: null },
    ];
    for (const body of cases) {
      const { answer, fellBack } = await both(post(body));
      expect(fellBack).toBe(false);
      expect(answer.statusLine).toBe("200 OK");
    }
    const { answer } = await both(post({ query: "query($slug: String!) { event(slug: $slug) { name } }", variables: { slug: event.slug } }, { "content-type": "application/json; charset=utf-8" }));
    expect(JSON.parse(answer.body)).toEqual({ data: { event: { name: event.name } } });
  });

  it("answers every kind of error as yoga does: validation, syntax, variables, domain, control characters, limits", async () => {
    const cases = [
      { query: "{ nope }" },
      { query: "{ event(slug: " },
      { query: "query($slug: String!) { event(slug: $slug) { name } }", variables: { slug: 7 } },
      { query: "query($slug: String!) { event(slug: $slug) { name } }", variables: {} },
      { query: "{ event(slug: \"no-existe\") { name } }" },
      { query: "{ current { email } }" },
      { query: "query($slug: String!) { event(slug: $slug) { name } }", variables: { slug: "a\u0000b" } },
      { query: "query A { __typename }", operationName: "B" },
      { query: "query A { __typename } query B { __typename }" },
      { query: `{ ${"event(slug: \"x\") { organization { events { organization { events { name } } } } } ".repeat(1)} }` },
      { query: `{ ${Array.from({ length: 400 }, (_, i) => `a${i}: __typename`).join(" ")} }` },
      { query: `mutation { login(email: "nadie-${Date.now()}@example.com", password: "mala-clave-1") { accessToken } }` },
    ];
    const codes = new Set<string>();
    for (const body of cases) {
      const { answer, fellBack } = await both(post(body));
      expect(fellBack).toBe(false);
      for (const error of JSON.parse(answer.body).errors ?? []) codes.add(`${answer.statusLine.slice(0, 3)} ${error.extensions?.code}`);
    }
    // The cases reach the answers they are meant to (each compared with yoga's above): with `Accept: application/json`
    // a document or variable error is a 200, as the GraphQL over HTTP spec recommends (decision 179).
    expect([...codes]).toEqual(
      expect.arrayContaining(["200 GRAPHQL_VALIDATION_FAILED", "200 GRAPHQL_PARSE_FAILED", "200 BAD_USER_INPUT", "200 OPERATION_RESOLUTION_FAILURE", "200 UNAUTHENTICATED", "200 NOT_FOUND"]),
    );
  });

  it("adds CORS headers for another origin, as yoga's CORS hook does", async () => {
    const { answer, fellBack } = await both(post({ query: "{ __typename }" }, { origin: "https://integrador.example.com", "access-control-request-headers": "x-access-token" }));
    expect(fellBack).toBe(false);
    expect(answer.headers).toContain("access-control-allow-origin: https://integrador.example.com");
    expect(answer.headers).toContain("access-control-expose-headers: x-access-token, x-refresh-token");
  });

  it("hands back new tokens as headers (and cookies for browsers) and clears stale ones, as yoga does", async () => {
    const user = await createTestUser({ password: "clave-segura-1" });
    const login = { query: `mutation { login(email: "${user.email}", password: "clave-segura-1") { accessToken } }` };
    const signedIn = await both(post(login));
    expect(signedIn.fellBack).toBe(false);
    expect(signedIn.answer.headers).toContain("x-access-token: <token>");
    expect(signedIn.answer.headers.some((line) => line.startsWith("set-cookie: at=<token>"))).toBe(true);

    const tokens = await startSession(await getDb(), user, new Date());
    const byHeader = await both(post({ query: "{ current { email } }" }, { "x-access-token": tokens.accessToken }));
    expect(JSON.parse(byHeader.answer.body)).toEqual({ data: { current: { email: user.email } } });
    // A refresh token alone (expired access) refreshes: by header, headers only; by cookie, cookies too.
    for (const headers of [{ "x-refresh-token": tokens.refreshToken } as Record<string, string>, { cookie: cookieHeader({ refreshToken: (await startSession(await getDb(), user, new Date())).refreshToken }) }]) {
      const refreshed = await both(post({ query: "{ current { email } }" }, headers));
      expect(refreshed.fellBack).toBe(false);
      expect(refreshed.answer.headers).toContain("x-refresh-token: <token>");
    }
    const stale = await both(post({ query: "{ current { email } }" }, { cookie: "at=basura; rt=basura" }));
    expect(stale.answer.headers).toContain("x-access-token: ");
  });

  it("answers a subscription asked for as JSON as yoga does (406)", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
    const tokens = await startSession(await getDb(), producer.user, new Date());
    const subscription = { query: "subscription($slug: String!) { liveNight(eventSlug: $slug) { eventName entered } }", variables: { slug: event.slug } };
    const { answer, fellBack } = await both(post(subscription, { "x-access-token": tokens.accessToken }));
    expect(fellBack).toBe(false);
    expect(answer.statusLine).toBe("406 Not Acceptable");
  });

  it("leaves to yoga what it does not take: other bodies, media types, Accept values, methods and paths", async () => {
    const cases: Sent[] = [
      post("{ no es json"),
      post("[]"),
      post([{ query: "{ __typename }" }]),
      post("null"),
      post("7"),
      post({ query: "{ __typename }", extra: 1 }),
      post({ query: 7 }),
      post({ query: "" }),
      post({ variables: {} }),
      post({ query: "{ __typename }", variables: [] }),
      post({ query: "{ __typename }", variables: "{}" }),
      post({ query: "{ __typename }", operationName: 3 }),
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) },
      post({ query: "{ __typename }" }, { accept: "application/graphql-response+json" }),
      post({ query: "{ __typename }" }, { accept: "text/event-stream" }),
      post({ query: "{ __typename }" }, { "content-type": "application/graphql+json" }),
      post({ query: "{ __typename }" }, { "content-type": "text/plain" }),
      { ...post({ query: "{ __typename }" }), path: "/api/graphql?x=1" },
      { headers: json, method: "GET", path: `/api/graphql?query=${encodeURIComponent("{ __typename }")}` },
    ];
    for (const request of cases) {
      const { fellBack } = await both(request);
      expect({ request, fellBack }).toEqual({ request, fellBack: true });
    }
  });
});
