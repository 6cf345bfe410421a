/**
 * Reads the .cpuprofile files a benchmark wrote (`bench:onsale -- --cpu-prof DIR`,
 * `bench:http -- --cpu-prof DIR`) and prints where the app's CPU went: self time
 * by package (node_modules/<name>, our own build, Node's internals, GC, idle) and
 * by function, and inclusive time for the functions that match --match: to see
 * what our request path adds over bare yoga (docs/benchmarks.md).
 *
 *   npx tsx scripts/bench-profile.ts DIR_OR_FILE… [--top 40] [--match yoga,context] [--last 24] [--json]
 *
 * --callers NAME prints the call stacks (--depth frames up, 4 by default) that spend the most time in
 * functions whose label contains NAME (who creates those DOMExceptions?).
 *
 * --from S / --to S keep the samples between S seconds after the profile's start
 * and S seconds (the rush of bench:onsale, without the checks that follow it);
 * --timeline prints the busy milliseconds of each second, to find that window.
 *
 * --last S keeps only the last S seconds of each profile (the load, without
 * the start-up and the seed that come before it).
 *
 * Self time is what a function ran itself; inclusive time adds everything it
 * called (a recursive function counts once per sample). Percentages are of the
 * busy time (all samples minus "(idle)"), so two profiles of different lengths compare.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: "string", default: "40" },
    match: { type: "string" },
    json: { type: "boolean", default: false },
    last: { type: "string" },
    callers: { type: "string" },
    depth: { type: "string", default: "4" },
    from: { type: "string" },
    to: { type: "string" },
    timeline: { type: "boolean", default: false },
  },
});
const TOP = Number(flags.top);
const LAST_US = flags.last ? Number(flags.last) * 1e6 : Infinity;

function files(inputs: string[]): string[] {
  return inputs.flatMap((input) =>
    fs.statSync(input).isDirectory()
      ? fs.readdirSync(input).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(input, f))
      : [input],
  );
}

/** Where a frame's code lives: a package, our build (by file), Node itself, or a VM pseudo-frame. */
export function packageOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName.startsWith("(")) return functionName; // (garbage collector), (idle), (program), (root)
    return "(native)";
  }
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return "node:" + url.slice(5).split("/")[0];
  const build = url.indexOf("/build/");
  if (build >= 0) return "tribuna " + url.slice(build + 1);
  return url.replace(/^file:\/\//, "");
}

function label(frame: CallFrame): string {
  const file = frame.url ? frame.url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "").replace(/^.*\/build\//, "build/") : "";
  return `${frame.functionName || "(anónima)"} ${file ? `${file}:${frame.lineNumber + 1}` : ""}`.trim();
}

interface Totals {
  totalMs: number;
  idleMs: number;
  byPackage: Map<string, number>;
  byFunction: Map<string, number>;
  inclusive: Map<string, number>;
  callers: Map<string, number>;
  timeline: Map<number, number>;
}

function analyse(profile: Profile, totals: Totals, match: string[]) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Time per sample: the delta that follows it (V8's convention in DevTools).
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const selfMs = new Map<number, number>();
  const times: number[] = [];
  for (let i = 0, t = profile.startTime; i < samples.length; i++) times.push((t += deltas[i] ?? 0));
  const from = Math.max(profile.endTime - LAST_US, profile.startTime + Number(flags.from ?? 0) * 1e6);
  const to = flags.to ? profile.startTime + Number(flags.to) * 1e6 : Infinity;
  const idleNode = profile.nodes.find((n) => n.callFrame.functionName === "(idle)")?.id;
  for (let i = 0; i < samples.length; i++) {
    if (flags.timeline && samples[i] !== idleNode) {
      const second = Math.floor((times[i] - profile.startTime) / 1e6);
      totals.timeline.set(second, (totals.timeline.get(second) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
    }
    if (times[i] < from || times[i] > to) continue;
    const ms = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + ms);
  }
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame;
    totals.totalMs += ms;
    if (frame.functionName === "(idle)") totals.idleMs += ms;
    const pkg = packageOf(frame);
    totals.byPackage.set(pkg, (totals.byPackage.get(pkg) ?? 0) + ms);
    const name = label(frame);
    totals.byFunction.set(name, (totals.byFunction.get(name) ?? 0) + ms);
    if (flags.callers && name.includes(flags.callers)) {
      const stack: string[] = [];
      for (let node = parent.get(id); node !== undefined && stack.length < Number(flags.depth); node = parent.get(node)) stack.push(label(byId.get(node)!.callFrame));
      const key = [name, ...stack].join("\n      ← ");
      totals.callers.set(key, (totals.callers.get(key) ?? 0) + ms);
    }
    if (!match.length) continue;
    // Inclusive: each matching function on this sample's stack, once per stack.
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const f = byId.get(node)!.callFrame;
      const key = label(f);
      if (seen.has(key) || !match.some((m) => key.includes(m))) continue;
      seen.add(key);
      totals.inclusive.set(key, (totals.inclusive.get(key) ?? 0) + ms);
    }
  }
}

function main() {
  const list = files(positionals);
  if (!list.length) {
    console.error("Uso: npx tsx scripts/bench-profile.ts DIR_O_ARCHIVO… [--top 40] [--match a,b] [--json]");
    process.exit(2);
  }
  const match = flags.match ? flags.match.split(",").filter(Boolean) : [];
  const totals: Totals = { totalMs: 0, idleMs: 0, byPackage: new Map(), byFunction: new Map(), inclusive: new Map(), callers: new Map(), timeline: new Map() };
  for (const file of list) analyse(JSON.parse(fs.readFileSync(file, "utf8")) as Profile, totals, match);
  const busy = totals.totalMs - totals.idleMs;
  const rows = (map: Map<string, number>, n: number) =>
    [...map].filter(([k]) => k !== "(idle)" && !k.startsWith("(idle)")).sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, ms]) => ({ name, ms: Math.round(ms), percent: Math.round((1000 * ms) / busy) / 10 }));
  const result = {
    files: list,
    totalMs: Math.round(totals.totalMs),
    busyMs: Math.round(busy),
    byPackage: rows(totals.byPackage, TOP),
    byFunction: rows(totals.byFunction, TOP),
    inclusive: rows(totals.inclusive, TOP),
    callers: rows(totals.callers, 15),
  };
  if (flags.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  if (flags.timeline) console.log(`Ocupado por segundo (ms): ${[...totals.timeline].map(([s, ms]) => `${s}s ${Math.round(ms)}`).join(", ")}\n`);
  console.log(`${list.length} perfil(es): ${result.totalMs} ms muestreados, ${result.busyMs} ms ocupados (sin "(idle)").\n`);
  const table = (title: string, r: typeof result.byPackage) => {
    if (!r.length) return;
    console.log(`${title}\n| ms | % ocupado | |\n|---:|---:|---|`);
    for (const row of r) console.log(`| ${row.ms} | ${row.percent.toFixed(1)} | ${row.name} |`);
    console.log("");
  };
  table("Tiempo propio por paquete", result.byPackage);
  table("Tiempo propio por función", result.byFunction);
  table(`Tiempo inclusivo (funciones con: ${match.join(", ")})`, result.inclusive);
  if (result.callers.length) {
    console.log(`Quién llama a ${flags.callers}`);
    for (const row of result.callers) console.log(`${row.ms} ms (${row.percent.toFixed(1)} %)  ${row.name}`);
  }
}

main();
