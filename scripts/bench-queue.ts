/**
 * `npm run bench:queue`: the virtual queue under a crowd (docs/queue.md). Not a test.
 *
 * 1. A fresh database (tribuna_bench_queue_…) with the migrations, one event with a ticket type of --stock, its
 *    queue on (opening in an hour, --pace admissions per minute) and --places accounts with a session each.
 * 2. The real app (the compiled server, as `npm start` runs it), trusting X-Forwarded-For so each account comes
 *    from an address of its own, as a crowd of phones would (joins are rate-limited per address).
 * 3. Joins: every account sends GraphQL `joinQueue`, --concurrency at a time → joins/s. Then the app's memory
 *    with everyone waiting (VmRSS).
 * 4. The opening (the draw), then --seconds of saturated polls, round-robin over all the accounts with their
 *    cookies: GET /fila/{slug} (the whole Remix page), GET /fila/{slug}/ahora (the light page a browser without
 *    JavaScript refreshes, served without Remix: decision 241) and GET /fila/{slug}/estado
 *    (the JSON the page's script asks for, served without Remix: decision 197) → polls/s. Then the sale: every account asks again when its page's refresh
 *    says; one whose turn came buys one ticket over GraphQL and pays it in the sandbox, until the stock runs
 *    out (or 60 s).
 * 5. Bare Node servers sending the same bytes, driven the same way: the ceilings here.
 * 6. Admission accuracy from the database: the most admissions in any 60 s (never above --pace) and the
 *    admissions after the last ticket was sold (never any).
 *
 * Exit code 1 when an admission broke the pace or came after the sell-out, or a request failed. The
 * database is dropped unless --keep. Figures and how to read them: docs/benchmarks.md.
 *
 *   npm run bench:queue -- [--places 20000] [--concurrency 100] [--seconds 20] [--pace 600] [--stock 150] [--cpu-prof DIR] [--semi-space MB] [--keep] [--json]
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { benchAppEnv, benchDatabase, ensureProductionBuild, freePort, machineLoad, positiveInt, serverNodeFlags, stopApp, waitForApp } from "./bench-support";
import type { Ctx } from "#server/context";

const { values: flags } = parseArgs({
  options: {
    places: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "100" },
    seconds: { type: "string", default: "20" },
    pace: { type: "string", default: "600" },
    stock: { type: "string", default: "150" },
    keep: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
    "semi-space": { type: "string" },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (flags.help) {
  console.log(`Uso: npm run bench:queue -- [--places 20000] [--concurrency 100] [--seconds 20] [--pace 600] [--stock 150] [--cpu-prof DIR] [--semi-space MB] [--keep] [--json]

  --places N        cuentas que se suman a la fila (20000)
  --concurrency C   pedidos en vuelo a la vez (100)
  --seconds S       segundos de consultas después de la apertura (20)
  --pace P          ritmo de la fila: personas por minuto (600)
  --stock S         entradas a la venta; se agotan durante la corrida (150)
  --cpu-prof DIR    perfil de CPU de la app (.cpuprofile en DIR; leelo con scripts/bench-profile.ts)
  --semi-space MB   la app con --max-semi-space-size=MB en vez del de npm start (cuánto de la memoria es la generación joven)

DATABASE_URL elige el servidor PostgreSQL (por defecto postgres://postgres@127.0.0.1:5432/test).`);
  process.exit(0);
}
const PLACES = positiveInt("places", flags.places!);
const CONCURRENCY = positiveInt("concurrency", flags.concurrency!);
const SECONDS = positiveInt("seconds", flags.seconds!);
const PACE = positiveInt("pace", flags.pace!);
const STOCK = positiveInt("stock", flags.stock!);
const ROOT = path.resolve(import.meta.dirname, "..");
const { adminUrl: ADMIN_URL, name: DB_NAME, url: BENCH_URL } = benchDatabase("queue");
const log = (message: string) => console.error(`· ${message}`);

const JOIN = "mutation($slug: String!) { joinQueue(eventSlug: $slug) { id status } }";
const CREATE_ORDER = "mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId } }";

interface Account {
  id: string;
  cookie: string;
  ip: string;
  bought: boolean;
}

/** One kept-alive agent per run: the client costs the same for the app and for the bare server. */
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(base: string, method: "GET" | "POST", pathname: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(pathname, base);
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, headers: body ? { ...headers, "content-length": Buffer.byteLength(body) } : headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

/** Runs `work(i)` for i in [0, total) with at most `concurrency` in flight; or, with `untilMs`, round-robin until then. */
async function pool(concurrency: number, next: () => number | null, work: (i: number) => Promise<void>) {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next(); i !== null; i = next()) await work(i);
    }),
  );
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
}

