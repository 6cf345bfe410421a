import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_LIMITS, webRequestHandler, refuseHostileRequests } from "./request-guard";

// A real Express server with the guards as in server.ts; Remix's place is taken by a handler that echoes what it got.
let server: http.Server;
let base: string;
const reached: string[] = [];
const cookiesSeen: string[] = [];
beforeAll(async () => {
  const app = express();
  app.use(refuseHostileRequests());
  app.all(
    "*",
    webRequestHandler(async (request) => {
      reached.push(new URL(request.url).pathname);
      cookiesSeen.push(request.headers.get("cookie") ?? "");
      const body = request.method === "POST" ? await request.text() : "";
      return new Response(JSON.stringify({ method: request.method, url: request.url, body }), { headers: { "content-type": "application/json" } });
    }),
  );
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function send(method: string, path: string, body?: string, contentType = "application/x-www-form-urlencoded", extra: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; type: string | undefined }>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers: { ...(body === undefined ? {} : { "content-type": contentType }), ...extra } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: text, type: res.headers["content-type"] }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("control characters at the HTTP door", () => {
  it("a NUL byte in a form field, a search, a path or a query key gets a Spanish 400 page before the app runs", async () => {
    reached.length = 0;
    const attempts = [
      send("POST", "/cuenta/iniciar-sesion/email", "email=a%00b%40c.co&password=12345678"),
      send("GET", "/?q=ab%00c"),
      send("GET", "/eventos/ab%00c"),
      send("GET", "/?a%01=1"),
      send("GET", "/eventos/%E0%A4%A"), // not even UTF-8
      send("POST", "/organizacion/cupones", "code=HOLA%1BX"),
    ];
    for (const result of await Promise.all(attempts)) {
      expect(result.status).toBe(400);
      expect(result.type).toMatch(/^text\/html/);
      expect(result.body).toContain('lang="es-AR"');
      expect(result.body).toMatch(/caracteres de control|no es válida/);
    }
    expect(reached).toEqual([]);
  });

  it("lets ordinary forms through whole, line breaks in a text area included, and a GraphQL document sent by GET", async () => {
    const form = "name=Fiesta+Bresh&description=Primera+l%C3%ADnea%0D%0ASegunda%09con+tab&dates%5B0%5D.startsAt=2026-12-01T23%3A00";
    const posted = JSON.parse((await send("POST", "/organizacion/evento/crear", form)).body);
    expect(posted.body).toBe(form);
    expect(new URL(posted.url).pathname).toBe("/organizacion/evento/crear");
    const graphql = await send("GET", `/api/graphql?query=${encodeURIComponent("{\n  __typename\n}")}`);
    expect(graphql.status).toBe(200);
    // JSON bodies (GraphQL, webhooks) stream through untouched: GraphQL checks its own strings.
    const json = JSON.parse((await send("POST", "/api/graphql", '{"query":"{ __typename }"}', "application/json")).body);
    expect(json.body).toBe('{"query":"{ __typename }"}');
  });
});

describe("control characters in cookies", () => {
  it("drops a cookie whose decoded value holds a NUL and keeps the rest: the visitor keeps browsing", async () => {
    cookiesSeen.length = 0;
    const cookie = "theme=dark; incomplete-saved-order--fiesta=%7B%22code%22%3A%22a%00b%22%7D; at=abc";
    const result = await send("GET", "/eventos/fiesta", undefined, undefined, { cookie });
    expect(result.status).toBe(200);
    expect(cookiesSeen).toEqual(["theme=dark; at=abc"]);
  });
});

describe("bounded form parsing", () => {
  it("refuses a row index of 10^8 (or near 2^32) at once, without building an array that long", async () => {
    reached.length = 0;
    const started = performance.now();
    for (const index of [100_000_000, 4_294_967_294]) {
      const result = await send("POST", "/organizacion/cupones", `code=HOLA&ticketTypeIds%5B${index}%5D=x`);
      expect(result.status).toBe(400);
      expect(result.body).toContain("demasiadas filas");
    }
    expect(reached).toEqual([]);
    // Generous bound: the point is milliseconds against seconds.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("answers 413 to a form with too many fields or too many bytes, and 400 to the last row past the limit", async () => {
    const manyFields = Array.from({ length: FORM_LIMITS.maxFields + 1 }, (_, i) => `f${i}=1`).join("&");
    expect((await send("POST", "/organizacion/cupones", manyFields)).status).toBe(413);
    const big = `description=${"a".repeat(FORM_LIMITS.maxBytes + 1)}`;
    const tooBig = await send("POST", "/organizacion/cupones", big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toContain("demasiado grande");
    expect((await send("POST", "/organizacion/cupones", `rows%5B${FORM_LIMITS.maxRows - 1}%5D.a=1`)).status).toBe(200);
    expect((await send("POST", "/organizacion/cupones", `rows%5B${FORM_LIMITS.maxRows}%5D.a=1`)).status).toBe(400);
  });
});
