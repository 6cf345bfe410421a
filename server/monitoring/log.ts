/**
 * The server's log: one JSON line per request and per job, through pino (docs/runbook.md, "Logs"). A
 * person at a terminal in development gets pino-pretty instead. What a line may carry is decided where it is
 * written (paths without query strings, never bodies nor headers); `redact` is the second line of defence
 * for a field someone adds later: anything named like a secret or a person's data is replaced.
 */
import pino, { type DestinationStream, type Logger } from "pino";

/** Field names whose values never reach the log, at the top level or one level down. */
const SECRET_FIELDS = ["email", "dni", "password", "token", "accessToken", "refreshToken", "authorization", "cookie", "card", "cardNumber", "cvv", "securityCode", "documentNumber", "body", "query", "variables"];
export const REDACTED_PATHS = [...SECRET_FIELDS, ...SECRET_FIELDS.map((field) => `*.${field}`)];

function level() {
  return process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info");
}

/** A logger writing to `destination` (tests capture lines this way), or to stdout: pretty for a person in development. */
export function createLogger(destination?: DestinationStream): Logger {
  const options = { level: level(), base: { pid: process.pid }, redact: { paths: REDACTED_PATHS, censor: "[oculto]" }, messageKey: "msg" };
  if (destination) return pino(options, destination);
  if (process.env.NODE_ENV !== "production" && process.stdout.isTTY) {
    return pino({ ...options, transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid" } } });
  }
  // Asynchronous writes: a request never waits for stdout (the on-sale benchmark notices); flushed on shutdown.
  return pino(options, pino.destination({ dest: 1, sync: false }));
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
