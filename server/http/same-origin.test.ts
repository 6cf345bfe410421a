import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refuseForeignForms } from "./same-origin";

// A real Express server on a free port, with the guard in front as in server.ts.
let server: http.Server;
let base: string;
let host: string;
beforeAll(async () => {
  const app = express();
  app.use(refuseForeignForms());
  app.all("*", (_req, res) => res.send("ok"));
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = `http://${host}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function post(path: string, origin?: string, extra: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; type: string | undefined }>((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...extra };
    if (origin !== undefined) headers.origin = origin;
    const req = http.request(`${base}${path}`, { method: "POST", headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body, type: res.headers["content-type"] }));
    });
    req.on("error", reject);
    req.end("email=a%40b.co&password=x");
  });
}

describe("a form posted from another site", () => {
  it("gets a Spanish 403 page, never a 500, for a foreign, null or unreadable Origin", async () => {
    for (const origin of ["https://malo.example", "null", "no es una url", `http://${host}.malo.example`]) {
      const result = await post("/cuenta/iniciar-sesion/email", origin);
      expect(result.status, origin).toBe(403);
      expect(result.type).toMatch(/^text\/html/);
      expect(result.body).toContain("No pudimos procesar el formulario");
      expect(result.body).toContain('lang="es-AR"');
    }
  });

  it("lets our own forms, requests without Origin and the GraphQL endpoint through", async () => {
    expect((await post("/cuenta/iniciar-sesion/email", base)).status).toBe(200);
    expect((await post("/cuenta/iniciar-sesion/email")).status).toBe(200);
    expect((await post("/api/graphql", "https://integrador.example")).status).toBe(200);
    // Behind a proxy that says which host the browser asked for.
    expect((await post("/organizacion/cupones", "https://tribuna.ar", { "x-forwarded-host": "tribuna.ar" })).status).toBe(200);
  });
});
