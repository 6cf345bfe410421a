import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * What every benchmark's app process gets: production on the bench's own
 * database, simulated payments, no job runner, and nothing that talks to a
 * third party (Mercado Pago, Sentry, PostHog, SMTP).
 */
export function benchAppEnv(options: { port: number; databaseUrl: string; databaseName: string; seedDemo: boolean }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(options.port),
    DATABASE_URL: options.databaseUrl,
    NODE_ENV: "production",
    SEED_DEMO: options.seedDemo ? "true" : "false",
    JOBS: "off",
    PAYMENTS_SANDBOX: "true",
    AUTH_SECRET: crypto.randomBytes(36).toString("base64url"),
    APP_URL: `http://127.0.0.1:${options.port}`,
    DATA_DIR: path.join(os.tmpdir(), options.databaseName),
  };
  for (const key of ["MERCADOPAGO_ACCESS_TOKEN", "MERCADOPAGO_WEBHOOK_SECRET", "SENTRY_DSN", "POSTHOG_KEY", "SMTP_URL"]) delete env[key];
  return env;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = http.createServer();
    server.listen(0, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * The Node flags `npm start` gives the server (package.json's "start" script, the one place they are
 * written; decision 136). A benchmark that starts `node build/serve/server.js` itself passes them too,
 * so it measures the process production runs.
 */
export function serverNodeFlags(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const [node, ...words] = pkg.scripts.start.split(/\s+/);
  if (node !== "node") throw new Error(`El script "start" de package.json no empieza con node: ${pkg.scripts.start}`);
  return words.filter((word) => word.startsWith("--"));
}

/** Builds the production bundle first when there is none (benchmarks measure `npm start`). */
export async function ensureProductionBuild(root: string, log: (message: string) => void): Promise<void> {
  if (fs.existsSync(path.join(root, "build/server/index.js")) && fs.existsSync(path.join(root, "build/serve/server.js"))) return;
  log("No hay build de producción: npm run build…");
  await new Promise<void>((resolve, reject) => spawn("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).on("exit", (code) => (code === 0 ? resolve() : reject(new Error("build falló")))));
}

/** Waits until the app answers `url`, failing early (with its output) when the process dies. */
export async function waitForApp(url: string, child: ChildProcess, output: () => string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`La app terminó antes de responder:\n${output().slice(-4000)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`La app no respondió en ${timeoutMs / 1000} s:\n${output().slice(-4000)}`);
}

/** The PostgreSQL server benchmarks create their database on, and a fresh database there named after the bench. */
export function benchDatabase(kind: string) {
  const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `tribuna_bench_${kind}_${Date.now().toString(36)}_${crypto.randomBytes(2).toString("hex")}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { adminUrl, name, url: url.toString() };
}

/**
 * Stops an app started detached (its whole process group) and waits until it has exited (at most 10 s:
 * a `--cpu-prof` run writes its profile on the way out), then half a second more to let go of the database.
 */
export async function stopApp(app: ChildProcess | undefined): Promise<void> {
  if (app?.pid && app.exitCode === null && app.signalCode === null) {
    const exited = new Promise((resolve) => app.once("exit", resolve));
    try {
      process.kill(-app.pid, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    } catch {
      /* already gone */
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/**
 * The machine's load around a benchmark (docs/benchmarks.md, "Máquina tranquila u ocupada"), decision 193. Every benchmark
 * prints the load average and the cores when it starts and when it ends, and when the machine was already busy
 * before it started (1-minute load above half its cores) it reports no ratio and no goal verdict, only its raw
 * figures, unless asked with `--allow-busy` (or BENCH_ALLOW_BUSY=1, which `npm run bench` passes on); those
 * verdicts then say "máquina ocupada". Quiet-machine and busy-machine figures are never mixed.
 */
export const BUSY_LOAD_PER_CORE = 0.5;

const ALLOW_BUSY_FLAG = "--allow-busy";
// Read and removed here, on import, so no benchmark's own argument parser has to know it.
const allowBusyIndex = process.argv.indexOf(ALLOW_BUSY_FLAG);
if (allowBusyIndex >= 0) process.argv.splice(allowBusyIndex, 1);
const ALLOW_BUSY = allowBusyIndex >= 0 || process.env.BENCH_ALLOW_BUSY === "1";

export interface MachineLoad {
  cores: number;
  loadAtStart: number[];
  loadAtEnd: number[] | null;
  /** 1-minute load above BUSY_LOAD_PER_CORE × cores when the benchmark started. */
  busy: boolean;
  allowBusy: boolean;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const loadText = (load: number[]) => load.map((n) => n.toFixed(2).replace(".", ",")).join(" / ");

/**
 * Call first thing in a benchmark: prints (to stderr when stdout carries JSON) the load and the cores and
 * whether this run may give verdicts. `end()` prints the load again and returns everything, for the JSON.
 */
export function machineLoad(options: { json?: boolean; /** What it measures does not depend on the load (bytes). */ loadIndependent?: boolean } = {}) {
  const print = (line: string) => (options.json ? console.error(line) : console.log(line));
  const cores = os.cpus().length;
  const state: MachineLoad = { cores, loadAtStart: os.loadavg().map(round2), loadAtEnd: null, busy: false, allowBusy: ALLOW_BUSY };
  state.busy = state.loadAtStart[0]! > BUSY_LOAD_PER_CORE * cores;
  const threshold = (BUSY_LOAD_PER_CORE * cores).toFixed(1).replace(".", ",");
  print(`Máquina al empezar: ${cores} núcleos, carga promedio 1/5/15 min ${loadText(state.loadAtStart)} (ocupada si la de 1 min pasa ${threshold}).`);
  if (state.busy && options.loadIndependent) print("Máquina ocupada al empezar: lo que se mide aquí no depende de la carga, el veredicto vale igual.");
  else if (state.busy) {
    print(
      ALLOW_BUSY
        ? "MÁQUINA OCUPADA al empezar: las cifras y veredictos de esta corrida son de máquina ocupada (--allow-busy)."
        : "MÁQUINA OCUPADA al empezar: se imprimen las cifras pero ningún cociente ni veredicto de objetivo (--allow-busy para verlos igual, rotulados).",
    );
  }
  return {
    ...state,
    /** Whether ratios and goal verdicts may be printed: a quiet machine, or a busy one when asked to. */
    get mayJudge() {
      return !state.busy || ALLOW_BUSY;
    },
    /**
     * A ratio or goal line as it may be printed: as is on a quiet machine, labelled "máquina ocupada" on a busy
     * one with --allow-busy, and replaced by a notice otherwise.
     */
    verdict(line: string): string {
      if (!state.busy) return line;
      if (ALLOW_BUSY) return `${line} [máquina ocupada]`;
      return `(cociente/veredicto no informado: máquina ocupada al empezar, carga ${loadText(state.loadAtStart.slice(0, 1))} > ${threshold}; --allow-busy para verlo)`;
    },
    end(): MachineLoad {
      state.loadAtEnd = os.loadavg().map(round2);
      print(`Máquina al terminar: carga promedio 1/5/15 min ${loadText(state.loadAtEnd)}${state.busy ? " (estaba ocupada al empezar: máquina ocupada)" : ""}.`);
      return { ...state };
    },
  };
}

/** A command-line flag that must be a positive integer; exits 2 with a Spanish message otherwise. */
export function positiveInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} tiene que ser un entero positivo (recibí "${raw}").`);
    process.exit(2);
  }
  return n;
}
