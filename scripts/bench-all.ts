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
 *
 * PostgreSQL: DATABASE_URL as each benchmark takes it (bench:lighthouse uses
 * embedded PGlite when it is not set).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureProductionBuild } from "./bench-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({ options: { quick: { type: "boolean", default: false }, only: { type: "string" } } });

/** In order; `quick` are the arguments of the short run. */
const BENCHES: { name: string; quick: string[] }[] = [
  { name: "http", quick: ["--seconds", "2", "--connections", "20"] },
  { name: "onsale", quick: ["--buyers", "100", "--concurrency", "20", "--stock", "20", "--warm-up", "200"] },
  { name: "door", quick: ["--devices", "10", "--tickets", "200", "--pace", "200"] },
  { name: "exports", quick: ["--orders", "5000"] },
  { name: "bundle", quick: [] },
  { name: "lighthouse", quick: ["--runs", "1"] },
];

function run(name: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", `bench:${name}`, ...(args.length ? ["--", ...args] : [])], { cwd: ROOT, stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", () => resolve(1));
  });
}

async function main() {
  const only = flags.only?.split(",").map((s) => s.trim().replace(/^bench:/, ""));
  const unknown = only?.filter((name) => !BENCHES.some((b) => b.name === name)) ?? [];
  if (unknown.length) {
    console.error(`No conozco estos benchmarks: ${unknown.join(", ")}. Son: ${BENCHES.map((b) => b.name).join(", ")}.`);
    process.exit(2);
  }
  const benches = only ? BENCHES.filter((b) => only.includes(b.name)) : BENCHES;
  await ensureProductionBuild(ROOT, console.log);
  const results: { name: string; code: number; seconds: number }[] = [];
  for (const bench of benches) {
    console.log(`\n══ npm run bench:${bench.name}${flags.quick && bench.quick.length ? ` -- ${bench.quick.join(" ")}` : ""}\n`);
    const started = Date.now();
    const code = await run(bench.name, flags.quick ? bench.quick : []);
    results.push({ name: bench.name, code, seconds: (Date.now() - started) / 1000 });
  }
  console.log(`\n══ Resumen${flags.quick ? " (corrida corta: --quick)" : ""}\n`);
  for (const r of results) {
    console.log(`  bench:${r.name.padEnd(11)} ${`${r.seconds.toFixed(0)} s`.padStart(6)}  ${r.code === 0 ? "terminó bien" : `falló (código ${r.code})`}`);
  }
  if (results.some((r) => r.code !== 0)) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
