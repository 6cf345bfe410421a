/**
 * `npm run bench:onsale`: the on-sale rush, measured. Not a test.
 *
 * 1. Creates a fresh database on the PostgreSQL server (DATABASE_URL, default
 *    postgres://postgres@127.0.0.1:5432/test → `tribuna_bench_<timestamp>`),
 *    applies the migrations and creates, through the domain functions, one
 *    organization and one published event with a ticket type of little stock.
 * 2. Starts the real app (the compiled server, as `npm start` runs it) against it on a
 *    free port (holds last 15 minutes: none expires during the run on its own), and
 *    warms it up with --warm-up orders on another event at the same concurrency.
 * 3. Measures the ceiling (a bare one-row conditional UPDATE loop), fires N
 *    anonymous buyers, at most C at a time, each doing one `createOrder` over
 *    HTTP POST /api/graphql, times every request, and measures the ceiling again.
 * 4. Checks the database: held quantities against the stock and against
 *    `ticket_types.sold`. Oversold = max(0, held − stock) must be 0. Then the
 *    guarantees with every process at once (payments notified twice, expiries,
 *    the sign-in rate limit).
 *
 * Prints a table (and with --json one JSON line). Exit code 1 when anything
 * was oversold, the counters disagree, or a request failed in an unexpected
 * way (anything but a hold or a CONFLICT). The database is dropped at the end
 * unless --keep. Figures and how to read them: docs/benchmarks.md.
 *
 * `--workers N` runs each app as `npm start` does with WEB_CONCURRENCY=N: N worker processes on one port
 * (node:cluster); its CPU and memory are the workers' together.
 *
 *   npm run bench:onsale -- --buyers 500 --concurrency 100 --stock 50 [--qty 1] [--workers 2] [--keep] [--json]
 */
