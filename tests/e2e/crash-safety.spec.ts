import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE_URL } from "./env";

/**
 * Crash safety (decision 118): `scripts/crash-test.ts` (also `npm run crash-test`) runs the production build on its own
 * port and its own database (created next to the e2e one, dropped at the end), kills it with SIGKILL five times in
 * the middle of a rush of purchases, payments and webhook deliveries, restarts it, and checks with SQL: no oversell,
 * holds given back exactly once, ledger = billings = issued tickets, no lost approved payment, and integrators hear
 * about every sale (one `order.paid` per order with tickets, each received correctly signed by a receiver that
 * refused some during the rush). It does not use the
 * suite's server nor the demo seed. It runs as a child process in its own process group, so the servers it starts
 * go with it, whatever happens here.
 */
let child: ChildProcess | null = null;

function endGroup() {
  const pid = child?.pid;
  if (!pid || child?.exitCode !== null || child?.signalCode !== null) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    /* already gone */
  }
}

test.afterEach(() => {
  endGroup();
  child = null;
});

test("kill -9 five times in a rush of purchases, payment notifications and outgoing webhooks: no oversell, holds back once, ledger = billings = tickets, no lost payment, every sale announced", async () => {
  test.setTimeout(300_000);
  let output = "";
  const started = spawn(process.execPath, ["--import", "tsx", "scripts/crash-test.ts", "--kills", "5"], {
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = started;
  started.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => started.once("exit", (exitCode) => resolve(exitCode)));
  await test.info().attach("crash-test", { body: output, contentType: "text/plain" });
  // What it checked, in the CI log.
  const summary = output.indexOf("Qué comprobó");
  console.log(summary >= 0 ? output.slice(summary) : output.slice(-4_000));
  expect(code, output.slice(-8_000)).toBe(0);
  expect(output).toContain("ningún pago aprobado perdido");
  expect(output).toMatch(/después del corte 5/);
});
