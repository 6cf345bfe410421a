import path from "node:path";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { benchAppEnv, freePort, serverNodeFlags, waitForApp } from "../../scripts/bench-support";
import { E2E_DATABASE_URL } from "./env";
import { processGroupPerTest } from "./processes";

/**
 * Operations on the production build (docs/runbook.md), browser-free: `npm start` with two workers
 * (WEB_CONCURRENCY=2) on its own port and database, as a load balancer and Prometheus see it: health,
 * readiness, the cluster's metrics behind their token, the JSON log with request ids and no personal data,
 * and a SIGTERM that turns /readyz to 503, finishes and exits 0. Then the graceful variant of the crash test
 * (scripts/crash-test.ts --signal SIGTERM --workers 2): a rush stopped with SIGTERM loses no order and leaves
 * no job claimed. The handlers themselves are tested in-process (server/monitoring/operations.test.ts).
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const processes = processGroupPerTest();

test("npm start with two workers: health, readiness, the cluster's metrics behind a token, request ids in a log with no personal data, SIGTERM to exit 0", async () => {
  test.setTimeout(240_000);
  const admin = postgres(E2E_DATABASE_URL, { max: 1, onnotice: () => {} });
  const name = `tribuna_ops_${Date.now().toString(36)}`;
  const url = new URL(E2E_DATABASE_URL);
  url.pathname = `/${name}`;
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The job runner on (benchmarks turn it off), as production runs.
    const env: NodeJS.ProcessEnv = { ...benchAppEnv({ port, databaseUrl: url.toString(), databaseName: name, seedDemo: false }), WEB_CONCURRENCY: "2", METRICS_TOKEN: "token-de-metricas-e2e", SHUTDOWN_GRACE_MS: "1500", LOG_LEVEL: "info" };
    delete env.JOBS;
    const { child: started, output, exited } = processes.startNode([...serverNodeFlags(ROOT), "scripts/start.mjs"], { cwd: ROOT, env });
    await waitForApp(`${base}/healthz`, started, output);
    // Both workers up: the second starts once the first listens.
    await expect.poll(() => (output().match(/"msg":"Tribuna en http/g) ?? []).length, { timeout: 120_000 }).toBe(2);

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get("cache-control")).toBe("no-store");
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok" });

    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer otro" } })).status).toBe(403);

    // A GraphQL request with an email and a password in its body and a token in its headers.
    const email = "lucia.fernandez@ejemplo.com.ar";
    const secretToken = "tok_e2e_7a6b5c4d3e2f1a0b9c8d7e6f";
    const signIn = await fetch(`${base}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-request-id": "e2e-ops-1", authorization: `Bearer ${secretToken}`, "x-access-token": secretToken },
      body: JSON.stringify({ operationName: "SignIn", query: "mutation SignIn($email: String!, $password: String!) { login(email: $email, password: $password) { __typename } }", variables: { email, password: "contraseña-e2e-secreta" } }),
    });
    expect(signIn.headers.get("x-request-id")).toBe("e2e-ops-1");
    await signIn.text();
    for (let i = 0; i < 6; i++) await (await fetch(`${base}/ayuda?email=${encodeURIComponent(email)}&token=${secretToken}`)).text();

    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer token-de-metricas-e2e" } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    // Aggregated over both workers: every page request counted, whichever worker answered it.
    expect(Number(/tribuna_http_requests_total\{family="page",operation="",status="2xx"\} (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(6);
    expect(text).toMatch(/tribuna_http_requests_total\{family="graphql",operation="SignIn",status="\dxx"\} 1/);
    for (const family of ["tribuna_http_request_duration_seconds", "tribuna_hold_batch_size", "tribuna_hold_batch_conflicts_total", "tribuna_job_queue_depth", "tribuna_job_queue_oldest_age_seconds", "tribuna_door_scans_total", "tribuna_sse_streams_open", "tribuna_db_connections", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_gc_duration_seconds"]) {
      expect(text).toContain(`# TYPE ${family} `);
    }

    await expect.poll(() => output().includes('"reqId":"e2e-ops-1"')).toBe(true);
    const line = output().split("\n").find((l) => l.includes('"reqId":"e2e-ops-1"'))!;
    expect(JSON.parse(line)).toMatchObject({ method: "POST", path: "/api/graphql", family: "graphql", operation: "SignIn", msg: "request" });
    for (const secret of ["lucia.fernandez", "ejemplo.com.ar", secretToken, "contraseña-e2e-secreta"]) expect(output()).not.toContain(secret);

    // SIGTERM: during the grace period /readyz says 503 while the process still answers; then it exits 0.
    process.kill(started.pid!, "SIGTERM");
    await expect.poll(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status ?? 0, { timeout: 1400, intervals: [100] }).toBe(503);
    expect(await exited).toBe(0);
    expect((output().match(/"msg":"Apagado limpio"/g) ?? []).length).toBe(2);
  } finally {
    processes.endGroup();
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end({ timeout: 5 });
  }
});

test("SIGTERM three times in a rush on two workers: every order consistent, no job left claimed, exit 0 each time", async () => {
  test.setTimeout(300_000);
  const output = await processes.runCrashTest(["--kills", "3", "--signal", "SIGTERM", "--workers", "2"], "crash-test-sigterm");
  expect(output).toMatch(/SIGTERM 3: salió con código 0/);
  expect(output).toContain("ningún pago aprobado perdido");
});
