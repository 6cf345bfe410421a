// What the shell every page downloads (entry + root, as `bench:bundle` counts it) is made of: gzip bytes per
// source package (react-dom, @remix-run/router, …) and per file of our own, read from the client build's
// source maps. Build with maps that the JavaScript does not mention (the files are byte for byte the ones
// `npm run build` writes, so `bench:bundle` reads the same figures):
//
//   npx remix vite:build --sourcemapClient=hidden && npx tsx scripts/bundle-sources.ts [routeId…]
//
// Each minified byte belongs to the source its mapping names; a chunk's gzip size is shared among its sources in
// proportion to those bytes ("reparto": an estimate that adds up to the real total); "si se quita" is how much
// smaller the gzip gets with that source's bytes cut out (what removing it saves; text that repeats elsewhere in
// the chunk compresses well, so this is often less). `--files` lists files instead of packages; extra route ids
// print the same for what that route adds on top of the shell.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { kb } from "./bundle-budget";
import { CLIENT_BUILD, readRemixManifest } from "./remix-manifest";

const client = CLIENT_BUILD;
const manifest = readRemixManifest("npx remix vite:build --sourcemapClient=hidden");

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** One source map segment's fields (Base64 VLQ, relative values). */
function decodeSegment(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    out.push(value & 1 ? -(value >> 1) : value >> 1);
    value = 0;
    shift = 0;
  }
  return out;
}

/** The byte ranges of a chunk's text (per line: [from, to) in characters) that each source map source wrote. */
function rangesPerSource(code: string, map: { sources: string[]; mappings: string }): Map<string, [line: number, from: number, to: number][]> {
  const lines = code.split("\n");
  const out = new Map<string, [number, number, number][]>();
  const add = (source: string, line: number, from: number, to: number) => {
    if (to <= from) return;
    const list = out.get(source) ?? [];
    list.push([line, from, to]);
    out.set(source, list);
  };
  let sourceIndex = 0;
  lines.forEach((text, lineNo) => {
    const line = map.mappings.split(";")[lineNo] ?? "";
    let column = 0;
    let current: string | null = null;
    let from = 0;
    for (const segment of line ? line.split(",") : []) {
      const fields = decodeSegment(segment);
      column += fields[0];
      add(current ?? "(sin mapa)", lineNo, from, column);
      if (fields.length >= 4) {
        sourceIndex += fields[1];
        current = map.sources[sourceIndex];
      } else current = null;
      from = column;
    }
    add(current ?? "(sin mapa)", lineNo, from, text.length + 1);
  });
  return out;
}

/** A node_modules source by its package; our own files by their path in the repository. */
const BY_FILE = process.argv.includes("--files");
function owner(source: string): string {
  if (BY_FILE) return source.replace(/^(\.\.\/)+/, "");
  const parts = source.split(/[\\/]/);
  const nm = parts.lastIndexOf("node_modules");
  if (nm >= 0) return parts[nm + 1].startsWith("@") ? `${parts[nm + 1]}/${parts[nm + 2]}` : parts[nm + 1];
  const own = source.match(/(?:^|\/)((?:app|common|server)\/.*)$/);
  return own ? own[1] : source.replace(/^(\.\.\/)+/, "");
}

interface Share {
  /** The chunk's gzip bytes shared in proportion to the minified bytes each source wrote (adds up to the total). */
  proportional: number;
  /** How much smaller the chunks' gzip would be without that source's bytes: what leaving it out saves. */
  marginal: number;
}

function breakdown(files: string[]): Map<string, Share> {
  const total = new Map<string, Share>();
  const share = (key: string) => {
    const entry = total.get(key) ?? { proportional: 0, marginal: 0 };
    total.set(key, entry);
    return entry;
  };
  for (const file of files) {
    const full = path.join(client, file);
    const code = fs.readFileSync(full, "utf8");
    const gzip = zlib.gzipSync(code).length;
    const mapFile = `${full}.map`;
    if (!fs.existsSync(mapFile)) {
      Object.assign(share(`${file} (sin mapa de fuente)`), { proportional: gzip, marginal: gzip });
      continue;
    }
    const ranges = rangesPerSource(code, JSON.parse(fs.readFileSync(mapFile, "utf8")));
    const grouped = new Map<string, [number, number, number][]>();
    for (const [source, list] of ranges) grouped.set(owner(source), [...(grouped.get(owner(source)) ?? []), ...list]);
    const lines = code.split("\n");
    const size = (list: [number, number, number][]) => list.reduce((sum, [line, from, to]) => sum + Buffer.byteLength(`${lines[line] ?? ""}\n`.slice(from, to)), 0);
    const rawTotal = Buffer.byteLength(code) + 1;
    for (const [key, list] of grouped) {
      const byLine = new Map<number, [number, number][]>();
      for (const [line, from, to] of list) byLine.set(line, [...(byLine.get(line) ?? []), [from, to]]);
      const without = lines
        .map((text, line) => {
          const spans = (byLine.get(line) ?? []).sort((a, b) => b[0] - a[0]);
          let kept = text;
          for (const [from, to] of spans) kept = kept.slice(0, from) + kept.slice(Math.min(to, text.length));
          return kept;
        })
        .join("\n");
      const entry = share(key);
      entry.proportional += (gzip * size(list)) / rawTotal;
      entry.marginal += gzip - zlib.gzipSync(without).length;
    }
  }
  return total;
}

function print(title: string, files: string[]) {
  const rows = [...breakdown(files)].sort((a, b) => b[1].proportional - a[1].proportional);
  const sum = rows.reduce((a, [, b]) => a + b.proportional, 0);
  console.log(`\n${title}: ${kb(sum)} gzip en ${files.length} scripts\n`);
  console.log(`${"reparto".padStart(9)} ${"si se quita".padStart(12)}  fuente`);
  for (const [name, share] of rows) {
    if (share.proportional >= 50) console.log(`${kb(share.proportional).padStart(9)} ${kb(share.marginal).padStart(12)}  ${name}`);
  }
  const small = rows.filter(([, share]) => share.proportional < 50);
  if (small.length) console.log(`${kb(small.reduce((a, [, b]) => a + b.proportional, 0)).padStart(9)} ${"".padStart(12)}  (${small.length} fuentes de menos de 50 B)`);
}

const root = manifest.routes.root;
const shell = [...new Set([manifest.entry.module, ...(manifest.entry.imports ?? []), ...(root ? [root.module, ...(root.imports ?? [])] : [])])];
print("shell (entry + root)", shell);
for (const routeId of process.argv.slice(2).filter((arg) => !arg.startsWith("--"))) {
  const route = manifest.routes[routeId];
  if (!route) {
    console.error(`\nLa ruta ${routeId} no está en el manifiesto.`);
    continue;
  }
  print(`${routeId} (lo propio, sin el shell)`, [...new Set([route.module, ...(route.imports ?? [])])].filter((f) => !shell.includes(f)));
}
