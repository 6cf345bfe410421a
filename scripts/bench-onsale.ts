/**
 * `npm run bench:onsale`: the on-sale rush, measured. Not a test.
 *
 * 1. Creates a fresh database on the PostgreSQL server (DATABASE_URL, default
 *    postgres://postgres@127.0.0.1:5432/test → `tribuna_bench_<timestamp>`),
 *    applies the migrations and creates, through the domain functions, one
 *    organization and one published event with a ticket type of little stock.
 * 2. Starts the real app (the compiled server, as `npm start` runs it) against it on a
 *    free port, with the job queue off (no hold expires during the run).
 * 3. Fires N anonymous buyers, at most C at a time, each doing one
 *    `createOrder` over HTTP POST /api/graphql, and times every request.
 * 4. Checks the database: held quantities against the stock and against
 *    `ticket_types.sold`. Oversold = max(0, held − stock) must be 0.
 *
 * Prints a table (and with --json one JSON line). Exit code 1 when anything
 * was oversold, the counters disagree, or a request failed in an unexpected
 * way (anything but a hold or a CONFLICT). The database is dropped at the end
 * unless --keep. Figures and how to read them: docs/benchmarks.md.
 *
 *   npm run bench:onsale -- --buyers 500 --concurrency 100 --stock 50 [--qty 1] [--keep] [--json]
 */
