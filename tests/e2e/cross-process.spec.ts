import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { serverNodeFlags } from "../../scripts/bench-support";
import { E2E_AUTH_SECRET, E2E_DATABASE_URL } from "./env";
import { expect, test } from "./fixtures";

/**
 * Two processes of the built app on one PostgreSQL database, as behind a load balancer without affinity
 * (docs/scaling.md): what one process learns (a scan, a pause) reaches the other through PostgreSQL
 * notifications within a second, and the job queue hands each job to one runner only. No browser: the
 * API and the pages as an integrator or a CDN sees them.
 */
const LIVE = `subscription($slug: String!) { liveNight(eventSlug: $slug) { entered } }`;
const REDEEM = `mutation($input: RedeemProductInput!) { redeemProduct(input: $input) { outcome } }`;
const PAUSE = `mutation($input: StatusInput!) { setEventStatus(input: $input) { status } }`;
const PREVIEW = `query($input: PreviewOrderInput!) { previewOrder(input: $input) { total } }`;
const ORDER = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { id } } }`;
const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

interface AppProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/** `npm start` (the compiled server and the Remix build) on its own port, with the e2e server's settings. */
async function startApp(name: string, dataDir: string): Promise<AppProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    APP_URL: url,
    NODE_ENV: "production",
    DATABASE_URL: E2E_DATABASE_URL,
    DATA_DIR: path.join(dataDir, name),
    AUTH_SECRET: E2E_AUTH_SECRET,
    SEED_DEMO: "false",
    PAYMENTS_SANDBOX: "true",
    SMTP_URL: "",
    ENABLE_DEV_MAILBOX: "",
    // Both run the job queue: they compete for every job.
    JOBS: "on",
  };
  const child = spawn(process.execPath, [...serverNodeFlags(process.cwd()), "scripts/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 120_000;
  while (!output.includes(`Tribuna en http://localhost:${port}`)) {
    if (child.exitCode !== null) throw new Error(`El proceso ${name} no arrancó:\n${output}`);
    if (Date.now() > deadline) throw new Error(`El proceso ${name} no arrancó a tiempo:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, child, output: () => output };
}

async function stopApp(app: AppProcess | undefined) {
  if (!app || app.child.exitCode !== null) return;
  app.child.kill("SIGTERM");
  await new Promise((resolve) => app.child.once("exit", resolve));
}

/** A GraphQL request to one process, as an integrator sends it (a header token, JSON). */
async function gql<T>(app: AppProcess, query: string, variables: Record<string, unknown>, accessToken?: string) {
  const response = await fetch(`${app.url}/api/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(accessToken ? { "x-access-token": accessToken } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

/** The liveNight subscription over server-sent events, read event by event. */
async function watchLiveNight(app: AppProcess, slug: string, accessToken: string) {
  const controller = new AbortController();
  const response = await fetch(`${app.url}/api/graphql`, {
    method: "POST",
    signal: controller.signal,
    headers: { "content-type": "application/json", accept: "text/event-stream", "x-access-token": accessToken },
    body: JSON.stringify({ query: LIVE, variables: { slug } }),
  });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  async function next(): Promise<{ liveNight: { entered: number } }> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const chunk = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = chunk
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim())
          .join("");
        if (data) return (JSON.parse(data) as { data: { liveNight: { entered: number } } }).data;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("El stream terminó");
      buffer += decoder.decode(value, { stream: true });
    }
  }
  return { next, close: () => controller.abort() };
}

async function mintTokens(user: { id: string; email: string; roles: string[] }) {
  const [{ getDb }, { startSession }] = await Promise.all([import("#server/db/client"), import("#server/auth/sessions")]);
  return startSession(await getDb(), { id: user.id, email: user.email, roles: user.roles as never }, new Date());
}

