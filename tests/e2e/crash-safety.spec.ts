import { expect, test } from "@playwright/test";
import { processGroupPerTest } from "./processes";

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
const processes = processGroupPerTest();

test("kill -9 five times in a rush of purchases, payment notifications and outgoing webhooks: no oversell, holds back once, ledger = billings = tickets, no lost payment, every sale announced", async () => {
  test.setTimeout(300_000);
  const output = await processes.runCrashTest(["--kills", "5"], "crash-test");
  expect(output).toContain("ningún pago aprobado perdido");
  expect(output).toMatch(/después del corte 5/);
});
