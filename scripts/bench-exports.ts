/**
 * `npm run bench:exports`: /organizacion/informes with 100,000 orders.
 * Creates a database `tribuna_bench_exports_…` on the PostgreSQL server of
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), one
 * organization with one event and N paid orders (written in bulk by SQL: the
 * export only reads them), then streams the sales export as CSV and as XLSX
 * through the same domain function the page uses (exportReport), reading the
 * stream as a browser would, while sampling the process's memory. Prints rows,
 * time, and the peak RSS and heap above the baseline; drops the database.
 *
 *   npm run bench:exports                    # 100,000 orders
 *   npm run bench:exports -- --orders 20000 --json
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { Ctx } from "#server/context";
import { benchDatabase, machineLoad } from "./bench-support";

const { values: flags } = parseArgs({ options: { orders: { type: "string", default: "100000" }, json: { type: "boolean", default: false } } });
const ORDERS = Number(flags.orders);
const { adminUrl: ADMIN_URL, name: DB_NAME, url: BENCH_URL } = benchDatabase("exports");
const log = (message: string) => {
  if (!flags.json) console.log(message);
};
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Reads a stream to the end, counting lines (CSV) or bytes, while sampling memory every 20 ms. */
async function drain(body: ReadableStream<Uint8Array>, countLines: boolean) {
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 20);
  const started = performance.now();
  const reader = body.getReader();
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (countLines) for (const b of value) if (b === 10) lines++;
  }
  clearInterval(timer);
  return { ms: Math.round(performance.now() - started), bytes, lines, rssBeforeMb: mb(before.rss), peakRssMb: mb(peakRss), rssGrowthMb: mb(peakRss - before.rss), heapGrowthMb: mb(peakHeap - before.heapUsed) };
}

async function main() {
  const load = machineLoad({ json: flags.json });
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${DB_NAME}"`);
  let closeDb: (() => Promise<void>) | null = null;
  try {
    process.env.DATABASE_URL = BENCH_URL;
    const { connectPostgres, setDatabase } = await import("#server/db/client");
    const schema = await import("#server/db/schema");
    const { sql } = await import("drizzle-orm");
    const { createOrganization } = await import("#server/organizations/organizations");
    const { createEvent } = await import("#server/events/events");
    const { exportReport } = await import("#server/reports/exports");
    const database = connectPostgres(BENCH_URL, { max: 4 });
    setDatabase(database);
    closeDb = () => database.close();
    await database.migrate();
    const db = database.db;

    const [owner] = await db.insert(schema.users).values({ email: `informes-${Date.now()}@bench.tribuna.ar`, firstName: "Productora", lastName: "Benchmark", roles: ["producer"] }).returning();
    const ctx: Ctx = { db, actor: { kind: "user", userId: owner.id, email: owner.email, roles: ["producer"] }, now: new Date(), ip: "127.0.0.1" };
    const organization = await createOrganization(ctx, { name: "Productora Benchmark", cuit: "30-71234567-1", contactEmail: "bench@productora.com.ar" });
    const { event, dates } = await createEvent(ctx, {
      organizationId: organization.id,
      name: "Festival Benchmark",
      description: "Muchas ventas.",
      category: "festivales",
      venueName: "Estadio de prueba",
      venueAddress: "Av. Siempre Viva 742",
      city: "Buenos Aires",
      province: "AR-CF",
      dates: [{ startsAt: new Date(Date.now() + 30 * 86400_000).toISOString(), endsAt: new Date(Date.now() + 30 * 86400_000 + 6 * 3600_000).toISOString() }],
      ticketTypes: [{ name: "General", price: 1_000_000, stock: ORDERS * 2 }],
    });
    const started = performance.now();
    // Paid orders as the sales export reads them (billed, not gift, Mercado Pago), with realistic payer data and custom fields.
    await db.execute(sql`
      insert into orders (code, event_id, event_date_id, organization_id, payer, custom_fields, status, gift, payment_method, subtotal, service_fee, discount, total, created_at, updated_at)
      select 'TRB-' || lpad(upper(to_hex(g)), 6, '0'), ${event.id}, ${dates[0].id}, ${organization.id},
        jsonb_build_object('firstName', 'Persona ' || g, 'lastName', 'Compradora', 'email', 'persona' || g || '@example.com', 'documentType', 'dni', 'documentNumber', (30000000 + g)::text, 'phoneNumber', '+54 9 11 5555-' || lpad((g % 10000)::text, 4, '0')),
        jsonb_build_array(jsonb_build_object('fieldId', 'talle', 'label', 'Talle de remera', 'value', 'M')),
        'billed', false, 'MERCADO_PAGO', 1000000, 100000, 0, 1100000, now() - (g || ' seconds')::interval, now()
      from generate_series(1, ${ORDERS}) g`);
    // Statistics as a live database has them (autovacuum would analyze a table that grew this much).
    await db.execute(sql`analyze orders`);
    log(`${ORDERS.toLocaleString("es-AR")} órdenes pagadas cargadas en ${Math.round(performance.now() - started)} ms.`);

    const results: Record<string, Awaited<ReturnType<typeof drain>>> = {};
    for (const format of ["csv", "xlsx"] as const) {
      const file = await exportReport(ctx, { organizationId: organization.id, kind: "ventas", format });
      results[format] = await drain(file.body, format === "csv");
      const r = results[format];
      log(
        `Ventas en ${format.toUpperCase()}: ${format === "csv" ? `${(r.lines - 1).toLocaleString("es-AR")} filas, ` : ""}${mb(r.bytes)} MB en ${r.ms} ms · RSS ${r.rssBeforeMb} → pico ${r.peakRssMb} MB (+${r.rssGrowthMb} MB), heap +${r.heapGrowthMb} MB`,
      );
    }
    if (results.csv.lines - 1 !== ORDERS) throw new Error(`El CSV tiene ${results.csv.lines - 1} filas, se esperaban ${ORDERS}`);
    const loadAtEnd = load.end();
    if (flags.json) console.log(JSON.stringify({ orders: ORDERS, ...results, machineLoad: loadAtEnd }, null, 2));
  } finally {
    await closeDb?.();
    await admin.unsafe(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