function rssMb(pid: number | undefined, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const kib = Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`${field}:\\s+(\\d+)`))?.[1]);
    return Math.round(kib / 1024);
  } catch {
    return null;
  }
}

/** Polls for `seconds`: each of `concurrency` loops asks for the next account's page. */
async function drivePolls(base: string, accounts: Account[], seconds: number, onPage?: (account: Account, text: string) => Promise<void>, pathname = QUEUE_PATH, total = Infinity) {
  const latencies: number[] = [];
  let failures = 0;
  let cursor = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await pool(
    CONCURRENCY,
    () => (performance.now() < until && cursor < total ? cursor++ % accounts.length : null),
    async (i) => {
      const account = accounts[i];
      const t = performance.now();
      try {
        const res = await request(base, "GET", pathname, { cookie: account.cookie, "x-forwarded-for": account.ip, accept: "text/html" });
        latencies.push(performance.now() - t);
        if (res.status !== 200) failures++;
        else if (onPage) await onPage(account, res.text);
      } catch {
        failures++;
      }
    },
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: Math.round(latencies.length / elapsed), p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures, count: latencies.length };
}

let QUEUE_PATH = "";
/** Where a waiting browser without JavaScript refreshes to (the full page's <noscript> refresh, decision 241). */
let LIGHT_PATH = "";

/** The app's heap (used and reserved) and external memory, in MB, from its /metrics (prom-client's process metrics). */
async function heapMb(base: string, token: string) {
  const res = await request(base, "GET", "/metrics", { authorization: `Bearer ${token}` });
  const read = (name: string) => Math.round(Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, "m").exec(res.text)?.[1] ?? NaN) / 1048576);
  return { used: read("nodejs_heap_size_used_bytes"), total: read("nodejs_heap_size_total_bytes"), external: read("nodejs_external_memory_bytes") };
}

/** A min-heap of (when, account index): the next browser due to ask again. */
class DueHeap {
  private items: [number, number][] = [];
  get size() {
    return this.items.length;
  }
  push(due: number, index: number) {
    const items = this.items;
    items.push([due, index]);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (items[parent][0] <= items[i][0]) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }
  pop(): [number, number] | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && items[l][0] < items[m][0]) m = l;
        if (r < items.length && items[r][0] < items[m][0]) m = r;
        if (m === i) break;
        [items[m], items[i]] = [items[i], items[m]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Browsers without JavaScript: each account asks again when its page's `<meta http-equiv="refresh">` says
 * (3 s near the front, 10 s far back, 30 s with a turn), the earliest due first, until `done()` or `seconds`.
 * They ask the light page `/fila/{slug}/ahora`, where the full page's <noscript> refresh sends a person with a
 * place and which refreshes itself (decision 241).
 */
async function driveBrowsers(base: string, accounts: Account[], seconds: number, done: () => boolean, onPage: (account: Account, text: string, askedAt: number) => Promise<void>) {
  const heap = new DueHeap();
  const start = Date.now();
  accounts.forEach((_, i) => heap.push(start + (i % 1000), i));
  const until = start + seconds * 1000;
  let polls = 0;
  let failures = 0;
  let late = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until && !done()) {
        const next = heap.pop();
        if (!next) return;
        const [due, i] = next;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 200)));
        else if (wait < -1000) late++;
        let refresh = 10;
        const askedAt = Date.now();
        try {
          const res = await request(base, "GET", LIGHT_PATH, { cookie: accounts[i].cookie, "x-forwarded-for": accounts[i].ip, accept: "text/html" });
          polls++;
          if (res.status !== 200) failures++;
          else {
            refresh = Number(/http-equiv="refresh" content="(\d+)"/.exec(res.text)?.[1] ?? 60);
            await onPage(accounts[i], res.text, askedAt);
          }
        } catch {
          failures++;
        }
        heap.push(Date.now() + refresh * 1000, i);
      }
    }),
  );
  return { polls, perSecond: Math.round(polls / ((Date.now() - start) / 1000)), failures, late, seconds: Math.round((Date.now() - start) / 1000) };
}

