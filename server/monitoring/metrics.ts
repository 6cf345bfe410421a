/**
 * The process's Prometheus metrics (docs/runbook.md, "Métricas"), all in one place. Both the HTTP server
 * (server.ts, compiled on its own) and the Remix build (GraphQL resolvers: holds, door scans) load a copy of
 * this module; prom-client itself is one package in node_modules, so each metric is created once per process
 * in its global registry (`metric()`) and both copies count into the same one.
 *
 * Instrumentation is a counter increment or a histogram observation on the hot path (no allocation beyond
 * the label lookup); anything that needs the database (the job queue, connections) is read only when
 * Prometheus scrapes, at most once per second.
 */
import cluster from "node:cluster";
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, register, type Metric } from "prom-client";

/** A metric by name: the one already registered in this process, or a new one. */
function metric<T extends Metric>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** What a request is, for the metrics and the log: few values, so the series stay few. */
export type RouteFamily = "page" | "graphql" | "webhook" | "asset" | "ops";

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = metric(
  "tribuna_http_requests_total",
  () => new Counter({ name: "tribuna_http_requests_total", help: "Pedidos HTTP contestados, por familia de ruta, operación de GraphQL y clase de estado.", labelNames: ["family", "operation", "status"] as const }),
);
export const httpDuration = metric(
  "tribuna_http_request_duration_seconds",
  () => new Histogram({ name: "tribuna_http_request_duration_seconds", help: "Duración de los pedidos HTTP, por familia de ruta y operación de GraphQL.", labelNames: ["family", "operation"] as const, buckets: SECONDS }),
);
export const httpInFlight = metric("tribuna_http_requests_in_flight", () => new Gauge({ name: "tribuna_http_requests_in_flight", help: "Pedidos HTTP en curso (sin contar los streams SSE)." }));
export const sseStreams = metric("tribuna_sse_streams_open", () => new Gauge({ name: "tribuna_sse_streams_open", help: "Streams de server-sent events abiertos (vista en vivo)." }));

export const holdBatchSize = metric(
  "tribuna_hold_batch_size",
  () => new Histogram({ name: "tribuna_hold_batch_size", help: "Reservas por transacción del lote de reservas.", buckets: [1, 2, 5, 10, 20, 50, 100, 200] }),
);
export const holdBatchConflicts = metric(
  "tribuna_hold_batch_conflicts_total",
  () => new Counter({ name: "tribuna_hold_batch_conflicts_total", help: "Reservas de un lote que terminaron en error (sin stock, precio cambiado, lote fallido)." }),
);

export const doorScans = metric(
  "tribuna_door_scans_total",
  () => new Counter({ name: "tribuna_door_scans_total", help: "Escaneos de la puerta y la barra, por resultado.", labelNames: ["outcome"] as const }),
);

export const jobsRun = metric(
  "tribuna_jobs_total",
  () => new Counter({ name: "tribuna_jobs_total", help: "Jobs corridos, por tipo y resultado (done, failed).", labelNames: ["kind", "outcome"] as const }),
);

// Read from the database when scraped: every worker sees the same queue, so the cluster's value is the max, not the sum.
export interface QueueLaneState {
  lane: string;
  depth: number;
  oldestAgeSeconds: number;
}
type Source<T> = () => Promise<T>;
const SOURCES_KEY = Symbol.for("tribuna.metricSources");
const sources = ((globalThis as Record<symbol, unknown>)[SOURCES_KEY] ??= {}) as { queue?: Source<QueueLaneState[]>; connections?: Source<{ state: string; count: number }[]> };

/** The same answer for every gauge of one scrape (and for a second scrape within a second). */
function memo<T>(read: () => Source<T> | undefined): () => Promise<T | null> {
  let last: { at: number; value: Promise<T | null> } | null = null;
  return () => {
    const source = read();
    if (!source) return Promise.resolve(null);
    if (!last || Date.now() - last.at > 1000) last = { at: Date.now(), value: source().catch(() => null) };
    return last.value;
  };
}
const queueState = memo(() => sources.queue);
const connectionState = memo(() => sources.connections);

