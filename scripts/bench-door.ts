/**
 * `npm run bench:door` (docs/benchmarks.md): N door devices scanning at once against the
 * production build and PostgreSQL. Prints redeems per second and latency
 * percentiles of `redeemProduct`, checks that no ticket got in twice, and
 * drops its database. The goal: p95 under 100 ms with 50 devices on this machine.
 *
 *   npm run bench:door
 *   npm run bench:door -- --devices 50 --tickets 5000 --json
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { Ctx } from "#server/context";
import { benchAppEnv, benchDatabase, ensureProductionBuild, freePort, waitForApp, stopApp, machineLoad } from "./bench-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: { devices: { type: "string", default: "50" }, tickets: { type: "string", default: "5000" }, pace: { type: "string", default: "1000" }, json: { type: "boolean", default: false } },
});
/** Milliseconds between one device's scans in the door-paced phase (a doorperson needs a few seconds a person; 1 s is a brisk door). */
const PACE_MS = Number(flags.pace);
const DEVICES = Number(flags.devices);
const TICKETS = Number(flags.tickets);
const { adminUrl: ADMIN_URL, name: DB_NAME, url: BENCH_URL } = benchDatabase("door");
const log = (message: string) => {
  if (!flags.json) console.log(message);
};

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

async function main() {
  const load = machineLoad({ json: flags.json });
  await ensureProductionBuild(ROOT, log);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${DB_NAME}"`);
  let app: ChildProcess | undefined;
  let appLog = "";
  let closeDb: (() => Promise<void>) | null = null;
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = benchAppEnv({ port, databaseUrl: BENCH_URL, databaseName: DB_NAME, seedDemo: false });
    // The bench makes the data with the app's own secret: the PIN is encrypted and the QR signed with it.
    process.env.DATABASE_URL = BENCH_URL;
    process.env.AUTH_SECRET = env.AUTH_SECRET;
    const { connectPostgres, setDatabase } = await import("#server/db/client");
    const schema = await import("#server/db/schema");
    const { createOrganization } = await import("#server/organizations/organizations");
    const { acceptServiceConditions, createEvent, publishEvent, getEventForOrganizer } = await import("#server/events/events");
    const { createOrder } = await import("#server/orders/orders");
    const { payInSandbox } = await import("#server/payment-notifications/sandbox");
    const { ticketsOfOrder } = await import("#server/tickets/issue");
    const { qrPayloadFor } = await import("#server/tickets/qr");
    const { rotateDoorPin } = await import("#server/door/access");
    const database = connectPostgres(BENCH_URL, { max: 4 });
    setDatabase(database);
    closeDb = () => database.close();
    await database.migrate();
    const db = database.db;

    const [owner] = await db.insert(schema.users).values({ email: `puerta-${Date.now()}@bench.tribuna.ar`, firstName: "Productora", lastName: "Benchmark", roles: ["producer"] }).returning();
    const ctx: Ctx = { db, actor: { kind: "user", userId: owner.id, email: owner.email, roles: ["producer"] }, now: new Date(), ip: "127.0.0.1" };
    const organization = await createOrganization(ctx, { name: "Productora Benchmark", cuit: "30-71234567-1", contactEmail: "bench@productora.com.ar" });
    const startsAt = new Date(Date.now() - 3600_000);
    const { event } = await createEvent(ctx, {
      organizationId: organization.id,
      name: "Noche Benchmark",
      description: "Muchas puertas a la vez.",
      category: "fiestas",
      venueName: "Estadio de prueba",
      venueAddress: "Av. Siempre Viva 742",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [{ startsAt: new Date(Date.now() + 3600_000).toISOString(), endsAt: new Date(Date.now() + 6 * 3600_000).toISOString() }],
      ticketTypes: [{ name: "General", price: 1_000_000, stock: TICKETS + 10 }],
    });
    await acceptServiceConditions(ctx, { eventId: event.id });
    await publishEvent(ctx, { id: event.id });
    // Tonight started an hour ago (dates in the past cannot be created through the form).
    await db.update(schema.eventDates).set({ startsAt }).where((await import("drizzle-orm")).eq(schema.eventDates.eventId, event.id));
    const { tickets } = await getEventForOrganizer(ctx, event.id);
    const payer = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    const { order, billing } = await createOrder({ ...ctx, actor: { kind: "anonymous" } }, { eventSlug: event.slug, items: [{ ticketId: tickets[0].id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    const [first] = await ticketsOfOrder(db, order.id);
    // The rest of the tickets as copies of the first (same order), each with its own random code.
    const rows = Array.from({ length: TICKETS - 1 }, () => ({ orderId: first.orderId, orderItemId: first.orderItemId, ticketTypeId: first.ticketTypeId, eventId: first.eventId, code: crypto.randomBytes(16).toString("base64url"), holderName: first.holderName, holderEmail: first.holderEmail, status: "redeemable" as const }));
    for (let i = 0; i < rows.length; i += 1000) await db.insert(schema.issuedProducts).values(rows.slice(i, i + 1000));
    const codes = [first.code, ...rows.map((r) => r.code)].map(qrPayloadFor);
    const { pin } = await rotateDoorPin(ctx, event.id);
    log(`Evento «${event.name}» con ${codes.length} entradas y PIN de puerta.`);

    app = spawn("npm", ["start"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    app.stdout!.on("data", (c) => (appLog = (appLog + c).slice(-20_000)));
    app.stderr!.on("data", (c) => (appLog = (appLog + c).slice(-20_000)));
    await waitForApp(`${base}/ayuda`, app, () => appLog);

    // Node 20's fetch (undici) keeps connections alive: each device reuses its socket like a phone would.
    const graphql = async (query: string, variables: Record<string, unknown>) => {
      const response = await fetch(`${base}/api/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
      const text = await response.text();
      try {
        return JSON.parse(text) as { data?: Record<string, { outcome?: string; token?: string }>; errors?: { message: string }[] };
      } catch {
        return { errors: [{ message: `HTTP ${response.status}: ${text.slice(0, 200)}` }] };
      }
    };
    const opened = await graphql(`mutation($slug: String!, $pin: String!) { openDoor(eventSlug: $slug, staffPin: $pin) { token } }`, { slug: event.slug, pin });
    const doorSession = opened.data?.openDoor?.token;
    if (!doorSession) throw new Error(`openDoor no devolvió sesión: ${JSON.stringify(opened)}`);
    const REDEEM = `mutation($input: RedeemProductInput!) { redeemProduct(input: $input) { outcome } }`;
    // Every code some device was told "admitted", and how many times: the client's side of the final check.
    const admittedCodes = new Map<string, number>();
    const redeem = async (code: string, device: number) => {
      const started = performance.now();
      let outcome: string;
      try {
        const body = await graphql(REDEEM, { input: { eventSlug: event.slug, doorSession, code, door: `Puerta ${(device % 4) + 1}`, deviceId: `bench-${device}`, scanId: crypto.randomUUID() } });
        outcome = body.data?.redeemProduct?.outcome ?? `error: ${body.errors?.[0]?.message}`;
      } catch (error) {
        outcome = `error: ${(error as Error).message}`;
      }
      if (outcome === "admitted") admittedCodes.set(code, (admittedCodes.get(code) ?? 0) + 1);
      return { ms: performance.now() - started, outcome };
    };
    // Warm-up on a few codes kept out of the measurement.
    const warm = codes.splice(0, 20);
    for (const code of warm) await redeem(code, 0);

    // Each device takes the next code; one scan in ten repeats a code already scanned (someone showing the QR twice).
    let next = 0;
    const scanned: string[] = [];
    async function phase(codeCount: number, paceMs: number) {
      const latencies: number[] = [];
      const outcomes: Record<string, number> = {};
      // A first scan should be let in and a repeat answered "already_in"; anything else is counted here.
      let unexpected = 0;
      const last = Math.min(codes.length, next + codeCount);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: DEVICES }, async (_, device) => {
          // Devices do not start in step.
          if (paceMs) await new Promise((r) => setTimeout(r, Math.random() * paceMs));
          for (;;) {
            const repeat = scanned.length > 0 && Math.random() < 0.1;
            if (!repeat && next >= last) return;
            const code = repeat ? scanned[Math.floor(Math.random() * scanned.length)] : codes[next++];
            const { ms, outcome } = await redeem(code, device);
            if (!repeat) scanned.push(code);
            latencies.push(ms);
            outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
            if (outcome !== (repeat ? "already_in" : "admitted")) unexpected++;
            if (paceMs) await new Promise((r) => setTimeout(r, Math.max(0, paceMs - ms)));
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        scans: latencies.length,
        seconds: Number(seconds.toFixed(2)),
        redeemsPerSecond: Math.round(latencies.length / seconds),
        admitted: outcomes.admitted ?? 0,
        alreadyIn: outcomes.already_in ?? 0,
        errors: Object.entries(outcomes).reduce((n, [k, v]) => (k.startsWith("error") ? n + v : n), 0),
        unexpected,
        outcomes,
        p50: Number(percentile(sorted, 50).toFixed(1)),
        p95: Number(percentile(sorted, 95).toFixed(1)),
        p99: Number(percentile(sorted, 99).toFixed(1)),
        max: Number((sorted.at(-1) ?? 0).toFixed(1)),
      };
    }
    // At a door's pace first (every device one scan per PACE_MS), then as fast as the server answers.
    const paced = await phase(Math.floor(codes.length / 3), PACE_MS);
    const saturated = await phase(codes.length, 0);
    // Every device at once on the same code: exactly one gets in.
    const burstTicket = crypto.randomBytes(16).toString("base64url");
    await db.insert(schema.issuedProducts).values({ orderId: first.orderId, orderItemId: first.orderItemId, ticketTypeId: first.ticketTypeId, eventId: first.eventId, code: burstTicket, holderName: first.holderName, holderEmail: first.holderEmail, status: "redeemable" });
    const burst = await Promise.all(Array.from({ length: DEVICES }, (_, d) => redeem(qrPayloadFor(burstTicket), d)));
    const burstAdmitted = burst.filter((b) => b.outcome === "admitted").length;
    const burstAlreadyIn = burst.filter((b) => b.outcome === "already_in").length;
    const burstLatencies = burst.map((b) => b.ms).sort((a, b) => a - b);

    const { sql } = await import("drizzle-orm");
    const [check] = await db
      .select({ redeemed: sql<number>`count(*) filter (where status = 'redeemed')::int`, admittedScans: sql<number>`(select count(*)::int from door_scans where outcome = 'admitted')`, twice: sql<number>`(select count(*)::int from (select issued_product_id from door_scans where outcome = 'admitted' group by 1 having count(*) > 1) x)` })
      .from(schema.issuedProducts);
    const figures = {
      devices: DEVICES,
      paceMs: PACE_MS,
      paced,
      saturated,
      goalP95Under100ms: paced.p95 < 100,
      burst: { devices: DEVICES, admitted: burstAdmitted, alreadyIn: burstAlreadyIn, p50: Number(percentile(burstLatencies, 50).toFixed(1)), max: Number((burstLatencies.at(-1) ?? 0).toFixed(1)) },
      redeemedTickets: check.redeemed,
      admittedScans: check.admittedScans,
      ticketsAdmittedTwice: check.twice,
      codesAdmittedByClients: admittedCodes.size,
      codesClientsSawAdmittedTwice: [...admittedCodes.values()].filter((n) => n > 1).length,
      cpus: os.cpus().length,
      node: process.version,
    };
    const correct =
      check.twice === 0 &&
      burstAdmitted === 1 &&
      check.redeemed === check.admittedScans &&
      check.redeemed === admittedCodes.size &&
      figures.codesClientsSawAdmittedTwice === 0 &&
      paced.unexpected + saturated.unexpected === 0;
    const loadAtEnd = load.end();
    if (flags.json) console.log(JSON.stringify({ ...figures, correct, machineLoad: loadAtEnd }, null, 2));
    else {
      log(`\n${DEVICES} dispositivos a la vez (${os.cpus().length} núcleos, Node ${process.version})`);
      for (const [title, f] of [[`A ritmo de puerta (un escaneo cada ${PACE_MS} ms por dispositivo)`, paced], ["Saturado (sin pausa entre escaneos)", saturated]] as const) {
        log(`${title}: ${f.scans} escaneos en ${f.seconds} s`);
        log(`  canjes por segundo:   ${f.redeemsPerSecond}`);
        log(`  admitted ${f.admitted}, already_in ${f.alreadyIn}, errores ${f.errors}, inesperados ${f.unexpected}`);
        if (Object.keys(f.outcomes).some((k) => k !== "admitted" && k !== "already_in")) log(`  resultados:           ${Object.entries(f.outcomes).map(([k, v]) => `${k} ${v}`).join(", ")}`);
        log(`  latencia p50/p95/p99: ${f.p50} / ${f.p95} / ${f.p99} ms (máx. ${f.max} ms)`);
      }
      log(load.verdict(`Objetivo p95 < 100 ms a ritmo de puerta: ${figures.goalP95Under100ms ? "cumplido" : "NO cumplido"} (saturado: p95 ${saturated.p95} ms, ${saturated.p95 < 100 ? "cumplido" : "no cumplido"})`));
      log(`Ráfaga: ${DEVICES} dispositivos con el mismo código → ${burstAdmitted} admitted, ${burstAlreadyIn} already_in (p50 ${figures.burst.p50} ms, máx. ${figures.burst.max} ms)`);
      log(`En la base: entradas canjeadas ${check.redeemed}, escaneos aceptados ${check.admittedScans}, entradas aceptadas dos veces ${check.twice}`);
      log(`Según los dispositivos: códigos distintos con admitted ${admittedCodes.size}, códigos con admitted dos veces ${figures.codesClientsSawAdmittedTwice}`);
      log(correct ? "Correcto: ninguna entrada pasó dos veces." : "ERROR: el resultado no cierra.");
    }
    if (!correct) process.exitCode = 1;
  } finally {
    await stopApp(app);
    await closeDb?.();
    await admin.unsafe(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => undefined);
    await admin.end({ timeout: 5 });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
