/**
 * `npm start`'s cluster mode (scripts/start.mjs, docs/deployment.md "Varios procesos"): how many workers, the
 * wait before starting again one that died, and the primary process itself. Apart from start.mjs so its rules
 * can be tested without starting anything (start-cluster.test.ts).
 */
import cluster from "node:cluster";

/**
 * How many workers were asked for and how many run: PGlite is one process's database.
 * @param {{ WEB_CONCURRENCY?: string; DATABASE_URL?: string }} environment
 */
export function workerCount(environment = process.env) {
  const asked = Math.max(1, Math.floor(Number(environment.WEB_CONCURRENCY ?? 1)) || 1);
  if (asked > 1 && !environment.DATABASE_URL) {
    return { asked, workers: 1, reason: "la base embebida (PGlite, sin DATABASE_URL) es de un solo proceso: para varios procesos hace falta PostgreSQL (DATABASE_URL)" };
  }
  return { asked, workers: asked, reason: null };
}

/** The wait before starting again a worker that died: 1 s, 2 s, 4 s… up to 30 s; reset once one lives a minute. */
export function restartDelayMs(recentDeaths) {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, recentDeaths - 1));
}

export function runPrimary(workers) {
  const log = (msg, extra = {}) => console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, role: "primary", msg, ...extra }));
  let shuttingDown = false;
  let everListened = false;
  let recentDeaths = 0;
  const startedAt = new Map();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };

  // The workers' metrics, aggregated (prom-client), for the worker that was asked for /metrics.
  let aggregator = null;
  cluster.on("message", async (worker, message) => {
    if (message?.type === "tribuna:listening" && !everListened) {
      everListened = true;
      log(`Primer worker listo: arrancando ${workers - 1} más.`, { workers });
      for (let i = 1; i < workers; i++) fork();
    }
    if (message?.type === "tribuna:metrics-request") {
      try {
        if (!aggregator) {
          const { AggregatorRegistry } = (await import("prom-client")).default;
          aggregator = new AggregatorRegistry();
        }
        worker.send({ type: "tribuna:metrics-answer", id: message.id, text: await aggregator.clusterMetrics() });
      } catch (error) {
        worker.send({ type: "tribuna:metrics-answer", id: message.id, error: String(error?.message ?? error) });
      }
    }
  });

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? Date.now());
    startedAt.delete(worker.id);
    if (shuttingDown) {
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
      return;
    }
    // The first worker failing before it ever served (a fail-closed check, a bad DATABASE_URL) ends the start:
    // starting it again would fail the same way, forever.
    if (!everListened) {
      log("El primer worker no arrancó: no se reintenta.", { code, signal });
      process.exit(code || 1);
    }
    recentDeaths = lived > 60_000 ? 1 : recentDeaths + 1;
    const delay = restartDelayMs(recentDeaths);
    log("Un worker terminó: se arranca otro.", { code, signal, delayMs: delay });
    setTimeout(() => {
      if (!shuttingDown) fork();
    }, delay).unref();
  });

  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => {
      if (shuttingDown) return;
      shuttingDown = true;
      log("Apagando los workers.", { signal });
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
      // Each worker bounds its own shutdown; this is for one that hangs anyway.
      setTimeout(() => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
        process.exit(1);
      }, 30_000).unref();
    });
  }
  fork();
}

