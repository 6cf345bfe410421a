import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE_URL } from "./env";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface GroupProcess {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/**
 * Node processes a spec starts in their own process group (detached), so whatever they start in turn (servers,
 * workers) goes with them: after each test the group still running gets SIGKILL. Call it at the top of the spec.
 */
export function processGroupPerTest() {
  let child: ChildProcess | null = null;

  /** SIGKILL to the group of the process started last, unless it already ended. */
  function endGroup() {
    const pid = child?.pid;
    if (!pid || child?.exitCode !== null || child?.signalCode !== null) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }

  test.afterEach(() => {
    endGroup();
    child = null;
  });

  /** `node ...args` in its own group, its output kept. */
  function startNode(args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }): GroupProcess {
    let output = "";
    const started = spawn(process.execPath, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child = started;
    started.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => started.once("exit", (code) => resolve(code)));
    return { child: started, output: () => output, exited };
  }

  /**
   * `scripts/crash-test.ts` with `args` against its own database next to the e2e one, to its end: its output is
   * attached to the report as `attachment`, what it checked goes to the CI log, and it must exit 0. Gives its output.
   */
  async function runCrashTest(args: string[], attachment: string): Promise<string> {
    const run = startNode(["--import", "tsx", "scripts/crash-test.ts", ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL } });
    const code = await run.exited;
    const output = run.output();
    await test.info().attach(attachment, { body: output, contentType: "text/plain" });
    // What it checked, in the CI log.
    const summary = output.indexOf("Qué comprobó");
    console.log(summary >= 0 ? output.slice(summary) : output.slice(-4_000));
    expect(code, output.slice(-8_000)).toBe(0);
    return output;
  }

  return { startNode, runCrashTest, endGroup };
}