async function main() {
  const load = machineLoad({ json: flags.json });
  await ensureProductionBuild(ROOT, log);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${DB_NAME}"`);
  await admin.end({ timeout: 5 });
  let app: ChildProcess | undefined;
  let closeDb: () => Promise<void> = async () => {};
  let appLog = "";
  let failed = false;
  try {
    // The domain modules read the environment lazily: point them at the bench database first. One AUTH_SECRET for
    // the app and this process (which signs the sessions and the sandbox's payment notifications).
    process.env.DATABASE_URL = BENCH_URL;
    const secret = crypto.randomBytes(36).toString("base64url");
    process.env.AUTH_SECRET = secret;
    process.env.PAYMENTS_SANDBOX = "true";
    const { connectPostgres, setDatabase } = await import("#server/db/client");
    const schema = await import("#server/db/schema");
    const { createOrganization } = await import("#server/organizations/organizations");
    const { acceptServiceConditions, createEvent, publishEvent, getEventForOrganizer } = await import("#server/events/events");
    const { startSession } = await import("#server/auth/sessions");
    const { payInSandbox } = await import("#server/payment-notifications/sandbox");
    const { eq, sql } = await import("drizzle-orm");
    const database = connectPostgres(BENCH_URL, { max: 8 });
    setDatabase(database);
    closeDb = () => database.close();
    await database.migrate();
    const db = database.db;

    // 1. The event, its queue and the crowd.
    const [owner] = await db.insert(schema.users).values({ email: `productora-${Date.now()}@bench.tribuna.ar`, firstName: "Productora", lastName: "Benchmark", roles: ["producer"] }).returning();
    const ownerCtx = (): Ctx => ({ db, actor: { kind: "user", userId: owner.id, email: owner.email, roles: ["producer"] }, now: new Date(), ip: "127.0.0.1" });
    const organization = await createOrganization(ownerCtx(), { name: "Productora Benchmark", cuit: "30-71234567-1", contactEmail: "bench@productora.com.ar" });
    const startsAt = new Date(Date.now() + 30 * 86_400_000);
    const { event } = await createEvent(ownerCtx(), {
      organizationId: organization.id,
      name: "Estadio Benchmark",
      description: "Salida a la venta con fila virtual.",
      category: "fiestas",
      venueName: "Estadio de prueba",
      venueAddress: "Av. Siempre Viva 742",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [{ startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 5 * 3600_000).toISOString() }],
      ticketTypes: [{ name: "Campo", price: 1_500_000, stock: STOCK }],
    });
    await acceptServiceConditions(ownerCtx(), { eventId: event.id });
    await publishEvent(ownerCtx(), { id: event.id });
    const ticket = (await getEventForOrganizer(ownerCtx(), event.id)).tickets[0];
    QUEUE_PATH = `/fila/${event.slug}`;
    LIGHT_PATH = `${QUEUE_PATH}/ahora`;
    const ownerCookie = `at=${(await startSession(db, owner, new Date())).accessToken}`;

    const made = performance.now();
    const accounts: Account[] = [];
    for (let from = 0; from < PLACES; from += 1000) {
      const rows = await db
        .insert(schema.users)
        .values(Array.from({ length: Math.min(1000, PLACES - from) }, (_, k) => ({ email: `fila${from + k + 1}@bench.tribuna.ar`, firstName: "Persona", lastName: "Fila" })))
        .returning({ id: schema.users.id, email: schema.users.email, roles: schema.users.roles });
      const tokens = await Promise.all(rows.map((u) => startSession(db, u, new Date())));
      rows.forEach((u, k) => {
        const n = from + k;
        accounts.push({ id: u.id, cookie: `at=${tokens[k].accessToken}`, ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, bought: false });
      });
    }
    log(`${PLACES} cuentas con sesión en ${((performance.now() - made) / 1000).toFixed(1)} s; evento ${event.slug}, stock ${STOCK}, ritmo ${PACE}/min.`);

    // 2. The app.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = benchAppEnv({ port, databaseUrl: BENCH_URL, databaseName: DB_NAME, seedDemo: false });
    env.AUTH_SECRET = secret;
    env.TRUST_PROXY = "true";
    // Where the memory goes (heap or not), from the app's own metrics.
    const metricsToken = crypto.randomBytes(24).toString("base64url");
    env.METRICS_TOKEN = metricsToken;
    const profile = flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(flags["cpu-prof"])}`] : [];
    const semiSpace = flags["semi-space"] ? positiveInt("semi-space", flags["semi-space"]) : null;
    const nodeFlags = serverNodeFlags(ROOT).filter((flag) => semiSpace === null || !flag.startsWith("--max-semi-space-size"));
    if (semiSpace !== null) nodeFlags.push(`--max-semi-space-size=${semiSpace}`);
    app = spawn(process.execPath, [...nodeFlags, ...profile, "build/serve/server.js"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const keep = (c: Buffer) => {
      appLog = (appLog + c.toString()).slice(-20_000);
      if (flags.verbose) process.stderr.write(c);
    };
    app.stdout!.on("data", keep);
    app.stderr!.on("data", keep);
    await waitForApp(`${base}/ayuda`, app, () => appLog);
    const rssIdle = rssMb(app.pid, "VmRSS");
    const heapIdle = await heapMb(base, metricsToken);
    log(`App lista en ${base} (${rssIdle} MB).`);

    // The organizer turns the queue on over GraphQL, as an integrator would: the app's process runs the admitter
    // (this one calling setEventQueue would start one whose changes the app never hears).
    const setQueue = async (opensAt: Date) => {
      const res = await request(
        base,
        "POST",
        "/api/graphql",
        { cookie: ownerCookie, "content-type": "application/json", accept: "application/json" },
        JSON.stringify({
          query: "mutation($input: SetEventQueueInput!) { setEventQueue(input: $input) { enabled } }",
          variables: { input: { eventId: event.id, enabled: true, opensAt: opensAt.toISOString(), admissionMinutes: 10, admitPerMinute: PACE } },
        }),
      );
      if (!res.text.includes('"enabled":true')) throw new Error(`setEventQueue falló: ${res.text.slice(0, 300)}`);
    };
    await setQueue(new Date(Date.now() + 3600_000));

    // 3. Joins.
    const graphql = (account: Account, query: string, variables: unknown) =>
      request(base, "POST", "/api/graphql", { cookie: account.cookie, "x-forwarded-for": account.ip, "content-type": "application/json", accept: "application/json" }, JSON.stringify({ query, variables }));
    let joinFailures = 0;
    let joinCursor = 0;
    const joinLatencies: number[] = [];
    const joinStarted = performance.now();
    await pool(
      CONCURRENCY,
      () => (joinCursor < accounts.length ? joinCursor++ : null),
      async (i) => {
        const t = performance.now();
        try {
          const res = await graphql(accounts[i], JOIN, { slug: event.slug });
          joinLatencies.push(performance.now() - t);
          if (!res.text.includes('"status":"WAITING"')) {
            if (joinFailures++ < 3) log(`joinQueue falló: HTTP ${res.status} ${res.text.slice(0, 200)}`);
          }
        } catch (error) {
          if (joinFailures++ < 3) log(`joinQueue falló: ${(error as Error).message}`);
        }
      },
    );
    const joinSeconds = (performance.now() - joinStarted) / 1000;
    joinLatencies.sort((a, b) => a - b);
    const [{ n: placesInDb }] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.queuePlaces).where(eq(schema.queuePlaces.eventId, event.id));
    // A few polls so the copy in memory is the one a waiting crowd reads, then its size.
    await drivePolls(base, accounts, 2);
    const rssWaiting = rssMb(app.pid, "VmRSS");
    const heapWaiting = await heapMb(base, metricsToken);
    log(`Montón usado / reservado / memoria externa: al arrancar ${heapIdle.used} / ${heapIdle.total} / ${heapIdle.external} MB; con todos esperando ${heapWaiting.used} / ${heapWaiting.total} / ${heapWaiting.external} MB.`);
    log(`${placesInDb} lugares en la fila en ${joinSeconds.toFixed(1)} s; memoria de la app con todos esperando: ${rssWaiting} MB.`);
    // Before the opening a waiting page asks once a minute: the app is nearly idle, and V8 may give back what the joins left.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const rssWaitingQuiet = rssMb(app.pid, "VmRSS");
    const heapWaitingQuiet = await heapMb(base, metricsToken);
    log(`10 s después, sin pedidos: ${rssWaitingQuiet} MB; montón usado / reservado ${heapWaitingQuiet.used} / ${heapWaitingQuiet.total} MB.`);

    // 4. The opening, then the polls; a person whose turn came buys one ticket and pays it.
    await setQueue(new Date(Date.now() + 1000));
    const openedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // Capacity: every loop asks for the next account's page at once (saturated), as a crowd bigger than the app.
    const waitingPage = { text: "" };
    const polls = await drivePolls(base, accounts, SECONDS, async (_account, text) => {
      if (!waitingPage.text && text.includes('data-queue-state="waiting"')) waitingPage.text = text;
    });
    // With JavaScript the page asks /fila/{slug}/estado (a small JSON straight from Node), not the whole page.
    const dataPath = `${QUEUE_PATH}/estado`;
    // Each browser's first poll checks its token's signature and reads its session (then remembered: decisions 196,
    // 197); a crowd that waits asks every 3–10 s, so it is measured after one poll per account, as it runs (decision 204).
    const firstPolls = await drivePolls(base, accounts, Number.MAX_SAFE_INTEGER, undefined, dataPath, accounts.length);
    log(`Primera consulta del JSON de cada cuenta: ${firstPolls.perSecond}/s (p50 ${firstPolls.p50} ms).`);
    // Without JavaScript the page's <noscript> refresh goes to /fila/{slug}/ahora (a small HTML page straight from Node,
    // decision 241), which refreshes itself: what a browser without JavaScript asks while it waits. Measured, like the
    // JSON, once every account asked one time (its token and session are then remembered, as in a real wait).
    const lightPath = `${QUEUE_PATH}/ahora`;
    const lightPage = { text: "" };
    const lightPolls = await drivePolls(base, accounts, SECONDS, async (_account, text) => {
      if (!lightPage.text && text.includes('data-queue-state="waiting"')) lightPage.text = text;
    }, lightPath);
    log(`Página liviana sin JavaScript: ${lightPolls.perSecond}/s (p50 ${lightPolls.p50} ms, ${lightPolls.failures} fallas).`);
    // Its ceiling right away (a shared machine's load drifts within a minute): a bare Node server sending those bytes.
    const lightBytes = Buffer.from(lightPage.text || "<!DOCTYPE html><html><body>fila</body></html>");
    const bareLight = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-store" }).end(lightBytes));
    await new Promise<void>((resolve) => bareLight.listen(0, "127.0.0.1", resolve));
    const lightCeiling = await drivePolls(`http://127.0.0.1:${(bareLight.address() as AddressInfo).port}`, accounts, SECONDS);
    bareLight.close();
    const dataPage = { text: "" };
    const dataPolls = await drivePolls(base, accounts, SECONDS, async (_account, text) => {
      if (!dataPage.text && text.includes('"status":"WAITING"')) dataPage.text = text;
    }, dataPath);
    const rssAfterPolls = rssMb(app.pid, "VmRSS");
    log(`Consultas: página ${polls.perSecond}/s (p50 ${polls.p50} ms), JSON ${dataPolls.perSecond}/s (p50 ${dataPolls.p50} ms); memoria ${rssAfterPolls} MB.`);

    // The sale: browsers ask again when their page says; a person whose turn came buys one ticket and pays it.
    let paid = 0;
    let buyFailures = 0;
    let soldOutAt: number | null = null;
    let sawSoldOut = 0;
    let pagesAfterSoldOut = 0;
    let sawAdmitted = 0;
    const sale = await driveBrowsers(
      base,
      accounts,
      Math.max(60, SECONDS * 3),
      () => soldOutAt !== null && Date.now() - soldOutAt > 15_000,
      async (account, text, askedAt) => {
        const state = /data-queue-state="([a-z_]+)"/.exec(text)?.[1];
        // Asked three seconds after the last sale, every waiting page should say so (the next tick and its notification).
        if (soldOutAt !== null && askedAt - soldOutAt > 3000 && state !== "admitted") {
          pagesAfterSoldOut++;
          if (state === "sold_out") sawSoldOut++;
        }
        if (state !== "admitted" || account.bought) return;
        sawAdmitted++;
        account.bought = true;
        if (paid >= STOCK) return;
        const res = await graphql(account, CREATE_ORDER, {
          input: {
            eventSlug: event.slug,
            items: [{ ticketId: ticket.id, qty: 1 }],
            payer: { firstName: "Persona", lastName: "Fila", email: `comprador-${account.id.slice(0, 8)}@bench.tribuna.ar`, documentType: "dni", documentNumber: String(20_000_000 + (parseInt(account.id.slice(0, 6), 16) % 9_999_999)), phoneNumber: "+5491155551234" },
            paymentMethod: "MERCADO_PAGO",
          },
        });
        const billingId = /"billingId":"([0-9a-f-]{36})"/.exec(res.text)?.[1];
        if (!billingId) {
          if (!res.text.includes('"CONFLICT"') && buyFailures++ < 3) log(`createOrder falló: ${res.text.slice(0, 200)}`);
          return;
        }
        await payInSandbox(db, billingId, "approved");
        if (++paid === STOCK) soldOutAt = Date.now();
      },
    );
    log(`Venta: ${sale.polls} consultas en ${sale.seconds} s (${sale.perSecond}/s), ${paid} vendidas, ${sawSoldOut} páginas con «Agotado» después de agotarse.`);
    const rssPeak = rssMb(app.pid, "VmHWM");

    // 5. The ceiling: a bare Node server sending a waiting page's bytes.
    const bytes = Buffer.from(waitingPage.text || "<!DOCTYPE html><html><body>fila</body></html>");
    const bare = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-store" }).end(bytes));
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    const bareBase = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    const ceiling = await drivePolls(bareBase, accounts, SECONDS);
    bare.close();
    const dataBytes = Buffer.from(dataPage.text || '{"phase":"open","place":null}');
    const bareData = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" }).end(dataBytes));
    await new Promise<void>((resolve) => bareData.listen(0, "127.0.0.1", resolve));
    const dataCeiling = await drivePolls(`http://127.0.0.1:${(bareData.address() as AddressInfo).port}`, accounts, SECONDS);
    bareData.close();

    // 6. Admission accuracy, from the database.
    const admittedRows = await db
      .select({ at: schema.queuePlaces.admittedAt })
      .from(schema.queuePlaces)
      .where(sql`${schema.queuePlaces.eventId} = ${event.id} and ${schema.queuePlaces.admittedAt} is not null`);
    const times = admittedRows.map((r) => r.at!.getTime()).sort((a, b) => a - b);
    let maxPerMinute = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 60_000) j++;
      maxPerMinute = Math.max(maxPerMinute, i - j + 1);
    }
    const afterSoldOut = soldOutAt === null ? 0 : times.filter((t) => t > soldOutAt! + 50).length;

    const result = {
      machine: { cpus: os.cpus().length, node: process.version },
      places: PLACES,
      concurrency: CONCURRENCY,
      joins: { perSecond: Math.round(PLACES / joinSeconds), p50: percentile(joinLatencies, 50), p99: percentile(joinLatencies, 99), failures: joinFailures, inDatabase: placesInDb },
      polls: { ...polls, bytes: bytes.length },
      ceiling,
      ratio: Math.round((polls.perSecond / Math.max(1, ceiling.perSecond)) * 1000) / 1000,
      lightPolls: { ...lightPolls, bytes: lightBytes.length },
      lightCeiling,
      lightRatio: Math.round((lightPolls.perSecond / Math.max(1, lightCeiling.perSecond)) * 1000) / 1000,
      dataPolls: { ...dataPolls, bytes: dataBytes.length },
      firstDataPolls: firstPolls,
      dataCeiling,
      dataRatio: Math.round((dataPolls.perSecond / Math.max(1, dataCeiling.perSecond)) * 1000) / 1000,
      admission: { pace: PACE, admitted: times.length, maxInAnyMinute: maxPerMinute, secondsOpen: Math.round((Date.now() - openedAt) / 1000), stock: STOCK, paid, soldOut: soldOutAt !== null, afterSoldOut, sawAdmitted, sawSoldOut, pagesAfterSoldOut },
      sale,
      rssMb: { idle: rssIdle, waiting: rssWaiting, waitingQuiet: rssWaitingQuiet, afterPolls: rssAfterPolls, peak: rssPeak },
      heapMb: { idle: heapIdle, waiting: heapWaiting, waitingQuiet: heapWaitingQuiet },
    };
    const paceOk = maxPerMinute <= PACE;
    failed = !paceOk || afterSoldOut > 0 || joinFailures > 0 || placesInDb !== PLACES || sawSoldOut < pagesAfterSoldOut;

    console.log("");
    console.log(`Fila virtual: ${PLACES.toLocaleString("es-AR")} lugares, ${CONCURRENCY} pedidos en vuelo, ${os.cpus().length} núcleos, Node ${process.version}`);
    console.log("");
    console.log("| medida | valor |");
    console.log("|---|---:|");
    console.log(`| sumarse (joinQueue), por segundo | ${result.joins.perSecond} (p50 ${result.joins.p50} ms, p99 ${result.joins.p99} ms, ${joinFailures} fallas) |`);
    console.log(`| consultas de la página entera /fila (Remix), por segundo | ${polls.perSecond} (p50 ${polls.p50} ms, p99 ${polls.p99} ms, ${polls.failures} fallas) |`);
    console.log(`| Node pelado con los mismos ${bytes.length} bytes, por segundo | ${ceiling.perSecond} (p50 ${ceiling.p50} ms, p99 ${ceiling.p99} ms) |`);
    console.log(`| consultas ÷ Node pelado (objetivo ≥ 0,5) | ${load.verdict(String(result.ratio).replace(".", ","))} |`);
    console.log(`| página liviana sin JavaScript (${lightPath}, ${lightBytes.length} bytes), por segundo | ${lightPolls.perSecond} (p50 ${lightPolls.p50} ms, p99 ${lightPolls.p99} ms, ${lightPolls.failures} fallas) |`);
    console.log(`| Node pelado con esos bytes, por segundo | ${lightCeiling.perSecond} (p50 ${lightCeiling.p50} ms) |`);
    console.log(`| página liviana ÷ Node pelado (objetivo ≥ 0,5) | ${load.verdict(String(result.lightRatio).replace(".", ","))} |`);
    console.log(`| consultas con JavaScript (${dataPath}, ${dataBytes.length} bytes), por segundo | ${dataPolls.perSecond} (p50 ${dataPolls.p50} ms, p99 ${dataPolls.p99} ms, ${dataPolls.failures} fallas) |`);
    console.log(`| Node pelado con esos bytes, por segundo | ${dataCeiling.perSecond} (p50 ${dataCeiling.p50} ms) |`);
    console.log(`| primera consulta con JavaScript de cada cuenta (firma del token y sesión leídas), por segundo | ${firstPolls.perSecond} (p50 ${firstPolls.p50} ms, ${firstPolls.failures} fallas) |`);
    console.log(`| consultas con JavaScript ÷ Node pelado (objetivo ≥ 0,5) | ${load.verdict(String(result.dataRatio).replace(".", ","))} |`);
    console.log(`| con turno / máximo en 60 s / ritmo | ${times.length} / ${maxPerMinute} / ${PACE} ${paceOk ? "✓" : "✗"} |`);
    console.log(`| vendidas / stock; turnos dados después de agotarse | ${paid} / ${STOCK}; ${afterSoldOut} ${afterSoldOut === 0 ? "✓" : "✗"} |`);
    console.log(`| venta como navegadores sin JavaScript (la página liviana: cada uno vuelve a preguntar cuando su página dice) | ${sale.polls} consultas en ${sale.seconds} s, ${sale.failures} fallas |`);
    console.log(`| páginas de quienes esperaban, desde 3 s después de la última venta, que dicen «Agotado» | ${sawSoldOut} de ${pagesAfterSoldOut} |`);
    console.log(`| memoria de la app (VmRSS): al arrancar / con todos esperando / 10 s después sin pedidos / pico (objetivo ≤ 300 MB) | ${rssIdle} / ${rssWaiting} / ${rssWaitingQuiet} / ${rssPeak} MB |`);
    console.log(`| montón usado / reservado: al arrancar; con todos esperando; 10 s después | ${heapIdle.used} / ${heapIdle.total} MB; ${heapWaiting.used} / ${heapWaiting.total} MB; ${heapWaitingQuiet.used} / ${heapWaitingQuiet.total} MB |`);
    if (!result.admission.soldOut) console.log(`\nNo se agotó durante la corrida (${paid} de ${STOCK}): subí --seconds o bajá --stock para ver la parte de «Agotado».`);
    const machine = load.end();
    if (flags.json) console.log(JSON.stringify({ ...result, ...(load.mayJudge ? {} : { ratio: null, lightRatio: null, dataRatio: null }), machineLoad: machine }));
  } catch (error) {
    console.error(error);
    if (appLog) console.error(appLog.slice(-3000));
    failed = true;
  } finally {
    agent.destroy();
    await stopApp(app);
    await closeDb();
    if (!flags.keep) {
      const drop = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await drop.unsafe(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
      await drop.end({ timeout: 5 });
    } else log(`Base conservada: ${BENCH_URL}`);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
