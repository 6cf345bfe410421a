/**
 * `npm run bench:seats` (docs/benchmarks.md, "Asientos numerados"): a rush on a room of numbered seats
 * against the production build and PostgreSQL. Half the buyers pick two adjacent seats on the map (most of
 * them near the stage, where everyone looks first) and try again with another pair when someone was
 * faster; the other half ask for the best two available. Every buyer is one GraphQL `createOrder` over
 * HTTP (plus retries). Prints holds per second, conflicts (SEAT_TAKEN), latency percentiles, then pays
 * every hold in the sandbox and checks in the database that no seat was held or sold twice and that
 * seats, stock and tickets agree. Exit code 1 when anything does not add up. Not a test.
 *
 *   npm run bench:seats
 *   npm run bench:seats -- --buyers 2000 --rows 20 --seats-per-row 25 --concurrency 100 [--json]
 */
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { Ctx } from "#server/context";
import { benchAppEnv, benchDatabase, ensureProductionBuild, freePort, machineLoad, positiveInt, stopApp, waitForApp } from "./bench-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: {
    buyers: { type: "string", default: "2000" },
    rows: { type: "string", default: "20" },
    "seats-per-row": { type: "string", default: "25" },
    concurrency: { type: "string", default: "100" },
    retries: { type: "string", default: "2" },
    json: { type: "boolean", default: false },
  },
});
const BUYERS = positiveInt("buyers", flags.buyers!);
const ROWS = positiveInt("rows", flags.rows!);
const PER_ROW = positiveInt("seats-per-row", flags["seats-per-row"]!);
const CONCURRENCY = Math.min(positiveInt("concurrency", flags.concurrency!), BUYERS);
/** A picker whose pair was taken tries this many other pairs, like a person tapping again. */
const RETRIES = Number(flags.retries);
const SEATS_PER_ORDER = 2;
const { adminUrl: ADMIN_URL, name: DB_NAME, url: BENCH_URL } = benchDatabase("seats");
const log = (message: string) => {
  if (!flags.json) console.log(message);
};

const ROW_LABELS = Array.from({ length: ROWS }, (_, i) => (i < 26 ? String.fromCharCode(65 + i) : `Z${i - 25}`));
/** The front half of the rows is Platea, the back half Pullman. */
const categoryOfRow = (row: number) => (row < ROWS / 2 ? "Platea" : "Pullman");
const guidOf = (row: number, seat: number) => `${ROW_LABELS[row]}-${seat + 1}`;

