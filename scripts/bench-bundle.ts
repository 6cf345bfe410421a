// JavaScript each buyer page downloads (gzip) and in how many script
// requests, from the production build's Remix manifest: the shell every page
// shares (entry + root) and, per route, the chunks it adds on top. Exits 1
// when the shell or a page is over its budget (scripts/bundle-budget.ts), carries
// back-office code or is missing. Run `npm run build` first; CI runs it
// right after the build.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { machineLoad } from "./bench-support";
import { BUYER_GOAL_BYTES, checkBuyerBudget, kb, measureBuyerPages, SHELL_GOAL_BYTES } from "./bundle-budget";
import { CLIENT_BUILD, readRemixManifest } from "./remix-manifest";

// Bytes do not depend on the load: printed for the record, the budget is judged on a busy machine too.
const load = machineLoad({ loadIndependent: true });

const client = CLIENT_BUILD;
const manifest = readRemixManifest("npm run build");
const gzipBytes = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(client, file))).length;

const report = measureBuyerPages(manifest, gzipBytes);
const verdict = checkBuyerBudget(report);
load.end();

console.log(
  `JavaScript de las páginas de compra (gzip), build de producción; presupuesto: ${kb(verdict.shellBudgetBytes)} el shell, ${kb(verdict.budgetBytes)} por página\n`,
);
console.log(`shell compartido (entry + root): ${kb(report.shell.bytes)} en ${report.shell.files.length} scripts${verdict.shellOverBudget !== null ? " ✗" : ""}\n`);
console.log(`${"página".padEnd(38)} ${"propio".padStart(9)} ${"total".padStart(9)} ${"scripts".padStart(8)}  chunks propios más grandes`);
for (const page of report.pages) {
  const biggest = page.own
    .slice(0, 3)
    .map((c) => `${path.basename(c.file).replace(/-[\w-]{8}\.js$/, "")} ${kb(c.bytes)}`)
    .join(", ");
  const mark = page.totalBytes > verdict.budgetBytes ? " ✗" : "";
  console.log(`${page.url.padEnd(38)} ${kb(page.ownBytes).padStart(9)} ${kb(page.totalBytes).padStart(9)} ${String(page.requests).padStart(8)}  ${biggest}${mark}`);
}

const heaviest = Math.max(...report.pages.map((page) => page.totalBytes));
console.log(
  `\nObjetivo de la segunda ronda de rendimiento (decisión 239, no exigido): shell ≤ ${kb(SHELL_GOAL_BYTES)} (faltan ${kb(Math.max(0, report.shell.bytes - SHELL_GOAL_BYTES))}), ` +
    `cada página ≤ ${kb(BUYER_GOAL_BYTES)} (la más pesada, ${kb(heaviest)}). React 18 y Remix 2 solos son ~78 kB: docs/benchmarks.md.`,
);

if (verdict.shellOverBudget !== null) {
  console.error(`\nEl shell compartido pasa su presupuesto: ${kb(verdict.shellOverBudget)} (${kb(verdict.shellOverBudget - verdict.shellBudgetBytes)} de más).`);
}
if (verdict.overBudget.length) {
  console.error(`\nPáginas de compra por encima de ${kb(verdict.budgetBytes)}:`);
  for (const page of verdict.overBudget) console.error(`  ${page.url}: ${kb(page.totalBytes)} (${kb(page.totalBytes - verdict.budgetBytes)} de más)`);
}
if (verdict.backOffice.length) console.error(`\nCódigo del back office en páginas de compra:\n${verdict.backOffice.map((l) => `  ${l}`).join("\n")}`);
if (verdict.missing.length) console.error(`\nRutas de compra que el build no tiene (¿cambió el nombre? actualizá scripts/bundle-budget.ts):\n${verdict.missing.map((l) => `  ${l}`).join("\n")}`);
if (!verdict.ok) process.exit(1);
console.log(`\nEl shell y todas las páginas de compra dentro del presupuesto.`);
