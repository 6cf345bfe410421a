/**
 * `npm run crash-test`: kill -9 in the middle of a rush, five times, and prove the money survives (decision 118).
 *
 * 1. A fresh database on the PostgreSQL server of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test
 *    → `tribuna_crash_…`, dropped at the end unless --keep), migrated, with one published event of three
 *    ticket types with little stock (made through the domain functions).
 * 2. Five times: starts the production build (`node build/serve/server.js`, job runner on, simulated payments)
 *    on a free port, and lets a rush of clients at it: anonymous buyers holding tickets (GraphQL createOrder),
 *    buyers paying on the sandbox provider's page (POST /sandbox/mercadopago/{billingId}: the payment is
 *    recorded at the "provider" and its signed notification applied), the provider re-delivering notifications
 *    of payments it made (POST /api/webhooks/mercadopago, signed), and the clock moving some holds past their
 *    expiry (so the server's job runner expires them during the rush). After a random moment (seeded), SIGKILL.
 *    Right after every kill, before anything recovers, the invariants that must hold at every instant:
 *    - no oversell: `sold` ≤ stock and live issued tickets ≤ stock, per ticket type;
 *    - stock counted exactly once: `sold` = units of draft orders + units of paid orders (an expired or
 *      cancelled hold gave its units back once: never twice, never not at all);
 *    - ledger = billings = issued tickets, order by order (server/orders/ledger-invariants.ts, docs/locking.md rule 5);
 *    - integrators hear about every sale: an organization's outgoing webhook (a receiver in this process that
 *      answers 500 to some deliveries during the rush) has exactly one `order.paid` delivery per order with
 *      tickets, none for an order without, and every delivery not yet delivered still has its job queued.
 * 3. Recovery: the server again; the clock moves 15 minutes (holds due, claims of the killed processes past the
 *    job lock timeout), the job runner expires what is due; then the provider re-delivers the notification of
 *    every payment it made, as Mercado Pago does until it gets a 200. Then, with the server stopped:
 *    - the same invariants, and no order left holding stock unpaid, no job given up;
 *    - no lost approved payment: every payment the provider approved ends as the paid billing of its order
 *      (tickets issued, ledger booked), or, when its hold had expired and the stock was gone, refunded
 *      (billing refunded, a provider refund queued, the ledger netting zero);
 *    - every `order.paid` delivery reached the receiver, correctly signed (a kill between sending and
 *      recording may send one twice: the same `Tribuna-Webhook-Id`, which integrators deduplicate).
 *
 * Prints what it checked; exit code 1 when any invariant failed. Runs in CI from tests/e2e/crash-safety.spec.ts
 * (the production-build phase). docs/runbook.md («Qué pasa si el proceso muere»), decision 118.
 *
 * `--signal SIGTERM` is the graceful variant (docs/runbook.md, «Apagado»): the same rush, stopped with SIGTERM
 * instead of SIGKILL, optionally through `npm start` with `--workers N` (cluster mode). Besides the invariants it
 * checks that every stop exits with code 0, that the requests in flight were answered (the only failures a
 * client sees are connections refused once the process stopped accepting), and that no job is left claimed:
 * the recovery does not move the clock past the job lock timeout, so a claim left behind would show.
 *
 *   npm run crash-test -- [--kills 5] [--seed 20261126] [--keep] [--verbose] [--signal SIGTERM] [--workers 2]
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { benchAppEnv, benchDatabase, ensureProductionBuild, freePort, serverNodeFlags, waitForApp } from "./bench-support";
// The run's choices and kill moments come from the seed (mulberry32, as the tests' data).
import { seeded } from "#tests/support/random";
import type { Ctx } from "#server/context";

const ROOT = path.resolve(import.meta.dirname, "..");
const TICKET_TYPES = [
  // Enough for the rush to keep buying through the five kills; Palco sells out early (buyers refused, late payments refunded).
  { name: "Campo", price: 1_500_000, stock: 150 },
  { name: "Platea", price: 2_500_000, stock: 70 },
  { name: "Palco", price: 6_000_000, stock: 12 },
];
const CLIENTS = 16;
/** The job queue's lock timeout (server/jobs/queue.ts LOCK_TIMEOUT_MS) plus a second: the clock jumps past it in recovery. */
const CLOCK_JUMP_SQL = "interval '5 minutes 1 second'";