function roomPlan() {
  return {
    name: `Sala de ${ROWS * PER_ROW} asientos`,
    size: { width: 40 + PER_ROW * 20, height: 80 + ROWS * 22 },
    categories: [
      { name: "Platea", color: "#38bdf8" },
      { name: "Pullman", color: "#f472b6" },
    ],
    sections: [
      {
        id: "sala",
        name: "Sala",
        kind: "numbered",
        rows: ROW_LABELS.map((label, row) => ({
          label,
          seats: Array.from({ length: PER_ROW }, (_, seat) => ({
            guid: guidOf(row, seat),
            number: String(seat + 1),
            x: 20 + seat * 20,
            y: 60 + row * 22,
            category: categoryOfRow(row),
          })),
        })),
      },
    ],
    shapes: [{ text: "Escenario", x: 40, y: 0, width: PER_ROW * 20 - 40, height: 30 }],
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
}

/**
 * Two adjacent seats a person would tap on the map they just loaded (`free`: the seats it showed free): in the
 * front rows three times out of four when there are some there, a random free pair otherwise; null when the map
 * showed none.
 */
function pairOnTheMap(free: Set<string>): string[] | null {
  const pairs: { row: number; seats: string[] }[] = [];
  for (let row = 0; row < ROWS; row++) {
    for (let seat = 0; seat < PER_ROW - 1; seat++) {
      const pair = [guidOf(row, seat), guidOf(row, seat + 1)];
      if (free.has(pair[0]!) && free.has(pair[1]!)) pairs.push({ row, seats: pair });
    }
  }
  if (!pairs.length) return null;
  const front = pairs.filter((p) => p.row < ROWS / 2);
  const from = front.length && Math.random() < 0.75 ? front : pairs;
  return from[Math.floor(Math.random() * from.length)]!.seats;
}

type Kind = "picked" | "best";
interface Attempt {
  kind: Kind;
  ms: number;
  outcome: "held" | "seat_taken" | "none_together" | "error";
  detail?: string;
  orderId?: string;
  billingId?: string;
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
    const env = benchAppEnv({
      port,
      databaseUrl: BENCH_URL,
      databaseName: DB_NAME,
      seedDemo: false,
    });
    process.env.DATABASE_URL = BENCH_URL;
    process.env.AUTH_SECRET = env.AUTH_SECRET;
    const { connectPostgres, setDatabase } = await import("#server/db/client");
    const schema = await import("#server/db/schema");
    const { sql, eq } = await import("drizzle-orm");
    const { createOrganization } = await import("#server/organizations/organizations");
    const { acceptServiceConditions, createEvent, publishEvent, getEventForOrganizer } = await import("#server/events/events");
    const { saveSeatMap } = await import("#server/seating/maps");
    const { setEventSeating } = await import("#server/seating/event-seating");
    const { payInSandbox } = await import("#server/payment-notifications/sandbox");
    const database = connectPostgres(BENCH_URL, { max: 6 });
    setDatabase(database);
    closeDb = () => database.close();
    await database.migrate();
    const db = database.db;

    const [owner] = await db
      .insert(schema.users)
      .values({
        email: `asientos-${Date.now()}@bench.tribuna.ar`,
        firstName: "Productora",
        lastName: "Benchmark",
        roles: ["producer"],
      })
      .returning();
    const ctx: Ctx = {
      db,
      actor: {
        kind: "user",
        userId: owner!.id,
        email: owner!.email,
        roles: ["producer"],
      },
      now: new Date(),
      ip: "127.0.0.1",
    };
    const organization = await createOrganization(ctx, {
      name: "Teatro Benchmark",
      cuit: "30-71234567-1",
      contactEmail: "bench@teatro.com.ar",
    });
    const { event } = await createEvent(ctx, {
      organizationId: organization.id,
      name: "Estreno con asientos",
      description: "Una sala llena en minutos.",
      category: "teatro",
      venueName: "Teatro de prueba",
      venueAddress: "Av. Corrientes 1234",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [
        {
          startsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          endsAt: new Date(Date.now() + 7 * 86_400_000 + 3 * 3600_000).toISOString(),
        },
      ],
      ticketTypes: [
        { name: "Platea", price: 2_500_000, stock: 1, maxPerOrder: 10 },
        { name: "Pullman", price: 1_500_000, stock: 1, maxPerOrder: 10 },
      ],
    });
    await acceptServiceConditions(ctx, { eventId: event.id });
    await publishEvent(ctx, { id: event.id });
    const { tickets } = await getEventForOrganizer(ctx, event.id);
    const ticketByName = new Map(tickets.map((t) => [t.name, t.id]));
    const map = await saveSeatMap(ctx, {
      organizationId: organization.id,
      plan: roomPlan(),
    });
    await setEventSeating(ctx, {
      eventId: event.id,
      seatMapId: map.id,
      categories: ["Platea", "Pullman"].map((category) => ({
        category,
        ticketTypeId: ticketByName.get(category)!,
      })),
    });
    const seatCount = ROWS * PER_ROW;
    log(`Sala de ${seatCount} asientos (${ROWS} filas de ${PER_ROW}; Platea adelante, Pullman atrás). ${BUYERS} compradores, ${CONCURRENCY} a la vez.`);

    app = spawn("npm", ["start"], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    app.stdout!.on("data", (c) => (appLog = (appLog + c).slice(-20_000)));
    app.stderr!.on("data", (c) => (appLog = (appLog + c).slice(-20_000)));
    await waitForApp(`${base}/ayuda`, app, () => appLog);

    const CREATE = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { id } } }`;
    const payer = {
      firstName: "Sofía",
      lastName: "Peña",
      email: "sofia@example.com",
      documentType: "dni",
      documentNumber: "30123456",
      phoneNumber: "+54 11 5555-1234",
    };
    async function order(
      kind: Kind,
      request: {
        seats?: string[];
        bestAvailable?: { category: string; quantity: number };
      }
    ): Promise<Attempt> {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/api/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            query: CREATE,
            variables: {
              input: {
                eventSlug: event.slug,
                items: [],
                ...request,
                payer,
                paymentMethod: "MERCADO_PAGO",
              },
            },
          }),
        });
        const body = (await response.json()) as {
          data?: { createOrder?: { billingId: string; order: { id: string } } };
          errors?: {
            message: string;
            extensions?: { code?: string; reason?: string };
          }[];
        };
        const ms = performance.now() - started;
        const made = body.data?.createOrder;
        if (made)
          return {
            kind,
            ms,
            outcome: "held",
            orderId: made.order.id,
            billingId: made.billingId,
          };
        const error = body.errors?.[0];
        if (error?.extensions?.reason === "SEAT_TAKEN") return { kind, ms, outcome: "seat_taken" };
        if (error?.extensions?.code === "CONFLICT" && kind === "best") return { kind, ms, outcome: "none_together", detail: error.message };
        return {
          kind,
          ms,
          outcome: "error",
          detail: `${error?.extensions?.code ?? response.status}: ${error?.message ?? ""}`,
        };
      } catch (error) {
        return {
          kind,
          ms: performance.now() - started,
          outcome: "error",
          detail: (error as Error).message,
        };
      }
    }

    // Warm-up on the app's hot path: a few single best-available holds, paid and counted with the rest at the end.
    const warmUp: Attempt[] = [];
    for (let i = 0; i < 10; i++) warmUp.push(await order("best", { bestAvailable: { category: "Pullman", quantity: 1 } }));
    if (warmUp.some((a) => a.outcome !== "held")) throw new Error(`El calentamiento no reservó: ${JSON.stringify(warmUp.find((a) => a.outcome !== "held"))}`);

    // What a picker's phone loads before each tap: the public map of the date with each seat's state.
    const dateId = (await db.select({ id: schema.eventDates.id }).from(schema.eventDates).where(eq(schema.eventDates.eventId, event.id)))[0]!.id;
    const mapReads: number[] = [];
    const SEATING = `query($eventId: ID!, $dateId: ID!) { eventSeating(eventId: $eventId, dateId: $dateId) { seats { guid state } } }`;
    async function freeOnTheMap(): Promise<Set<string>> {
      const started = performance.now();
      const response = await fetch(`${base}/api/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: SEATING, variables: { eventId: event.id, dateId } }) });
      const body = (await response.json()) as { data?: { eventSeating?: { seats: { guid: string; state: string }[] } } };
      mapReads.push(performance.now() - started);
      return new Set((body.data?.eventSeating?.seats ?? []).filter((seat) => seat.state === "free").map((seat) => seat.guid));
    }
    let pickersWithoutPair = 0;
    let lastHoldAt = 0;

    const attempts: Attempt[] = [];
    const buyers: { kind: Kind; done: boolean; held: boolean }[] = Array.from({ length: BUYERS }, (_, i) => ({
      kind: i % 2 === 0 ? "picked" : "best",
      done: false,
      held: false,
    }));
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (;;) {
          const buyer = buyers[next++];
          if (!buyer) return;
          if (buyer.kind === "best") {
            const category = Math.random() < 0.6 ? "Platea" : "Pullman";
            const attempt = await order("best", {
              bestAvailable: { category, quantity: SEATS_PER_ORDER },
            });
            attempts.push(attempt);
            if (attempt.outcome === "held") lastHoldAt = performance.now();
            buyer.held = attempt.outcome === "held";
          } else {
            for (let tries = 0; tries <= RETRIES; tries++) {
              const pair = pairOnTheMap(await freeOnTheMap());
              if (!pair) {
                pickersWithoutPair++;
                break;
              }
              const attempt = await order("picked", { seats: pair });
              attempts.push(attempt);
              if (attempt.outcome === "held") lastHoldAt = performance.now();
              if (attempt.outcome !== "seat_taken") {
                buyer.held = attempt.outcome === "held";
                break;
              }
            }
          }
          buyer.done = true;
        }
      })
    );
    const seconds = (performance.now() - started) / 1000;

    // Pay every hold (in the sandbox, in this process: the same domain function the payment page runs).
    const held = attempts.filter((a) => a.outcome === "held");
    const toPay = [...warmUp, ...held];
    for (let i = 0; i < toPay.length; i += 8) await Promise.all(toPay.slice(i, i + 8).map((a) => payInSandbox(db, a.billingId!, "approved")));

    const [claims] = (await db.execute(sql`
      SELECT count(*) FILTER (WHERE state <> 'released')::int AS live,
             count(*) FILTER (WHERE state = 'sold')::int AS sold,
             count(*) FILTER (WHERE state = 'held')::int AS held,
             (SELECT count(*)::int FROM (SELECT seat_guid FROM seat_claims WHERE event_date_id = ${dateId} AND state <> 'released' GROUP BY seat_guid HAVING count(*) > 1) x) AS seats_claimed_twice
      FROM seat_claims WHERE event_date_id = ${dateId}`)) as unknown as {
      live: number;
      sold: number;
      held: number;
      seats_claimed_twice: number;
    }[];
    const [issued] = (await db.execute(sql`
      SELECT count(*)::int AS tickets, count(seat_guid)::int AS seated,
             (SELECT count(*)::int FROM (SELECT seat_guid FROM issued_products WHERE event_id = ${event.id} AND seat_guid IS NOT NULL AND status <> 'voided' GROUP BY seat_guid HAVING count(*) > 1) x) AS sold_twice
      FROM issued_products WHERE event_id = ${event.id} AND status <> 'voided'`)) as unknown as {
      tickets: number;
      seated: number;
      sold_twice: number;
    }[];
    const [stock] = (await db.execute(sql`SELECT coalesce(sum(sold), 0)::int AS sold FROM ticket_types WHERE event_id = ${event.id}`)) as unknown as { sold: number }[];

    const byKind = (kind: Kind) => {
      const mine = attempts.filter((a) => a.kind === kind);
      const sorted = mine.map((a) => a.ms).sort((a, b) => a - b);
      const count = (outcome: Attempt["outcome"]) => mine.filter((a) => a.outcome === outcome).length;
      return {
        requests: mine.length,
        held: count("held"),
        seatTaken: count("seat_taken"),
        noneTogether: count("none_together"),
        errors: count("error"),
        p50: Number(percentile(sorted, 50).toFixed(1)),
        p95: Number(percentile(sorted, 95).toFixed(1)),
        p99: Number(percentile(sorted, 99).toFixed(1)),
        max: Number((sorted.at(-1) ?? 0).toFixed(1)),
      };
    };
    const all = attempts.map((a) => a.ms).sort((a, b) => a - b);
    const seatsHeld = held.length * SEATS_PER_ORDER + warmUp.length;
    const figures = {
      seats: seatCount,
      buyers: BUYERS,
      concurrency: CONCURRENCY,
      seconds: Number(seconds.toFixed(2)),
      requests: attempts.length,
      holds: held.length,
      /** Until the last hold: after it the room is full and every request is a quick refusal. */
      secondsToLastHold: Number(((lastHoldAt - started) / 1000).toFixed(2)),
      holdsPerSecond: Math.round(held.length / Math.max(0.001, (lastHoldAt - started) / 1000)),
      mapReads: { count: mapReads.length, ...(() => { const sorted = [...mapReads].sort((a, b) => a - b); return { p50: Number(percentile(sorted, 50).toFixed(1)), p95: Number(percentile(sorted, 95).toFixed(1)) }; })() },
      pickersWithoutPair,
      seatsHeld,
      buyersWithSeats: buyers.filter((b) => b.held).length,
      picked: byKind("picked"),
      best: byKind("best"),
      p50: Number(percentile(all, 50).toFixed(1)),
      p95: Number(percentile(all, 95).toFixed(1)),
      p99: Number(percentile(all, 99).toFixed(1)),
      claims: {
        live: claims!.live,
        sold: claims!.sold,
        held: claims!.held,
        seatsClaimedTwice: claims!.seats_claimed_twice,
      },
      tickets: {
        issued: issued!.tickets,
        seated: issued!.seated,
        seatsSoldTwice: issued!.sold_twice,
      },
      ticketTypesSold: stock!.sold,
      unexpectedErrors: attempts
        .filter((a) => a.outcome === "error")
        .map((a) => a.detail)
        .slice(0, 5),
      cpus: os.cpus().length,
      node: process.version,
    };
    const correct =
      figures.claims.seatsClaimedTwice === 0 &&
      figures.tickets.seatsSoldTwice === 0 &&
      figures.claims.live === seatsHeld &&
      figures.claims.sold === seatsHeld &&
      figures.tickets.seated === seatsHeld &&
      figures.ticketTypesSold === seatsHeld &&
      seatsHeld <= seatCount &&
      figures.picked.errors + figures.best.errors === 0;
    const loadAtEnd = load.end();
    if (flags.json) console.log(JSON.stringify({ ...figures, correct, machineLoad: loadAtEnd }, null, 2));
    else {
      log(`\n${figures.requests} pedidos createOrder en ${figures.seconds} s (${os.cpus().length} núcleos, Node ${process.version})`);
      log(`  reservas: ${figures.holds} en ${figures.secondsToLastHold} s hasta la última (${figures.holdsPerSecond} por segundo), ${seatsHeld - warmUp.length} asientos (más ${warmUp.length} del calentamiento) de ${seatCount}; ${figures.buyersWithSeats} de ${BUYERS} compradores consiguieron`);
      log(`  el mapa leído antes de cada elección: ${figures.mapReads.count} lecturas, p50/p95 ${figures.mapReads.p50} / ${figures.mapReads.p95} ms; ${figures.pickersWithoutPair} compradores ya no vieron dos libres juntos`);
      for (const [title, f] of [
        ["Eligiendo en el mapa", figures.picked],
        ["Mejor ubicación disponible", figures.best],
      ] as const) {
        log(`  ${title}: ${f.requests} pedidos, ${f.held} reservas, ${f.seatTaken} SEAT_TAKEN, ${f.noneTogether} sin asientos juntos, ${f.errors} errores`);
        log(`    latencia p50/p95/p99: ${f.p50} / ${f.p95} / ${f.p99} ms (máx. ${f.max} ms)`);
      }
      log(`  latencia de todos los pedidos p50/p95/p99: ${figures.p50} / ${figures.p95} / ${figures.p99} ms`);
      log(`En la base, después de pagar cada reserva: reclamos vivos ${figures.claims.live} (vendidos ${figures.claims.sold}), asientos reclamados dos veces ${figures.claims.seatsClaimedTwice}`);
      log(
        `  entradas emitidas ${figures.tickets.issued} (con asiento ${figures.tickets.seated}), asientos vendidos dos veces ${figures.tickets.seatsSoldTwice}; vendidas según los tipos de entrada ${figures.ticketTypesSold}`
      );
      if (figures.unexpectedErrors.length) log(`  errores inesperados: ${figures.unexpectedErrors.join(" | ")}`);
      log(correct ? "Correcto: ningún asiento se reservó ni se vendió dos veces; asientos, stock y entradas coinciden." : "ERROR: el resultado no cierra.");
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
