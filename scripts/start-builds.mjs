/**
 * What a first `npm start` compiles, in its order, and how a start tells
 * whether it must (scripts/start.mjs; test: scripts/start.test.ts):
 * 1. the serving process, build/serve/server.js (scripts/start.mjs, before anything runs);
 * 2. the Remix app, build/server and build/client (server.ts, after its fail-closed checks).
 * The second never deletes the first's folder (vite.config.ts, decision 157),
 * so a later start finds both and compiles nothing.
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const SERVER_BUILD = { output: "build/serve/server.js", command: "npx vite build -c vite.server.config.ts" };
export const APP_BUILD = { output: "build/server/index.js", command: "npx remix vite:build" };

/** The builds whose output is missing under `root`: what a start there would compile. */
export function missingBuilds(root = process.cwd()) {
  return [SERVER_BUILD, APP_BUILD].filter((build) => !fs.existsSync(path.resolve(root, build.output)));
}