test.describe("dos procesos, una sola verdad", () => {
  test.setTimeout(180_000);
  let dataDir: string;
  let a: AppProcess | undefined;
  let b: AppProcess | undefined;

  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(180_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-procesos-"));
    [a, b] = await Promise.all([startApp("a", dataDir), startApp("b", dataDir)]);
  });

  test.afterAll(async () => {
    await Promise.all([stopApp(a), stopApp(b)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("un escaneo en A llega en menos de un segundo a la vista en vivo abierta en B", async ({ factory }) => {
    factory.uniqueWord(); // the fixture points the domain at the e2e database, and closes it after
    const { tonightWithPaidTickets } = await import("#tests/support/tonight");
    const { qrPayloadFor } = await import("#server/tickets/qr");
    const { event, tickets, tokens } = await tonightWithPaidTickets({ qty: 2 });

    const live = await watchLiveNight(b!, event.slug, tokens.accessToken);
    expect((await live.next()).liveNight.entered).toBe(0);

    const scan = await gql<{ redeemProduct: { outcome: string } }>(a!, REDEEM, { input: { eventSlug: event.slug, code: qrPayloadFor(tickets[0].code), door: "Puerta 1" } }, tokens.accessToken);
    expect(scan.data?.redeemProduct.outcome).toBe("admitted");
    // From the scan's answer: the first request to a fresh process takes its own time, the news must not.
    const nothing = new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_000));
    const update = await Promise.race([live.next(), nothing]);
    expect(update?.liveNight.entered, "la vista en vivo de B no se enteró en un segundo").toBe(1);
    live.close();
  });

  test("una pausa en A frena las ventas en B y renueva su copia de la página en menos de un segundo", async ({ factory }) => {
    const event = await factory.event({ name: `Fiesta Dos Procesos ${factory.uniqueWord()}`, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
    const ticketId = event.tickets.General.id;
    const page = async (app: AppProcess) => {
      const response = await fetch(`${app.url}/eventos/${event.slug}`);
      return { cache: response.headers.get("x-cache"), html: await response.text() };
    };

    // B keeps the anonymous page (5 seconds) and the sale snapshot (1 second).
    await page(b!);
    expect((await page(b!)).cache).toBe("HIT");
    const before = await gql<{ previewOrder: { total: number } }>(b!, PREVIEW, { input: { eventSlug: event.slug, items: [{ ticketId, qty: 1 }] } });
    expect(before.errors).toBeUndefined();

    const owner = await mintTokens(event.owner);
    const paused = await gql<{ setEventStatus: { status: string } }>(a!, PAUSE, { input: { id: event.eventId, status: "paused" } }, owner.accessToken);
    expect(paused.data?.setEventStatus.status).toBe("paused");
    const pausedAt = Date.now();

    const order = () => gql(b!, ORDER, { input: { eventSlug: event.slug, items: [{ ticketId, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" } });
    await expect.poll(async () => JSON.stringify(await order()), { timeout: 1_000, intervals: [50] }).toContain("La venta está pausada");
    // Well before the copy's 5 seconds: only the notification can have dropped it.
    await expect.poll(async () => (await page(b!)).html, { timeout: 1_000, intervals: [50] }).toContain("La venta está pausada");
    expect(Date.now() - pausedAt).toBeLessThan(2_000);
  });

  test("cada trabajo de la cola lo toma un solo proceso", async ({ factory }) => {
    factory.uniqueWord();
    const { getDb } = await import("#server/db/client");
    const { jobs } = await import("#server/db/schema");
    const { enqueueMany } = await import("#server/jobs/queue");
    const { EXPIRE_ORDER_JOB } = await import("#server/orders/orders");
    const { inArray } = await import("drizzle-orm");
    const db = await getDb();
    // Hold expiries of orders that do not exist: each run finds nothing to give back and is done.
    const ids = await enqueueMany(
      db,
      EXPIRE_ORDER_JOB,
      Array.from({ length: 40 }, () => ({ payload: { orderId: crypto.randomUUID() }, runAt: new Date() })),
    );
    await expect
      .poll(async () => (await db.select({ doneAt: jobs.doneAt }).from(jobs).where(inArray(jobs.id, ids))).filter((j) => j.doneAt).length, { timeout: 30_000 })
      .toBe(40);
    const rows = await db.select({ attempts: jobs.attempts, failedAt: jobs.failedAt }).from(jobs).where(inArray(jobs.id, ids));
    // Claimed once each (a claim adds an attempt): never by two runners, whichever of the processes took it.
    expect(rows.every((row) => row.attempts === 1 && row.failedAt === null)).toBe(true);
  });
});
