import crypto from "node:crypto";
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
