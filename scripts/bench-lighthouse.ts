/**
 * `npm run bench:lighthouse`: Lighthouse mobile (its default: a mid-range
 * phone's screen, simulated slow 4G and a 4× slower CPU) on the home and one
 * demo event page of the production build (decision 130: performance ≥ 95 and
 * LCP ≤ 1,8 s on both).
 *
 * Builds when there is no build, starts the app as `npm start` would (its own
 * process) on a free port with the demo seed: embedded PGlite in a temporary
 * folder, or a fresh database on the server of DATABASE_URL when it is set
 * (tribuna_bench_lighthouse_…, dropped at the end). Runs Chromium headless
 * (/usr/bin/chromium, or CHROME_PATH) and Lighthouse over its DevTools port,
 * a few times per page, and prints the median run's score, LCP, FCP, TBT, CLS,
 * the LCP element and the top opportunities. Not a test and not a CI gate:
 * figures go to docs/benchmarks.md.
 *
 *   npm run bench:lighthouse
 *   npm run bench:lighthouse -- --runs 1 --json
 *   npm run bench:lighthouse -- --save /tmp/lhr   # every run's whole report
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse, { type Result } from "lighthouse";
import postgres from "postgres";
import { benchAppEnv, benchDatabase, ensureProductionBuild, freePort, waitForApp, stopApp, machineLoad } from "./bench-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = Math.max(1, flag("runs", 3));
const JSON_OUTPUT = args.includes("--json");
const VERBOSE = args.includes("--verbose");
/** `--save DIR`: every run's full Lighthouse report as JSON, to study a run the summary does not explain. */
const SAVE_DIR = args.includes("--save") ? args[args.indexOf("--save") + 1] : null;
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const USE_POSTGRES = Boolean(process.env.DATABASE_URL);
const database = benchDatabase("lighthouse");

const log = (message: string) => {
  if (!JSON_OUTPUT) console.log(message);
};

interface PageFigures {
  page: string;
  url: string;
  score: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Every run's score and LCP, in order (the figures above are the median run's). */
  runs: { score: number; lcpMs: number }[];
  lcpElement: string | null;
  /** Where the LCP's time went: TTFB, load delay, load time, render delay (ms). */
  lcpPhases: { phase: string; ms: number }[];
  opportunities: { title: string; savingsMs: number; savingsBytes: number }[];
}

type Chromium = { port: number; child: ChildProcess; dir: string };

async function stopChromium(chrome: Chromium) {
  const exited = chrome.child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => chrome.child.once("exit", resolve));
  try {
    process.kill(-chrome.child.pid!, "SIGTERM");
  } catch {
    /* already gone */
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  fs.rmSync(chrome.dir, { recursive: true, force: true });
}

