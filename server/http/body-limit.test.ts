import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimit } from "./body-limit";

// A real Express server on a free port: what server.ts mounts in front of Remix.
let server: http.Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(bodyLimit(1024));
  app.post("/echo", (req, res) => {
    let size = 0;
    req.on("data", (chunk: Buffer) => (size += chunk.length));
    req.on("end", () => res.json({ size }));
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("bodyLimit", () => {
  it("lets bodies up to the limit through and refuses bigger ones with 413 and a Spanish message", async () => {
    const ok = await fetch(`${base}/echo`, { method: "POST", body: "x".repeat(1024) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ size: 1024 });

    const tooBig = await fetch(`${base}/echo`, { method: "POST", body: "x".repeat(1025) });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toBe("El pedido es demasiado grande.");
  });
});
