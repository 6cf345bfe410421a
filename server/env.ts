import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { currentRequestOrigin } from "./http/request-origin";

/**
 * Environment, parsed once at start-up. A wrong value stops the server with a
 * clear message instead of failing later in the middle of a request.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().positive().default(3000),
  APP_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().optional(),
  /**
   * The connection that LISTENs for changes from the other processes (server/db/notify.ts): a direct one to
   * PostgreSQL when DATABASE_URL goes through PgBouncer in transaction mode, which cannot carry LISTEN.
   * Default: DATABASE_URL.
   */
  DATABASE_LISTEN_URL: z.string().url().optional(),
  DATABASE_PREPARED_STATEMENTS: z.enum(["true", "false"]).optional(),
  DATA_DIR: z.string().default(".data"),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET debe tener al menos 32 caracteres").optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default("Tribuna <no-responder@tribuna.ar>"),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  MERCADOPAGO_PUBLIC_KEY: z.string().optional(),
  MERCADOPAGO_ACCESS_TOKEN: z.string().optional(),
  MERCADOPAGO_WEBHOOK_SECRET: z.string().optional(),
  /** `true`: simulated payments (the sandbox) even in production; `false`: never the sandbox. */
  PAYMENTS_SANDBOX: z.enum(["true", "false"]).optional(),
  /** The marketplace application (OAuth): organizers connect their own Mercado Pago account with it. */
  MERCADOPAGO_CLIENT_ID: z.string().optional(),
  MERCADOPAGO_CLIENT_SECRET: z.string().optional(),
  SENTRY_DSN: z.string().url().optional(),
  POSTHOG_KEY: z.string().optional(),
  POSTHOG_HOST: z.string().url().default("https://us.i.posthog.com"),
  SEED_DEMO: z.enum(["true", "false"]).default("true"),
  SECURE_COOKIES: z.enum(["true", "false"]).optional(),
  /** Shows /dev/correos (the email log) in production too; end-to-end runs against a build use it. */
  ENABLE_DEV_MAILBOX: z.enum(["true", "false"]).optional(),
  /** `true` behind a proxy that sets X-Forwarded-For (server.ts reads the client address from it). */
  TRUST_PROXY: z.enum(["true", "false"]).optional(),
  /** The platform's IVA condition: the letter of our invoices (docs/invoicing.md) and the price without national taxes buyers see (docs/prices.md). */
  PLATFORM_IVA_CONDITION: z.enum(["RESPONSABLE_INSCRIPTO", "MONOTRIBUTO", "EXENTO"]).default("RESPONSABLE_INSCRIPTO"),
  /**
   * Electronic invoicing of our service charge with ARCA (docs/invoicing.md): off unless CUIT, point of sale,
   * certificate and key are all set. Certificate and key: the PEM text itself or the path of a file holding it.
   */
  /** Default: homologacion (ARCA's test service). */
  ARCA_ENVIRONMENT: z.enum(["homologacion", "produccion"]).optional(),
  ARCA_CUIT: z.string().regex(/^\d{2}-?\d{8}-?\d$/, "ARCA_CUIT debe ser un CUIT de 11 dígitos").optional(),
  ARCA_POINT_OF_SALE: z.coerce.number().int().min(1).max(99_999).optional(),
  ARCA_CERT: z.string().optional(),
  ARCA_KEY: z.string().optional(),
  /** How long one request to ARCA may take before it is given up and asked about on the retry (ms; default 30000). */
  ARCA_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  /** What the printed invoice says of its issuer (docs/invoicing.md): razón social, domicilio comercial, ingresos brutos, inicio de actividades (dd/mm/aaaa). */
  PLATFORM_LEGAL_NAME: z.string().trim().min(1).optional(),
  PLATFORM_ADDRESS: z.string().trim().min(1).optional(),
  PLATFORM_GROSS_INCOME: z.string().trim().min(1).optional(),
  PLATFORM_ACTIVITY_START: z
    .string()
    .regex(/^\d{2}\/\d{2}\/\d{4}$/, "PLATFORM_ACTIVITY_START debe ser una fecha dd/mm/aaaa")
    .optional(),
  /** Apple Wallet passes (docs/wallet.md): all six or none; PEM values may carry their line breaks as `\n`. */
  APPLE_PASS_TEAM_ID: z.string().optional(),
  APPLE_PASS_TYPE_ID: z.string().optional(),
  APPLE_PASS_SIGNER_CERT: z.string().optional(),
  APPLE_PASS_SIGNER_KEY: z.string().optional(),
  APPLE_PASS_SIGNER_KEY_PASSPHRASE: z.string().optional(),
  APPLE_PASS_WWDR_CERT: z.string().optional(),
  /** Google Wallet passes (docs/wallet.md): the issuer id and the service account's email and private key (PEM). */
  GOOGLE_WALLET_ISSUER_ID: z.string().optional(),
  GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: z.string().email().optional(),
  GOOGLE_WALLET_PRIVATE_KEY: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The environment `variables` describe, or an error naming every wrong variable. */
