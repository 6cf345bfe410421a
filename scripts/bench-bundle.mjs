#!/usr/bin/env node
// JavaScript each buyer page downloads (gzip), from the production build's
// Remix manifest: the shell every page shares (entry + root) and, per route,
// the chunks it adds on top. Run `npm run build` first.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const client = "build/client";
const assets = path.join(client, "assets");
if (!fs.existsSync(assets)) {
  console.error("No hay build: corré `npm run build` primero.");
  process.exit(1);
}
const manifestFile = fs.readdirSync(assets).find((f) => f.startsWith("manifest-"));
const manifest = JSON.parse(fs.readFileSync(path.join(assets, manifestFile), "utf8").replace(/^window.__remixManifest=/, "").replace(/;\s*$/, ""));
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(client, file))).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

const root = manifest.routes.root;
const shell = new Set([manifest.entry.module, ...manifest.entry.imports, root.module, ...(root.imports ?? [])]);
const shellBytes = [...shell].reduce((sum, f) => sum + gz(f), 0);

const BUYER_ROUTES = [
  ["/", "routes/_index"],
  ["/eventos/{slug}", "routes/eventos.$slug"],
  ["/checkout/payer-info/{eventSlug}", "routes/checkout.payer-info.$eventSlug"],
  ["/checkout/{billingId}", "routes/checkout.$billingId"],
  ["/checkout/bank-transfer/{billingId}", "routes/checkout.bank-transfer.$billingId"],
  ["/checkout/status/{status}", "routes/checkout.status.$status"],
  ["/tickets/{billingId}", "routes/tickets.$billingId"],
  ["/cuenta/mis-tickets", "routes/cuenta.mis-tickets"],
  ["/cuenta/devoluciones", "routes/cuenta.devoluciones"],
  ["/canjear/{couponId}", "routes/canjear.$couponId"],
];

console.log(`JavaScript de las páginas de compra (gzip), build de producción\n`);
console.log(`shell compartido (entry + root): ${kb(shellBytes)}\n`);
console.log(`${"página".padEnd(38)} ${"propio".padStart(9)} ${"total".padStart(9)}  chunks propios más grandes`);
for (const [url, id] of BUYER_ROUTES) {
  const route = manifest.routes[id];
  if (!route) {
    console.log(`${url.padEnd(38)} (no existe la ruta ${id})`);
    continue;
  }
  const own = [route.module, ...(route.imports ?? [])].filter((f) => !shell.has(f)).map((f) => ({ f, bytes: gz(f) }));
  const ownBytes = own.reduce((sum, c) => sum + c.bytes, 0);
  const biggest = own
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map((c) => `${path.basename(c.f).replace(/-[\w-]{8}\.js$/, "")} ${kb(c.bytes)}`)
    .join(", ");
  console.log(`${url.padEnd(38)} ${kb(ownBytes).padStart(9)} ${kb(ownBytes + shellBytes).padStart(9)}  ${biggest}`);
}
// Back-office code must never reach a buyer page.
const leaks = BUYER_ROUTES.flatMap(([url, id]) => (manifest.routes[id]?.imports ?? []).filter((f) => /backoffice|Backoffice/.test(f)).map((f) => `${url}: ${f}`));
if (leaks.length) {
  console.error(`\nCódigo del back office en páginas de compra:\n${leaks.join("\n")}`);
  process.exit(1);
}
