import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

/**
 * Where the server may send a request on someone else's behalf (an
 * organization's webhook URL today; any future outgoing fetch to a URL a user
 * typed). Decision 151: only public unicast addresses of the internet, checked
 * on the address the connection really uses — the name is resolved right
 * before connecting, every answer must be public, and the socket is pinned to
 * the address that was checked, so a DNS answer that changes between the
 * check and the connection (rebinding) gains nothing.
 *
 * Tests reach a receiver of their own on 127.0.0.1 only through
 * `setOutgoingTestPolicy` (an injected lookup and allow-list), never through
 * an environment variable a deployment could leave on.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** What a test injects: a stand-in for DNS and the loopback receivers it runs itself. */
export interface OutgoingTestPolicy {
  lookup?: Resolver;
  /** True for an address (and port) the test's own receiver listens on: let through although it is not public. */
  allow?: (address: string, port: number) => boolean;
}

/** Kept on globalThis so the bundled server and the test runner's module copies see the same one. */
const TEST_POLICY = Symbol.for("tribuna.outgoing-test-policy");

type WithPolicy = typeof globalThis & { [TEST_POLICY]?: OutgoingTestPolicy };

/** Tests only: set (or clear with `null`) the injected lookup and allow-list. */
export function setOutgoingTestPolicy(policy: OutgoingTestPolicy | null): void {
  (globalThis as WithPolicy)[TEST_POLICY] = policy ?? undefined;
}

function testPolicy(): OutgoingTestPolicy | undefined {
  return (globalThis as WithPolicy)[TEST_POLICY];
}

/** Refused before any connection: the message is for logs, never for the person (see the callers). */
export class UnsafeDestination extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "UnsafeDestination";
  }
}

// ───────────────────────── The address rule ─────────────────────────

function ipv4Bytes(text: string): number[] | null {
  if (net.isIPv4(text)) return text.split(".").map(Number);
  return null;
}

