import { AsyncLocalStorage } from "node:async_hooks";
import net from "node:net";

/**
 * The origin the visitor used (http://127.0.0.1:3000, http://192.168.0.10:3000…),
 * for the links and redirects the app builds while it serves their request
 * (decision 114). Set by webRequestHandler around every page and API request;
 * jobs run outside any request and see none.
 *
 * One store per process, kept on globalThis: server.ts runs this file from the
 * source while the Remix build carries its own bundled copy, and both must
 * read the same store.
 */
const KEY = Symbol.for("tribuna.request-origin");
const holder = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<string> };
const storage = (holder[KEY] ??= new AsyncLocalStorage<string>());

export function runWithRequestOrigin<T>(url: string, fn: () => T): T {
  const origin = trustedRequestOrigin(url);
  return origin ? storage.run(origin, fn) : fn();
}

/** The origin of the request being served, when it is one we may put in a link. */
export function currentRequestOrigin(): string | undefined {
  return storage.getStore();
}

/**
 * The Host header is the client's to write: a link built from any host would
 * let someone ask for a stranger's sign-in link pointing at their own site.
 * Without APP_URL only the names a laptop or a local network use are taken
 * as they come (localhost, loopback and private addresses); any other host
 * falls back to http://localhost:PORT (set APP_URL on a real server).
 */
export function trustedRequestOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
  return isLocalHostname(parsed.hostname) ? parsed.origin : undefined;
}

export function isLocalHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isLocalAddress(host);
}

/** Loopback, private (RFC 1918, fc00::/7) and link-local addresses, IPv4-mapped ones included. */
export function isLocalAddress(address: string): boolean {
  let ip = address.toLowerCase();
  if (ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7))) ip = ip.slice(7);
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split(".").map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (net.isIPv6(ip)) return ip === "::1" || /^f[cd][0-9a-f]{2}:/.test(ip) || /^fe[89ab][0-9a-f]:/.test(ip);
  return false;
}

/** Loopback only (127.0.0.0/8, ::1): the same machine. */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  let ip = address.toLowerCase();
  if (ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7))) ip = ip.slice(7);
  if (net.isIPv4(ip)) return ip.startsWith("127.");
  return ip === "::1";
}