metric(
  "tribuna_job_queue_depth",
  () =>
    new Gauge({
      name: "tribuna_job_queue_depth",
      help: "Jobs vencidos sin terminar (esperando o corriendo), por carril.",
      labelNames: ["lane"] as const,
      aggregator: "max",
      async collect() {
        this.reset();
        for (const lane of (await queueState()) ?? []) this.set({ lane: lane.lane }, lane.depth);
      },
    }),
);
metric(
  "tribuna_job_queue_oldest_age_seconds",
  () =>
    new Gauge({
      name: "tribuna_job_queue_oldest_age_seconds",
      help: "Antigüedad del job vencido más viejo sin terminar, por carril (0 sin ninguno).",
      labelNames: ["lane"] as const,
      aggregator: "max",
      async collect() {
        this.reset();
        for (const lane of (await queueState()) ?? []) this.set({ lane: lane.lane }, lane.oldestAgeSeconds);
      },
    }),
);
metric(
  "tribuna_db_connections",
  () =>
    new Gauge({
      name: "tribuna_db_connections",
      help: "Conexiones a la base de esta aplicación según PostgreSQL (pg_stat_activity), por estado: active es en uso; idle, libres en los pools.",
      labelNames: ["state"] as const,
      aggregator: "max",
      async collect() {
        this.reset();
        for (const row of (await connectionState()) ?? []) this.set({ state: row.state }, row.count);
      },
    }),
);
export const dbPoolMax = metric("tribuna_db_pool_max", () => new Gauge({ name: "tribuna_db_pool_max", help: "Conexiones que el pool de cada proceso puede abrir (la suma del cluster)." }));

/** Where the queue and connection gauges read from (server.ts sets them once the database is ready). */
export function setMetricSources(next: { queue?: Source<QueueLaneState[]>; connections?: Source<{ state: string; count: number }[]> }) {
  Object.assign(sources, next);
}

/** prom-client's process metrics (RSS, heap, GC, event-loop lag, handles…), once per process. */
export function collectProcessMetrics() {
  if (register.getSingleMetric("process_resident_memory_bytes")) return;
  collectDefaultMetrics({ eventLoopMonitoringPrecision: 20 });
}

// A cluster worker answers the primary's requests for its metrics from the moment this module loads (the
// listener AggregatorRegistry installs; once per process, whichever copy of this module comes first).
if (cluster.isWorker) new AggregatorRegistry();

const GRAPHQL_OPERATION = Symbol.for("tribuna.graphqlOperation");
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Distinct operation names kept as labels; past this, "other" (a client could make up names without end). */
const MAX_OPERATIONS = 200;
const seenOperations = new Set<string>();

/** Records a GraphQL request's operation name on the Node request (server/graphql/json-post.ts), for the metrics and the log. */
export function tagGraphQLOperation(req: object, operationName: string | null | undefined, query?: string) {
  (req as Record<symbol, unknown>)[GRAPHQL_OPERATION] = operationName ?? (query ? /^\s*(?:query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(query.slice(0, 200))?.[1] : undefined);
}

/** The operation label of a GraphQL request: its name when sane and not one too many, else "other" ("" for other families). */
export function graphqlOperationOf(req: object, url: string | undefined): string {
  let name = (req as Record<symbol, unknown>)[GRAPHQL_OPERATION] as string | undefined;
  if (name === undefined && url) {
    const query = url.indexOf("?");
    if (query >= 0) name = new URLSearchParams(url.slice(query + 1)).get("operationName") ?? undefined;
  }
  if (!name || !OPERATION_NAME.test(name)) return "other";
  if (seenOperations.has(name)) return name;
  if (seenOperations.size >= MAX_OPERATIONS) return "other";
  seenOperations.add(name);
  return name;
}

/** The family of a request by its path. */
export function routeFamily(url: string | undefined): RouteFamily {
  const path = url ?? "/";
  if (path.startsWith("/api/graphql")) return "graphql";
  if (path.startsWith("/api/webhooks/")) return "webhook";
  if (path === "/healthz" || path === "/readyz" || path.startsWith("/metrics")) return "ops";
  if (path.startsWith("/assets/") || path.startsWith("/imagenes/")) return "asset";
  const end = path.search(/[?#]/);
  const pathname = end < 0 ? path : path.slice(0, end);
  return /\.[a-z0-9]{1,5}$/i.test(pathname) ? "asset" : "page";
}

const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/** One request answered: its count and its duration. */
export function observeRequest(family: RouteFamily, operation: string, status: number, seconds: number) {
  httpRequests.inc({ family, operation, status: STATUS_CLASSES[Math.floor(status / 100) - 1] ?? "5xx" });
  httpDuration.observe({ family, operation }, seconds);
}

export { register as metricsRegistry };
