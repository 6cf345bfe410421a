/**
 * `npm start`: the production server as compiled JavaScript run by plain
 * Node (issue 12: no TypeScript loader or module hooks while serving). The
 * compiled server (build/serve/server.js, vite.server.config.ts) is built here
 * when missing; it builds the Remix app itself when that is missing, after its
 * fail-closed checks. Both stay for the next start (scripts/start-builds.mjs).
 * `npm run build` builds both.
 */
import { execSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { missingBuilds, SERVER_BUILD } from "./start-builds.mjs";

if (missingBuilds().includes(SERVER_BUILD)) {
  console.log(`No hay servidor compilado: compilando (${SERVER_BUILD.command.replace("npx ", "")})…`);
  execSync(SERVER_BUILD.command, { stdio: "inherit" });
}
await import(pathToFileURL(path.resolve(SERVER_BUILD.output)).href);
