import { defineConfig, devices } from "@playwright/test";
import { E2E_AUTH_SECRET, E2E_BASE_URL, E2E_DATABASE_URL, E2E_PORT } from "./tests/e2e/env";

const PORT = E2E_PORT;
const baseURL = E2E_BASE_URL;

/**
 * End-to-end tests run against the production build (`npm start`) on the
 * PostgreSQL server of E2E_DATABASE_URL, without the demo seed: each test
 * makes its own data through the fixtures (tests/e2e/fixtures.ts), which
 * write to the same database. Browser: Debian's Chromium, never a downloaded one.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // Two files at a time, each in its own browser, against the one server (decision 206): the specs that start their
  // own servers (crash-safety, operations, cross-process) spend most of their time waiting on them, and the other
  // worker runs browser specs meanwhile. Tests of one file still run in order.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    locale: "es-AR",
    timezoneId: "America/Argentina/Buenos_Aires",
    // Recording a trace costs every test ~20 % on CI's two cores (docs/benchmarks.md, "Tiempo de CI"): there the
    // retry of a failed test records one (decision 182); on a laptop every failure keeps its trace.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined } },
    // Buyers are mostly on phones: the buyer flows also run on a small screen.
    { name: "phone", testMatch: /(catalogue|checkout)\.spec\.ts/, use: { ...devices["Pixel 5"], channel: undefined } },
  ],
  webServer: {
    command: "npm start",
    url: `${baseURL}/ayuda`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      APP_URL: baseURL,
      NODE_ENV: "production",
      DATABASE_URL: E2E_DATABASE_URL,
      DATA_DIR: process.env.E2E_DATA_DIR ?? ".data/e2e",
      AUTH_SECRET: E2E_AUTH_SECRET,
      SEED_DEMO: "false",
      // Production on PostgreSQL: simulated payments only because we ask for them (the sandbox pages and "Modo de prueba").
      PAYMENTS_SANDBOX: "true",
      // No SMTP and no ENABLE_DEV_MAILBOX: the mailbox opens because the browser is on this same machine, as
      // with `npm start` on a laptop (decision 114); every spec that reads an email proves that default.
      SMTP_URL: "",
      ENABLE_DEV_MAILBOX: "",
      // One JSON line per request would bury the test report; warnings and errors still show.
      LOG_LEVEL: "warn",
    },
  },
});
