import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./csp";
import { securityHeaders } from "./security-headers";

async function serve(https: boolean) {
  const app = express();
  app.use(securityHeaders({ https }));
  app.get("/comprobantes/x", (_req, res) => {
    // As Remix's adapter does: the route's own headers are appended.
    res.append("Content-Security-Policy", "default-src 'none'; sandbox");
    res.append("X-Content-Type-Options", "nosniff");
    res.send("%PDF");
  });
  app.all("*", (_req, res) => res.send("ok"));
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let plain: { server: http.Server; base: string };
let secure: { server: http.Server; base: string };
beforeAll(async () => {
  plain = await serve(false);
  secure = await serve(true);
});
afterAll(async () => {
  await new Promise((r) => plain.server.close(r));
  await new Promise((r) => secure.server.close(r));
});

describe("security headers on every response", () => {
  it("nobody frames us, features are off, popups cannot reach back; the camera only on the door screen", async () => {
    for (const path of ["/", "/eventos/x", "/api/graphql", "/organizacion/resumen", "/imagenes/a.webp"]) {
      const res = await fetch(`${plain.base}${path}`);
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("content-security-policy"), path).toBe("frame-ancestors 'none'");
      expect(res.headers.get("cross-origin-opener-policy"), path).toBe("same-origin-allow-popups");
      expect(res.headers.get("permissions-policy"), path).toMatch(/^camera=\(\), microphone=\(\), geolocation=\(\)/);
      expect(res.headers.get("strict-transport-security"), path).toBeNull();
    }
    const receipt = await fetch(`${plain.base}/comprobantes/x`);
    expect(receipt.headers.get("x-content-type-options")).toBe("nosniff");
    expect(receipt.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(receipt.headers.get("x-frame-options")).toBe("DENY");
    const door = await fetch(`${plain.base}/vivos/acreditacion/fiesta`);
    expect(door.headers.get("permissions-policy")).toMatch(/^camera=\(self\)/);
  });

  it("set up front for a direct route: the same headers, and a handler's own value replaces ours", async () => {
    const guard = securityHeaders({ https: true, setUpFront: true });
    const direct = http.createServer((req, res) =>
      guard(req, res, () => {
        // As yoga's Node adapter and a page copy do: the handler sets (not appends) its headers.
        if (req.url === "/comprobantes/x") res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.end("ok");
      }),
    );
    direct.listen(0, "127.0.0.1");
    await new Promise((resolve) => direct.once("listening", resolve));
    const base = `http://127.0.0.1:${(direct.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${base}/api/graphql`);
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(page.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      expect(page.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");
      expect(page.headers.get("permissions-policy")).toMatch(/^camera=\(\), microphone=\(\), geolocation=\(\)/);
      expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      const receipt = await fetch(`${base}/comprobantes/x`);
      expect(receipt.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      const door = await fetch(`${base}/vivos/acreditacion/fiesta`);
      expect(door.headers.get("permissions-policy")).toMatch(/^camera=\(self\)/);
    } finally {
      await new Promise((resolve) => direct.close(resolve));
    }
  });

  it("over https, HSTS", async () => {
    const res = await fetch(`${secure.base}/`);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });
});

describe("the pages' Content-Security-Policy", () => {
  const directives = new Map(
    contentSecurityPolicy("abc")
      .split("; ")
      .map((d) => [d.split(" ")[0], d.split(" ").slice(1)]),
  );

  it("lets Sentry's session replay start its compression worker from a blob: URL, and nothing from another origin", () => {
    expect(directives.get("worker-src")).toEqual(["'self'", "blob:"]);
  });

  it("still runs only scripts with this response's nonce (a blob: script is not one of them)", () => {
    expect(directives.get("script-src")).toEqual(["'nonce-abc'", "'strict-dynamic'", "'unsafe-inline'", "https:"]);
    expect(directives.get("default-src")).toEqual(["'self'"]);
  });
});
