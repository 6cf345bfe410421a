// What the shell every page downloads (entry + root, as `bench:bundle` counts it) is made of: gzip bytes per
// source package (react-dom, @remix-run/router, …) and per file of our own, read from the client build's
// source maps. Build with maps that the JavaScript does not mention (the files are byte for byte the ones
// `npm run build` writes, so `bench:bundle` reads the same figures):
//
//   npx remix vite:build --sourcemapClient=hidden && npx tsx scripts/bundle-sources.ts [routeId…]
//
// Each minified byte belongs to the source its mapping names; a chunk's gzip size is shared among its sources in
// proportion to those bytes (gzip depends on the neighbours, so this is an estimate that adds up to the real
// total). Extra route ids print the same breakdown for what that route adds on top of the shell.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { kb, type RemixManifestLike } from "./bundle-budget";

const client = "build/client";
const assets = path.join(client, "assets");
const manifestFile = fs.existsSync(assets) ? fs.readdirSync(assets).find((f) => f.startsWith("manifest-")) : undefined;
if (!manifestFile) {
  console.error("No hay build: corré `npx remix vite:build --sourcemapClient=hidden` primero.");
  process.exit(1);
}
const manifest = JSON.parse(
  fs
    .readFileSync(path.join(assets, manifestFile), "utf8")
    .replace(/^window.__remixManifest=/, "")
    .replace(/;\s*$/, ""),
) as RemixManifestLike;

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

/** Minified bytes per source of one chunk, from its source map. */
function bytesPerSource(code: string, map: { sources: string[]; mappings: string }): Map<string, number> {
  const lines = code.split("\n");
  const out = new Map<string, number>();
  const add = (source: string, bytes: number) => out.set(source, (out.get(source) ?? 0) + bytes);
  let sourceIndex = 0;
  map.mappings.split(";").forEach((line, lineNo) => {
    const text = lines[lineNo] ?? "";
    let column = 0;
    let current: string | null = null;
    let from = 0;
    for (const segment of line ? line.split(",") : []) {
      const fields = decodeSegment(segment);
      column += fields[0];
      add(current ?? "(sin mapa)", Buffer.byteLength(text.slice(from, column)));
      if (fields.length >= 4) {
        sourceIndex += fields[1];
        current = map.sources[sourceIndex];
      } else current = null;
      from = column;
    }
    add(current ?? "(sin mapa)", Buffer.byteLength(text.slice(from)) + 1);
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

function breakdown(files: string[]): Map<string, number> {
  const total = new Map<string, number>();
  for (const file of files) {
    const full = path.join(client, file);
    const code = fs.readFileSync(full, "utf8");
    const gzip = zlib.gzipSync(code).length;
    const mapFile = `${full}.map`;
    if (!fs.existsSync(mapFile)) {
      total.set(`${file} (sin mapa de fuente)`, gzip);
      continue;
    }
    const raw = bytesPerSource(code, JSON.parse(fs.readFileSync(mapFile, "utf8")));
    const rawTotal = [...raw.values()].reduce((a, b) => a + b, 0);
    for (const [source, bytes] of raw) {
      const key = owner(source);
      total.set(key, (total.get(key) ?? 0) + (gzip * bytes) / rawTotal);
    }
  }
  return total;
}

function print(title: string, files: string[]) {
  const rows = [...breakdown(files)].sort((a, b) => b[1] - a[1]);
  const sum = rows.reduce((a, [, b]) => a + b, 0);
  console.log(`\n${title}: ${kb(sum)} gzip en ${files.length} scripts\n`);
  for (const [name, bytes] of rows) if (bytes >= 50) console.log(`${kb(bytes).padStart(9)}  ${name}`);
  const small = rows.filter(([, bytes]) => bytes < 50);
  if (small.length) console.log(`${kb(small.reduce((a, [, b]) => a + b, 0)).padStart(9)}  (${small.length} fuentes de menos de 50 B)`);
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