/** Chromium headless with a DevTools port Lighthouse connects to (a fresh one for every run, as Lighthouse's CLI does). */
async function startChromium(): Promise<Chromium> {
  if (!fs.existsSync(CHROME)) throw new Error(`No encuentro Chromium en ${CHROME} (definí CHROME_PATH).`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-lighthouse-chrome-"));
  const child = spawn(
    CHROME,
    ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--remote-debugging-port=0", `--user-data-dir=${dir}`, "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error(`Chromium no abrió el puerto de DevTools:\n${err.slice(-2000)}`)), 30_000);
    child.stderr!.on("data", (chunk) => {
      err += chunk;
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium terminó (código ${code}):\n${err.slice(-2000)}`));
    });
  });
  return { port, child, dir };
}

type LcpElementDetails = { items?: { items?: { node?: { snippet?: string }; phase?: string; timing?: number }[] }[] };

function figures(page: string, lhr: Result, runs: PageFigures["runs"]): PageFigures {
  const audit = (id: string) => lhr.audits[id];
  const lcpItems = (audit("largest-contentful-paint-element")?.details as LcpElementDetails | undefined)?.items;
  const opportunities = Object.values(lhr.audits)
    .filter((a) => a.details?.type === "opportunity" && (a.score ?? 1) < 1)
    .map((a) => {
      const details = a.details as { overallSavingsMs?: number; overallSavingsBytes?: number };
      return { title: a.title, savingsMs: Math.round(details.overallSavingsMs ?? 0), savingsBytes: Math.round(details.overallSavingsBytes ?? 0) };
    })
    .filter((o) => o.savingsMs > 0 || o.savingsBytes > 0)
    .sort((a, b) => b.savingsMs - a.savingsMs || b.savingsBytes - a.savingsBytes)
    .slice(0, 5);
  return {
    page,
    url: lhr.finalDisplayedUrl,
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: Math.round(audit("largest-contentful-paint")?.numericValue ?? NaN),
    fcpMs: Math.round(audit("first-contentful-paint")?.numericValue ?? NaN),
    tbtMs: Math.round(audit("total-blocking-time")?.numericValue ?? NaN),
    cls: Number((audit("cumulative-layout-shift")?.numericValue ?? NaN).toFixed(3)),
    speedIndexMs: Math.round(audit("speed-index")?.numericValue ?? NaN),
    runs,
    lcpElement: lcpItems?.[0]?.items?.[0]?.node?.snippet ?? null,
    lcpPhases: (lcpItems?.[1]?.items ?? []).filter((i) => i.phase).map((i) => ({ phase: i.phase!, ms: Math.round(i.timing ?? 0) })),
    opportunities,
  };
}

/** Lighthouse `runs` times on one page; the figures of the run with the median score. */
async function measure(page: string, url: string): Promise<PageFigures> {
  const runs: Result[] = [];
  let failures = 0;
  for (let i = 0; i < RUNS; i++) {
    const chrome = await startChromium();
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] }).finally(() => stopChromium(chrome));
    const error = !result ? "sin resultado" : result.lhr.runtimeError?.message;
    if (error || !result) {
      // A loaded machine now and then loses the trace (NO_NAVSTART, NO_FCP): that run again, a couple of times at most.
      if (++failures > 2) throw new Error(`Lighthouse en ${url}: ${error}`);
      log(`  ${page}: la corrida ${i + 1} falló (${error}); otra vez`);
      i--;
      continue;
    }
    runs.push(result.lhr);
    if (SAVE_DIR) {
      fs.mkdirSync(SAVE_DIR, { recursive: true });
      fs.writeFileSync(path.join(SAVE_DIR, `${page.replace(/\W+/g, "-")}-${runs.length}.json`), JSON.stringify(result.lhr));
    }
    log(`  ${page}: corrida ${i + 1}/${RUNS}, ${Math.round((result.lhr.categories.performance?.score ?? 0) * 100)} puntos`);
  }
  const perRun = runs.map((lhr) => ({ score: Math.round((lhr.categories.performance?.score ?? 0) * 100), lcpMs: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN) }));
  const median = [...runs].sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0))[Math.floor(runs.length / 2)];
  return figures(page, median, perRun);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2).replace(".", ",")} s`;

async function main() {
  const load = machineLoad({ json: JSON_OUTPUT });
  await ensureProductionBuild(ROOT, log);
  const admin = USE_POSTGRES ? postgres(database.adminUrl, { max: 1, onnotice: () => {} }) : null;
  if (admin) await admin.unsafe(`CREATE DATABASE "${database.name}"`);
  let app: ChildProcess | undefined;
  let appLog = "";
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = benchAppEnv({ port, databaseUrl: database.url, databaseName: database.name, seedDemo: true });
    // Without DATABASE_URL the app runs on embedded PGlite in DATA_DIR (a temporary folder named after the bench).
    if (!USE_POSTGRES) delete env.DATABASE_URL;
    app = spawn("npm", ["start"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    app.stdout!.on("data", (c) => (appLog = (appLog + c).slice(-20_000)));
    app.stderr!.on("data", (c) => (appLog = (appLog + c).slice(-20_000)));
    if (VERBOSE) {
      app.stdout!.pipe(process.stdout);
      app.stderr!.pipe(process.stderr);
    }
    await waitForApp(`${base}/ayuda`, app, () => appLog);

    const events = await (await fetch(`${base}/api/graphql?query=${encodeURIComponent("{ events(limit: 1) { items { slug } } }")}`)).json();
    const slug: string = events.data.events.items[0].slug;
    const pages: [string, string][] = [
      ["Inicio", `${base}/`],
      ["Página de evento", `${base}/eventos/${slug}`],
    ];
    // Warm-up: the first render of each page compiles and caches on the server; Lighthouse measures the next ones.
    for (const [, url] of pages) for (let i = 0; i < 3; i++) await (await fetch(url)).arrayBuffer();

    log(`Lighthouse mobile (simulado: 4G lento, CPU 4× más lenta) sobre ${base}, ${RUNS} corrida(s) por página, base ${USE_POSTGRES ? "PostgreSQL" : "PGlite"}…`);
    const results: PageFigures[] = [];
    for (const [page, url] of pages) results.push(await measure(page, url));

    const loadAtEnd = load.end();
    if (JSON_OUTPUT) {
      console.log(JSON.stringify({ machineLoad: loadAtEnd, runs: RUNS, cpus: os.cpus().length, node: process.version, formFactor: "mobile", pages: results }, null, 2));
      return;
    }
    console.log("");
    console.log("| página | puntaje | LCP | FCP | TBT | CLS | Speed Index | corridas (puntaje, LCP) |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---|");
    for (const r of results) {
      console.log(`| ${r.page} | ${r.score} | ${seconds(r.lcpMs)} | ${seconds(r.fcpMs)} | ${r.tbtMs} ms | ${r.cls} | ${seconds(r.speedIndexMs)} | ${r.runs.map((run) => `${run.score} (${seconds(run.lcpMs)})`).join(", ")} |`);
    }
    for (const r of results) {
      console.log(`\n${r.page} (${new URL(r.url).pathname}), corrida mediana`);
      console.log(`  elemento del LCP: ${r.lcpElement ?? "—"}`);
      if (r.lcpPhases.length) console.log(`  LCP por fases: ${r.lcpPhases.map((p) => `${p.phase} ${p.ms} ms`).join(", ")}`);
      if (!r.opportunities.length) console.log("  oportunidades: ninguna");
      for (const o of r.opportunities) {
        const bytes = o.savingsBytes ? `, ${(o.savingsBytes / 1024).toFixed(1)} kB` : "";
        console.log(`  - ${o.title}: ${o.savingsMs} ms${bytes}`);
      }
    }
    const ok = results.every((r) => r.score >= 95 && r.lcpMs <= 1800);
    console.log(load.verdict(`\nObjetivo (decisión 130: puntaje ≥ 95 y LCP ≤ 1,8 s en las dos páginas): ${ok ? "cumplido" : "no cumplido"}.`));
  } finally {
    await stopApp(app);
    if (admin) {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${database.name}" WITH (FORCE)`);
      await admin.end();
    }
    fs.rmSync(path.join(os.tmpdir(), database.name), { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
