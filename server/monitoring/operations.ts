/**
 * What operators and load balancers ask the process (docs/runbook.md): `/healthz` (it answers), `/readyz`
 * (it can serve: database reachable, migrations applied, not shutting down), `/metrics` (Prometheus, behind
 * a token); plus the request log and metrics around every request, and the graceful shutdown. Plain Node
 * handlers, so server.ts routes them before Express, the micro-cache and any session work, and the tests
 * run them in-process (operations.test.ts).
 */
import cluster from "node:cluster";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { resultRows } from "#server/db/raw";
import { loggablePath } from "./log";
import { graphqlOperationOf, httpInFlight, httpRequests, metricsRegistry, observeRequest, routeFamily, sseStreams } from "./metrics";

/** Whether the process is going away: /readyz answers 503 from the first moment. */
export interface Lifecycle {
  shuttingDown: boolean;
}

const NO_STORE = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, NO_STORE);
  res.end(JSON.stringify(body));
}

/** The newest migration this build ships (drizzle's journal), as drizzle records it once applied (its `created_at`). */
export function latestMigration(folder = path.resolve(process.cwd(), "drizzle")): number {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

export type Readiness = { ok: true } | { ok: false; reason: "shutting_down" | "database" | "migrations" };

/** A readiness check against `db`: one query (reachability and migrations together), refused after `timeoutMs`. */
export function databaseReadiness(db: Db, options: { expectedMigration: number; timeoutMs?: number }): () => Promise<Readiness> {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), options.timeoutMs ?? 2000)));
    try {
      const result = await Promise.race([db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`), timeout]);
      if (result === "timeout") return { ok: false, reason: "database" };
      const [row] = resultRows<{ last: string | null }>(result);
      return Number(row?.last ?? 0) >= options.expectedMigration ? { ok: true } : { ok: false, reason: "migrations" };
    } catch {
      return { ok: false, reason: "database" };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The token /metrics asks for, compared in constant time (hashes of equal length, whatever was sent). */
function tokenMatches(sent: string, expected: string): boolean {
  const digest = (value: string) => crypto.createHash("sha256").update(value).digest();
  return crypto.timingSafeEqual(digest(sent), digest(expected));
}

const METRICS_REQUEST = "tribuna:metrics-request";
const METRICS_ANSWER = "tribuna:metrics-answer";

/**
 * The metrics text: this process's, or with cluster mode the whole cluster's, which the primary aggregates
 * (prom-client's AggregatorRegistry, scripts/start.mjs) and hands back to the worker that was asked.
 */
export async function metricsText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return metricsRegistry.metrics();
  const id = crypto.randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("El proceso principal no contestó las métricas."));
    }, 5000);
    const onMessage = (message: { type?: string; id?: string; text?: string; error?: string }) => {
      if (message?.type !== METRICS_ANSWER || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.text ?? "");
    };
    process.on("message", onMessage);
    process.send!({ type: METRICS_REQUEST, id });
  });
}

/**
 * The answer to /healthz, /readyz and /metrics, or false for any other request. Never cached, never a
 * session: these answer before anything else the server does.
 */
export function operationsRoutes(options: { lifecycle: Lifecycle; readiness: () => Promise<Readiness>; metricsToken: () => string | undefined; metrics?: () => Promise<string> }) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? "";
    const path = url.split("?", 1)[0];
    if (path === "/healthz") {
      json(res, 200, { status: "ok" });
      return true;
    }
    if (path === "/readyz") {
      if (options.lifecycle.shuttingDown) {
        json(res, 503, { status: "unavailable", reason: "shutting_down" });
        return true;
      }
      options.readiness().then(
        (readiness) => json(res, readiness.ok ? 200 : 503, readiness.ok ? { status: "ok" } : { status: "unavailable", reason: options.lifecycle.shuttingDown ? "shutting_down" : readiness.reason }),
        () => json(res, 503, { status: "unavailable", reason: "database" }),
      );
      return true;
    }
    if (path === "/metrics") {
      const expected = options.metricsToken();
      // Without a token configured the endpoint does not exist: nobody learns there is something to guess.
      if (!expected) {
        json(res, 404, { error: "not_found" });
        return true;
      }
      const authorization = req.headers.authorization;
      if (!authorization?.startsWith("Bearer ")) {
        res.setHeader("www-authenticate", 'Bearer realm="metrics"');
        json(res, 401, { error: "unauthorized" });
        return true;
      }
      if (!tokenMatches(authorization.slice("Bearer ".length).trim(), expected)) {
        json(res, 403, { error: "forbidden" });
        return true;
      }
      (options.metrics ?? metricsText)().then(
        (text) => {
          res.writeHead(200, { "content-type": metricsRegistry.contentType, "cache-control": "no-store" });
          res.end(text);
        },
        () => json(res, 503, { error: "metrics_unavailable" }),
      );
      return true;
    }
    return false;
  };
}

/** A client's request id when it is one (a proxy's, a load balancer's), else a new one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers["x-request-id"];
  return typeof sent === "string" && SANE_REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
}

/**
 * Every request through `begin`: its id (echoed in `x-request-id`), its metrics and one log line when it
 * ends. Keeps the requests in flight and the open event streams, which a shutdown waits for or ends.
 */
export function requestTracker(options: { logger: () => Logger; lifecycle: Lifecycle }) {
  const inFlight = new Set<ServerResponse>();
  const streams = new Set<ServerResponse>();
  // Per connection that has served a request: how many of its responses are still going out, and how many bytes it
  // had read when the last one went out (more since then = the next request is arriving). See closeIdleConnections.
  const connections = new Map<net.Socket, { open: number; readAtLastAnswer: number }>();

  function track(req: IncomingMessage, res: ServerResponse) {
    const socket = req.socket;
    let connection = connections.get(socket);
    if (!connection) {
      connection = { open: 0, readAtLastAnswer: 0 };
      connections.set(socket, connection);
      socket.once("close", () => connections.delete(socket));
    }
    connection.open += 1;
    const tracked = connection;
    res.once("close", () => {
      tracked.open -= 1;
      tracked.readAtLastAnswer = socket.bytesRead;
    });
  }

  /**
   * Closes the keep-alive connections that are between requests. Not Node's `closeIdleConnections` (which
   * `server.close()` also calls): it destroys a connection whose response has been ended but not yet flushed to
   * a slow client, cutting the answer (seen under load during the SIGTERM test). Here a connection is idle only
   * once every response it carried is fully out and no byte of a next request has been read.
   */
  function closeIdleConnections() {
    for (const [socket, connection] of connections) {
      if (connection.open === 0 && socket.bytesRead === connection.readAtLastAnswer) socket.destroy();
    }
  }

  function begin(req: IncomingMessage, res: ServerResponse): string {
    const started = performance.now();
    track(req, res);
    const id = requestIdOf(req);
    res.setHeader("x-request-id", id);
    // A request that arrives on an open connection while shutting down is answered, and the connection closed.
    if (options.lifecycle.shuttingDown) res.shouldKeepAlive = false;
    const family = routeFamily(req.url);
    const stream = family === "graphql" && req.method === "GET" && (req.headers.accept ?? "").includes("text/event-stream");
    if (stream) {
      streams.add(res);
      sseStreams.inc();
    } else {
      inFlight.add(res);
      httpInFlight.inc();
    }
    res.once("close", () => {
      const durationMs = performance.now() - started;
      const operation = family === "graphql" ? graphqlOperationOf(req, req.url) : "";
      const status = res.statusCode;
      if (stream) {
        streams.delete(res);
        sseStreams.dec();
        // A stream lasts as long as someone watches: counted, kept out of the latency histogram.
        httpRequests.inc({ family, operation, status: `${Math.floor(status / 100)}xx` });
      } else {
        inFlight.delete(res);
        httpInFlight.dec();
        observeRequest(family, operation, status, durationMs / 1000);
      }
      // Probes every few seconds are not news; their failures are.
      if (family === "ops" && status < 500) return;
      options.logger().info(
        {
          reqId: id,
          method: req.method,
          path: loggablePath(req.url),
          family,
          ...(operation ? { operation } : {}),
          status,
          durationMs: Math.round(durationMs * 10) / 10,
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        "request",
      );
    });
    return id;
  }

  /** Ends every open event stream with a `retry:` hint: browsers reconnect (through the load balancer, to another process). */
  function endStreams(retryMs: number) {
    for (const res of streams) {
      const socket = res.socket;
      // Yoga may still try to write to the stream it was serving: that write fails quietly.
      res.on("error", () => {});
      if (!res.headersSent) res.writeHead(503, { "retry-after": "1" });
      res.end(`retry: ${retryMs}\n\n`, () => socket?.end());
    }
  }

  /** The requests in flight answer with `Connection: close`: their clients open a new connection (to another process) next time. */
  function closeAfterAnswer() {
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
  }

  return { begin, endStreams, closeAfterAnswer, closeIdleConnections, inFlight: () => inFlight.size, streams: () => streams.size };
}

type Tracker = ReturnType<typeof requestTracker>;

/**
 * The graceful shutdown (SIGTERM): /readyz says 503 (for `graceMs` the server still serves, so the load
 * balancer sees it before connections are refused), then no new connections, event streams ended with a
 * retry hint, requests in flight and running jobs finish (up to `drainMs`), jobs not finished are released,
 * the database is closed. Answers whether everything in flight finished in time.
 */
export async function shutDown(options: {
  server: Server;
  tracker: Tracker;
  lifecycle: Lifecycle;
  logger: Logger;
  stopJobs?: (timeoutMs: number) => Promise<{ released: number }>;
  closeDatabase: () => Promise<void>;
  graceMs?: number;
  drainMs?: number;
  retryMs?: number;
}): Promise<{ drained: boolean }> {
  const { server, tracker, lifecycle, logger } = options;
  const drainMs = options.drainMs ?? 10_000;
  lifecycle.shuttingDown = true;
  tracker.closeAfterAnswer();
  logger.info({ inFlight: tracker.inFlight(), streams: tracker.streams() }, "Apagando: /readyz contesta 503");
  // Jobs stop claiming at once and finish what they run meanwhile.
  const jobs = options.stopJobs?.(drainMs + (options.graceMs ?? 0));
  if (options.graceMs) await new Promise((resolve) => setTimeout(resolve, options.graceMs));
  // Stops listening without http's own close, which would close idle connections its racy way (closeIdleConnections above).
  const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
  tracker.endStreams(options.retryMs ?? 2000);
  const deadline = Date.now() + drainMs;
  tracker.closeIdleConnections();
  while (tracker.inFlight() > 0 && Date.now() < deadline) {
    tracker.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const drained = tracker.inFlight() === 0;
  server.closeAllConnections();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
  const released = (await jobs?.catch((error: unknown) => (logger.error({ error: String(error) }, "No se pudieron liberar los jobs"), { released: 0 })))?.released ?? 0;
  await options.closeDatabase();
  logger.info({ drained, releasedJobs: released }, drained ? "Apagado limpio" : "Apagado: quedaron pedidos sin terminar al vencer el plazo");
  return { drained };
}