export interface CrashTestOptions {
  kills?: number;
  seed?: number;
  keep?: boolean;
  verbose?: boolean;
  /** SIGKILL (the crash, default) or SIGTERM (the graceful shutdown). */
  signal?: "SIGKILL" | "SIGTERM";
  /** With SIGTERM: worker processes through `npm start`'s cluster mode (WEB_CONCURRENCY). */
  workers?: number;
  log?: (message: string) => void;
}

export interface CrashTestReport {
  checks: string[];
  problems: string[];
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const CREATE_ORDER = /* GraphQL */ `
  mutation CreateOrder($input: CreateOrderInput!) {
    createOrder(input: $input) {
      billingId
      order { id }
    }
  }
`;
const FIRST_NAMES = ["Sofía", "Mateo", "Valentina", "Joaquín", "Martina", "Benjamín", "Catalina", "Thiago"];
const LAST_NAMES = ["González", "Rodríguez", "Fernández", "López", "Martínez", "Pérez"];

export async function runCrashTest(options: CrashTestOptions = {}): Promise<CrashTestReport> {
  const kills = options.kills ?? 5;
  const signal = options.signal ?? "SIGKILL";
  const graceful = signal === "SIGTERM";
  const workers = graceful ? Math.max(1, options.workers ?? 1) : 1;
  const seed = options.seed ?? 20261126;
  const started = Date.now();
  const say = options.log ?? ((message: string) => console.error(`· ${message}`));
  const log = (message: string) => say(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);
  const rng = seeded(seed);
  const checks: string[] = [];
  const problems: string[] = [];

  await ensureProductionBuild(ROOT, log);
  const target = benchDatabase("crash");
  const databaseName = target.name.replace("tribuna_bench_", "tribuna_");
  const databaseUrl = target.url.replace(target.name, databaseName);
  const authSecret = crypto.randomBytes(36).toString("base64url");

  // The domain modules read the environment lazily: this process signs notifications with the server's secret.
  process.env.DATABASE_URL = databaseUrl;
  process.env.AUTH_SECRET = authSecret;
  process.env.PAYMENTS_SANDBOX = "true";
  delete process.env.MERCADOPAGO_WEBHOOK_SECRET;
  delete process.env.MERCADOPAGO_ACCESS_TOKEN;

  const admin = postgres(target.adminUrl, { max: 1, onnotice: () => {} });
  let created = false;
  let server: ChildProcess | null = null;
  let serverLog = "";
  let database: { close(): Promise<void> } | null = null;
  let sql: postgres.Sql | null = null;
  let receiver: http.Server | null = null;

  const stopServer = async (signal: NodeJS.Signals) => {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 8_000);
    await exited;
    clearTimeout(timer);
  };
  const onExit = () => server?.kill("SIGKILL");
  process.once("exit", onExit);

  try {
    await admin.unsafe(`CREATE DATABASE "${databaseName}"`);
    created = true;
    log(`Base ${databaseName} creada.`);
    const { connectPostgres, setDatabase } = await import("#server/db/client");
    const schema = await import("#server/db/schema");
    const { createOrganization } = await import("#server/organizations/organizations");
    const { acceptServiceConditions, createEvent, publishEvent, getEventForOrganizer } = await import("#server/events/events");
    const { assertLedgerMatches } = await import("#server/orders/ledger-invariants");
    const { buildSignedNotification } = await import("#server/payment-notifications/sandbox");
    const connection = connectPostgres(databaseUrl, { max: 4 });
    database = connection;
    setDatabase(connection);
    await connection.migrate();
    const db = connection.db;
    sql = postgres(databaseUrl, { max: 4, onnotice: () => {} });
    const q = sql;

    // ── The event on sale ──
    const [owner] = await db.insert(schema.users).values({ email: `productora-${Date.now()}@crash.tribuna.ar`, firstName: "Productora", lastName: "Choque", roles: ["producer"] }).returning();
    const ctx: Ctx = { db, actor: { kind: "user", userId: owner.id, email: owner.email, roles: ["producer"] }, now: new Date(), ip: "127.0.0.1" };
    const organization = await createOrganization(ctx, { name: "Productora Choque", cuit: "30-71234567-1", contactEmail: "choque@productora.com.ar" });
    const startsAt = new Date(Date.now() + 30 * 86_400_000);
    const { event } = await createEvent(ctx, {
      organizationId: organization.id,
      name: "Salida a la venta con cortes",
      description: "El servidor se cae en medio de la venta.",
      category: "fiestas",
      venueName: "Estadio de prueba",
      venueAddress: "Av. Siempre Viva 742",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [{ startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 5 * 3600_000).toISOString() }],
      ticketTypes: TICKET_TYPES,
    });
    await acceptServiceConditions(ctx, { eventId: event.id });
    await publishEvent(ctx, { id: event.id });
    const { tickets } = await getEventForOrganizer(ctx, event.id);
    log(`Evento «${event.name}» publicado: ${tickets.map((t) => `${t.name} (stock ${t.stock})`).join(", ")}.`);

