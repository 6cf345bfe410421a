/**
 * Two `npm start` in a row: the first compiles, the second reuses what it left (scripts/start-builds.mjs,
 * decision 157). Runs the real builds a first start runs on a fresh checkout, in its order (the server, then the
 * app), then asks start's own check what a second start would compile, and checks that the build prints none of
 * the known-harmless warnings (vite.config.ts, quietWarning).
 *
 * On a laptop it builds a copy of the project (about a minute, never touching this checkout's build/). CI has
 * just built this checkout the same way, from an empty build/ and in start's order, and hands over what the build
 * printed in START_BUILD_LOG: the test checks that build instead of compiling everything a second time
 * (decision 183).
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_BUILD, missingBuilds, SERVER_BUILD } from "./start-builds.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
/** What a fresh checkout does not have (and what is not source). */
const NOT_COPIED = new Set(["node_modules", "build", ".git", ".data", ".cache", "test-results", "playwright-report", ".ci-results", "backups"]);
/** Set by .ci/run: the output of the builds it just ran in this checkout, in start's order. */
const CI_BUILD_LOG = process.env.START_BUILD_LOG ? path.resolve(ROOT, process.env.START_BUILD_LOG) : null;

let dir = "";
let emptyDir = "";

beforeAll(() => {
  emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-fresh-"));
  if (CI_BUILD_LOG) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-start-"));
  fs.cpSync(ROOT, dir, { recursive: true, filter: (source) => !NOT_COPIED.has(path.relative(ROOT, source).split(path.sep)[0]) });
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, "node_modules")), path.join(dir, "node_modules"));
});

afterAll(() => {
  for (const made of [dir, emptyDir]) if (made) fs.rmSync(made, { recursive: true, force: true });
});

/** A build as `npm start` runs it: its own environment, not the test runner's (NODE_ENV=test, VITEST…). */
function build(command: string): string {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(env)) if (name === "NODE_ENV" || name.startsWith("VITEST")) delete env[name];
  return execSync(`${command} 2>&1`, { cwd: dir, env: env as NodeJS.ProcessEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** Builds the copy as a first start would, or reads what CI's build of this checkout printed. */
function firstStartBuild(): { root: string; output: string } {
  if (CI_BUILD_LOG) return { root: ROOT, output: fs.readFileSync(CI_BUILD_LOG, "utf8") };
  expect(missingBuilds(dir)).toEqual([SERVER_BUILD, APP_BUILD]);
  return { root: dir, output: [build(SERVER_BUILD.command), build(APP_BUILD.command)].join("\n") };
}

describe("npm start", () => {
  it("compiles the server and the app once; a second start finds both and compiles nothing; the build is quiet", () => {
    // A checkout without build/ compiles both, the server first.
    expect(missingBuilds(emptyDir)).toEqual([SERVER_BUILD, APP_BUILD]);

    const { root, output } = firstStartBuild();

    // The app's build used to delete all of build/, the compiled server with it.
    expect(fs.existsSync(path.join(root, "build/serve/server.js"))).toBe(true);
    expect(fs.existsSync(path.join(root, "build/server/index.js"))).toBe(true);
    expect(fs.readdirSync(path.join(root, "build/client/assets")).length).toBeGreaterThan(0);
    expect(missingBuilds(root)).toEqual([]);

    expect(output).toContain("✓ built in");
    expect(output).not.toContain("Generated an empty chunk");
    expect(output).not.toContain("annotation that Rollup cannot interpret");
    expect(output).not.toContain("(!)");
  }, 600_000);
});