import { spawn, execSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { benchAppEnv, freePort, machineLoad, positiveInt, serverNodeFlags } from "./bench-support";
import { rawHttpClient } from "./bench-http-client";
import type { Ctx } from "#server/context";

const HELP = `Uso: npm run bench:onsale -- [opciones]

  --buyers N        compradores, uno por pedido createOrder (500)
  --concurrency C   pedidos en vuelo a la vez (100)
  --stock S         stock del único tipo de entrada (50)
  --qty Q           entradas por compra (1)
  --processes P     procesos de la app sobre la misma base; los compradores se reparten entre ellos (1)
  --workers N       cada app con N workers en un solo puerto, como npm start con WEB_CONCURRENCY=N (1)
  --warm-up W       compras de calentamiento por proceso, en otro evento y con la misma concurrencia, antes de
                    la ráfaga (3000): un proceso recién arrancado todavía está compilando el camino caliente
  --keep            no borrar la base tribuna_bench_… al terminar
  --json            además, una línea JSON con los resultados
  --verbose         mostrar la salida del servidor
  --cpu-prof DIR    perfil de CPU de cada proceso de la app (.cpuprofile en DIR, para Chrome DevTools)

DATABASE_URL elige el servidor PostgreSQL (por defecto postgres://postgres@127.0.0.1:5432/test);
la base del benchmark se crea y se borra en ese servidor.`;

const { values: flags } = parseArgs({
  options: {
    buyers: { type: "string", default: "500" },
    concurrency: { type: "string", default: "100" },
    stock: { type: "string", default: "50" },
    qty: { type: "string", default: "1" },
    processes: { type: "string", default: "1" },
    workers: { type: "string", default: "1" },
    "warm-up": { type: "string", default: "3000" },
    keep: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (flags.help) {
  console.log(HELP);
  process.exit(0);
}

/** Below these, the sale is over before holds/s means a rate (see ratioMeasurable). */
const MIN_BATCHES_FOR_RATIO = 5;
const MIN_SALE_MS_FOR_RATIO = 500;

const BUYERS = positiveInt("buyers", flags.buyers!);
const CONCURRENCY = Math.min(positiveInt("concurrency", flags.concurrency!), BUYERS);
const WARM_UP = flags["warm-up"] === "0" ? 0 : positiveInt("warm-up", flags["warm-up"]!);
const STOCK = positiveInt("stock", flags.stock!);
const QTY = positiveInt("qty", flags.qty!);
const PROCESSES = positiveInt("processes", flags.processes!);
const WORKERS = positiveInt("workers", flags.workers!);
/** What each app runs: the compiled server, or with workers `npm start`'s script (its cluster mode). */
const APP_ENTRY = WORKERS > 1 ? "scripts/start.mjs" : "build/serve/server.js";
if (QTY > 10) {
  console.error("--qty puede ser a lo sumo 10 (el máximo por compra del tipo de entrada).");
  process.exit(2);
}

// Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s.
const CLOCK_TICKS = 100;
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

/** The app processes (one, or `--processes N`), each on its own port, all on the bench database. */
let apps: ChildProcess[] = [];
let appLog = "";
let dbCreated = false;
let closeBenchDb: (() => Promise<void>) | null = null;

async function stopApps() {
  for (const client of buyerClients.values()) client.close();
  buyerClients.clear();
  const running = apps;
  apps = [];
  await Promise.all(running.map(stopApp));
}

async function stopApp(child: ChildProcess) {
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
  await stopApps();
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

async function waitForApp(app: ChildProcess, baseUrl: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`La app terminó antes de responder:\n${appLog.slice(-4000)}`);
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

/** The buyers' HTTP client (./bench-http-client.ts), one per app process. */
const buyerClients = new Map<string, ReturnType<typeof rawHttpClient>>();
function postJson(baseUrl: string, path: string, body: string, timeoutMs: number) {
  let client = buyerClients.get(baseUrl);
  if (!client) {
    // application/json is a preflighted type: it passes the GraphQL CSRF check without tokens.
    client = rawHttpClient(baseUrl, { "content-type": "application/json", accept: "application/json" });
    buyerClients.set(baseUrl, client);
  }
  return client.post(path, body, timeoutMs);
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
    const res = await postJson(baseUrl, "/api/graphql", body, 60_000);
    const text = res.text;
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
  const load = machineLoad({ json: flags.json });
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
  // The processes share one AUTH_SECRET, as replicas do; this process signs the sandbox's payment notifications with it.
  const sharedSecret = crypto.randomBytes(36).toString("base64url");
  process.env.AUTH_SECRET = sharedSecret;
  process.env.PAYMENTS_SANDBOX = "true";
  delete process.env.MERCADOPAGO_WEBHOOK_SECRET;
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
  // A published event with one ticket type "General" of `stock`.
  const publishedEvent = async (name: string, description: string, stock: number) => {
    const { event } = await createEvent(ctx, {
      organizationId: organization.id,
      name,
      description,
      category: "fiestas",
      venueName: "Estadio de prueba",
      venueAddress: "Av. Siempre Viva 742",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [{ startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 5 * 3600_000).toISOString() }],
      ticketTypes: [{ name: "General", price: 1_500_000, stock }],
    });
    await acceptServiceConditions(ctx, { eventId: event.id });
    await publishEvent(ctx, { id: event.id });
    const { tickets } = await getEventForOrganizer(ctx, event.id);
    return { event, ticket: tickets[0] };
  };
  const { event, ticket } = await publishedEvent("Preventa Benchmark", "Salida a la venta con poco stock.", STOCK);
  log(`Evento «${event.name}» (${event.slug}) publicado: «${ticket.name}» con stock ${STOCK}.`);
  // A second event, only for the warm-up: its orders are not counted.
  const warm = await publishedEvent("Calentamiento Benchmark", "Compras de calentamiento.", Math.max(100_000, 2 * WARM_UP * PROCESSES * QTY));
  const warmTicket = warm.ticket;

  // 2. The real app on free ports: PROCESSES processes sharing the database (and one AUTH_SECRET, as replicas would).
  const baseUrls: string[] = [];
  for (let n = 0; n < PROCESSES; n++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const childEnv = benchAppEnv({ port, databaseUrl: BENCH_URL, databaseName: DB_NAME, seedDemo: false });
    childEnv.AUTH_SECRET = sharedSecret;
    // Every process runs the job queue, as replicas would: the guarantees below check they never run a job twice.
    // (Holds last 15 minutes: none expires during the rush on its own.)
    delete childEnv.JOBS;
    if (WORKERS > 1) childEnv.WEB_CONCURRENCY = String(WORKERS);
    const profile = flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(flags["cpu-prof"])}`] : [];
    const app = spawn(process.execPath, [...serverNodeFlags(ROOT), ...profile, APP_ENTRY], { cwd: ROOT, env: childEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    apps.push(app);
    let listening = 0;
    const keepLog = (chunk: Buffer) => {
      listening += (chunk.toString().match(/"msg":"Tribuna en http/g) ?? []).length;
      appLog = (appLog + chunk.toString()).slice(-20_000);
      if (flags.verbose) process.stderr.write(chunk);
    };
    app.stdout!.on("data", keepLog);
    app.stderr!.on("data", keepLog);
    const bootStarted = performance.now();
    await waitForApp(app, baseUrl, 120_000);
    // With workers, the others start once the first listens: the rush waits for all of them.
    for (const deadline = Date.now() + 120_000; listening < WORKERS && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 200));
    log(`App ${n + 1} de ${PROCESSES} lista en ${baseUrl} (${((performance.now() - bootStarted) / 1000).toFixed(1)} s).`);
    baseUrls.push(baseUrl);
  }

  // Warm-up on the other event, at the rush's concurrency. A process just started pays for loading modules, opening
  // connections and V8 compiling the hot path, which a server that has been up a while has done long ago: measured
  // on 2026-11-27 in one process, the first 3,000 orders after the start cost about twice the CPU of the next 3,000
  // (docs/benchmarks.md). The rush below measures a warm server; `--warm-up 0` measures one just started.
  const warmQuery = JSON.stringify({ query: "query($slug: String!) { event(slug: $slug) { id ticketTypes { id available } } }", variables: { slug: event.slug } });
  let warmFailures = 0;
  for (const [n, baseUrl] of baseUrls.entries()) {
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, 20) }, () =>
        fetch(`${baseUrl}/api/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: warmQuery }).then((r) => r.text()),
      ),
    );
    let warmNext = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, Math.max(WARM_UP, 1)) }, async () => {
        while (warmNext < WARM_UP) {
          const i = warmNext++;
          const sample = await buy(baseUrl, warm.event.slug, warmTicket.id, 1_000_000 + n * WARM_UP + i);
          if (sample.outcome !== "held") warmFailures++;
        }
      }),
    );
  }
  if (warmFailures) throw new Error(`${warmFailures} compras de calentamiento no reservaron (el evento de calentamiento tiene stock de sobra)`);
  if (WARM_UP) log(`Calentamiento: ${WARM_UP} compras por proceso en «${warm.event.name}», ${CONCURRENCY} a la vez.`);

  // 3. The rush.
  log(`${BUYERS} compradores, ${CONCURRENCY} a la vez, ${QTY} entrada(s) cada uno…`);
  const samples: Sample[] = new Array(BUYERS);
  let next = 0;
  const load1 = os.loadavg()[0];
  // The server's memory during the rush (Linux: /proc; elsewhere the line says "–").
  let appRssMaxMiB = 0;
  const rssSampler = setInterval(() => {
    try {
      for (const app of apps) {
        // With workers, the app is the primary and its workers: their memory together.
        const kib = processTree(app.pid).reduce((sum, pid) => sum + Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0), 0);
        appRssMaxMiB = Math.max(appRssMaxMiB, Math.round(kib / 1024));
      }
    } catch {
      /* not Linux, or the process is gone */
    }
  }, 100);
  const ceilingBefore = await measureCeiling(BENCH_URL, APP_POOL, Math.max(BUYERS, 2_000), QTY);
  const cpuBefore = apps.map((app) => treeCpuSecondsOf(app.pid));
  const postgresCpuBefore = postgresCpuSeconds();
  const clientCpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < BUYERS) {
        const i = next++;
        // Buyers alternate between the processes, as a balancer without affinity would send them.
        samples[i] = await buy(baseUrls[i % baseUrls.length], event.slug, ticket.id, i);
        samples[i].at = performance.now() - started;
      }
    }),
  );
  const durationMs = performance.now() - started;
  clearInterval(rssSampler);
  // CPU the app processes spent on the rush (user + system), per request: steadier than requests/s on a shared machine.
  const cpuAfter = apps.map((app) => treeCpuSecondsOf(app.pid));
  // Where the rest of the machine's CPU went: PostgreSQL's processes (this machine's server, if it is local) and this
  // script's buyers (the HTTP client). Together with the app's, it says what a hold costs the whole machine.
  const postgresCpuAfter = postgresCpuSeconds();
  const postgresCpuSecondsUsed = postgresCpuBefore !== null && postgresCpuAfter !== null ? postgresCpuAfter - postgresCpuBefore : null;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const clientCpuSeconds = (clientCpu.user + clientCpu.system) / 1e6;
  const appCpuSeconds = cpuAfter.every((c) => c !== null) && cpuBefore.every((c) => c !== null) ? cpuAfter.reduce((sum, c, i) => sum + c! - cpuBefore[i]!, 0) : null;

  // 4. The ceiling on the same PostgreSQL: a one-row conditional UPDATE loop straight through `postgres`, each
  //    its own transaction, with stock that never runs out. What one hot row allows, with no app around it.
  //    With as many connections as the app's pool (it never has more statements in flight than that), where
  //    PostgreSQL does best, measured before the rush and again now: this machine is shared and its speed
  //    drifts by ±15 % from one minute to the next, and the goal is judged against the better of the two.
  //    Also with as many connections as buyers in flight (the buyers' own concurrency), for reference.
  const ceilingAfter = await measureCeiling(BENCH_URL, APP_POOL, Math.max(BUYERS, 2_000), QTY);
  const ceiling = ceilingAfter.perSecond >= ceilingBefore.perSecond ? ceilingAfter : ceilingBefore;
  // (Capped by the server's free connections: max_connections is 100 by default and the app holds some.)
  const [{ free }] = (await db.execute(
    sql`select current_setting('max_connections')::int - (select count(*) from pg_stat_activity)::int - 5 as free`,
  )) as unknown as { free: number }[];
  const ceilingAtConcurrency = await measureCeiling(BENCH_URL, Math.max(1, Math.min(CONCURRENCY, Number(free))), Math.max(BUYERS, 2_000), QTY);

  // 5. What the database says.
  const [row] = await db
    .select({
      stock: schema.ticketTypes.stock,
      sold: schema.ticketTypes.sold,
      // Every order that still holds stock (nothing expires during the run: JOBS=off).
      held: sql<string>`(select coalesce(sum(oi.qty), 0) from order_items oi join orders o on o.id = oi.order_id
        where oi.ticket_type_id = ${ticket.id} and o.status in ('draft', 'billed', 'orphan'))`,
      orders: sql<string>`(select count(*) from orders o where o.event_id = ${event.id} and o.status in ('draft', 'billed', 'orphan'))`,
      // Orders written by one transaction share its xmin: how many batches the holds took (server/orders/hold-batch.ts).
      batches: sql<string>`(select count(distinct o.xmin::text) from orders o where o.event_id = ${event.id} and o.status in ('draft', 'billed', 'orphan'))`,
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

  // 6. The other guarantees, with every process at work on the same rows (docs/scaling.md).
  log("Garantías con todos los procesos a la vez: notificaciones de pago repetidas, vencimientos, límite de intentos…");
  const guarantees = await checkGuarantees({ db, schema, baseUrls, eventId: event.id, ticketId: ticket.id, stock: STOCK });

  const problems: string[] = [...guarantees.problems];
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
  const ratioAtConcurrency = holdsWhileStockLasts / ceilingAtConcurrency.perSecond;
  // A sale that ends in a few batches or a fraction of a second (the default: 50 tickets, 100 buyers in flight, all
  // held by the first batch) measures the first requests' latency, not a rate: the ratio is printed but not judged.
  const ratioMeasurable = Number(row.batches) >= MIN_BATCHES_FOR_RATIO && lastHoldMs >= MIN_SALE_MS_FOR_RATIO;
  const ratioVerdict = ratioMeasurable
    ? load.verdict(`${ratio.toFixed(2)} × (objetivo ≥ 1,0; la primera ronda pedía ≥ 0,5)`)
    : `${ratio.toFixed(2)} ×: no cuenta (el stock se vendió en ${row.batches} ${Number(row.batches) === 1 ? "lote" : "lotes"}, en ${(lastHoldMs / 1000).toFixed(2)} s: es latencia, no ritmo); el objetivo ≥ 1,0 se mide con --buyers 3000 --stock 2500`;
  const loadAtEnd = load.end();
  const rows: [string, string][] = [
    ["compradores", String(BUYERS)],
    ["concurrencia", String(CONCURRENCY)],
    ["procesos de la app", `${PROCESSES}${WORKERS > 1 ? ` × ${WORKERS} workers` : ""} (node ${[...serverNodeFlags(ROOT), APP_ENTRY].join(" ")}, como npm start${WORKERS > 1 ? ` con WEB_CONCURRENCY=${WORKERS}` : ""})`],
    ["calentamiento", WARM_UP ? `${WARM_UP} compras por proceso antes de la ráfaga` : "ninguno (proceso recién arrancado)"],
    ["stock / entradas por compra", `${STOCK} / ${QTY}`],
    ["duración", `${seconds.toFixed(2)} s`],
    ["pedidos/s (todos)", (BUYERS / seconds).toFixed(1)],
    ["reservas/s (exitosas)", `${(held / seconds).toFixed(1)} (${lastHoldMs ? (held / (lastHoldMs / 1000)).toFixed(1) : "–"} hasta la última)`],
    ["última reserva", held ? `a los ${(lastHoldMs / 1000).toFixed(2)} s` : "–"],
    ["latencia p50 / p95 / p99", `${ms(percentile(all, 50))} / ${ms(percentile(all, 95))} / ${ms(percentile(all, 99))} ms`],
    ["latencia p50 / p95 reservas", `${ms(percentile(heldMs, 50))} / ${ms(percentile(heldMs, 95))} ms`],
    ["latencia máx", `${ms(all[all.length - 1])} ms`],
    ["reservadas (held)", `${held} órdenes, ${heldInDb} entradas`],
    ["lotes (transacciones que reservaron)", `${row.batches} (${Number(row.batches) ? (ordersInDb / Number(row.batches)).toFixed(1) : "–"} órdenes por lote)`],
    ["rechazadas (CONFLICT)", String(refused)],
    ["errores", String(errors.length)],
    ["ticket_types.sold / stock", `${row.sold} / ${row.stock}`],
    ["sobreventa (oversold)", String(oversold)],
    [
      "techo: UPDATE condicional pelado",
      `${ceiling.perSecond.toFixed(1)}/s (${ceiling.connections} conexiones, ${ceiling.updates} UPDATE; el mejor de antes ${ceilingBefore.perSecond.toFixed(0)}/s y después ${ceilingAfter.perSecond.toFixed(0)}/s de la ráfaga)`,
    ],
    ["reservas/s mientras hay stock ÷ techo", ratioVerdict],
    [`techo con ${ceilingAtConcurrency.connections} conexiones (${ceilingAtConcurrency.connections === CONCURRENCY ? "una por comprador en vuelo" : `las libres del servidor; compradores en vuelo: ${CONCURRENCY}`})`, `${ceilingAtConcurrency.perSecond.toFixed(1)}/s: ${load.verdict(`reservas/s ÷ ese techo ${ratioAtConcurrency.toFixed(2)} ×`)}`],
    ["CPU de la app por pedido", appCpuSeconds === null ? "–" : `${((appCpuSeconds * 1000) / BUYERS).toFixed(2)} ms (${appCpuSeconds.toFixed(1)} s de CPU en ${seconds.toFixed(1)} s)`],
    ["CPU de PostgreSQL por pedido", postgresCpuSecondsUsed === null ? "– (servidor no local)" : `${((postgresCpuSecondsUsed * 1000) / BUYERS).toFixed(2)} ms (${postgresCpuSecondsUsed.toFixed(1)} s)`],
    ["CPU de los compradores (este script) por pedido", `${((clientCpuSeconds * 1000) / BUYERS).toFixed(2)} ms (${clientCpuSeconds.toFixed(1)} s)`],
    [
      "CPU de la máquina por pedido (app + base + compradores)",
      appCpuSeconds === null || postgresCpuSecondsUsed === null
        ? "–"
        : (() => {
            const total = appCpuSeconds + postgresCpuSecondsUsed + clientCpuSeconds;
            // With every core busy, the machine cannot answer more than cores ÷ CPU per request.
            return `${((total * 1000) / BUYERS).toFixed(2)} ms: con ${os.availableParallelism()} núcleos, a lo sumo ~${Math.round((os.availableParallelism() * BUYERS) / total)} pedidos/s`;
          })(),
    ],
    ["memoria del servidor (RSS máx.)", appRssMaxMiB ? `${appRssMaxMiB} MiB${PROCESSES > 1 ? " (el mayor de los procesos)" : ""}` : "–"],
    ...guarantees.rows,
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
        machineLoad: loadAtEnd,
        buyers: BUYERS,
        concurrency: CONCURRENCY,
        warmUp: WARM_UP,
        processes: PROCESSES,
        workers: WORKERS,
        stock: STOCK,
        qty: QTY,
        durationMs: Math.round(durationMs),
        requestsPerSecond: Number((BUYERS / seconds).toFixed(1)),
        appCpuMsPerRequest: appCpuSeconds === null ? null : Number(((appCpuSeconds * 1000) / BUYERS).toFixed(2)),
        postgresCpuMsPerRequest: postgresCpuSecondsUsed === null ? null : Number(((postgresCpuSecondsUsed * 1000) / BUYERS).toFixed(2)),
        clientCpuMsPerRequest: Number(((clientCpuSeconds * 1000) / BUYERS).toFixed(2)),
        holdsPerSecond: Number((held / seconds).toFixed(1)),
        lastHoldMs: Math.round(lastHoldMs),
        p50: Number(percentile(all, 50).toFixed(1)),
        p95: Number(percentile(all, 95).toFixed(1)),
        p99: Number(percentile(all, 99).toFixed(1)),
        held,
        heldTickets: heldInDb,
        holdBatches: Number(row.batches),
        serverNodeFlags: serverNodeFlags(ROOT),
        refused,
        errors: errors.length,
        sold: row.sold,
        oversold,
        ceilingPerSecond: Number(ceiling.perSecond.toFixed(1)),
        ceilingBeforePerSecond: Number(ceilingBefore.perSecond.toFixed(1)),
        ceilingAfterPerSecond: Number(ceilingAfter.perSecond.toFixed(1)),
        ceilingAtConcurrencyPerSecond: Number(ceilingAtConcurrency.perSecond.toFixed(1)),
        ratioToCeilingAtConcurrency: Number(ratioAtConcurrency.toFixed(3)),
        holdsWhileStockLasts: Number(holdsWhileStockLasts.toFixed(1)),
        ratioToCeiling: Number(ratio.toFixed(3)),
        ratioMeasurable,
        appRssMaxMiB,
        guarantees: guarantees.rows.map(([k, v]) => `${k}: ${v}`),
        ok: problems.length === 0,
        machine,
      }),
    );
  }
  return problems.length ? 1 : 0;
}

