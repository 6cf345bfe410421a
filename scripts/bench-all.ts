/**
 * `npm run bench`: every benchmark, one after the other, each printing its
 * own figures (docs/benchmarks.md says how to read them), then one line per
 * benchmark: how long it took and whether it finished well. Builds first when
 * there is no production build (they all measure it). Exit code 1 when any
 * benchmark failed; the others still run. Not a test and not a CI gate (CI
 * runs bench:bundle alone).
 *
 *   npm run bench                    # the defaults of each one: long (many minutes)
 *   npm run bench -- --quick         # small sizes, to see that all of them run
 *   npm run bench -- --only http,bundle
 *   npm run bench -- --allow-busy     # ratios and goal verdicts even when the machine is busy (labelled)
 *
 * PostgreSQL: DATABASE_URL as each benchmark takes it (bench:lighthouse uses
 * embedded PGlite when it is not set).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureProductionBuild, machineLoad } from "./bench-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({ options: { quick: { type: "boolean", default: false }, only: { type: "string" } } });

/**
 * In order; `full` are the arguments of the normal run (none: the benchmark's defaults) and `quick` those of the
 * short one (null: skipped). bench:onsale runs twice: its default rush (500 buyers on 50 tickets: exactly 50 held,
 * memory) sells out in one batch, so the holds ÷ ceiling ratio needs a sale that lasts.
 */
const BENCHES: { name: string; full?: string[]; quick: string[] | null }[] = [
  { name: "http", quick: ["--seconds", "2", "--connections", "20"] },
  { name: "onsale", quick: ["--buyers", "100", "--concurrency", "20", "--stock", "20", "--warm-up", "200"] },
  { name: "onsale", full: ["--buyers", "3000", "--stock", "2500"], quick: null },
  { name: "queue", quick: ["--places", "500", "--seconds", "5", "--stock", "20", "--pace", "600"] },
  { name: "door", quick: ["--devices", "10", "--tickets", "200", "--pace", "200"] },
  { name: "seats", quick: ["--buyers", "200", "--rows", "6", "--seats-per-row", "10", "--concurrency", "40"] },
  { name: "exports", quick: ["--orders", "5000"] },
  { name: "bundle", quick: [] },
  { name: "lighthouse", quick: ["--runs", "1"] },
  { name: "soak", quick: ["--seconds", "10", "--connections", "10", "--after", "5"] },
];

function run(name: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", `bench:${name}`, ...(args.length ? ["--", ...args] : [])], { cwd: ROOT, stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", () => resolve(1));
  });
}

async function main() {
  const load = machineLoad();
  // Each benchmark judges its own start; --allow-busy given here goes on to all of them.
  if (load.allowBusy) process.env.BENCH_ALLOW_BUSY = "1";
  const only = flags.only?.split(",").map((s) => s.trim().replace(/^bench:/, ""));
  const unknown = only?.filter((name) => !BENCHES.some((b) => b.name === name)) ?? [];
  if (unknown.length) {
    console.error(`No conozco estos benchmarks: ${unknown.join(", ")}. Son: ${BENCHES.map((b) => b.name).join(", ")}.`);
    process.exit(2);
  }
  const benches = (only ? BENCHES.filter((b) => only.includes(b.name)) : BENCHES).filter((b) => !flags.quick || b.quick);
  await ensureProductionBuild(ROOT, console.log);
  const results: { name: string; code: number; seconds: number }[] = [];
  for (const bench of benches) {
    const args = (flags.quick ? bench.quick : bench.full) ?? [];
    const name = `${bench.name}${bench.full ? ` ${bench.full.join(" ")}` : ""}`;
    console.log(`\n══ npm run bench:${bench.name}${args.length ? ` -- ${args.join(" ")}` : ""}\n`);
    const started = Date.now();
    const code = await run(bench.name, args);
    results.push({ name, code, seconds: (Date.now() - started) / 1000 });
  }
  console.log(`\n══ Resumen${flags.quick ? " (corrida corta: --quick)" : ""}\n`);
  load.end();
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results) {
    console.log(`  bench:${r.name.padEnd(width)} ${`${r.seconds.toFixed(0)} s`.padStart(6)}  ${r.code === 0 ? "terminó bien" : `falló (código ${r.code})`}`);
  }
  if (results.some((r) => r.code !== 0)) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
