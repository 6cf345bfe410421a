/**
 * What an operator and a load balancer see of one process (server/monitoring/operations.ts), served by a real
 * HTTP server on the test's real database: health, readiness (a shutdown, a database that does not answer,
 * missing migrations), metrics behind their token, the request log (its id, and nothing secret in it), and the
 * graceful shutdown (requests in flight finish, event streams get a retry hint, claimed jobs go back).
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { eq, inArray } from "drizzle-orm";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectPostgres, getDb } from "#server/db/client";
import { jobs } from "#server/db/schema";
import { enqueue, queueStateByLane, runDueJobs, startJobRunner } from "#server/jobs/queue";
import { createLogger, setLogger } from "./log";
import { collectProcessMetrics, doorScans, holdBatchConflicts, holdBatchSize, setMetricSources } from "./metrics";
import { databaseReadiness, latestMigration, operationsRoutes, requestTracker, shutDown, type Lifecycle } from "./operations";

/** A logger whose lines land in `lines`. */
function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const previous = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = "info";
  const logger = createLogger(sink);
  process.env.LOG_LEVEL = previous;
  return { logger, lines };
}

const servers: http.Server[] = [];
afterEach(async () => {
  delete process.env.METRICS_TOKEN;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server like server.ts's: every request tracked, the operations routes first, then `app`. */
async function serve(options: { lifecycle?: Lifecycle; readiness?: ReturnType<typeof databaseReadiness>; app?: http.RequestListener; logger?: pino.Logger } = {}) {
  const lifecycle = options.lifecycle ?? { shuttingDown: false };
  const logger = options.logger ?? pino({ level: "silent" });
  const tracker = requestTracker({ logger: () => logger, lifecycle });
  const routes = operationsRoutes({
    lifecycle,
    readiness: options.readiness ?? databaseReadiness(await getDb(), { expectedMigration: latestMigration() }),
    metricsToken: () => process.env.METRICS_TOKEN || undefined,
  });
  const server = http.createServer((req, res) => {
    tracker.begin(req, res);
    if (routes(req, res)) return;
    if (options.app) return options.app(req, res);
    res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, tracker, lifecycle, base, logger };
}

describe("health and readiness", () => {
  it("/healthz answers while the process runs; /readyz is 200 with the database migrated, never cached", async () => {
    const { base } = await serve();
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ok" });
  });

  it("/readyz is 503 while shutting down, though /healthz still answers", async () => {
    const { base, lifecycle } = await serve();
    lifecycle.shuttingDown = true;
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "unavailable", reason: "shutting_down" });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it("/readyz is 503 when the database cannot be reached, within its time limit", async () => {
    // Nothing listens on port 1: the connection is refused.
    const unreachable = connectPostgres("postgres://postgres@127.0.0.1:1/nada", { max: 1 });
    try {
      const { base } = await serve({ readiness: databaseReadiness(unreachable.db, { expectedMigration: latestMigration(), timeoutMs: 1500 }) });
      const started = Date.now();
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: "unavailable", reason: "database" });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await unreachable.close().catch(() => {});
    }
  });

  it("/readyz is 503 when the database lacks a migration this build ships", async () => {
    const { base } = await serve({ readiness: databaseReadiness(await getDb(), { expectedMigration: latestMigration() + 1 }) });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "unavailable", reason: "migrations" });
  });
});

