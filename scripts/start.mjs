/**
 * `npm start`: the production server as compiled JavaScript run by plain
 * Node (decision 157: no TypeScript loader or module hooks while serving). The
 * compiled server (build/serve/server.js, vite.server.config.ts) is built here
 * when missing; it builds the Remix app itself when that is missing, after its
 * fail-closed checks. Both stay for the next start (scripts/start-builds.mjs).
 * `npm run build` builds both.
 *
 * `WEB_CONCURRENCY=N` (N > 1, PostgreSQL only) runs N worker processes of that
 * server on one port (node:cluster): the first starts alone (it builds what is
 * missing and migrates), the others after it listens. A worker that dies is
 * started again, with a growing wait if it keeps dying. SIGTERM reaches every
 * worker, each shuts down gracefully, and the primary exits when they are
 * gone. The primary also aggregates the workers' metrics for /metrics
 * (docs/deployment.md, "Varios procesos").
 */
import { execSync } from "node:child_process";
import cluster from "node:cluster";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { missingBuilds, SERVER_BUILD } from "./start-builds.mjs";
import { runPrimary, workerCount } from "./start-cluster.mjs";

async function runServer() {
  await import(pathToFileURL(path.resolve(SERVER_BUILD.output)).href);
}

if (cluster.isPrimary) {
  if (missingBuilds().includes(SERVER_BUILD)) {
    console.log(`No hay servidor compilado: compilando (${SERVER_BUILD.command.replace("npx ", "")})…`);
    execSync(SERVER_BUILD.command, { stdio: "inherit" });
  }
  const { asked, workers, reason } = workerCount();
  if (reason) console.warn(`WEB_CONCURRENCY=${asked}, pero arranca un solo proceso: ${reason}.`);
  if (workers > 1) runPrimary(workers);
  else await runServer();
} else {
  await runServer();
}
