/**
 * `npm run bench:soak`: memory under a long mixed load. Makes a fresh database with the demo seed (in its own process), starts the
 * production build as `npm start` runs it (node with package.json's flags, build/serve/server.js), and drives 30
 * connections for 2 minutes over a mix of public pages (home, event pages, help) and GraphQL (event lists, GET and
 * POST). Prints the server's RSS (Linux /proc) when idle before the load, its peak during it and 30 s after it,
 * with requests/s and errors, then how long it takes to come back near its idle size (--settle, 180 s at most); the
 * goal (docs/benchmarks.md) is RSS ≤ 300 MB at the peak and after. Not a test.
 *
 *   npm run bench:soak
 *   npm run bench:soak -- --seconds 30 --connections 10 --after 10   # short, to see that it runs
 *   npm run bench:soak -- --json
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";
import { benchAppEnv, benchDatabase, ensureProductionBuild, freePort, machineLoad, serverNodeFlags, stopApp, waitForApp } from "./bench-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: {
    seconds: { type: "string", default: "120" },
    connections: { type: "string", default: "30" },
    after: { type: "string", default: "30" },
    settle: { type: "string", default: "180" },
    json: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const SECONDS = Number(flags.seconds);
const CONNECTIONS = Number(flags.connections);
const AFTER_SECONDS = Number(flags.after);
/** How long after the load to keep watching for the RSS to come back near its idle size. */
const SETTLE_SECONDS = Number(flags.settle);
/** "Near its idle size": within this much of it (V8 gives back the heap it grew a minute or two after the load ends). */
const NEAR_IDLE_MB = 30;
/** The goal of docs/benchmarks.md, at the peak and after the load. */
const RSS_GOAL_MB = 300;
const log = (line: string) => (flags.json ? console.error(line) : console.log(line));

/** The app's resident memory in MB (Linux); null elsewhere. */
function rssMb(pid: number): number | null {
  try {
    const kib = Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1]);
    return Number.isFinite(kib) ? Math.round(kib / 1024) : null;
  } catch {
    return null;
  }
}

const gql = (query: string) => ({
  method: "POST" as const,
  path: "/api/graphql",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ query }),
});

