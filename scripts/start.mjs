/**
 * `npm start`: the production server as compiled JavaScript run by plain
 * Node (issue 12: no TypeScript loader or module hooks while serving). The
 * compiled server (build/serve/server.js, vite.server.config.ts) is built here
 * when missing; it builds the Remix app itself when that is missing, after its
 * fail-closed checks. `npm run build` builds both.
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const SERVER_ENTRY = path.resolve("build/serve/server.js");

if (!fs.existsSync(SERVER_ENTRY)) {
  console.log("No hay servidor compilado: compilando (vite build -c vite.server.config.ts)…");
  execSync("npx vite build -c vite.server.config.ts", { stdio: "inherit" });
}
await import(pathToFileURL(SERVER_ENTRY).href);