describe("metrics", () => {
  it("/metrics does not exist without METRICS_TOKEN", async () => {
    const { base } = await serve();
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer algo" } })).status).toBe(404);
  });

  it("/metrics asks for the token (401) and refuses a wrong one (403)", async () => {
    process.env.METRICS_TOKEN = "token-de-metricas-de-prueba";
    const { base } = await serve();
    const missing = await fetch(`${base}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer token-de-metricas-de-prueba-no" } })).status).toBe(403);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Basic dXNlcjpwYXNz" } })).status).toBe(401);
  });

  it("with the token: requests by family, hold batches, the job queue per lane, door scans, streams, connections and the process", async () => {
    process.env.METRICS_TOKEN = "token-de-metricas-de-prueba";
    const db = await getDb();
    collectProcessMetrics();
    const lanes = [{ name: "reservas", kinds: ["expire-order"] }, { name: "resto", exceptKinds: ["expire-order"] }];
    setMetricSources({ queue: () => queueStateByLane(db, lanes), connections: async () => [{ state: "active", count: 1 }] });
    // A job due ten minutes ago, waiting in the "resto" lane.
    await enqueue(db, "metricas-de-prueba", {}, new Date(Date.now() - 600_000));
    holdBatchSize.observe(3);
    holdBatchConflicts.inc(1);
    doorScans.inc({ outcome: "admitted" });
    const { base } = await serve({ app: (_req, res) => void res.writeHead(200).end("<html></html>") });
    await fetch(`${base}/eventos/una-fiesta`);
    await fetch(`${base}/assets/entry.client-abc123.js`);

    const response = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer token-de-metricas-de-prueba" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text).toMatch(/tribuna_http_requests_total\{family="page",operation="",status="2xx"\} [1-9]/);
    expect(text).toMatch(/tribuna_http_requests_total\{family="asset",operation="",status="2xx"\} [1-9]/);
    expect(text).toMatch(/tribuna_http_request_duration_seconds_bucket\{le="0\.005",family="page",operation=""\}/);
    expect(text).toMatch(/tribuna_hold_batch_size_count [1-9]/);
    expect(text).toMatch(/tribuna_hold_batch_conflicts_total [1-9]/);
    expect(text).toMatch(/tribuna_door_scans_total\{outcome="admitted"\} [1-9]/);
    expect(text).toMatch(/tribuna_job_queue_depth\{lane="resto"\} [1-9]/);
    const age = Number(/tribuna_job_queue_oldest_age_seconds\{lane="resto"\} ([\d.]+)/.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(590);
    expect(text).toMatch(/tribuna_job_queue_depth\{lane="reservas"\} 0/);
    expect(text).toContain("tribuna_sse_streams_open ");
    expect(text).toContain('tribuna_db_connections{state="active"} 1');
    for (const family of ["process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_gc_duration_seconds", "nodejs_heap_size_used_bytes"]) expect(text).toContain(`# TYPE ${family} `);
  });
});

describe("request log", () => {
  it("one line per request with its id (the client's when sane, echoed) and never an email, a token or a password", async () => {
    const { logger, lines } = capturedLogger();
    const app: http.RequestListener = (req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(201, { "content-type": "application/json" }).end("{}"));
    };
    const { base } = await serve({ app, logger });
    const secretToken = "tok_9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c";
    const sent = await fetch(`${base}/cuenta/iniciar-sesion/email?token=${secretToken}&email=ana.perez%40ejemplo.com.ar`, {
      method: "POST",
      headers: { "x-request-id": "lb-4f2a9c", authorization: `Bearer ${secretToken}`, cookie: `tribuna_session=${secretToken}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "ana.perez@ejemplo.com.ar", password: "contraseña-secreta", documentNumber: "30123456", card: "4509953566233704" }),
    });
    expect(sent.status).toBe(201);
    expect(sent.headers.get("x-request-id")).toBe("lb-4f2a9c");
    // An unsubscribe link carries its token in the path.
    await fetch(`${base}/correos/baja/${secretToken}`, { headers: { "x-request-id": "no vale: tiene espacios" } });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const first = entries.find((entry) => entry.reqId === "lb-4f2a9c");
    expect(first).toMatchObject({ msg: "request", method: "POST", path: "/cuenta/iniciar-sesion/email", family: "page", status: 201 });
    expect(typeof first?.durationMs).toBe("number");
    const second = entries.find((entry) => typeof entry.path === "string" && entry.path.startsWith("/correos/baja/"));
    expect(second?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.path).toBe("/correos/baja/:oculto");

    const all = lines.join("\n");
    for (const secret of [secretToken, "ana.perez", "ejemplo.com.ar", "contraseña-secreta", "30123456", "4509953566233704"]) expect(all).not.toContain(secret);
  });

  it("a job's line says its kind, lane, duration and outcome, never its payload", async () => {
    const { logger, lines } = capturedLogger();
    const previous = setLogger(logger);
    try {
      const db = await getDb();
      const now = new Date("2031-02-03T04:05:06Z");
      await enqueue(db, "log-de-prueba", { email: "juan.gomez@ejemplo.com.ar", token: "tok_abcdef0123456789abcdef" }, now);
      await runDueJobs(db, { "log-de-prueba": async () => {} }, now, 10, { name: "resto" });
      const entry = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((e) => e.kind === "log-de-prueba");
      expect(entry).toMatchObject({ msg: "job", lane: "resto", outcome: "done", attempt: 1 });
      expect(lines.join("\n")).not.toMatch(/juan\.gomez|tok_abcdef/);
    } finally {
      if (previous) setLogger(previous);
    }
  });
});

describe("graceful shutdown", () => {
  it("answers the requests in flight, says 503 on /readyz meanwhile, ends event streams with a retry hint and releases claimed jobs", async () => {
    const db = await getDb();
    let releaseSlow: () => void = () => {};
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    const app: http.RequestListener = (req, res) => {
      if (req.url?.startsWith("/api/graphql") && req.headers.accept === "text/event-stream") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(":\n\n");
        return;
      }
      void slowGate.then(() => res.writeHead(200, { "content-type": "text/plain" }).end("terminado"));
    };
    const { server, tracker, lifecycle, base } = await serve({ app });

    // Jobs: one slow one running, three more claimed behind it (one lane, one at a time).
    const kind = `apagado-${Date.now()}`;
    const due = new Date(Date.now() - 1000);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await enqueue(db, kind, { i }, due)).id);
    let jobStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (jobStarted = resolve));
    const runner = startJobRunner(async () => db, { [kind]: () => (jobStarted(), new Promise((resolve) => setTimeout(resolve, 400))) }, { intervalMs: 60_000, lanes: [{ kinds: [kind] }] });
    await started;

    // A live view watching, and a slow request in flight.
    const stream = await fetch(`${base}/api/graphql?query=subscription`, { headers: { accept: "text/event-stream" } });
    const streamText = stream.text();
    const slow = fetch(`${base}/lento`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tracker.inFlight()).toBe(1);
    expect(tracker.streams()).toBe(1);

    const done = shutDown({ server, tracker, lifecycle, logger: pino({ level: "silent" }), stopJobs: (timeoutMs) => runner.shutdown({ timeoutMs }), closeDatabase: async () => {}, graceMs: 100, drainMs: 3000, retryMs: 1500 });
    // During the grace period the process still answers, and says it is going away.
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await streamText).toContain("retry: 1500");
    setTimeout(releaseSlow, 200);
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("terminado");
    expect(await done).toEqual({ drained: true });
    // New connections are refused.
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();

    // The running job finished; the ones claimed behind it are free again, their attempt given back.
    const rows = await db.select().from(jobs).where(inArray(jobs.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(ids[0])?.doneAt).not.toBeNull();
    for (const id of ids.slice(1)) expect(byId.get(id)).toMatchObject({ lockedAt: null, doneAt: null, attempts: 0 });
    // And another process takes them at once.
    const next = await runDueJobs(db, { [kind]: async () => {} }, new Date(), 10, { kinds: [kind] });
    expect(next.done).toBe(3);
    expect((await db.select().from(jobs).where(eq(jobs.kind, kind))).every((row) => row.doneAt)).toBe(true);
  });

  it("an answer already ended but still on its way to a slow client arrives whole; a kept-alive connection between requests is closed", async () => {
    const body = "x".repeat(16 * 1024 * 1024);
    let ended: () => void = () => {};
    const answered = new Promise<void>((resolve) => (ended = resolve));
    const app: http.RequestListener = (req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": String(body.length) });
      res.end(body);
      ended();
    };
    const { server, tracker, lifecycle, base } = await serve({ app });
    const port = Number(new URL(base).port);

    // A phone on a slow network: asks, then reads nothing for a while.
    const slow = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => slow.once("connect", resolve));
    slow.pause();
    slow.write("GET /grande HTTP/1.1\r\nHost: tribuna\r\n\r\n");
    await answered;
    // Another client whose keep-alive connection is between requests.
    const idle = net.connect(port, "127.0.0.1");
    let idleAnswer = "";
    idle.on("data", (chunk: Buffer) => (idleAnswer += chunk.toString()));
    const idleClosed = new Promise<void>((resolve) => idle.once("close", () => resolve()));
    idle.write("GET /healthz HTTP/1.1\r\nHost: tribuna\r\n\r\n");
    await vi.waitFor(() => expect(idleAnswer).toMatch(/\r\n\r\n/));

    const done = shutDown({ server, tracker, lifecycle, logger: pino({ level: "silent" }), closeDatabase: async () => {}, drainMs: 5000 });
    // The idle connection goes at once, while the slow answer waits for its reader.
    await idleClosed;
    await new Promise((resolve) => setTimeout(resolve, 300));
    let received = 0;
    const closedAfter = new Promise<number>((resolve) => slow.once("close", () => resolve(received)));
    slow.on("data", (chunk: Buffer) => (received += chunk.length));
    slow.resume();
    expect(await closedAfter).toBeGreaterThan(body.length);
    expect(await done).toEqual({ drained: true });
  });
});
