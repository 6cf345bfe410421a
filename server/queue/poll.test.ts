import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logout } from "#server/accounts/auth";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { directRoute } from "#server/http/direct-route";
import { refuseHostileRequests } from "#server/http/request-guard";
import { securityHeaders } from "#server/http/security-headers";
import { createTestUser, ctxAs, actorFor, sessionTokensFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { runAdmissionTick } from "./admitter";
import { queueMemory } from "./memory";
import { QUEUE_POLL_PATH } from "./poll-path";
import { queuePollListener } from "./poll";
import { joinQueue, setEventQueue } from "./queue";

let server: http.Server;
let base: string;

beforeAll(async () => {
  // As server.ts serves it: the same guards as every other request, then the listener.
  const poll = directRoute([securityHeaders({ https: false, setUpFront: true }), refuseHostileRequests()], queuePollListener);
  server = http.createServer((req, res) => (QUEUE_POLL_PATH.test(req.url ?? "") ? poll(req, res) : res.writeHead(418).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  queueMemory.forgetAll();
});

async function ask(path: string, cookies: Record<string, string> = {}, method = "GET") {
  const res = await fetch(base + path, { method, headers: { cookie: Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join("; ") } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

async function queueWithPerson(opensInMs: number) {
  const made = await createEventWithTickets([{ name: "Campo", price: 1_000_000, stock: 10 }]);
  await setEventQueue(made.ctx, { eventId: made.event.id, enabled: true, opensAt: new Date(Date.now() + opensInMs), admissionMinutes: 10, admitPerMinute: null });
  const person = await createTestUser();
  await joinQueue(await ctxAs(actorFor(person)), made.event.slug);
  const tokens = await sessionTokensFor(person.id);
  return { made, person, cookies: { at: tokens.accessToken, rt: tokens.refreshToken }, path: `/fila/${made.event.slug}/estado` };
}

describe("GET /fila/{slug}/estado (decision 197)", () => {
  it("answers a waiting person's place in a few hundred bytes of JSON, never cached, with the usual security headers", async () => {
    const { cookies, path } = await queueWithPerson(3600_000);
    const res = await ask(path, cookies);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.json).toMatchObject({ phase: "before", place: { status: "WAITING", position: null, ahead: null }, drawSeed: null });
    expect(res.json!.refreshSeconds).toBeGreaterThan(0);
    expect(res.text.length).toBeLessThan(400);
    // The same answer for HEAD, without a body; any other method is refused.
    expect((await ask(path, cookies, "HEAD")).text).toBe("");
    expect((await ask(path, cookies, "POST")).status).toBe(405);
  });

  it("after the opening's draw: the position, the people ahead and the revealed seed; the turn shows as ADMITTED", async () => {
    const { made, cookies, path } = await queueWithPerson(-1000);
    await runAdmissionTick(await getDb(), new Date());
    await queueMemory.settled(made.event.id);
    const res = await ask(path, cookies);
    expect(res.json).toMatchObject({ phase: "open", place: { status: "ADMITTED", position: 1, ahead: 0 } });
    expect(res.json!.drawSeed).toMatch(/^[0-9a-f]{64}$/);
  });

  it("without a sign-in: the queue's state and no place", async () => {
    const { path } = await queueWithPerson(3600_000);
    const res = await ask(path);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ phase: "before", place: null });
  });

  it("asks for the page when only the page can help: an expired access token, a closed session, an unknown event", async () => {
    const { person, cookies, path } = await queueWithPerson(3600_000);
    // Signed an hour ago: the access token expired; the refresh token still works, through the page.
    const old = await startSession(await getDb(), person, new Date(Date.now() - 3600_000));
    expect(await ask(path, { at: old.accessToken, rt: old.refreshToken })).toMatchObject({ status: 401, json: { reload: true } });
    expect(await ask(path, { rt: old.refreshToken })).toMatchObject({ status: 401, json: { reload: true } });
    expect(await ask(path, { at: "no-es-un-token" })).toMatchObject({ status: 401, json: { reload: true } });

    // Signed out (in this process): refused at once, though the token's signature is still good.
    expect((await ask(path, cookies)).status).toBe(200);
    await logout(await ctxAs(actorFor(person)), cookies.rt);
    expect(await ask(path, cookies)).toMatchObject({ status: 401, json: { reload: true } });

    expect(await ask("/fila/no-existe-este-evento/estado")).toMatchObject({ status: 404, json: { reload: true } });
  });
});
