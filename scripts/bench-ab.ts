/**
 * `npm run bench:ab -- --base REF`: the on-sale rush of `bench:onsale` with two builds, in alternating rounds
 * on this machine. A is the commit REF; B is the working tree as it is now. A shared machine's speed drifts by
 * up to ~30 % from one minute to the next (docs/benchmarks.md), so one run of each proves nothing: rounds that
 * alternate (A then B, then B then A…) put the drift on both, and what is compared is each round's B ÷ A.
 * Prints every run, each round's quotients and their medians. Not a test. Ends with B's build in build/.
 *
 *   npm run bench:ab -- --base HEAD~1                       # 4 rounds of 3,000 buyers, 100 at a time, stock 2,500
 *   npm run bench:ab -- --base main --rounds 6 -- --buyers 1500 --stock 1200
 *
 * Whatever follows a second `--` goes to each `bench:onsale` run as it is (`--json` is always added).
 * PostgreSQL: DATABASE_URL as bench:onsale takes it.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { machineLoad } from "./bench-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const WORK = path.join(ROOT, ".cache", "bench-ab");
const DEFAULT_RUSH = ["--buyers", "3000", "--concurrency", "100", "--stock", "2500"];

const { values: flags, positionals } = parseArgs({
  options: { base: { type: "string" }, rounds: { type: "string", default: "4" } },
  allowPositionals: true,
});
const rounds = Number(flags.rounds);
if (!flags.base || !Number.isInteger(rounds) || rounds < 1) {
  console.error("Uso: npm run bench:ab -- --base REF [--rounds N] [-- opciones de bench:onsale]");
  process.exit(2);
}
const rushArgs = positionals.length ? positionals : DEFAULT_RUSH;

/** The fields of bench:onsale's --json line that a comparison reads. */
interface Run {
  holdsWhileStockLasts: number;
  ceilingPerSecond: number;
  ratioToCeiling: number;
  appCpuMsPerRequest: number;
  holdBatches: number;
  appRssMaxMiB: number;
  p50: number;
  ok: boolean;
}
type Variant = "A" | "B";

/** Medians of B ÷ A (reservations/s) this harness cannot tell from noise on a shared 2-core machine. */
const NOISE_FLOOR = [0.8, 1.25] as const;

function build(cwd: string) {
  execFileSync("npm", ["run", "build"], { cwd, stdio: ["ignore", "ignore", "inherit"] });
}

/** A's build: REF checked out in a temporary worktree that borrows this checkout's node_modules. */
function buildBase(ref: string, into: string) {
  const tree = path.join(WORK, "worktree");
  // A worktree left by an interrupted run.
  fs.rmSync(tree, { recursive: true, force: true });
  execFileSync("git", ["worktree", "prune"], { cwd: ROOT, stdio: "ignore" });
  execFileSync("git", ["worktree", "add", "--detach", "--force", tree, ref], { cwd: ROOT, stdio: "ignore" });
  try {
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"), "dir");
    build(tree);
    fs.cpSync(path.join(tree, "build"), into, { recursive: true });
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: ROOT, stdio: "ignore" });
  }
}

function useBuild(from: string) {
  fs.rmSync(path.join(ROOT, "build"), { recursive: true, force: true });
  fs.cpSync(from, path.join(ROOT, "build"), { recursive: true });
}

function rush(): Promise<Run | string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench-onsale.ts", ...rushArgs, "--json"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (!line) return resolve(`sin resultado (código ${code}): ${out.trim().split("\n").slice(-3).join(" | ")}`);
      const run = JSON.parse(line) as Run;
      resolve(code === 0 && run.ok ? run : `falló (código ${code}): ${out.trim().split("\n").slice(-3).join(" | ")}`);
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fmt = (n: number, digits = 0) => n.toLocaleString("es-AR", { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main() {
  const load = machineLoad();
  fs.mkdirSync(WORK, { recursive: true });
  const dirs: Record<Variant, string> = { A: path.join(WORK, "a"), B: path.join(WORK, "b") };
  for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
  console.log(`Compilando B (el árbol de trabajo)…`);
  build(ROOT);
  fs.cpSync(path.join(ROOT, "build"), dirs.B, { recursive: true });
  console.log(`Compilando A (${flags.base})…`);
  buildBase(flags.base!, dirs.A);

  console.log(`\n${rounds} rondas de bench:onsale ${rushArgs.join(" ")}\n`);
  console.log("ronda  build  reservas/s  techo   cociente  CPU app/pedido  lotes  RSS máx.  p50");
  const results: Record<Variant, Run>[] = [];
  let failed = false;
  // build/ holds A's build while A runs: an interrupted comparison must not leave it there.
  process.once("SIGINT", () => {
    useBuild(dirs.B);
    process.exit(130);
  });
  try {
    for (let round = 1; round <= rounds; round++) {
      const order: Variant[] = round % 2 ? ["A", "B"] : ["B", "A"];
      const runs: Partial<Record<Variant, Run>> = {};
      for (const variant of order) {
        useBuild(dirs[variant]);
        const run = await rush();
        if (typeof run === "string") {
          console.log(`${String(round).padStart(5)}  ${variant}      ${run}`);
          failed = true;
          continue;
        }
        runs[variant] = run;
        console.log(
          `${String(round).padStart(5)}  ${variant}      ${fmt(run.holdsWhileStockLasts).padStart(10)}  ${fmt(run.ceilingPerSecond).padStart(5)}  ${fmt(run.ratioToCeiling, 2).padStart(7)}×  ${`${fmt(run.appCpuMsPerRequest, 2)} ms`.padStart(14)}  ${String(run.holdBatches).padStart(5)}  ${`${run.appRssMaxMiB} MiB`.padStart(8)}  ${fmt(run.p50)} ms`,
        );
      }
      if (runs.A && runs.B) results.push(runs as Record<Variant, Run>);
    }
  } finally {
    useBuild(dirs.B);
  }

  load.end();
  if (results.length) {
    const holds = results.map((r) => r.B.holdsWhileStockLasts / r.A.holdsWhileStockLasts);
    const cpu = results.map((r) => r.B.appCpuMsPerRequest / r.A.appCpuMsPerRequest);
    const wins = holds.filter((q) => q > 1).length;
    console.log(load.verdict(`\nB ÷ A por ronda, reservas/s: ${holds.map((q) => fmt(q, 2)).join(", ")}; mediana ${fmt(median(holds), 2)} (B reservó más en ${wins} de ${holds.length}).`));
    console.log(load.verdict(`B ÷ A por ronda, CPU de la app por pedido: ${cpu.map((q) => fmt(q, 2)).join(", ")}; mediana ${fmt(median(cpu), 2)}.`));
    console.log(`Medianas: A ${fmt(median(results.map((r) => r.A.holdsWhileStockLasts)))} reservas/s, B ${fmt(median(results.map((r) => r.B.holdsWhileStockLasts)))}.`);
    // The same request path in A and B measured ×1.24 and ×1.11 on a busy 2-core machine (docs/benchmarks.md).
    if (median(holds) > NOISE_FLOOR[0] && median(holds) < NOISE_FLOOR[1]) {
      console.log(`Una mediana entre ×${fmt(NOISE_FLOOR[0], 2)} y ×${fmt(NOISE_FLOOR[1], 2)} puede ser ruido: el mismo código midió ×1,24 en 3 rondas con la máquina ocupada. Un cambio chico por pedido se mide mejor en un mismo proceso (docs/benchmarks.md).`);
    }
  }
  if (failed) {
    console.log("\nAlguna corrida falló (sobreventa, errores o garantías): ver arriba.");
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