/**
 * What must keep holding with several processes on one database, checked
 * through their HTTP doors after the rush:
 * - webhook idempotency: a payment's notification sent to every process at
 *   once, twice, is applied once (one approved billing, one set of tickets,
 *   the ledger matching);
 * - jobs: the holds left unpaid are made due and every process's job runner
 *   competes for them; each expires once and its stock comes back once;
 * - rate limits: wrong passwords for one email spread over the processes are
 *   limited as if there were one (5 per email).
 */
async function checkGuarantees(options: {
  db: import("#server/db/client").Db;
  schema: typeof import("#server/db/schema");
  baseUrls: string[];
  eventId: string;
  ticketId: string;
  stock: number;
}) {
  const { db, schema, baseUrls, eventId, ticketId, stock } = options;
  const { eq, sql } = await import("drizzle-orm");
  const { buildSignedNotification } = await import("#server/payment-notifications/sandbox");
  const { assertLedgerMatches } = await import("#server/orders/ledger-invariants");
  const problems: string[] = [];
  const rows: [string, string][] = [];
  const post = (baseUrl: string, path: string, init: RequestInit) => fetch(`${baseUrl}${path}`, { method: "POST", redirect: "manual", ...init });

  // Webhooks: pay up to 20 held orders on the provider's (sandbox) page, then notify every process at once, twice.
  const held = await db
    .select({ orderId: schema.orders.id, billingId: schema.billings.id })
    .from(schema.orders)
    .innerJoin(schema.billings, eq(schema.billings.orderId, schema.orders.id))
    .where(sql`${schema.orders.eventId} = ${eventId} and ${schema.orders.status} = 'draft'`)
    .limit(20);
  for (const [i, h] of held.entries()) {
    const res = await post(baseUrls[i % baseUrls.length], `/sandbox/mercadopago/${h.billingId}`, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "status=approved" });
    await res.arrayBuffer();
    if (res.status !== 302) problems.push(`pago de ${h.billingId} en el sandbox: HTTP ${res.status}`);
  }
  const payments = await db.select({ id: schema.sandboxPayments.id, billingId: schema.sandboxPayments.billingId }).from(schema.sandboxPayments);
  let deliveries = 0;
  await Promise.all(
    payments.flatMap((payment) =>
      [...baseUrls, ...baseUrls].map(async (baseUrl) => {
        const notification = buildSignedNotification(payment.id);
        const res = await post(baseUrl, `/api/webhooks/mercadopago?${notification.query?.toString() ?? ""}`, { headers: notification.headers as Record<string, string>, body: JSON.stringify(notification.body) });
        const text = await res.text();
        if (res.status === 200) deliveries += 1;
        else problems.push(`notificación ${payment.id}: HTTP ${res.status} ${text.slice(0, 120)}`);
      }),
    ),
  );
  const paidOrders = held.filter((h) => payments.some((p) => p.billingId === h.billingId)).map((h) => h.orderId);
  for (const orderId of paidOrders) {
    const [order] = await db.select({ status: schema.orders.status }).from(schema.orders).where(eq(schema.orders.id, orderId));
    if (order?.status !== "billed") problems.push(`la orden ${orderId} pagada quedó en ${order?.status}`);
    try {
      await assertLedgerMatches(db, orderId);
    } catch (error) {
      problems.push(`libro mayor de ${orderId}: ${(error as Error).message}`);
    }
  }
  rows.push(["notificaciones de pago repetidas", `${paidOrders.length} pagos × ${baseUrls.length * 2} envíos (${deliveries} respondidos 200): cada pago aplicado una vez`]);

  // Jobs: every unpaid hold of the event is due now; the processes' runners (every 5 s) compete for the jobs.
  await db.execute(sql`
    with due as (update orders set hold_expires_at = now() - interval '1 second' where status = 'draft' and event_id = ${eventId} returning id::text)
    update jobs set run_at = now() - interval '1 second' where kind = 'expire-order' and done_at is null and payload->>'orderId' in (select id from due)`);
  const deadline = Date.now() + 60_000;
  let pending = Infinity;
  while (Date.now() < deadline) {
    const [row] = (await db.execute(sql`
      select count(*)::int as n from jobs j join orders o on o.id::text = j.payload->>'orderId'
      where j.kind = 'expire-order' and j.done_at is null and j.failed_at is null and o.event_id = ${eventId} and o.status = 'draft'`)) as unknown as { n: number }[];
    pending = row.n;
    if (!pending) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const [after] = (await db.execute(sql`
    select tt.sold, tt.stock,
      (select count(*)::int from orders where event_id = ${eventId} and status = 'expired') as expired,
      (select count(*)::int from orders where event_id = ${eventId} and status = 'draft') as drafts,
      (select coalesce(sum(oi.qty), 0)::int from order_items oi join orders o on o.id = oi.order_id where o.event_id = ${eventId} and o.status in ('billed', 'draft', 'orphan')) as holding,
      (select count(*)::int from jobs j join orders o on o.id::text = j.payload->>'orderId' where o.event_id = ${eventId} and j.kind = 'expire-order' and j.attempts > 1) as retried
    from ticket_types tt where tt.id = ${ticketId}`)) as unknown as { sold: number; stock: number; expired: number; drafts: number; holding: number; retried: number }[];
  if (pending) problems.push(`${pending} vencimientos sin correr después de 60 s`);
  if (after.drafts) problems.push(`${after.drafts} reservas vencidas siguen en borrador`);
  if (after.sold !== after.holding) problems.push(`después de los vencimientos, sold (${after.sold}) ≠ entradas de órdenes que retienen stock (${after.holding}): un vencimiento devolvió stock dos veces o ninguna`);
  if (after.sold > stock) problems.push(`sobreventa después de los vencimientos: ${after.sold} de ${stock}`);
  rows.push(["vencimientos con todos los runners", `${after.expired} reservas vencidas una vez cada una; sold ${after.sold} = entradas pagadas ${after.holding}`]);

  // Rate limits: 12 wrong passwords for one email, one after the other, each to the next process.
  const email = `limite-${Date.now()}@bench.tribuna.ar`;
  const codes: string[] = [];
  for (let i = 0; i < 12; i++) {
    codes.push(
      await (async () => {
      const res = await post(baseUrls[i % baseUrls.length], "/api/graphql", {
        headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i + 1}` },
        body: JSON.stringify({ query: "mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }", variables: { e: email, p: "clave-incorrecta-1" } }),
      });
      const json = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
      return json.errors?.[0]?.extensions?.code ?? "OK";
      })(),
    );
  }
  const limited = codes.filter((c) => c === "TOO_MANY_REQUESTS").length;
  if (limited !== 12 - 5) problems.push(`límite de intentos entre procesos: ${12 - limited} contraseñas probadas de 12 (tienen que ser 5); códigos ${codes.join(", ")}`);
  rows.push(["límite de intentos entre procesos", `${12 - limited} de 12 contraseñas probadas (límite 5 por email), ${limited} frenadas`]);
  return { problems, rows };
}

/** The app's PostgreSQL pool (server/db/client.ts connectPostgres): how many statements it can have in flight. */
const APP_POOL = 10;

/** Successful one-row conditional UPDATEs per second, `connections` loops at once, stock that never runs out. */
async function measureCeiling(url: string, connections: number, updates: number, qty: number) {
  const sql = postgres(url, { max: connections, onnotice: () => {} });
  try {
    await sql`drop table if exists bench_ceiling`;
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

/**
 * User + system CPU seconds of every `postgres` process on this machine so far, including backends that have exited
 * (Linux /proc; null elsewhere or when none runs here). A backend that closes between two readings would take its CPU
 * with it and make the difference negative; once reaped, the postmaster counts it in its children's time (cutime and
 * cstime), so those are added too.
 */
function postgresCpuSeconds(): number | null {
  try {
    let total = 0;
    let found = false;
    for (const pid of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue; // gone meanwhile
      }
      if (!stat.includes("(postgres)")) continue;
      const fields = stat.split(") ")[1].split(" ");
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
      found = true;
    }
    return found ? total : null;
  } catch {
    return null;
  }
}

/** User + system CPU seconds of a process so far (Linux /proc; null elsewhere). */
/** A process and its children (a cluster's workers), from /proc; just the process elsewhere. */
function processTree(pid: number | undefined): number[] {
  if (!pid) return [];
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children.flatMap((child) => processTree(child))];
  } catch {
    return [pid];
  }
}

/** CPU seconds of a process and its children (the cluster's workers). */
function treeCpuSecondsOf(pid: number | undefined): number | null {
  const each = processTree(pid).map(cpuSecondsOf);
  return each.every((c) => c !== null) ? each.reduce((sum, c) => sum + c!, 0) : null;
}

function cpuSecondsOf(pid: number | undefined): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
