import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CENSORED, createLogger, hideSecrets } from "./log";

/** A logger at info level whose lines land in `lines`, parsed. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const previous = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = "info";
  const logger = createLogger(sink);
  if (previous === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = previous;
  return { logger, lines };
}

describe("the log hides secrets and people's data", () => {
  it("replaces secret fields at the top level and one level down, and keeps the rest", () => {
    const { logger, lines } = capturingLogger();
    logger.info({ path: "/api/graphql", email: "ana@example.com", payer: { email: "ana@example.com", firstName: "Ana", documentNumber: "30123456" }, status: 200 }, "pedido");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "pedido", path: "/api/graphql", status: 200, email: CENSORED, payer: { email: CENSORED, firstName: "Ana", documentNumber: CENSORED } });
    expect(JSON.stringify(lines[0])).not.toContain("ana@example.com");
    expect(JSON.stringify(lines[0])).not.toContain("30123456");
  });

  it("hides an error's query and keeps its message, class and stack", () => {
    const { logger, lines } = capturingLogger();
    const error = Object.assign(new TypeError("falló la consulta"), { query: "select * from users where email = 'ana@example.com'", code: "23505" });
    logger.error({ err: error }, "error de base");
    expect(lines[0].err).toMatchObject({ type: "TypeError", message: "falló la consulta", query: CENSORED, code: "23505" });
    expect(String((lines[0].err as { stack: string }).stack)).toContain("falló la consulta");
    // The caller's error is not changed.
    expect(error.query).toContain("ana@example.com");
  });

  it("hides a secret inside a frozen object without throwing, and leaves bytes alone", () => {
    const frozen = Object.freeze({ token: "secreto", kind: "webhook" });
    const bytes = Buffer.from("hola");
    expect(hideSecrets({ frozen, bytes })).toEqual({ frozen: { token: CENSORED, kind: "webhook" }, bytes });
  });

  it("leaves a line without secrets as it is, and never changes the caller's objects", () => {
    const clean = { path: "/eventos/fiesta", status: 200, timing: { durationMs: 12 } };
    expect(hideSecrets(clean)).toBe(clean);
    const payer = { email: "ana@example.com", firstName: "Ana" };
    const line = { payer, token: "abc" };
    const hidden = hideSecrets(line);
    expect(hidden).toEqual({ payer: { email: CENSORED, firstName: "Ana" }, token: CENSORED });
    expect(line).toEqual({ payer: { email: "ana@example.com", firstName: "Ana" }, token: "abc" });
  });
});