    // ── An integrator listening: the organization's outgoing webhook, to a receiver here ──
    // During the rush it answers 500 to some deliveries (the queue retries them later); in recovery, 200 to all.
    const { encryptWebhookSecret, newWebhookSecret, verifyWebhookSignature } = await import("#server/webhooks/deliveries");
    const hookSecret = newWebhookSecret();
    const hookRng = seeded(seed ^ 0x5eed);
    const hook = { failing: true, refused: 0, badSignatures: 0, received: new Map<string, number>() };
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const header = (name: string) => (Array.isArray(req.headers[name]) ? req.headers[name]![0] : (req.headers[name] as string | undefined));
        if (!verifyWebhookSignature(hookSecret, header("tribuna-webhook-timestamp"), header("tribuna-signature"), body)) {
          hook.badSignatures += 1;
          res.writeHead(400).end();
          return;
        }
        if (hook.failing && hookRng() < 0.3) {
          hook.refused += 1;
          res.writeHead(500).end();
          return;
        }
        const id = header("tribuna-webhook-id") ?? "";
        hook.received.set(id, (hook.received.get(id) ?? 0) + 1);
        res.writeHead(200).end();
      });
    });
    const hookServer = receiver;
    await new Promise<void>((resolve) => hookServer.listen(0, "127.0.0.1", resolve));
    const hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/tribuna`;
    // Straight into the table: the URL rule (public https addresses only) is the page's, not this test's. The server
    // reaches this one local receiver through the test-only preload below (tests/support/outgoing-test-receiver.mjs).
    await db.insert(schema.webhookEndpoints).values({ organizationId: organization.id, url: hookUrl, description: "Prueba de cortes", events: ["order.paid"], secretEncrypted: encryptWebhookSecret(hookSecret) });
    log(`Webhook de la organización hacia ${hookUrl} (order.paid).`);

    // ── The server ──
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The benchmarks' production settings (APP_URL is `base`, DATA_DIR named after the database), with the secret
    // this process signs notifications with; JOBS and the third parties' keys are deleted below.
    const serverEnv: NodeJS.ProcessEnv = {
      ...benchAppEnv({ port, databaseUrl, databaseName, seedDemo: false }),
      AUTH_SECRET: authSecret,
      SMTP_URL: "",
      TRIBUNA_TEST_WEBHOOK_RECEIVER: `127.0.0.1:${(hookServer.address() as AddressInfo).port}`,
    };
    if (workers > 1) serverEnv.WEB_CONCURRENCY = String(workers);
    for (const key of ["JOBS", "SENTRY_DSN", "POSTHOG_KEY", "MERCADOPAGO_ACCESS_TOKEN", "MERCADOPAGO_WEBHOOK_SECRET", "MERCADOPAGO_CLIENT_ID"]) delete serverEnv[key];
    const startServer = async () => {
      serverLog = "";
      // Plain node on the compiled server, one process: SIGKILL hits the server itself, not a wrapper. With workers,
      // `npm start`'s own script (scripts/start.mjs), whose primary hands SIGTERM to each worker.
      const entry = workers > 1 ? "scripts/start.mjs" : "build/serve/server.js";
      const child = spawn(process.execPath, [...serverNodeFlags(ROOT), "--import", path.join(ROOT, "tests/support/outgoing-test-receiver.mjs"), entry], { cwd: ROOT, env: serverEnv, stdio: ["ignore", "pipe", "pipe"] });
      server = child;
      const keep = (chunk: Buffer) => {
        // A request the server read and did not finish answering says so in its log line (server/monitoring/operations.ts).
        // Counted from the signal on (the start's own probes give up on a slow first page, which is not this).
        if (signalled) stats.aborted += (chunk.toString().match(/"aborted":true/g) ?? []).length;
        serverLog = (serverLog + chunk.toString()).slice(-20_000);
        if (options.verbose) process.stderr.write(chunk);
      };
      child.stdout!.on("data", keep);
      child.stderr!.on("data", keep);
      await waitForApp(`${base}/ayuda`, child, () => serverLog, 120_000);
      return child;
    };

    // ── What the clients do ──
    const pendingBillings: string[] = [];
    const stats = { holds: 0, soldOut: 0, payments: 0, rejections: 0, redeliveries: 0, clockMoves: 0, cut: 0, refused: 0, closedIdle: 0, reset: 0, aborted: 0, unexpected: [] as string[] };
    // Graceful: from the SIGTERM on, a connection refused is the process no longer accepting (not a loss).
    let signalled = false;
    let buyer = 0;
    const post = (url: string, init: RequestInit) => fetch(`${base}${url}`, { method: "POST", redirect: "manual", signal: AbortSignal.timeout(30_000), ...init });

    const buy = async () => {
      const i = buyer++;
      const ticket = tickets[Math.floor(rng() * tickets.length)];
      const payer = {
        firstName: FIRST_NAMES[i % FIRST_NAMES.length],
        lastName: LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length],
        email: `comprador${i + 1}@crash.tribuna.ar`,
        documentType: "dni",
        documentNumber: String(20_000_000 + i),
        phoneNumber: "+5491155551234",
      };
      const input = { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 + Math.floor(rng() * 3) }], payer, paymentMethod: "MERCADO_PAGO" };
      const res = await post("/api/graphql", { headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ query: CREATE_ORDER, variables: { input } }) });
      const json = (await res.json()) as { data?: { createOrder?: { billingId: string } | null }; errors?: { message: string; extensions?: { code?: string } }[] };
      if (json.data?.createOrder?.billingId) {
        stats.holds += 1;
        pendingBillings.push(json.data.createOrder.billingId);
      } else if (json.errors?.[0]?.extensions?.code === "CONFLICT") stats.soldOut += 1;
      else stats.unexpected.push(`createOrder: HTTP ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
    };

    // The buyer pays on the provider's page (each billing at most once: a second payment of one billing is another story).
    const pay = async () => {
      const billingId = pendingBillings.splice(Math.floor(rng() * pendingBillings.length), 1)[0];
      if (!billingId) return buy();
      const status = rng() < 0.9 ? "approved" : "rejected";
      const res = await post(`/sandbox/mercadopago/${billingId}`, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: `status=${status}` });
      await res.arrayBuffer();
      if (res.status === 302) stats[status === "approved" ? "payments" : "rejections"] += 1;
      else stats.unexpected.push(`pago ${billingId}: HTTP ${res.status}`);
    };

    // The provider sends again the notification of a payment it made.
    const redeliver = async (paymentId?: string) => {
      const id = paymentId ?? (await q<{ id: string }[]>`select id from sandbox_payments order by random() limit 1`)[0]?.id;
      if (!id) return;
      const notification = buildSignedNotification(id);
      const res = await post(`/api/webhooks/mercadopago?${notification.query?.toString() ?? ""}`, { headers: notification.headers as Record<string, string>, body: JSON.stringify(notification.body) });
      const text = await res.text();
      if (res.status === 200) stats.redeliveries += 1;
      else stats.unexpected.push(`notificación ${id}: HTTP ${res.status} ${text.slice(0, 120)}`);
    };

    // The clock: a few holds reach their expiry now, and their expiry job is due (the server's runner takes it). Its due time
    // goes back as far as the hold's 15 minutes, ahead of the tickets emails the payments queued since, as it would be.
    // The picked orders are locked in id order: two clients moving the clock at once (likely near the end, with few
    // holds left) would otherwise lock the same two orders in opposite orders and deadlock each other.
    const moveClock = async () => {
      const moved = await q`
        with picked as (
          select id from orders where status = 'draft' and event_id = ${event.id} order by random() limit 2
        ), locked as (
          select id from orders where id in (select id from picked) and status = 'draft' order by id for update
        ), due as (
          update orders set hold_expires_at = now() - interval '1 second'
          where id in (select id from locked)
          returning id::text
        )
        update jobs set run_at = now() - interval '15 minutes' where kind = 'expire-order' and done_at is null and failed_at is null and payload->>'orderId' in (select id from due)
        returning id`;
      stats.clockMoves += moved.length;
    };

    const client = async (stop: () => boolean) => {
      while (!stop()) {
        const r = rng();
        try {
          if (r < 0.45) await buy();
          else if (r < 0.8) await pay();
          else if (r < 0.9) await redeliver();
          else {
            await moveClock();
            await sleep(50);
          }
        } catch (error) {
          const code = ((error as Error & { cause?: { code?: string } }).cause ?? {}).code;
          if (graceful && signalled && code === "ECONNREFUSED") {
            stats.refused += 1;
            await sleep(20);
          } else if (graceful && signalled && code === "ECONNRESET") {
            // A connection reset before the server read the request (a keep-alive one closed as idle, or one waiting to be
            // accepted when the process stopped listening): nothing done, as the server log's lack of aborted requests proves.
            stats.reset += 1;
          } else if (graceful && signalled && code === "UND_ERR_SOCKET") {
            // A keep-alive connection the server closed as idle while this client sent on it: never read, nothing done.
            stats.closedIdle += 1;
          } else if (stop() && !graceful) stats.cut += 1;
          // A request cut by the kill (connection reset or refused): what a browser sees when the server dies.
          else stats.unexpected.push(`cliente${graceful && signalled ? " durante el apagado" : ""}: ${(error as Error).message}${code ? ` (${code})` : ""}`);
        }
      }
    };

    // ── Invariants ──
    const invariants = async (moment: string, final: boolean) => {
      const found: string[] = [];
      const rows = await q<{ id: string; name: string; stock: number; sold: number; live: number; drafts: number; paid: number }[]>`
        select tt.id::text, tt.name, tt.stock, tt.sold,
          (select count(*)::int from issued_products ip where ip.ticket_type_id = tt.id and ip.status <> 'voided') as live,
          (select coalesce(sum(oi.qty), 0)::int from order_items oi join orders o on o.id = oi.order_id where oi.ticket_type_id = tt.id and o.status = 'draft') as drafts,
          (select coalesce(sum(oi.qty), 0)::int from order_items oi join orders o on o.id = oi.order_id
             where oi.ticket_type_id = tt.id and o.status = 'billed' and exists (select 1 from billings b where b.order_id = o.id and b.status = 'approved')) as paid
        from ticket_types tt where tt.event_id = ${event.id} order by tt.sort_order`;
      for (const t of rows) {
        if (t.sold > t.stock) found.push(`${moment}: SOBREVENTA de ${t.name}: sold ${t.sold} con stock ${t.stock}`);
        if (t.live > t.stock) found.push(`${moment}: SOBREVENTA de ${t.name}: ${t.live} entradas emitidas con stock ${t.stock}`);
        if (t.live !== t.paid) found.push(`${moment}: ${t.name}: ${t.live} entradas emitidas para ${t.paid} unidades pagadas`);
        if (t.sold !== t.drafts + t.paid) found.push(`${moment}: ${t.name}: sold ${t.sold} ≠ reservadas ${t.drafts} + pagadas ${t.paid} (una reserva devuelta dos veces o nunca)`);
      }
      const orderIds = await q<{ id: string }[]>`select id::text from orders where event_id = ${event.id}`;
      for (const { id } of orderIds) {
        try {
          await assertLedgerMatches(db, id);
        } catch (error) {
          found.push(`${moment}: ${(error as Error).message}`);
        }
      }
      // Integrators hear about every sale: one order.paid per order with tickets (written with the tickets), none for
      // an order without, and a delivery not yet delivered always has its job waiting.
      const announced = await q<{ code: string; issued: boolean; hooks: number }[]>`
        select o.code, exists (select 1 from issued_products ip where ip.order_id = o.id) as issued,
          (select count(*)::int from webhook_deliveries d where d.event_type = 'order.paid' and d.body::jsonb #>> '{data,orderCode}' = o.code) as hooks
        from orders o where o.event_id = ${event.id}`;
      for (const o of announced) {
        if (o.issued && o.hooks !== 1) found.push(`${moment}: la venta ${o.code} tiene ${o.hooks} avisos order.paid (tiene que tener uno)`);
        if (!o.issued && o.hooks) found.push(`${moment}: ${o.hooks} avisos order.paid de ${o.code}, que no tiene entradas`);
      }
      const orphanDeliveries = await q<{ id: string }[]>`
        select d.id::text from webhook_deliveries d
        where d.status = 'pending' and not exists (
          select 1 from jobs j where j.kind = 'webhook-delivery' and j.payload->>'deliveryId' = d.id::text and j.done_at is null and j.failed_at is null)`;
      for (const d of orphanDeliveries) found.push(`${moment}: el aviso ${d.id} quedó pendiente sin job que lo mande`);
      if (final) {
        const deliveries = await q<{ id: string; status: string }[]>`select id::text, status from webhook_deliveries where event_type = 'order.paid'`;
        const missing = deliveries.filter((d) => !hook.received.has(d.id));
        for (const d of missing.slice(0, 10)) found.push(`${moment}: el aviso ${d.id} (${d.status}) nunca llegó al integrador`);
        if (missing.length > 10) found.push(`${moment}: … y ${missing.length - 10} avisos más que nunca llegaron`);
        if (hook.badSignatures) found.push(`${moment}: ${hook.badSignatures} avisos con la firma mal`);
        const twice = [...hook.received.values()].filter((n) => n > 1).length;
        checks.push(
          `Webhooks: ${deliveries.length} avisos order.paid, uno por venta, todos recibidos con la firma bien (${hook.refused} intentos rechazados con 500 y reintentados por la cola; ${twice} recibidos dos veces por un corte entre el envío y su registro, con el mismo id)`,
        );
      }
      if (final) {
        const [{ drafts }] = await q<{ drafts: number }[]>`select count(*)::int as drafts from orders where event_id = ${event.id} and status = 'draft'`;
        if (drafts) found.push(`${moment}: ${drafts} órdenes siguen reservando stock sin pagar después de vencer`);
        const failed = await q<{ kind: string; last_error: string | null }[]>`select kind, last_error from jobs where failed_at is not null`;
        for (const job of failed) found.push(`${moment}: un job ${job.kind} se abandonó: ${job.last_error}`);
        // Every payment the provider approved (a refund made since flips it to refunded) is accounted for.
        const lost = await q<{ id: string; billing_status: string; reference: string | null; refund: string | null }[]>`
          select sp.id, b.status as billing_status, b.provider_reference as reference, pr.provider_payment_id as refund
          from sandbox_payments sp join billings b on b.id = sp.billing_id
          left join payment_refunds pr on pr.billing_id = b.id
          where sp.status in ('approved', 'refunded')
            and not ((b.status = 'approved' and b.provider_reference = sp.id) or (b.status = 'refunded' and pr.provider_payment_id = sp.id))`;
        for (const p of lost) found.push(`${moment}: PAGO APROBADO PERDIDO ${p.id}: facturación ${p.billing_status}, referencia ${p.reference ?? "ninguna"}, devolución ${p.refund ?? "ninguna"}`);
      }
      const [{ orders: count, expired }] = await q<{ orders: number; expired: number }[]>`
        select count(*)::int as orders, (count(*) filter (where status = 'expired'))::int as expired from orders where event_id = ${event.id}`;
      const summary = rows.map((t) => `${t.name} ${t.sold}/${t.stock} (${t.paid} pagadas, ${t.drafts} reservadas)`).join(", ");
      checks.push(`${moment}: ${count} órdenes (${expired} vencidas); ${summary}; sin sobreventa, stock contado una vez, libro mayor = facturaciones = entradas${final ? ", ningún pago aprobado perdido, ninguna reserva colgada" : ""}${found.length ? ` — ${found.length} PROBLEMAS` : ""}`);
      problems.push(...found);
    };

    // ── Five kills ──
    for (let k = 1; k <= kills; k++) {
      const booting = Date.now();
      const child = await startServer();
      if (k === 1) log(`Servidor listo en ${((Date.now() - booting) / 1000).toFixed(1)} s.`);
      let stopped = false;
      signalled = false;
      const clients = Array.from({ length: CLIENTS }, () => client(() => stopped));
      // Long enough, mostly, for the job runner (every 5 s) to expire holds during the rush.
      const killAfter = 3_000 + Math.floor(rng() * 5_000);
      await sleep(killAfter);
      // The crash stops the clients with the kill; the graceful stop lets them keep coming while the process drains.
      if (!graceful) stopped = true;
      signalled = true;
      const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve({ code: child.exitCode, signal: child.signalCode }) : child.once("exit", (code, exitSignal) => resolve({ code, signal: exitSignal })),
      );
      const signalledAt = Date.now();
      child.kill(signal);
      const exited = await exit;
      stopped = true;
      server = null;
      await Promise.all(clients);
      if (graceful) {
        if (exited.code !== 0) problems.push(`SIGTERM ${k}: el servidor terminó con ${exited.code ?? exited.signal} (tiene que ser 0)\n${serverLog.slice(-2000)}`);
        const [{ claimed }] = await q<{ claimed: number }[]>`select count(*)::int as claimed from jobs where locked_at is not null and done_at is null and failed_at is null`;
        if (claimed) problems.push(`SIGTERM ${k}: ${claimed} jobs quedaron tomados por un proceso que ya no existe`);
        if (stats.aborted) problems.push(`SIGTERM ${k}: ${stats.aborted} pedidos leídos por el servidor quedaron sin respuesta completa`);
        stats.aborted = 0;
        checks.push(`SIGTERM ${k}: salió con código ${exited.code} en ${((Date.now() - signalledAt) / 1000).toFixed(1)} s; ningún job quedó tomado`);
      }
      log(`Corte ${k}/${kills}: ${signal} a los ${(killAfter / 1000).toFixed(1)} s (${stats.holds} reservas, ${stats.payments} pagos, ${stats.redeliveries} notificaciones, ${graceful ? `${stats.refused} conexiones rechazadas ya apagando` : `${stats.cut} pedidos cortados`} hasta ahora).`);
      await invariants(`después del corte ${k}`, false);
    }

    // ── Recovery ──
    // Fifteen minutes later (while the server is down): every hold is past its expiry and the claims of killed processes past the lock timeout.
    await q`update orders set hold_expires_at = now() - interval '1 second' where status = 'draft' and event_id = ${event.id}`;
    // Only a killed process leaves claims behind; after graceful stops, none may be there to move.
    if (!graceful) await q.unsafe(`update jobs set locked_at = locked_at - ${CLOCK_JUMP_SQL} where locked_at is not null and done_at is null and failed_at is null`);
    await q`update jobs set run_at = now() - interval '15 minutes' where done_at is null and failed_at is null and kind in ('expire-order', 'provider-refund')`;
    await startServer();
    const settle = async (what: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const [{ busy }] = await q<{ busy: number }[]>`
          select (select count(*) from orders where event_id = ${event.id} and status = 'draft')::int
               + (select count(*) from jobs where done_at is null and failed_at is null and run_at <= now() and kind in ('expire-order', 'provider-refund'))::int as busy`;
        if (!busy) return;
        if (options.verbose) log(`${what}: ${busy} pendientes`);
        if (Date.now() > deadline) {
          problems.push(`recuperación: ${what} no terminó en 60 s (${busy} pendientes)`);
          return;
        }
        await sleep(500);
      }
    };
    await settle("el vencimiento de las reservas");
    log("Recuperación: las reservas vencidas volvieron a la venta.");
    // The provider re-delivers every notification it made until it gets a 200 (Mercado Pago retries for days).
    const payments = await q<{ id: string }[]>`select id from sandbox_payments order by created_at`;
    const before = stats.redeliveries;
    for (const { id } of payments) await redeliver(id);
    log(`Recuperación: ${payments.length} pagos notificados de nuevo (${stats.redeliveries - before} con 200).`);
    // Refunds of payments that arrived after their hold expired and found no stock: the job gives the money back.
    await q`update jobs set run_at = now() - interval '15 minutes' where done_at is null and failed_at is null and kind = 'provider-refund'`;
    await settle("las devoluciones al proveedor");
    // The integrator's system is healthy again: every delivery still pending (refused during the rush, or cut by a kill) is due now.
    hook.failing = false;
    await q`update jobs set run_at = now() where done_at is null and failed_at is null and kind = 'webhook-delivery'`;
    for (const deadline = Date.now() + 60_000; ; ) {
      const [{ pending }] = await q<{ pending: number }[]>`select count(*)::int as pending from webhook_deliveries where status = 'pending'`;
      if (!pending) break;
      if (Date.now() > deadline) {
        problems.push(`recuperación: ${pending} avisos a integradores siguen pendientes después de 60 s`);
        break;
      }
      await sleep(500);
    }
    log(`Recuperación: avisos a integradores entregados (${hook.received.size} distintos recibidos).`);
    await stopServer("SIGTERM");
    log("Recuperación: devoluciones hechas, servidor detenido.");
    await invariants("después de recuperarse", true);

    const [{ expired }] = await q<{ expired: number }[]>`select count(*)::int as expired from orders where event_id = ${event.id} and status = 'expired'`;
    const [{ honoured }] = await q<{ honoured: number }[]>`select count(*)::int as honoured from billings b join orders o on o.id = b.order_id where o.event_id = ${event.id} and b.status = 'refunded'`;
    checks.push(
      `La corrida: ${stats.holds} reservas, ${stats.soldOut} rechazadas por falta de stock, ${stats.payments} pagos aprobados y ${stats.rejections} rechazados en el sandbox, ${stats.redeliveries} notificaciones re-enviadas, ${stats.clockMoves} vencimientos adelantados, ${graceful ? `${stats.refused} conexiones rechazadas, ${stats.reset} reiniciadas antes de leerse y ${stats.closedIdle} ociosas cerradas durante los ${kills} SIGTERM${workers > 1 ? ` (${workers} workers)` : ""}, ningún pedido en curso cortado` : `${stats.cut} pedidos cortados por los ${kills} SIGKILL`}; al final ${expired} órdenes vencidas y ${honoured} pagos devueltos.`,
    );
    if (stats.unexpected.length) problems.push(...stats.unexpected.slice(0, 20).map((u) => `respuesta inesperada: ${u}`));
    if (!stats.payments || !stats.holds) problems.push("la corrida no llegó a reservar y pagar: no probó nada");
    return { checks, problems };
  } catch (error) {
    problems.push(`la prueba no pudo correr: ${(error as Error).stack ?? error}\n${serverLog.slice(-3000)}`);
    return { checks, problems };
  } finally {
    await stopServer("SIGKILL");
    process.removeListener("exit", onExit);
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(null)));
    await sql?.end({ timeout: 5 }).catch(() => {});
    await database?.close().catch(() => {});
    if (created && !options.keep) await admin.unsafe(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    else if (created) log(`Base conservada (--keep): ${databaseUrl}`);
    await admin.end({ timeout: 5 });
  }
}

async function main() {
  const { values: flags } = parseArgs({
    options: {
      kills: { type: "string", default: "5" },
      seed: { type: "string", default: "20261126" },
      keep: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
      signal: { type: "string", default: "SIGKILL" },
      workers: { type: "string", default: "1" },
    },
  });
  if (flags.signal !== "SIGKILL" && flags.signal !== "SIGTERM") throw new Error("--signal es SIGKILL o SIGTERM");
  const report = await runCrashTest({ kills: Number(flags.kills), seed: Number(flags.seed), keep: flags.keep, verbose: flags.verbose, signal: flags.signal, workers: Number(flags.workers) });
  console.log(`\nQué comprobó la prueba de cortes (${flags.signal === "SIGTERM" ? "SIGTERM, apagado ordenado" : "kill -9"}):`);
  for (const check of report.checks) console.log(`  ✓ ${check}`);
  if (report.problems.length) {
    console.log(`\n${report.problems.length} problema(s):`);
    for (const problem of report.problems) console.log(`  ✗ ${problem}`);
    process.exit(1);
  }
  console.log("\nTodo en orden: ningún corte vendió de más, perdió un pago ni desbalanceó el libro mayor.");
  process.exit(0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
  void main();
}
