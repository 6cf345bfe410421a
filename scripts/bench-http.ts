/**
 * `npm run bench:http`: requests per second and latency of the request path
 * (decision 129), on the production build against PostgreSQL, next to a bare
 * Node server sending the same bytes (the ceiling on this machine).
 *
 * Makes a fresh database (tribuna_bench_http_…) with the demo seed, starts
 * the app as `npm start` would (its own process), warms it up and drives each
 * endpoint with autocannon for a few seconds. Prints a table (or JSON with
 * --json) and drops the database. Not a test: figures go to docs/benchmarks.md.
 *
 *   npm run bench:http
 *   npm run bench:http -- --seconds 10 --connections 50 --json
 *   npm run bench:http -- --only graphql --cpu-prof /tmp/prof   # GraphQL only, with the app's CPU profile
 *   npm run bench:http -- --workers 2   # npm start with WEB_CONCURRENCY=2: two workers on one port
 *
 * --only graphql drives only the GraphQL points and bare yoga; --cpu-prof DIR
 * runs the compiled server with `node --cpu-prof` (the .cpuprofile lands in
 * DIR when the app stops; scripts/bench-profile.ts summarises it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createYoga } from "graphql-yoga";
import postgres from "postgres";
import { benchAppEnv, benchDatabase, ensureProductionBuild, freePort, serverNodeFlags, waitForApp, stopApp, machineLoad } from "./bench-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = flag("seconds", 8);
const CONNECTIONS = flag("connections", 50);
/** `npm start`'s cluster mode (WEB_CONCURRENCY): worker processes on the one port. */
const WORKERS = Math.max(1, Math.floor(flag("workers", 1)) || 1);
const JSON_OUTPUT = args.includes("--json");
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const ONLY_GRAPHQL = option("only") === "graphql";
const CPU_PROFILE_DIR = option("cpu-prof");
const { adminUrl: ADMIN_URL, name: DB_NAME, url: BENCH_URL } = benchDatabase("http");

const log = (message: string) => {
  if (!JSON_OUTPUT) console.log(message);
};


interface Figure {
  name: string;
  path: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  bytes: number;
}