/** IPv4 ranges that are not public unicast (IANA special-purpose registry, RFC 6890 and followers). */
const IPV4_BLOCKED: [number[], number][] = [
  [[0, 0, 0, 0], 8], // "this network", unspecified
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local (cloud metadata lives here)
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

function inV4(bytes: number[], [base, bits]: [number[], number]): boolean {
  const value = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  const start = ((base[0] << 24) | (base[1] << 16) | (base[2] << 8) | base[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (value & mask) === (start & mask);
}

function isPublicV4(bytes: number[]): boolean {
  return !IPV4_BLOCKED.some((range) => inV4(bytes, range));
}

/** The eight 16-bit groups of an IPv6 address (with an IPv4 tail or `::`), or null. */
function ipv6Groups(text: string): number[] | null {
  if (!net.isIPv6(text) || text.includes("%")) return null;
  let head = text;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (v4) {
    const b = ipv4Bytes(v4[1]);
    if (!b) return null;
    tail.push((b[0] << 8) | b[1], (b[2] << 8) | b[3]);
    head = head.slice(0, -v4[1].length);
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const parse = (part: string) => (part ? part.split(":").map((g) => Number.parseInt(g, 16)) : []);
  let groups: number[];
  if (head.includes("::")) {
    const [left, right] = head.split("::");
    const l = parse(left);
    const r = parse(right);
    groups = [...l, ...Array(8 - tail.length - l.length - r.length).fill(0), ...r];
  } else {
    groups = parse(head);
  }
  groups = [...groups, ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function embeddedV4(groups: number[]): number[] {
  return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff];
}

function isPublicV6(g: number[]): boolean {
  // IPv4-mapped (::ffff:a.b.c.d) and the well-known NAT64 prefix (64:ff9b::a.b.c.d) reach an IPv4 address: its rule.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return isPublicV4(embeddedV4(g));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isPublicV4(embeddedV4(g));
  // Only global unicast (2000::/3) is public: this leaves out ::, ::1, IPv4-compatible (::a.b.c.d), ULA fc00::/7,
  // link-local fe80::/10, site-local fec0::/10 and multicast ff00::/8.
  if ((g[0] & 0xe000) !== 0x2000) return false;
  if (g[0] === 0x2001 && g[1] < 0x200) return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID…)
  if (g[0] === 0x2001 && g[1] === 0xdb8) return false; // documentation
  if (g[0] === 0x2002) return false; // 6to4: it tunnels to an IPv4 address of its choosing
  if ((g[0] & 0xfff0) === 0x3ff0) return false; // 3fff::/20 documentation
  return true;
}

/** True when `address` (an IPv4 or IPv6 literal, no brackets) is a public unicast address of the internet. */
export function isPublicAddress(address: string): boolean {
  const v4 = ipv4Bytes(address);
  if (v4) return isPublicV4(v4);
  const v6 = ipv6Groups(address);
  return v6 ? isPublicV6(v6) : false;
}

// ───────────────────────── URLs and names ─────────────────────────

/**
 * The host of a URL as an address when it is a literal IP. The WHATWG parser
 * has already turned every IPv4 notation (`2130706433`, `0x7f.1`, `0177.0.0.1`)
 * into dotted decimal and compressed IPv6; brackets are dropped here.
 */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return net.isIP(bare) ? bare : null;
}

/** Names that only ever mean this machine or an internal network: refused without asking DNS. */
export function isInternalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  if (!name.includes(".")) return true; // a single label resolves through the local search domains
  return /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/.test(name);
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function resolverInUse(): Resolver {
  return testPolicy()?.lookup ?? systemResolver;
}

/** A test's own receiver (setOutgoingTestPolicy); false in every deployment. */
export function isTestReceiver(address: string, port: number): boolean {
  return Boolean(testPolicy()?.allow?.(address, port));
}

function allowed(address: string, port: number): boolean {
  return isPublicAddress(address) || isTestReceiver(address, port);
}

/**
 * The addresses a connection to `url` may use: its literal IP, or every
 * answer for its name — all of them public (one private answer refuses the
 * lot: the connection could pick it). Throws UnsafeDestination otherwise; DNS
 * failures are thrown as they come.
 */
export async function resolveSafeDestination(url: URL): Promise<ResolvedAddress[]> {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const literal = literalAddress(url.hostname);
  if (literal) {
    if (!allowed(literal, port)) throw new UnsafeDestination(`literal address ${literal} is not public`);
    return [{ address: literal, family: net.isIPv6(literal) ? 6 : 4 }];
  }
  if (isInternalName(url.hostname)) throw new UnsafeDestination(`internal name ${url.hostname}`);
  const answers = await resolverInUse()(url.hostname.replace(/\.+$/, ""));
  if (!answers.length) throw new UnsafeDestination(`no address for ${url.hostname}`);
  const bad = answers.find((a) => !allowed(a.address, port));
  if (bad) throw new UnsafeDestination(`${url.hostname} resolves to ${bad.address}, not public`);
  return answers;
}

/**
 * A `lookup` for http.request / net.connect that answers only the addresses
 * already checked (no second DNS query), in the shape Node asks for (`all`
 * with happy eyeballs, one address otherwise).
 */
export function pinnedLookup(addresses: ResolvedAddress[]): net.LookupFunction {
  return ((_hostname: string, options: dns.LookupOptions | number | undefined, callback: (...args: unknown[]) => void) => {
    const opts = typeof options === "object" && options ? options : {};
    const family = typeof options === "number" ? options : opts.family === "IPv4" ? 4 : opts.family === "IPv6" ? 6 : (opts.family ?? 0);
    const usable = addresses.filter((a) => !family || a.family === family);
    if (!usable.length) {
      callback(Object.assign(new Error("no checked address of that family"), { code: "ENOTFOUND" }));
      return;
    }
    if (opts.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  }) as net.LookupFunction;
}

// ───────────────────────── Sending ─────────────────────────

export interface PublicRequest {
  method: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** Why a request to a public URL did not get an answer, for the callers to word (never shown raw to a person). */
export type PublicRequestFailure = "unsafe" | "timeout" | "network";

export class PublicRequestError extends Error {
  constructor(
    readonly kind: PublicRequestFailure,
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
    this.name = "PublicRequestError";
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * One request to a URL someone typed, only if it lands on a public address
 * (resolveSafeDestination, with the socket pinned to the checked answers):
 * http(s) only, no redirects followed, the answer's body dropped unread.
 * Resolves with the HTTP status; rejects with PublicRequestError.
 */
export async function requestPublicUrl(rawUrl: string, init: PublicRequest): Promise<{ status: number }> {
  const signal = AbortSignal.timeout(init.timeoutMs);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new PublicRequestError("unsafe", "not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new PublicRequestError("unsafe", `protocol ${url.protocol}`);
  const failure = (error: unknown): PublicRequestError => {
    if (error instanceof PublicRequestError) return error;
    if (error instanceof UnsafeDestination) return new PublicRequestError("unsafe", error.message);
    if (signal.aborted || (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))) return new PublicRequestError("timeout", "no answer in time");
    const code = (error as { code?: string } | null)?.code;
    return new PublicRequestError("network", code ?? (error instanceof Error ? error.message : String(error)));
  };
  let addresses: ResolvedAddress[];
  try {
    addresses = await raceAbort(resolveSafeDestination(url), signal);
  } catch (error) {
    throw failure(error);
  }
  const literal = literalAddress(url.hostname);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        method: init.method,
        hostname: literal ?? url.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...init.headers, "Content-Length": String(Buffer.byteLength(init.body)) },
        // A fresh socket per request, connected to an address checked above and nothing else.
        agent: false,
        lookup: pinnedLookup(addresses),
        signal,
      },
      (response) => {
        resolve({ status: response.statusCode ?? 0 });
        response.destroy();
      },
    );
    request.on("error", (error) => reject(failure(error)));
    request.end(init.body);
  });
}
