import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isLocalHostname, isLoopbackAddress, runWithRequestOrigin, trustedRequestOrigin } from "./request-origin";

/**
 * Decision 114: without APP_URL, links and redirects use the origin the visitor came through (when it is a local
 * one), so someone on http://127.0.0.1:3000 is not sent to http://localhost:3000; jobs fall back to localhost.
 */
afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("the request's origin", () => {
  it("is trusted for local names and addresses only: a Host header naming another site never reaches a link", () => {
    expect(trustedRequestOrigin("http://127.0.0.1:3000/cuenta")).toBe("http://127.0.0.1:3000");
    expect(trustedRequestOrigin("http://localhost:3000/")).toBe("http://localhost:3000");
    expect(trustedRequestOrigin("http://192.168.0.20:3000/")).toBe("http://192.168.0.20:3000");
    expect(trustedRequestOrigin("http://[::1]:3000/")).toBe("http://[::1]:3000");
    expect(trustedRequestOrigin("http://malo.example/")).toBeUndefined();
    expect(trustedRequestOrigin("http://8.8.8.8/")).toBeUndefined();
    expect(trustedRequestOrigin("no es una url")).toBeUndefined();
    expect(isLocalHostname("tribuna.localhost")).toBe(true);
    expect(isLoopbackAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("192.168.0.2")).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });

  it("appUrl(): APP_URL when set, else the request's own origin, else (a job, another host) localhost:PORT", async () => {
    vi.stubEnv("APP_URL", "");
    vi.stubEnv("PORT", "3000");
    vi.resetModules();
    const { appUrl } = await import("#server/env");
    const origin = await import("./request-origin");
    expect(appUrl()).toBe("http://localhost:3000");
    expect(origin.runWithRequestOrigin("http://127.0.0.1:3000/x", () => appUrl())).toBe("http://127.0.0.1:3000");
    // Still there after an await (a loader that queries the database first).
    expect(await origin.runWithRequestOrigin("http://127.0.0.1:3000/x", async () => (await Promise.resolve(), appUrl()))).toBe("http://127.0.0.1:3000");
    expect(origin.runWithRequestOrigin("http://malo.example/x", () => appUrl())).toBe("http://localhost:3000");

    vi.stubEnv("APP_URL", "https://tribuna.ar");
    vi.resetModules();
    const configured = await import("#server/env");
    const origin2 = await import("./request-origin");
    expect(origin2.runWithRequestOrigin("http://127.0.0.1:3000/x", () => configured.appUrl())).toBe("https://tribuna.ar");
  });
});

describe("through the server's request handler", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    vi.stubEnv("APP_URL", "");
    vi.resetModules();
    const [{ appUrl }, guard] = await Promise.all([import("#server/env"), import("./request-guard")]);
    const app = express();
    app.all("*", guard.webRequestHandler(async () => new Response(appUrl())));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("a visitor on 127.0.0.1 gets links on 127.0.0.1, one on localhost gets localhost", async () => {
    expect(await (await fetch(`http://127.0.0.1:${port}/cuenta`)).text()).toBe(`http://127.0.0.1:${port}`);
    expect(await (await fetch(`http://localhost:${port}/cuenta`)).text()).toBe(`http://localhost:${port}`);
  });

  it("keeps nothing between requests", () => {
    expect(runWithRequestOrigin("http://malo.example/", () => 1)).toBe(1);
  });
});