import { spawn, execSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { benchAppEnv, freePort } from "./bench-support";
import type { Ctx } from "#server/context";

const HELP = `Uso: npm run bench:onsale -- [opciones]

  --buyers N        compradores, uno por pedido createOrder (500)
  --concurrency C   pedidos en vuelo a la vez (100)
  --stock S         stock del único tipo de entrada (50)
  --qty Q           entradas por compra (1)
  --keep            no borrar la base tribuna_bench_… al terminar
  --json            además, una línea JSON con los resultados
  --verbose         mostrar la salida del servidor

DATABASE_URL elige el servidor PostgreSQL (por defecto postgres://postgres@127.0.0.1:5432/test);
la base del benchmark se crea y se borra en ese servidor.`;

const { values: flags } = parseArgs({
  options: {
    buyers: { type: "string", default: "500" },
    concurrency: { type: "string", default: "100" },
    stock: { type: "string", default: "50" },
    qty: { type: "string", default: "1" },
    keep: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (flags.help) {
  console.log(HELP);
  process.exit(0);
}

function positiveInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} tiene que ser un entero positivo (recibí "${raw}").`);
    process.exit(2);
  }
  return n;
}
const BUYERS = positiveInt("buyers", flags.buyers!);
const CONCURRENCY = Math.min(positiveInt("concurrency", flags.concurrency!), BUYERS);
const STOCK = positiveInt("stock", flags.stock!);
const QTY = positiveInt("qty", flags.qty!);
if (QTY > 10) {
  console.error("--qty puede ser a lo sumo 10 (el máximo por compra del tipo de entrada).");
  process.exit(2);
}

const ROOT = path.resolve(import.meta.dirname, "..");
const ADMIN_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const DB_NAME = `tribuna_bench_${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}_${crypto.randomBytes(2).toString("hex")}`;
const BENCH_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

const log = (message: string) => console.error(`· ${message}`);

// ---------------------------------------------------------------- cleanup

let app: ChildProcess | null = null;
let appLog = "";
let dbCreated = false;
let closeBenchDb: (() => Promise<void>) | null = null;

async function stopApp() {
  const child = app;
  app = null;
  if (!child || child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // The app runs in its own process group: end that group only.
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
  }, 8_000);
  await exited;
  clearTimeout(timer);
}

async function cleanup() {
  await stopApp();
  await closeBenchDb?.().catch(() => {});
  closeBenchDb = null;
  if (dbCreated && !flags.keep) {
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
      log(`Base ${DB_NAME} borrada.`);
    } catch (error) {
      console.error(`No pude borrar la base ${DB_NAME}: ${(error as Error).message}`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    dbCreated = false;
  } else if (dbCreated) {
    log(`Base conservada (--keep): ${BENCH_URL}`);
  }
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\nInterrumpido (${signal}): limpiando…`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------- helpers

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");

async function waitForApp(baseUrl: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!app || app.exitCode !== null) throw new Error(`La app terminó antes de responder:\n${appLog.slice(-4000)}`);
    try {
      const res = await fetch(`${baseUrl}/api/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ __typename }" }),
        signal: AbortSignal.timeout(2_000),
      });
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`La app no respondió en ${timeoutMs / 1000} s:\n${appLog.slice(-4000)}`);
}

const CREATE_ORDER = /* GraphQL */ `
  mutation CreateOrder($input: CreateOrderInput!) {
    createOrder(input: $input) {
      billingId
      order { id status items { ticketId qty } }
    }
  }
`;

// Names take letters only (the payer's name rule): buyers differ by email and DNI.
const FIRST_NAMES = ["Sofía", "Mateo", "Valentina", "Joaquín", "Martina", "Benjamín", "Catalina", "Thiago", "Lucía", "Santino"];
const LAST_NAMES = ["González", "Rodríguez", "Fernández", "López", "Martínez", "Pérez", "Gómez", "Díaz", "Romero", "Sosa"];

type Outcome = "held" | "conflict" | "error";
interface Sample {
  ms: number;
  /** When the answer arrived, ms from the start of the rush. */
  at?: number;
  outcome: Outcome;
  detail?: string;
}

async function buy(baseUrl: string, eventSlug: string, ticketId: string, i: number): Promise<Sample> {
  const payer = {
    firstName: FIRST_NAMES[i % FIRST_NAMES.length],
    lastName: LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length],
    email: `comprador${i + 1}@bench.tribuna.ar`,
    documentType: "dni",
    documentNumber: String(20_000_000 + i),
    phoneNumber: "+5491155551234",
  };
  const body = JSON.stringify({
    query: CREATE_ORDER,
    variables: { input: { eventSlug, items: [{ ticketId, qty: QTY }], payer, paymentMethod: "MERCADO_PAGO" } },
  });
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}/api/graphql`, {
      method: "POST",
      // application/json is a preflighted type: it passes the GraphQL CSRF check without tokens.
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    const elapsed = performance.now() - started;
    let json: { data?: { createOrder?: { billingId?: string } | null }; errors?: { message: string; extensions?: { code?: string; fieldErrors?: unknown } }[] };
    try {
      json = JSON.parse(text);
    } catch {
      return { ms: elapsed, outcome: "error", detail: `HTTP ${res.status}: ${text.slice(0, 120)}` };
    }
    if (json.data?.createOrder?.billingId && !json.errors?.length) return { ms: elapsed, outcome: "held" };
    const first = json.errors?.[0];
    if (first?.extensions?.code === "CONFLICT") return { ms: elapsed, outcome: "conflict" };
    return { ms: elapsed, outcome: "error", detail: `HTTP ${res.status} ${first?.extensions?.code ?? "?"}: ${first?.message ?? text.slice(0, 120)}${first?.extensions?.fieldErrors ? ` ${JSON.stringify(first.extensions.fieldErrors)}` : ""}` };
  } catch (error) {
    return { ms: performance.now() - started, outcome: "error", detail: `red: ${(error as Error).message}` };
  }
}

// ---------------------------------------------------------------- main

async function main() {
  // 0. The production build, before the clock starts (server.ts would build it too, inside the wait for it to answer).
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js")) || !fs.existsSync(path.join(ROOT, "build/serve/server.js"))) {
    log("No hay build de producción: npm run build…");
    execSync("npm run build", { cwd: ROOT, stdio: ["ignore", process.stderr, process.stderr] });
  }

  // 1. A fresh database with the migrations and one event on sale.
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  let pgVersion = "";
  try {
    [{ server_version: pgVersion }] = await admin<{ server_version: string }[]>`show server_version`;
    await admin.unsafe(`CREATE DATABASE "${DB_NAME}"`);
    dbCreated = true;
  } finally {
    await admin.end({ timeout: 5 });
  }
  log(`Base ${DB_NAME} creada en PostgreSQL ${pgVersion}.`);

  // The domain modules read the environment lazily: point them at the bench database before loading them.
  process.env.DATABASE_URL = BENCH_URL;
  const { connectPostgres, setDatabase } = await import("#server/db/client");
  const schema = await import("#server/db/schema");
  const { createOrganization } = await import("#server/organizations/organizations");
  const { acceptServiceConditions, createEvent, publishEvent, getEventForOrganizer } = await import("#server/events/events");
  const { eq, sql } = await import("drizzle-orm");

  const database = connectPostgres(BENCH_URL, { max: 2 });
  setDatabase(database);
  closeBenchDb = () => database.close();
  await database.migrate();
  const db = database.db;

  const [owner] = await db
    .insert(schema.users)
    .values({ email: `productora-${Date.now()}@bench.tribuna.ar`, firstName: "Productora", lastName: "Benchmark", roles: ["producer"] })
    .returning();
  const ctx: Ctx = { db, actor: { kind: "user", userId: owner.id, email: owner.email, roles: ["producer"] }, now: new Date(), ip: "127.0.0.1" };
  const organization = await createOrganization(ctx, { name: "Productora Benchmark", cuit: "30-71234567-1", contactEmail: "bench@productora.com.ar" });
  const startsAt = new Date(Date.now() + 30 * 86_400_000);
  const { event } = await createEvent(ctx, {
    organizationId: organization.id,
    name: "Preventa Benchmark",
    description: "Salida a la venta con poco stock.",
    category: "fiestas",
    venueName: "Estadio de prueba",
    venueAddress: "Av. Siempre Viva 742",
    city: "Buenos Aires",
    province: "AR-CF",
    dates: [{ startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 5 * 3600_000).toISOString() }],
    ticketTypes: [{ name: "General", price: 1_500_000, stock: STOCK }],
  });
  await acceptServiceConditions(ctx, { eventId: event.id });
  await publishEvent(ctx, { id: event.id });
  const { tickets } = await getEventForOrganizer(ctx, event.id);
  const ticket = tickets[0];
  log(`Evento «${event.name}» (${event.slug}) publicado: «${ticket.name}» con stock ${STOCK}.`);

  // 2. The real app on a free port.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const childEnv = benchAppEnv({ port, databaseUrl: BENCH_URL, databaseName: DB_NAME, seedDemo: false });
  app = spawn(process.execPath, ["build/serve/server.js"], { cwd: ROOT, env: childEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const keepLog = (chunk: Buffer) => {
    appLog = (appLog + chunk.toString()).slice(-20_000);
    if (flags.verbose) process.stderr.write(chunk);
  };
  app.stdout!.on("data", keepLog);
  app.stderr!.on("data", keepLog);
  const bootStarted = performance.now();
  await waitForApp(baseUrl, 120_000);
  log(`App lista en ${baseUrl} (${((performance.now() - bootStarted) / 1000).toFixed(1)} s).`);

  // Warm-up that holds nothing: the first requests pay for loading modules and opening connections.
  const warmQuery = JSON.stringify({ query: "query($slug: String!) { event(slug: $slug) { id ticketTypes { id available } } }", variables: { slug: event.slug } });
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, 20) }, () =>
      fetch(`${baseUrl}/api/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: warmQuery }).then((r) => r.text()),
    ),
  );

  // 3. The rush.
  log(`${BUYERS} compradores, ${CONCURRENCY} a la vez, ${QTY} entrada(s) cada uno…`);
  const samples: Sample[] = new Array(BUYERS);
  let next = 0;
  const load1 = os.loadavg()[0];
  // The server's memory during the rush (Linux: /proc; elsewhere the line says "–").
  let appRssMaxMiB = 0;
  const rssSampler = setInterval(() => {
    try {
      const kib = Number(fs.readFileSync(`/proc/${app?.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
      appRssMaxMiB = Math.max(appRssMaxMiB, Math.round(kib / 1024));
    } catch {
      /* not Linux, or the process is gone */
    }
  }, 100);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < BUYERS) {
        const i = next++;
        samples[i] = await buy(baseUrl, event.slug, ticket.id, i);
        samples[i].at = performance.now() - started;
      }
    }),
  );
  const durationMs = performance.now() - started;
  clearInterval(rssSampler);

  // 4. The ceiling on the same PostgreSQL, at the same concurrency as the app's pool (it never has more
  //    statements in flight than that): a one-row conditional UPDATE loop straight through `postgres`, each
  //    its own transaction, with stock that never runs out. What one hot row allows, with no app around it.
  const ceiling = await measureCeiling(BENCH_URL, APP_POOL, Math.max(BUYERS, 2_000), QTY);

  // 5. What the database says.
  const [row] = await db
    .select({
      stock: schema.ticketTypes.stock,
      sold: schema.ticketTypes.sold,
      // Every order that still holds stock (nothing expires during the run: JOBS=off).
      held: sql<string>`(select coalesce(sum(oi.qty), 0) from order_items oi join orders o on o.id = oi.order_id
        where oi.ticket_type_id = ${ticket.id} and o.status in ('draft', 'billed', 'orphan'))`,
      orders: sql<string>`(select count(*) from orders o where o.event_id = ${event.id} and o.status in ('draft', 'billed', 'orphan'))`,
    })
    .from(schema.ticketTypes)
    .where(eq(schema.ticketTypes.id, ticket.id));
  const heldInDb = Number(row.held ?? 0);
  const ordersInDb = Number(row.orders);
  const oversold = Math.max(0, heldInDb - row.stock);

  const held = samples.filter((s) => s.outcome === "held").length;
  const refused = samples.filter((s) => s.outcome === "conflict").length;
  const errors = samples.filter((s) => s.outcome === "error");
  const all = samples.map((s) => s.ms).sort((a, b) => a - b);
  const heldMs = samples.filter((s) => s.outcome === "held").map((s) => s.ms).sort((a, b) => a - b);
  const seconds = durationMs / 1000;
  // The last successful hold: from then on every buyer is refused (sold out).
  const lastHoldMs = Math.max(0, ...samples.filter((s) => s.outcome === "held").map((s) => s.at ?? 0));

  const problems: string[] = [];
  if (oversold > 0) problems.push(`SOBREVENTA: ${heldInDb} entradas reservadas con stock ${row.stock}.`);
  if (row.sold !== heldInDb) problems.push(`ticket_types.sold (${row.sold}) no coincide con lo reservado en órdenes (${heldInDb}).`);
  if (ordersInDb !== held) problems.push(`La base tiene ${ordersInDb} órdenes y la API respondió ${held} reservas.`);
  if (errors.length) {
    const kinds = new Map<string, number>();
    for (const e of errors) kinds.set(e.detail ?? "?", (kinds.get(e.detail ?? "?") ?? 0) + 1);
    problems.push(`${errors.length} errores inesperados: ${[...kinds].slice(0, 5).map(([k, n]) => `${n}× ${k}`).join("; ")}`);
  }
  const demand = BUYERS * QTY;
  const expectedHeld = Math.min(Math.floor(STOCK / QTY), BUYERS);
  const notes: string[] = [];
  if (demand > STOCK && held < expectedHeld && !errors.length) notes.push(`Quedaron ${row.stock - row.sold} entradas sin vender aunque hubo rechazos.`);

  const holdsWhileStockLasts = lastHoldMs ? held / (lastHoldMs / 1000) : held / seconds;
  const ratio = holdsWhileStockLasts / ceiling.perSecond;
  const rows: [string, string][] = [
    ["compradores", String(BUYERS)],
    ["concurrencia", String(CONCURRENCY)],
    ["stock / entradas por compra", `${STOCK} / ${QTY}`],
    ["duración", `${seconds.toFixed(2)} s`],
    ["pedidos/s (todos)", (BUYERS / seconds).toFixed(1)],
    ["reservas/s (exitosas)", `${(held / seconds).toFixed(1)} (${lastHoldMs ? (held / (lastHoldMs / 1000)).toFixed(1) : "–"} hasta la última)`],
    ["última reserva", held ? `a los ${(lastHoldMs / 1000).toFixed(2)} s` : "–"],
    ["latencia p50 / p95 / p99", `${ms(percentile(all, 50))} / ${ms(percentile(all, 95))} / ${ms(percentile(all, 99))} ms`],
    ["latencia p50 / p95 reservas", `${ms(percentile(heldMs, 50))} / ${ms(percentile(heldMs, 95))} ms`],
    ["latencia máx", `${ms(all[all.length - 1])} ms`],
    ["reservadas (held)", `${held} órdenes, ${heldInDb} entradas`],
    ["rechazadas (CONFLICT)", String(refused)],
    ["errores", String(errors.length)],
    ["ticket_types.sold / stock", `${row.sold} / ${row.stock}`],
    ["sobreventa (oversold)", String(oversold)],
    ["techo: UPDATE condicional pelado", `${ceiling.perSecond.toFixed(1)}/s (${ceiling.connections} conexiones, ${ceiling.updates} UPDATE)`],
    ["reservas/s mientras hay stock ÷ techo", `${ratio.toFixed(2)} × (objetivo ≥ 0,5)`],
    ["memoria del servidor (RSS máx.)", appRssMaxMiB ? `${appRssMaxMiB} MiB` : "–"],
  ];
  const machine = {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model?.trim() ?? "?",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: pgVersion,
    loadavg1AtStart: Number(load1.toFixed(2)),
  };
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log("\nBenchmark de salida a la venta (createOrder por HTTP)");
  console.log("─".repeat(width + 30));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  console.log("─".repeat(width + 30));
  console.log(`máquina: ${machine.cpus} CPU (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, PostgreSQL ${machine.postgres}, carga al empezar ${machine.loadavg1AtStart}`);
  for (const n of notes) console.log(`nota: ${n}`);
  for (const p of problems) console.log(`PROBLEMA: ${p}`);
  console.log(problems.length ? "RESULTADO: FALLÓ" : "RESULTADO: OK (sin sobreventa)");
  if (flags.json) {
    console.log(
      JSON.stringify({
        buyers: BUYERS,
        concurrency: CONCURRENCY,
        stock: STOCK,
        qty: QTY,
        durationMs: Math.round(durationMs),
        requestsPerSecond: Number((BUYERS / seconds).toFixed(1)),
        holdsPerSecond: Number((held / seconds).toFixed(1)),
        lastHoldMs: Math.round(lastHoldMs),
        p50: Number(percentile(all, 50).toFixed(1)),
        p95: Number(percentile(all, 95).toFixed(1)),
        p99: Number(percentile(all, 99).toFixed(1)),
        held,
        heldTickets: heldInDb,
        refused,
        errors: errors.length,
        sold: row.sold,
        oversold,
        ceilingPerSecond: Number(ceiling.perSecond.toFixed(1)),
        holdsWhileStockLasts: Number(holdsWhileStockLasts.toFixed(1)),
        ratioToCeiling: Number(ratio.toFixed(3)),
        appRssMaxMiB,
        ok: problems.length === 0,
        machine,
      }),
    );
  }
  return problems.length ? 1 : 0;
}

/** The app's PostgreSQL pool (server/db/client.ts connectPostgres): how many statements it can have in flight. */
const APP_POOL = 10;

/** Successful one-row conditional UPDATEs per second, `connections` loops at once, stock that never runs out. */
async function measureCeiling(url: string, connections: number, updates: number, qty: number) {
  const sql = postgres(url, { max: connections, onnotice: () => {} });
  try {
    await sql`create table bench_ceiling (id int primary key, stock int not null, sold int not null)`;
    await sql`insert into bench_ceiling values (1, ${updates * qty * 2}, 0)`;
    // Warm every connection first, like the app's warm-up.
    await Promise.all(Array.from({ length: connections }, () => sql`select 1`));
    let left = updates;
    let succeeded = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (left-- > 0) {
          const rows = await sql`update bench_ceiling set sold = sold + ${qty} where id = 1 and sold + ${qty} <= stock returning sold`;
          succeeded += rows.length;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: succeeded / seconds, connections, updates };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`El benchmark no pudo correr: ${(error as Error).stack ?? error}`);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