async function main() {
  const machine = machineLoad({ json: flags.json });
  await ensureProductionBuild(ROOT, log);
  const { adminUrl, name, url } = benchDatabase("soak");
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  let app: ChildProcess | undefined;
  let appLog = "";
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The demo data is loaded by its own process first (`npm run db:seed`), as a deployment's data is there before
    // the server starts: the seed renders its posters with sharp, and the native memory that leaves in a process
    // (about 100 MB) is not the server's (docs/benchmarks.md, "Memoria").
    const env = benchAppEnv({ port, databaseUrl: url, databaseName: name, seedDemo: false });
    execFileSync(process.execPath, ["--import", "tsx", "server/demo/seed-cli.ts"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
    app = spawn(process.execPath, [...serverNodeFlags(ROOT), "build/serve/server.js"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const keep = (chunk: Buffer) => {
      appLog = (appLog + chunk).slice(-20_000);
      if (flags.verbose) process.stderr.write(chunk);
    };
    app.stdout!.on("data", keep);
    app.stderr!.on("data", keep);
    await waitForApp(`${base}/ayuda`, app, () => appLog);
    const pid = app.pid!;

    const listed = await (await fetch(`${base}/api/graphql?query=${encodeURIComponent("{ events(limit: 6) { items { slug } } }")}`)).json();
    const slugs: string[] = listed.data.events.items.map((e: { slug: string }) => e.slug);
    const listQuery = "{ events(limit: 10) { items { slug name } } }";
    const requests: { method: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string }[] = [
      { method: "GET" as const, path: "/" },
      ...slugs.map((slug) => ({ method: "GET" as const, path: `/eventos/${slug}` })),
      { method: "GET" as const, path: "/ayuda" },
      { method: "GET" as const, path: `/api/graphql?query=${encodeURIComponent(listQuery)}` },
      gql(listQuery),
      gql("{ events(limit: 3) { items { slug } } }"),
    ];
    // Idle size: after the seed and one request to each point, before the load.
    for (const r of requests) await fetch(`${base}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const atStart = rssMb(pid);
    log(`Build de producción en ${base}; RSS en reposo ${atStart ?? "–"} MB. ${CONNECTIONS} conexiones durante ${SECONDS} s sobre ${requests.length} puntos (páginas públicas y GraphQL)…`);

    let peak = atStart ?? 0;
    const samples: { s: number; mb: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(() => {
      const mb = rssMb(pid);
      if (mb === null) return;
      peak = Math.max(peak, mb);
      samples.push({ s: Math.round((Date.now() - started) / 1000), mb });
    }, 250);
    const result = await autocannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests });
    const endOfLoad = rssMb(pid);
    await new Promise((resolve) => setTimeout(resolve, AFTER_SECONDS * 1000));
    clearInterval(sampler);
    const after = rssMb(pid);
    // Then keep watching until the RSS is back near the idle size, or SETTLE_SECONDS after the load.
    let settledAfter: number | null = null;
    let lastSeen = after;
    for (let waited = AFTER_SECONDS; waited <= SETTLE_SECONDS; waited += 5) {
      lastSeen = rssMb(pid);
      if (atStart !== null && lastSeen !== null && lastSeen <= atStart + NEAR_IDLE_MB) {
        settledAfter = waited;
        break;
      }
      if (waited + 5 <= SETTLE_SECONDS) await new Promise((resolve) => setTimeout(resolve, 5_000));
    }
    const load = machine.end();

    const figures = {
      seconds: SECONDS,
      connections: CONNECTIONS,
      requestsPerSecond: Math.round(result.requests.average),
      requests: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      rssMb: { atStart, peak, endOfLoad, after, afterSeconds: AFTER_SECONDS, backNearIdleAfterSeconds: settledAfter, lastSeen },
      everyTenSeconds: samples.filter((s, i, all) => i === all.findIndex((o) => Math.floor(o.s / 10) === Math.floor(s.s / 10))),
      machine: load,
      node: process.version,
    };
    const withinGoal = peak <= RSS_GOAL_MB && (after ?? Infinity) <= RSS_GOAL_MB;
    if (flags.json) {
      console.log(JSON.stringify({ ...figures, goalMet: machine.mayJudge ? withinGoal : null }, null, 2));
      return;
    }
    console.log("");
    console.log("| pedidos/s | pedidos | p50 ms | p99 ms | errores | no 2xx | RSS en reposo | RSS pico | RSS al terminar la carga | RSS " + AFTER_SECONDS + " s después |");
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    console.log(
      `| ${figures.requestsPerSecond} | ${figures.requests} | ${figures.p50} | ${figures.p99} | ${figures.errors} | ${figures.non2xx} | ${atStart ?? "–"} MB | ${peak} MB | ${endOfLoad ?? "–"} MB | ${after ?? "–"} MB |`,
    );
    console.log(`\nRSS cada 10 s: ${figures.everyTenSeconds.map((s) => `${s.s} s ${s.mb} MB`).join(", ")}`);
    console.log(
      settledAfter !== null
        ? `Volvió cerca del reposo (≤ ${atStart! + NEAR_IDLE_MB} MB) ${settledAfter} s después de la carga: ${lastSeen} MB.`
        : `No volvió cerca del reposo (≤ ${(atStart ?? 0) + NEAR_IDLE_MB} MB) en ${SETTLE_SECONDS} s: ${lastSeen ?? "–"} MB.`,
    );
    console.log(machine.verdict(`\nMemoria: ${withinGoal ? "dentro" : "FUERA"} del objetivo (RSS ≤ ${RSS_GOAL_MB} MB en el pico y ${AFTER_SECONDS} s después).`));
  } finally {
    await stopApp(app);
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
