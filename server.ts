/**
 * The one server: Express in front of the Remix build (or Vite in --dev).
 * It prepares the database (PGlite under .data/ unless DATABASE_URL is set),
 * then serves http://localhost:PORT. `npm start` may run several of these
 * behind one port (WEB_CONCURRENCY, scripts/start.mjs); each is complete on
 * its own: pages, GraphQL, jobs (docs/deployment.md).
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { execSync } from "node:child_process";
import { createRequestHandler } from "@remix-run/node";
import express from "express";
import { env, paymentsMode, secureCookies, startupProblems } from "./server/env";
import { prepareDatabase } from "./server/demo/setup";
import { queueStateByLane, startJobRunner } from "./server/jobs/queue";
import { bodyLimit } from "./server/http/body-limit";
import { refuseForeignForms } from "./server/http/same-origin";
import { webRequestHandler, refuseHostileRequests } from "./server/http/request-guard";
import { clientAddress, compress, directRoute, isPath, withRequestOrigin } from "./server/http/direct-route";
import { securityHeaders } from "./server/http/security-headers";
import { withContentSecurityPolicy } from "./server/http/csp";
import { JOB_LANES, jobHandlers } from "./server/worker/handlers";
import { PageCache, writeCopy, type PageCopy } from "./server/http/page-cache";
import { followEventChanges } from "./server/events/changes";
import { startNotifications } from "./server/db/notify";
import { schedulePruning } from "./server/payment-notifications/webhook";
import { sql } from "drizzle-orm";
import { log } from "./server/monitoring/log";
import { collectProcessMetrics, dbPoolMax, setMetricSources } from "./server/monitoring/metrics";
import { databaseReadiness, latestMigration, operationsRoutes, requestTracker, shutDown, type Lifecycle } from "./server/monitoring/operations";
import { resultRows } from "./server/db/raw";
import { QUEUE_LIGHT_PATH, QUEUE_POLL_PATH } from "./server/queue/poll-path";

const dev = process.argv.includes("--dev");
if (!dev) process.env.NODE_ENV ??= "production";

// Fail closed before anything else (no build, no database): a server that would give tickets away, or
// sign people out of each other across replicas, does not start (docs/deployment.md).
const problems = startupProblems();
if (problems.length) {
  console.error(`Tribuna no arranca:\n\n${problems.join("\n\n")}\n\nVer docs/deployment.md.`);
  process.exit(1);
}

const logger = log();
const lifecycle: Lifecycle = { shuttingDown: false };

// SIGTERM (or Ctrl-C): the graceful shutdown, bounded (docs/runbook.md, "Apagado"). Listened to from here on,
// so a signal during the start (a cluster stopping while this worker still starts) stops the job runner too,
// and leaves no job claimed; before the server listens there is nothing else to drain.
const DRAIN_MS = Number(process.env.SHUTDOWN_DRAIN_MS ?? 10_000);
const GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS ?? 0);
let stopServing: (() => Promise<unknown>) | null = null;
let stopStarting = async () => {};
let stopping: Promise<void> | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    lifecycle.shuttingDown = true;
    stopping ??= (stopServing ?? stopStarting)()
      .then(
        () => 0,
        (error: unknown) => {
          logger.error({ error: String(error) }, "Error al apagar");
          return 1;
        },
      )
      .then((code) => logger.flush(() => process.exit(code)));
  });
}

const BUILD_ENTRY = path.resolve("build/server/index.js");
if (!dev && !fs.existsSync(BUILD_ENTRY)) {
  logger.info("No hay build de producción: compilando (npm run build)…");
  execSync("npx remix vite:build", { stdio: "inherit" });
}

const config = env();
const database = await prepareDatabase();
logger.info(`Base de datos lista (${database.kind === "pglite" ? `PGlite en ${config.DATA_DIR}/pglite` : "PostgreSQL"}).`);
// Changes made through other processes (PostgreSQL LISTEN/NOTIFY) reach this one's caches and live views (docs/scaling.md).
const notifications = await startNotifications(database);
if (paymentsMode() === "sandbox") logger.warn("Modo de prueba: los pagos son simulados (sandbox). Nadie paga de verdad.");

// Background jobs (hold expiry…) from the jobs table; JOBS=off leaves them to another process. Every worker of
// a cluster runs them: claims are FOR UPDATE SKIP LOCKED (server/jobs/queue.ts), no job runs twice.
const jobRunner = process.env.JOBS === "off" || lifecycle.shuttingDown ? null : startJobRunner(async () => database.db, jobHandlers, { lanes: JOB_LANES });
stopStarting = async () => {
  await jobRunner?.shutdown({ timeoutMs: DRAIN_MS });
  await notifications.stop();
  await database.close();
};
// Recurring jobs have one pending run at all times; each run schedules the next.
if (jobRunner) await schedulePruning(database.db, new Date());

// Metrics (docs/runbook.md): process ones, and what the database knows, read when scraped.
collectProcessMetrics();
setMetricSources({
  queue: () => queueStateByLane(database.db, JOB_LANES),
  ...(database.kind === "postgres"
    ? {
        connections: async () =>
          resultRows<{ state: string; count: number }>(
            await database.db.execute(sql`select coalesce(state, 'unknown') as state, count(*)::int as count from pg_stat_activity where datname = current_database() and usename = current_user and pid <> pg_backend_pid() group by 1`),
          ),
      }
    : {}),
});
if (database.kind === "postgres") dbPoolMax.set(10);
const tracker = requestTracker({ logger: log, lifecycle });
// The queue's poll (`/fila/{slug}/estado`, decision 204) and its light page (`/fila/{slug}/ahora`, decision 241): a waiting crowd asks it thousands of times a second, so
// it is counted and timed like any request but writes no log line unless it failed (a 5xx); a line per poll was
// about a tenth of its CPU (pino's redaction, the path's scrubbing, the write). Its own tracker; the shutdown
// waits for both.
const quietLog = { info: (entry: { status?: number }, message?: string) => (entry.status ?? 0) >= 500 && log().info(entry, message) } as unknown as ReturnType<typeof log>;
const pollTracker = requestTracker({ logger: () => quietLog, lifecycle });
const trackers: typeof tracker = {
  begin: tracker.begin,
  endStreams: (retryMs) => tracker.endStreams(retryMs),
  closeAfterAnswer: () => {
    tracker.closeAfterAnswer();
    pollTracker.closeAfterAnswer();
  },
  closeIdleConnections: () => {
    tracker.closeIdleConnections();
    pollTracker.closeIdleConnections();
  },
  inFlight: () => tracker.inFlight() + pollTracker.inFlight(),
  streams: () => tracker.streams(),
};
const operations = operationsRoutes({
  lifecycle,
  readiness: databaseReadiness(database.db, { expectedMigration: latestMigration() }),
  metricsToken: () => process.env.METRICS_TOKEN || undefined,
});

const trustProxy = process.env.TRUST_PROXY === "true";
// With APP_URL set, links never use the visitor's origin (decision 114): no request needs to carry it.
const fixedOrigin = Boolean(config.APP_URL);
const app = express();
app.disable("x-powered-by");
app.set("trust proxy", trustProxy);
// Every request, GraphQL's direct route included: security headers (first, so the refusals below carry them
// too), compressed, size-limited, hostile URLs and cookies refused, the client address from the socket (or the
// trusted proxy). Foreign forms are refused before Remix; GraphQL (/api/) has its own CSRF rule in yoga, so it
// skips that one. A guard GraphQL needs too goes in `guards` (plain Node middleware, server/http/guard.ts): the
// direct routes below run that list, not what is added with app.use.
// The direct routes' handlers set their own headers (never append), so the security headers go on up front there;
// Remix appends, so Express's requests keep the writeHead wrapper.
const guards = [securityHeaders({ https: secureCookies(), setUpFront: true }), compress(), bodyLimit(), refuseHostileRequests(), clientAddress({ trustProxy })];
const [, compressed, limitBody, refuseHostile, clientIp] = guards;
app.use(securityHeaders({ https: secureCookies() }), compressed, limitBody, refuseHostile, refuseForeignForms(), clientIp);

// Development reloads the build on every request (Vite); production hands Remix the build object itself:
// given a function, Remix rebuilds its route tree and matcher on every request (a profile of the on-sale benchmark, decision 129).
let build: unknown;
type GraphQLServer = typeof import("./server/graphql/yoga").yoga;
type GraphQLListener = typeof import("./server/graphql/yoga").graphqlListener;
if (dev) {
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(viteServer.middlewares);
  build = () => viteServer.ssrLoadModule("virtual:remix/server-build");
} else {
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  // Only a path that names a file (favicon.svg, robots.txt, sw.js…) may be one: pages and the API skip the disk.
  const publicFiles = express.static("build/client", { maxAge: "1h" });
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  build = await import(BUILD_ENTRY);
}

// GraphQL straight from Node to yoga (the instance the build's resource route uses, exported by its server entry):
// the guards above, then yoga's own Node adapter. No Express router, no Remix pipeline, no copy into a Fetch
// Request and back (decision 129); the usual JSON POST skips yoga's HTTP layer too (decision 142).
// Other spellings of the path still reach yoga through Express.
type QueuePollListener = typeof import("./server/queue/poll").queuePollListener;
type LightPage = typeof import("./server/queue/light-page");
const entry = !dev
  ? (build as { entry: { module: { yoga?: GraphQLServer; graphqlListener?: GraphQLListener; queuePollListener?: QueuePollListener } & Partial<Pick<LightPage, "queueLightListener" | "stylesheetsOf">> } }).entry.module
  : undefined;
const yoga = entry?.yoga;
const graphql = yoga && entry.graphqlListener ? directRoute(guards, withRequestOrigin(entry.graphqlListener(yoga.requestListener), { trustProxy, fixedOrigin })) : null;
if (yoga) app.all("/api/graphql", webRequestHandler(async (request) => yoga.handleRequest(request, {}), { fixedOrigin }));
// The virtual queue's poll (`/fila/{slug}/estado`, decision 197) the same way: the guards, then the signed access
// token, the session cache and the queue's copy in memory. No Remix, no Express, no PostgreSQL for a waiting person.
const queuePoll = entry?.queuePollListener ? directRoute(guards, entry.queuePollListener) : null;
// Its page for browsers without JavaScript (`/fila/{slug}/ahora`, decision 241) likewise: a small HTML page from a template,
// with the app's stylesheet read once from the build's manifest, counted like the poll and without a log line.
const queueLight =
  entry?.queueLightListener && entry.stylesheetsOf
    ? directRoute(guards, entry.queueLightListener({ stylesheets: entry.stylesheetsOf(build), testMode: paymentsMode() === "sandbox" }))
    : null;

// Anonymous public pages through the micro-cache (production only): one render for many visitors, a few seconds.
// Pages carry a Content-Security-Policy with a nonce of their own (server/http/csp.ts), also copies from the micro-cache.
const handleRemix = createRequestHandler(build as never, dev ? "development" : "production");
const renderPage = withContentSecurityPolicy((request, nonce) => handleRemix(request, { cspNonce: nonce }));
const pageCache = dev ? null : new PageCache();
if (pageCache) followEventChanges(pageCache);
app.all("*", webRequestHandler(pageCache ? (request) => pageCache.handle(request, renderPage) : renderPage, { fixedOrigin }));

// A fresh copy of an anonymous page goes out straight from Node too, after the same guards (decision 103): no Express
// router, no Fetch Request and Response. A miss, or a request that must be rendered for itself, goes to Express.
const copyOf = new WeakMap<http.IncomingMessage, PageCopy>();
const cachedPage = pageCache ? directRoute(guards, (req, res) => writeCopy(copyOf.get(req)!, req.method, res)) : null;
const server = http.createServer((req, res) => {
  if (req.url?.startsWith("/fila/")) {
    if (queuePoll && QUEUE_POLL_PATH.test(req.url)) {
      pollTracker.begin(req, res);
      return queuePoll(req, res);
    }
    if (queueLight && QUEUE_LIGHT_PATH.test(req.url)) {
      pollTracker.begin(req, res);
      return queueLight(req, res);
    }
  }
  tracker.begin(req, res);
  // Health, readiness and metrics first: no guard, no micro-cache, no session.
  if (operations(req, res)) return;
  if (graphql && isPath(req.url, "/api/graphql")) return graphql(req, res);
  const copy = cachedPage && pageCache?.freshCopyFor(req);
  if (copy) {
    copyOf.set(req, copy);
    return cachedPage(req, res);
  }
  return app(req, res);
});
// Started and stopped in the same start: nothing to listen for.
if (!lifecycle.shuttingDown) {
  server.listen(config.PORT, () => {
    logger.info({ port: config.PORT }, `Tribuna en http://localhost:${config.PORT}`);
    // The cluster's primary starts the other workers once this one listens (scripts/start.mjs).
    process.send?.({ type: "tribuna:listening" });
  });
  stopServing = () =>
    shutDown({
      server,
      tracker: trackers,
      lifecycle,
      logger,
      stopJobs: jobRunner ? (timeoutMs) => jobRunner.shutdown({ timeoutMs }) : undefined,
      closeDatabase: async () => {
        await notifications.stop();
        await database.close();
      },
      graceMs: GRACE_MS,
      drainMs: DRAIN_MS,
    });
}