async function drive(name: string, base: string, pathname: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Figure> {
  // The load comes from a worker thread: the bare servers below live in this process's main thread, and sharing
  // it with the load generator would slow them and flatter our ratios.
  const result = await autocannon({ url: `${base}${pathname}`, connections: CONNECTIONS, duration: SECONDS, workers: 1, method: (init.method ?? "GET") as "GET", body: init.body, headers: init.headers });
  return {
    name,
    path: pathname,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytes: Math.round(result.throughput.average / Math.max(1, result.requests.average)),
  };
}

async function main() {
  const load = machineLoad({ json: JSON_OUTPUT });
  await ensureProductionBuild(ROOT, log);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${DB_NAME}"`);
  let app: ChildProcess | undefined;
  let appLog = "";
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = benchAppEnv({ port, databaseUrl: BENCH_URL, databaseName: DB_NAME, seedDemo: true });
    if (WORKERS > 1) env.WEB_CONCURRENCY = String(WORKERS);
    // BENCH_SERVER_COMMAND measures another way of starting the same app (for example a compiled server.ts).
    const defaultCommand = CPU_PROFILE_DIR
      ? [process.execPath, ...serverNodeFlags(ROOT), "--cpu-prof", `--cpu-prof-dir=${path.resolve(CPU_PROFILE_DIR)}`, "build/serve/server.js"].join(" ")
      : "npm start";
    const [command, ...commandArgs] = (process.env.BENCH_SERVER_COMMAND ?? defaultCommand).split(" ");
    app = spawn(command, commandArgs, { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let listening = 0;
    app.stdout!.on("data", (c) => {
      listening += (String(c).match(/"msg":"Tribuna en http/g) ?? []).length;
      appLog = (appLog + c).slice(-20_000);
    });
    app.stderr!.on("data", (c) => (appLog = (appLog + c).slice(-20_000)));
    await waitForApp(`${base}/ayuda`, app, () => appLog);
    // With workers, the others start once the first listens: measure with all of them.
    for (const deadline = Date.now() + 120_000; listening < WORKERS && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 200));

    const events = await (await fetch(`${base}/api/graphql?query=${encodeURIComponent("{ events(limit: 1) { items { slug } } }")}`)).json();
    const slug: string = events.data.events.items[0].slug;
    const eventPage = `/eventos/${slug}`;
    const graphqlGet = `/api/graphql?query=${encodeURIComponent("{ __typename }")}`;
    // Warm-up: modules, connection pool, JIT.
    for (const p of ["/", eventPage, graphqlGet]) await autocannon({ url: `${base}${p}`, connections: 10, amount: 300 });

    // A bare graphql-yoga with our schema and nothing else (no context, plugins or limits): GraphQL's ceiling here.
    const { schema } = await import("../server/graphql/schema");
    const bareYoga = http.createServer(createYoga({ schema, logging: false, graphiql: false }));
    await new Promise<void>((resolve) => bareYoga.listen(0, resolve));
    const bareYogaBase = `http://127.0.0.1:${(bareYoga.address() as AddressInfo).port}`;
    await autocannon({ url: `${bareYogaBase}${graphqlGet.replace("/api/graphql", "/graphql")}`, connections: 10, amount: 300 });

    const eventBytes = Buffer.from(await (await fetch(`${base}${eventPage}`)).arrayBuffer());
    const ceiling = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(eventBytes));
    await new Promise<void>((resolve) => ceiling.listen(0, resolve));
    const ceilingBase = `http://127.0.0.1:${(ceiling.address() as AddressInfo).port}`;

    log(`Build de producción en ${base}${WORKERS > 1 ? ` (${WORKERS} workers)` : ""}, ${CONNECTIONS} conexiones, ${SECONDS} s por punto…`);
    const figures: Figure[] = [];
    figures.push(await drive("GraphQL { __typename } (GET)", base, graphqlGet));
    figures.push(await drive("GraphQL { __typename } (POST)", base, "/api/graphql", { method: "POST", body: JSON.stringify({ query: "{ __typename }" }), headers: { "content-type": "application/json" } }));
    figures.push(await drive("graphql-yoga pelado, mismo esquema (GET)", bareYogaBase, graphqlGet.replace("/api/graphql", "/graphql")));
    bareYoga.close();
    if (!ONLY_GRAPHQL) {
      figures.push(await drive("Página de evento (anónimo)", base, eventPage));
      figures.push(await drive("Inicio (anónimo)", base, "/"));
      figures.push(await drive("Node pelado, mismos bytes que la página de evento", ceilingBase, "/"));
    }
    ceiling.close();

    const loadAtEnd = load.end();
    if (JSON_OUTPUT) {
      console.log(JSON.stringify({ machineLoad: loadAtEnd, connections: CONNECTIONS, workers: WORKERS, seconds: SECONDS, cpus: os.cpus().length, node: process.version, figures }, null, 2));
    } else {
      console.log("");
      console.log("| punto | pedidos/s | p50 ms | p99 ms | errores | no 2xx | bytes/pedido |");
      console.log("|---|---:|---:|---:|---:|---:|---:|");
      for (const f of figures) console.log(`| ${f.name} | ${f.requestsPerSecond} | ${f.p50} | ${f.p99} | ${f.errors} | ${f.non2xx} | ${f.bytes} |`);
      const page = figures.find((f) => f.name.startsWith("Página"));
      const bare = figures.find((f) => f.name.startsWith("Node pelado"));
      const graphql = figures[0];
      const yoga = figures.find((f) => f.name.startsWith("graphql-yoga"))!;
      console.log(load.verdict(`\nGraphQL: ${(graphql.requestsPerSecond / yoga.requestsPerSecond).toFixed(3)} × graphql-yoga pelado (objetivo ≥ 0,3).`));
      if (page && bare) console.log(load.verdict(`Página de evento: ${(page.requestsPerSecond / bare.requestsPerSecond).toFixed(3)} × el servidor pelado (objetivo ≥ 0,2).`));
    }
  } finally {
    await stopApp(app);
    await admin.unsafe(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
