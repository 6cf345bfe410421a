/**
 * The server's log: one JSON line per request and per job, through pino (docs/runbook.md, "Logs"). A
 * person at a terminal in development gets pino-pretty instead. What a line may carry is decided where it is
 * written (paths without query strings, never bodies nor headers); `hideSecrets` is the second line of defence
 * for a field someone adds later: anything named like a secret or a person's data is replaced.
 */
import pino, { type DestinationStream, type Logger } from "pino";

/** Field names whose values never reach the log, at the top level or one level down. */
const SECRET_FIELDS = new Set(["email", "dni", "password", "token", "accessToken", "refreshToken", "authorization", "cookie", "card", "cardNumber", "cvv", "securityCode", "documentNumber", "body", "query", "variables"]);
export const CENSORED = "[oculto]";

/**
 * The line's fields with every secret field, at the top level or one level down (an error's `query`, a
 * payer's `email`), replaced by CENSORED; the caller's objects are never changed (changed ones are copied,
 * an error keeping its class, message and stack). A plain scan instead of pino's `redact`: its wildcard paths
 * cloned every value of every line, ~6 % of the app's CPU per order in the on-sale rush (decision 243).
 */
export function hideSecrets(line: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key in line) {
    const value = line[key];
    let replacement: unknown = value;
    if (SECRET_FIELDS.has(key)) replacement = CENSORED;
    else if (typeof value === "object" && value !== null && !Array.isArray(value)) replacement = withoutSecretFields(value as Record<string, unknown>);
    if (replacement !== value) (copy ??= { ...line })[key] = replacement;
  }
  return copy ?? line;
}

function withoutSecretFields(value: Record<string, unknown>): Record<string, unknown> {
  // Bytes are no record of fields (and a buffer's keys are its indices).
  if (ArrayBuffer.isView(value)) return value;
  let descriptors: PropertyDescriptorMap | null = null;
  for (const key of Object.keys(value)) {
    if (!SECRET_FIELDS.has(key)) continue;
    descriptors ??= Object.getOwnPropertyDescriptors(value);
    descriptors[key] = { value: CENSORED, enumerable: true, writable: true, configurable: true };
  }
  // Own properties with their descriptors and the same prototype: an Error copy still has its message and stack,
  // and a frozen object's copy is built with the secret already replaced (redefining it afterwards would throw).
  return descriptors ? (Object.create(Object.getPrototypeOf(value), descriptors) as Record<string, unknown>) : value;
}

function level() {
  return process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info");
}

/** A logger writing to `destination` (tests capture lines this way), or to stdout: pretty for a person in development. */
export function createLogger(destination?: DestinationStream): Logger {
  const options = { level: level(), base: { pid: process.pid }, formatters: { log: hideSecrets }, messageKey: "msg" };
  if (destination) return pino(options, destination);
  if (process.env.NODE_ENV !== "production" && process.stdout.isTTY) {
    return pino({ ...options, transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid" } } });
  }
  // Asynchronous writes: a request never waits for stdout (the on-sale benchmark notices); flushed on shutdown.
  // Lines gather up to 2 kB (or half a second) per write: one write for ~10 request lines in a rush instead of one each.
  // Chunks of at most 4 kB: sonic-boom measures its last chunk on every line (flattening the string it appends to),
  // so with its 16 kB default each line of a rush copied ~8 kB.
  return pino(options, pino.destination({ dest: 1, sync: false, minLength: 2048, maxWrite: 4096, periodicFlush: 500 }));
}

const LOGGER_KEY = Symbol.for("tribuna.logger");
const holder = globalThis as typeof globalThis & { [LOGGER_KEY]?: Logger };

/** The process's logger (one for the server and the Remix build alike). */
export function log(): Logger {
  return (holder[LOGGER_KEY] ??= createLogger());
}

/** Replaces the process's logger (tests); returns the previous one. */
export function setLogger(next: Logger): Logger | undefined {
  const previous = holder[LOGGER_KEY];
  holder[LOGGER_KEY] = next;
  return previous;
}

/**
 * A path as it may be logged: no query string (sign-in links, purchase tokens, searches by email travel
 * there), and a path segment that looks like a secret or a person's data (an unsubscribe or invitation
 * token, an email, a document number) replaced.
 */
export function loggablePath(url: string | undefined): string {
  const path = (url ?? "/").split(/[?#]/, 1)[0];
  if (path.length > 300) return `${path.slice(0, 300)}…`;
  return path
    .split("/")
    .map((segment) => (isSecretLike(segment) ? ":oculto" : segment))
    .join("/");
}

function isSecretLike(segment: string): boolean {
  if (segment.includes("@") || segment.includes("%40")) return true;
  if (/^\d{7,8}$/.test(segment)) return true;
  // Tokens: long runs with letters and digits mixed and no word breaks (slugs have hyphens between words; UUIDs are ids).
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment)) return false;
  return segment.length >= 20 && /\d/.test(segment) && /[A-Za-z]/.test(segment) && !/^[a-z0-9]+(-[a-z0-9]+){2,}$/.test(segment);
}
