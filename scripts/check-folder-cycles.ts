/**
 * The import graph between the folders of server/ and its cycles.
 *
 *   npx tsx scripts/check-folder-cycles.ts [--include-types] [--edges]
 *
 * A folder imports another when one of its sources (tests left out) has a
 * static `import … from` or `export … from` of "#server/<other>/…" or
 * "../<other>/…". Type-only imports (`import type`) are left out unless
 * --include-types: they vanish at runtime. Dynamic `await import(…)` is left
 * out too, so it must never hide a runtime dependency: only a truly lazy load
 * (an optional package), said so where it is (decision 184).
 * Prints each group of folders that import one another in a loop (the
 * strongly connected components with more than one folder), a shortest loop
 * through each folder of the group, and with --edges every import inside the
 * group with the files that make it. Exits 1 when there is any cycle: CI runs
 * it (`npm run check:folders`, .ci/run) and docs/architecture.md says which
 * folder may import which.
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SERVER = path.join(ROOT, "server");
const includeTypes = process.argv.includes("--include-types");
const showEdges = process.argv.includes("--edges");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const folders = fs
  .readdirSync(SERVER, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** folder → imported folder → files that import it. */
const graph = new Map<string, Map<string, Set<string>>>(folders.map((f) => [f, new Map()]));

const STATIC_IMPORT = /^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+["']([^"']+)["']/gm;

for (const folder of folders) {
  for (const file of sources(path.join(SERVER, folder))) {
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(STATIC_IMPORT)) {
      const typeOnly = Boolean(m[2]) || /^\s*import\s*\{\s*(type\s+[^,}]+,?\s*)+\}/.test(m[0]);
      if (typeOnly && !includeTypes) continue;
      const spec = m[3];
      let target: string | null = null;
      if (spec.startsWith("#server/")) target = spec.slice("#server/".length).split("/")[0];
      else if (spec.startsWith(".")) {
        const resolved = path.relative(SERVER, path.resolve(path.dirname(file), spec));
        if (!resolved.startsWith("..")) target = resolved.split(path.sep)[0];
      }
      if (!target || target === folder || !graph.has(target)) continue;
      const edges = graph.get(folder)!;
      if (!edges.has(target)) edges.set(target, new Set());
      edges.get(target)!.add(path.relative(ROOT, file));
    }
  }
}

/** Tarjan's strongly connected components. */
function components(): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!.keys()) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      out.push(group.sort());
    }
  };
  for (const v of folders) if (!indexOf.has(v)) visit(v);
  return out;
}

/** A shortest loop from `start` back to itself inside `group` (breadth first). */
function shortestLoop(start: string, group: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [...graph.get(start)!.keys()].filter((w) => group.has(w));
  for (const w of queue) previous.set(w, start);
  while (queue.length) {
    const v = queue.shift()!;
    if (v === start) break;
    for (const w of graph.get(v)!.keys()) {
      if (!group.has(w) || previous.has(w)) continue;
      previous.set(w, v);
      queue.push(w);
    }
  }
  const loop = [start];
  let at = previous.get(start);
  while (at && at !== start) {
    loop.unshift(at);
    at = previous.get(at);
  }
  loop.unshift(start);
  return loop;
}

const loops = components().filter((c) => c.length > 1);
const edgeCount = [...graph.values()].reduce((n, e) => n + e.size, 0);
console.log(`server/: ${folders.length} carpetas, ${edgeCount} dependencias entre carpetas${includeTypes ? " (con imports de tipos)" : " (sin imports de solo tipos)"}.`);
if (!loops.length) {
  console.log("Sin ciclos entre carpetas.");
  process.exit(0);
}
for (const [i, group] of loops.entries()) {
  const members = new Set(group);
  console.log(`\nCiclo ${i + 1}: ${group.length} carpetas se importan en rueda: ${group.join(", ")}`);
  for (const folder of group) console.log(`  ${shortestLoop(folder, members).join(" → ")}`);
  if (showEdges) {
    console.log("  Imports dentro del ciclo:");
    for (const from of group) {
      for (const [to, files] of [...graph.get(from)!].sort(([a], [b]) => a.localeCompare(b))) {
        if (members.has(to)) console.log(`    ${from} → ${to}: ${[...files].sort().join(", ")}`);
      }
    }
  }
}
const outside = folders.filter((f) => !loops.some((g) => g.includes(f)));
console.log(`\nFuera de todo ciclo (${outside.length}): ${outside.join(", ")}`);
process.exit(1);