export function parseEnv(variables: Record<string, string | undefined>): Env {
  // Empty strings from shells and CI mean "not set".
  const raw = Object.fromEntries(
    Object.entries(variables).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Variables de entorno inválidas:\n${problems.join("\n")}`);
  }
  return parsed.data;
}

/** Where the process LISTENs for changes from the others: DATABASE_LISTEN_URL, else DATABASE_URL (docs/scaling.md). */
export function listenDatabaseUrl(e: Env = env()): string | undefined {
  return e.DATABASE_LISTEN_URL ?? e.DATABASE_URL;
}

/**
 * Without AUTH_SECRET (a laptop running `npm start`), a random secret is made
 * once and kept under the data folder, so sessions survive restarts.
 */
let generatedSecret: string | undefined;
export function authSecret(): string {
  const value = env().AUTH_SECRET;
  if (value) return value;
  if (generatedSecret) return generatedSecret;
  const dir = path.resolve(env().DATA_DIR);
  const file = path.join(dir, "auth-secret");
  if (fs.existsSync(file)) {
    generatedSecret = fs.readFileSync(file, "utf8").trim();
  } else {
    fs.mkdirSync(dir, { recursive: true });
    generatedSecret = crypto.randomBytes(48).toString("base64url");
    fs.writeFileSync(file, generatedSecret, { mode: 0o600 });
  }
  return generatedSecret;
}

/**
 * How payments run (decision 102, fail closed): real Mercado Pago with its
 * token; the local sandbox only when asked for (PAYMENTS_SANDBOX=true), in
 * development and tests, or on the embedded database (the `npm start` demo).
 * A production server on PostgreSQL with neither is "misconfigured": it
 * refuses to start (startupProblems) rather than give tickets away.
 */
export type PaymentsMode = "mercadopago" | "sandbox" | "misconfigured";

export function paymentsMode(e: Env = env()): PaymentsMode {
  if (e.PAYMENTS_SANDBOX === "true") return "sandbox";
  if (e.MERCADOPAGO_ACCESS_TOKEN) return "mercadopago";
  if (e.PAYMENTS_SANDBOX !== "false" && (e.NODE_ENV !== "production" || !e.DATABASE_URL)) return "sandbox";
  return "misconfigured";
}

/**
 * What stops a server from starting: one message per problem, in Spanish,
 * naming the variables and what each does. Empty for the embedded demo.
 */
export function startupProblems(e: Env = env()): string[] {
  const problems: string[] = [];
  if (paymentsMode(e) === "misconfigured") {
    problems.push(
      [
        "No hay cómo cobrar: en producción con DATABASE_URL definí una de estas dos variables.",
        "  MERCADOPAGO_ACCESS_TOKEN: el token de acceso de la cuenta de Mercado Pago de la plataforma (cobros reales).",
        "  PAYMENTS_SANDBOX=true: pagos simulados (\"Modo de prueba\"): nadie paga de verdad y cualquiera puede aprobar su compra; solo para demos y pruebas.",
      ].join("\n"),
    );
  }
  if (e.NODE_ENV === "production" && paymentsMode(e) === "mercadopago" && !e.MERCADOPAGO_WEBHOOK_SECRET) {
    problems.push(
      "Falta MERCADOPAGO_WEBHOOK_SECRET (la clave secreta de las notificaciones, en el panel de Mercado Pago): sin ella toda notificación de pago se rechaza y ninguna compra se confirma.",
    );
  }
  if (e.NODE_ENV === "production" && e.DATABASE_URL && !e.AUTH_SECRET) {
    problems.push(
      "Falta AUTH_SECRET (al menos 32 caracteres, el mismo en todas las réplicas): firma las sesiones. Sin ella cada proceso inventaría la suya y las personas se quedarían sin sesión al pasar de uno a otro.",
    );
  }
  const arca = [e.ARCA_CUIT, e.ARCA_POINT_OF_SALE, e.ARCA_CERT, e.ARCA_KEY];
  if (e.NODE_ENV === "production" && arca.some((v) => v !== undefined) && arca.some((v) => v === undefined)) {
    problems.push(
      "La facturación con ARCA está a medias: definí las cuatro variables (ARCA_CUIT, ARCA_POINT_OF_SALE, ARCA_CERT y ARCA_KEY) o ninguna (sin ellas no se emiten facturas).",
    );
  }
  return problems;
}

/**
 * The base of every link and redirect the app builds: APP_URL when set;
 * otherwise the origin of the request being served, when it is a local one
 * (a visitor on http://127.0.0.1:3000 stays there, see server/http/request-origin.ts);
 * otherwise (jobs, other hosts) http://localhost:PORT. Decision 114.
 */
export function appUrl(): string {
  return env().APP_URL ?? currentRequestOrigin() ?? `http://localhost:${env().PORT}`;
}

export function secureCookies(): boolean {
  const explicit = env().SECURE_COOKIES;
  if (explicit) return explicit === "true";
  return (env().APP_URL ?? "").startsWith("https://");
}

/** Emails really leave (SMTP_URL); without it they only reach the email log, read at /dev/correos. */
export function smtpConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

/**
 * The dev mailbox (/dev/correos) lists every email sent, sign-in links included: open outside production and
 * with ENABLE_DEV_MAILBOX=true; in production without SMTP (the `npm start` demo) also for a request from the
 * same machine (`fromLoopback`, see app/lib/dev-mailbox.server.ts), since the emails cannot be read anywhere else.
 */
export function devMailboxEnabled(options: { fromLoopback?: boolean } = {}): boolean {
  const e = env();
  if (e.NODE_ENV !== "production" || e.ENABLE_DEV_MAILBOX === "true") return true;
  if (e.ENABLE_DEV_MAILBOX === "false") return false;
  return !e.SMTP_URL && options.fromLoopback === true;
}

/** Values that may reach the browser: nothing secret ever goes here. */
export function publicEnv() {
  const e = env();
  return {
    SENTRY_DSN: e.SENTRY_DSN ?? null,
    POSTHOG_KEY: e.POSTHOG_KEY ?? null,
    MERCADOPAGO_PUBLIC_KEY: e.MERCADOPAGO_PUBLIC_KEY ?? null,
    /** Payments are simulated: every page says "Modo de prueba". */
    PAYMENTS_SANDBOX: paymentsMode(e) === "sandbox",
    GOOGLE_ENABLED: Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET),
  };
}
