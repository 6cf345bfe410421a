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
