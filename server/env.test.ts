import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { listenDatabaseUrl, paymentsMode, parseEnv, startupProblems, type Env } from "./env";

const exec = promisify(execFile);

const base: Env = { NODE_ENV: "production", PORT: 3000, DATA_DIR: ".data", MAIL_FROM: "x", POSTHOG_HOST: "https://x", SEED_DEMO: "true", PLATFORM_IVA_CONDITION: "RESPONSABLE_INSCRIPTO" };
const POSTGRES = "postgres://tribuna@db.internal:5432/tribuna";
const SECRET = "s".repeat(40);

describe("payments fail closed (decision 102)", () => {
  it("simulated payments only when asked for, in development and tests, or on the embedded demo", () => {
    expect(paymentsMode({ ...base })).toBe("sandbox"); // npm start on a laptop: embedded database
    expect(paymentsMode({ ...base, NODE_ENV: "development", DATABASE_URL: POSTGRES })).toBe("sandbox");
    expect(paymentsMode({ ...base, NODE_ENV: "test", DATABASE_URL: POSTGRES })).toBe("sandbox");
    expect(paymentsMode({ ...base, DATABASE_URL: POSTGRES, PAYMENTS_SANDBOX: "true" })).toBe("sandbox");
    expect(paymentsMode({ ...base, DATABASE_URL: POSTGRES, MERCADOPAGO_ACCESS_TOKEN: "APP_USR-1" })).toBe("mercadopago");
    // A real deployment that forgot the token: never the sandbox.
    expect(paymentsMode({ ...base, DATABASE_URL: POSTGRES })).toBe("misconfigured");
    expect(paymentsMode({ ...base, NODE_ENV: "development", PAYMENTS_SANDBOX: "false" })).toBe("misconfigured");
  });

  it("a production server on PostgreSQL without a way to charge or without AUTH_SECRET has problems; the embedded demo has none", () => {
    expect(startupProblems({ ...base })).toEqual([]);
    expect(startupProblems({ ...base, DATABASE_URL: POSTGRES, MERCADOPAGO_ACCESS_TOKEN: "APP_USR-1", MERCADOPAGO_WEBHOOK_SECRET: "w", AUTH_SECRET: SECRET })).toEqual([]);
    // Real payments whose notifications could never be verified: no purchase would ever be confirmed.
    expect(startupProblems({ ...base, DATABASE_URL: POSTGRES, MERCADOPAGO_ACCESS_TOKEN: "APP_USR-1", AUTH_SECRET: SECRET })[0]).toContain("MERCADOPAGO_WEBHOOK_SECRET");
    expect(startupProblems({ ...base, DATABASE_URL: POSTGRES, PAYMENTS_SANDBOX: "true", AUTH_SECRET: SECRET })).toEqual([]);
    const [payments, secret] = startupProblems({ ...base, DATABASE_URL: POSTGRES });
    expect(payments).toContain("MERCADOPAGO_ACCESS_TOKEN");
    expect(payments).toContain("PAYMENTS_SANDBOX=true");
    expect(secret).toContain("AUTH_SECRET");
  });

  it("the real server refuses to start, before building or touching a database, with one message naming both variables", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATABASE_URL: "postgres://nadie@127.0.0.1:1/ninguna", AUTH_SECRET: SECRET, PORT: "3999" };
    for (const key of ["MERCADOPAGO_ACCESS_TOKEN", "PAYMENTS_SANDBOX", "VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID"]) delete env[key];
    const failure = await exec(process.execPath, ["--import", "tsx", "server.ts"], { env, timeout: 30_000 }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain("Tribuna no arranca");
    expect(failure?.stderr).toContain("MERCADOPAGO_ACCESS_TOKEN");
    expect(failure?.stderr).toContain("PAYMENTS_SANDBOX=true");
  }, 40_000);
});

describe("the listening connection (DATABASE_LISTEN_URL, docs/scaling.md)", () => {
  const DIRECT = "postgres://tribuna@db-directo.internal:5432/tribuna";

  it("listens through DATABASE_LISTEN_URL when set (a direct connection behind PgBouncer), else through DATABASE_URL", () => {
    expect(listenDatabaseUrl(parseEnv({ DATABASE_URL: POSTGRES, DATABASE_LISTEN_URL: DIRECT }))).toBe(DIRECT);
    expect(listenDatabaseUrl(parseEnv({ DATABASE_URL: POSTGRES }))).toBe(POSTGRES);
    // Empty, as shells and CI leave it: not set.
    expect(listenDatabaseUrl(parseEnv({ DATABASE_URL: POSTGRES, DATABASE_LISTEN_URL: "" }))).toBe(POSTGRES);
    expect(listenDatabaseUrl(parseEnv({}))).toBeUndefined();
  });

  it("a DATABASE_LISTEN_URL that is no URL stops the server with a message naming it", () => {
    expect(() => parseEnv({ DATABASE_URL: POSTGRES, DATABASE_LISTEN_URL: "db-directo" })).toThrow(/Variables de entorno inválidas:\n {2}DATABASE_LISTEN_URL: /);
  });
});

describe("PLATFORM_IVA_CONDITION (docs/prices.md)", () => {
  it("is Responsable Inscripto unless set, takes the three conditions and refuses anything else", () => {
    expect(parseEnv({}).PLATFORM_IVA_CONDITION).toBe("RESPONSABLE_INSCRIPTO");
    expect(parseEnv({ PLATFORM_IVA_CONDITION: "MONOTRIBUTO" }).PLATFORM_IVA_CONDITION).toBe("MONOTRIBUTO");
    expect(parseEnv({ PLATFORM_IVA_CONDITION: "EXENTO" }).PLATFORM_IVA_CONDITION).toBe("EXENTO");
    expect(() => parseEnv({ PLATFORM_IVA_CONDITION: "inscripto" })).toThrow(/PLATFORM_IVA_CONDITION/);
  });
});
