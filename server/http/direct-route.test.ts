import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER } from "#server/auth/request-auth";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { CSRF_MESSAGE, yoga } from "#server/graphql/yoga";
import { createTestUser } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { cookieHeader } from "#tests/support/graphql";
import { MAX_BODY_BYTES, bodyLimit } from "./body-limit";
import { clientAddress, compress, directRoute, forwardedClient, isPath, withRequestOrigin } from "./direct-route";
import { refuseHostileRequests, requestUrl } from "./request-guard";
import { currentRequestOrigin } from "./request-origin";
import { securityHeaders } from "./security-headers";

// A real HTTP server put together as server.ts does in production: the guards on every request, GraphQL (the
// real yoga) and an echo of what a handler gets on the direct route, everything else through Express.
let server: http.Server;
let base: string;
beforeAll(async () => {
  const app = express();
  // As server.ts: security headers first (so refusals carry them), set up front on the direct routes.
  const guards = [securityHeaders({ https: false, setUpFront: true }), compress(), bodyLimit(), refuseHostileRequests(), clientAddress({ trustProxy: false })];
  app.use(securityHeaders({ https: false }), guards[1], guards[2], guards[3], guards[4]);
  app.all("*", (_req, res) => res.status(404).send("express"));
  const graphql = directRoute(guards, withRequestOrigin(yoga.requestListener, { trustProxy: false }));
  const echo = directRoute(
    guards,
    withRequestOrigin((req, res) => res.setHeader("content-type", "application/json").end(JSON.stringify({ ip: req.headers[CLIENT_IP_HEADER], cookie: req.headers.cookie, origin: currentRequestOrigin() })), { trustProxy: false }),
  );
  server = http.createServer((req, res) => (isPath(req.url, "/api/graphql") ? graphql(req, res) : isPath(req.url, "/echo") ? echo(req, res) : app(req, res)));
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const typename = `/api/graphql?query=${encodeURIComponent("{ __typename }")}`;

describe("GraphQL on the direct route", () => {
  it("answers by GET and by POST with every security header", async () => {
    const responses = [
      await fetch(`${base}${typename}`),
      await fetch(`${base}/api/graphql`, { method: "POST", body: JSON.stringify({ query: "{ __typename }" }), headers: { "content-type": "application/json" } }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { __typename: "Query" } });
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("permissions-policy")).toMatch(/^camera=\(\), microphone=\(\)/);
      expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");
    }
  });

  it("takes exactly /api/graphql, with or without a query string; other spellings go through Express", async () => {
    expect(isPath("/api/graphql", "/api/graphql")).toBe(true);
    expect(isPath("/api/graphql?query=x", "/api/graphql")).toBe(true);
    expect(isPath("/api/graphql/", "/api/graphql")).toBe(false);
    expect(isPath("/api/graphqlx", "/api/graphql")).toBe(false);
    expect(await (await fetch(`${base}/api/graphqlx`)).text()).toBe("express");
  });

  it("refuses a control character in the URL with a GraphQL-shaped 400 before yoga reads it", async () => {
    const res = await fetch(`${base}/api/graphql?query=${encodeURIComponent('{ event(slug: "a')}%00b%22)%20%7B%20id%20%7D%20%7D`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.data).toBeUndefined();
    expect(body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    expect(body.errors[0].message).toMatch(/caracteres de control/);
    // A refusal by the guards still carries the security headers (they come first).
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");
  });

  it("refuses a body declared over the limit with 413", async () => {
    const res = await fetch(`${base}/api/graphql`, { method: "POST", body: Buffer.alloc(MAX_BODY_BYTES + 1, " "), headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("reads a body sent without a length (chunked) only up to the limit: under it, the answer; past it, never one", async () => {
    // No Content-Length: Node's client sends it chunked, so only yoga's reading can tell how big it is.
    const chunked = (body: Buffer) =>
      new Promise<{ status?: number; text?: string; error?: string }>((resolve) => {
        const req = http.request(`${base}/api/graphql`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
          let text = "";
          res.on("data", (c) => (text += c)).on("end", () => resolve({ status: res.statusCode!, text }));
        });
        req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
        for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
        req.end();
      });
    const query = Buffer.from(JSON.stringify({ query: "{ __typename }" }));
    const small = await chunked(query);
    expect(small.status).toBe(200);
    expect(JSON.parse(small.text!)).toEqual({ data: { __typename: "Query" } });
    // Past MAX_BODY_BYTES the server stops reading: a 413 if the client reads it in time, else the connection cut.
    const big = await chunked(Buffer.concat([query, Buffer.alloc(MAX_BODY_BYTES, " ")]));
    if (big.status === undefined) expect(big.error).toMatch(/ECONNRESET|EPIPE|socket hang up/);
    else expect(big.status).toBe(413);
  });

  it("keeps yoga's CSRF rule: a form post without a preflight header is refused", async () => {
    const res = await fetch(`${base}/api/graphql`, { method: "POST", body: "query=%7B__typename%7D", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toBe(CSRF_MESSAGE);
  });

  it("compresses a large answer for a client that accepts gzip, and tells caches the answer depends on it", async () => {
    const query = encodeURIComponent("{ __schema { types { name fields { name } } } }");
    const res = await fetch(`${base}/api/graphql?query=${query}`, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toMatch(/Accept-Encoding/i);
    expect((await res.json()).data.__schema.types.length).toBeGreaterThan(50);

    // A client that names no encoding (Node's http, curl) gets it as it is, with the same Vary.
    const plain = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(`${base}/api/graphql?query=${query}`, resolve).on("error", reject));
    plain.resume();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it("sends each server-sent event as it happens to a browser that accepts gzip (the live view)", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 10 }] });
    const tokens = await startSession(await getDb(), producer.user, new Date());
    const query = encodeURIComponent("subscription($slug: String!) { liveNight(eventSlug: $slug) { eventName entered } }");
    const variables = encodeURIComponent(JSON.stringify({ slug: event.slug }));
    const controller = new AbortController();
    const res = await fetch(`${base}/api/graphql?query=${query}&variables=${variables}`, {
      signal: controller.signal,
      headers: { accept: "text/event-stream", "accept-encoding": "gzip", cookie: cookieHeader(tokens) },
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    // The stream stays open: the first event has to arrive while it is (yoga marks it `Content-Encoding: none`, so gzip never holds it).
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("data:") || !text.slice(text.indexOf("data:")).includes("\n\n")) {
      const { value, done } = await reader.read();
      expect(done, "the stream ended before the first event").toBe(false);
      text += value;
    }
    const data = JSON.parse(text.split("data:")[1].split("\n")[0]);
    expect(data.data.liveNight).toEqual({ eventName: event.name, entered: 0 });
    controller.abort();
  });

  it("signs a browser in with both session cookies, each on its own Set-Cookie line", async () => {
    const user = await createTestUser();
    const res = await fetch(`${base}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { accessToken } }", variables: { email: user.email, password: "clave-segura-1" } }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.login.accessToken).toBeTruthy();
    const cookies = res.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies.map((c) => c.split("=")[0]).sort()).toEqual(["at", "rt"]);
  });
});

describe("what a handler on the direct route gets", () => {
  it("the client address from the socket, never the one the client sends", async () => {
    const res = await fetch(`${base}/echo`, { headers: { [CLIENT_IP_HEADER]: "203.0.113.99", "x-forwarded-for": "198.51.100.1" } });
    expect((await res.json()).ip).toBe("127.0.0.1");
  });

  it("the visitor's origin for links, and cookies without the ones holding control characters", async () => {
    const port = new URL(base).port;
    const res = await fetch(`http://localhost:${port}/echo`, { headers: { cookie: "theme=dark; bad=a%00b; at=abc" } });
    expect(await res.json()).toMatchObject({ origin: `http://localhost:${port}`, cookie: "theme=dark; at=abc" });
  });
});

describe("behind a proxy, without Express's methods", () => {
  it("the client address and the URL are the ones Express gives, trusting the proxy or not", async () => {
    for (const trust of [true, false]) {
      const app = express();
      app.set("trust proxy", trust);
      // What the direct route computes from Node's own request, next to what Express's getters say.
      app.get("*", (req, res) => {
        res.json({ ip: req.ip, ours: trust ? forwardedClient(req) : req.socket.remoteAddress, expected: `${req.protocol}://${req.hostname}`, url: requestUrl(req, trust) });
      });
      const proxied = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => proxied.once("listening", resolve));
      const port = (proxied.address() as AddressInfo).port;
      try {
        const cases: Record<string, string>[] = [
          {},
          { "x-forwarded-for": "203.0.113.5, 10.0.0.1" },
          { "x-forwarded-for": "  198.51.100.7 ,10.0.0.2", "x-forwarded-proto": "https", "x-forwarded-host": "tribuna.ar" },
          { "x-forwarded-for": ", 192.0.2.1", "x-forwarded-proto": "https, http", "x-forwarded-host": "tribuna.ar:8443, proxy.local" },
          { "x-forwarded-host": "[::1]:3000" },
        ];
        for (const headers of cases) {
          const seen = await (await fetch(`http://127.0.0.1:${port}/eventos/x?y=1`, { headers })).json();
          expect(seen.ours, JSON.stringify({ trust, headers })).toBe(seen.ip);
          expect(seen.url.startsWith(seen.expected), JSON.stringify({ trust, headers, seen })).toBe(true);
          expect(seen.url.endsWith("/eventos/x?y=1")).toBe(true);
        }
      } finally {
        await new Promise((resolve) => proxied.close(resolve));
      }
    }
  });
});
