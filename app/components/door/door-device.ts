import { judgeOffline, scannedLookup, scanVia, type DoorManifest, type DoorManifestEntry } from "#common/door-manifest";
import { liveRefLookup, parseLiveCode, unwrapLiveSecret, verifyLiveCode } from "#common/live-qr";
import type { DoorOutcome, DoorVerdict } from "#common/door";

/**
 * The door device's memory (docs/door.md): the signed manifests it has and
 * the scans it queued without the network, in localStorage so a reload (or a
 * dead battery swap) loses nothing. Talks to /api/graphql like any integrator.
 */

export interface QueuedScan {
  scanId: string;
  code: string;
  scannedAt: string;
  acceptedOffline: boolean;
  door: string;
  /** Hash of the code in the manifest, to know what this device already let in. */
  hash: string | null;
}

interface StoredManifests {
  /** The last full manifest and the incremental ones after it, each as signed. */
  signed: { payload: string; signature: string }[];
}

export type DeviceMode = "door" | "bar";

/** The bar keeps its own manifest and queue beside the door's on the same phone. */
const storageKey = (eventId: string, what: "manifest" | "queue", mode: DeviceMode = "door") => (mode === "bar" ? `tribuna-door:${eventId}:bar:${what}` : `tribuna-door:${eventId}:${what}`);

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the door keeps working online.
  }
}

export function readQueue(eventId: string, mode: DeviceMode = "door"): QueuedScan[] {
  return read<QueuedScan[]>(storageKey(eventId, "queue", mode), []);
}

export function writeQueue(eventId: string, queue: QueuedScan[], mode: DeviceMode = "door") {
  write(storageKey(eventId, "queue", mode), queue);
}

const b64url = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromB64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

async function verified(signed: { payload: string; signature: string }, publicKey: JsonWebKey): Promise<DoorManifest | null> {
  try {
    const key = await crypto.subtle.importKey("jwk", publicKey, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    const ok = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, fromB64url(signed.signature), new TextEncoder().encode(signed.payload));
    return ok ? (JSON.parse(signed.payload) as DoorManifest) : null;
  } catch {
    return null;
  }
}

/** What the device knows: entries by code hash and by short-code hash, merged from the stored signed manifests. */
export class DoorBook {
  manifest: DoorManifest | null = null;
  private byCode = new Map<string, DoorManifestEntry>();
  private byShort = new Map<string, DoorManifestEntry>();
  /** Live tickets by the lookup of their reference (decision 208). */
  private byLive = new Map<string, DoorManifestEntry>();
  private hmacKey: CryptoKey | null = null;
  private shortSalt: ArrayBuffer | null = null;

  constructor(
    private eventId: string,
    private publicKey: JsonWebKey,
    private mode: DeviceMode = "door",
  ) {}

  get size() {
    return this.byCode.size;
  }

  /** Loads what the device stored (each part verified against the page's public key). */
  async load(): Promise<void> {
    const stored = read<StoredManifests>(storageKey(this.eventId, "manifest", this.mode), { signed: [] });
    for (const signed of stored.signed) {
      const manifest = await verified(signed, this.publicKey);
      // One of another version (stored before an update) is dropped: the next fetch brings a whole one.
      if (!manifest || manifest.eventId !== this.eventId || manifest.v !== 2) return this.reset();
      await this.apply(manifest);
    }
  }

  private reset() {
    this.manifest = null;
    this.byCode.clear();
    this.byShort.clear();
    this.byLive.clear();
    write(storageKey(this.eventId, "manifest", this.mode), { signed: [] });
  }

  private async apply(manifest: DoorManifest) {
    if (manifest.full) {
      this.byCode.clear();
      this.byShort.clear();
      this.byLive.clear();
    }
    if (!this.manifest || this.manifest.key !== manifest.key) {
      this.hmacKey = await crypto.subtle.importKey("raw", fromB64url(manifest.key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    }
    this.shortSalt = fromB64url(manifest.shortCodes.salt).buffer as ArrayBuffer;
    this.manifest = manifest;
    for (const entry of manifest.entries) {
      this.byCode.set(entry.k, entry);
      this.byShort.set(entry.s, entry);
      if (entry.l) this.byLive.set(entry.l.r, entry);
    }
  }

  /** Adds a manifest fetched from the server (full or incremental) and stores it. */
  async add(signed: { payload: string; signature: string }): Promise<boolean> {
    const manifest = await verified(signed, this.publicKey);
    if (!manifest || manifest.eventId !== this.eventId || manifest.v !== 2) return false;
    if (!manifest.full && !this.manifest) return false;
    await this.apply(manifest);
    const stored = read<StoredManifests>(storageKey(this.eventId, "manifest", this.mode), { signed: [] });
    write(storageKey(this.eventId, "manifest", this.mode), { signed: manifest.full ? [signed] : [...stored.signed, signed] });
    return true;
  }

  /** A whole code's hash: HMAC-SHA256 with the event's key (instant: every QR scan pays it). */
  async hashOf(value: string): Promise<string | null> {
    if (!this.hmacKey) return null;
    return b64url((await crypto.subtle.sign("HMAC", this.hmacKey, new TextEncoder().encode(value))).slice(0, 16));
  }

  /** A typed short code's hash: PBKDF2 as the manifest says (slow on purpose, docs/door.md; a few milliseconds on a phone). */
  async shortHashOf(value: string): Promise<string | null> {
    const params = this.manifest?.shortCodes;
    if (!params || !this.shortSalt) return null;
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(value), "PBKDF2", false, ["deriveBits"]);
    const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: this.shortSalt, iterations: params.iterations }, key, params.bytes * 8);
    return b64url(bits);
  }

  /** A live code's ticket and whether its digits verify now (one step either side), from the manifest alone. */
  private async judgeLive(raw: string, at: Date): Promise<{ entry: DoorManifestEntry | undefined; liveValid: boolean }> {
    const live = parseLiveCode(raw);
    if (!live || !this.manifest) return { entry: undefined, liveValid: false };
    const entry = this.byLive.get(await liveRefLookup(fromB64url(this.manifest.key), live.ticketRef));
    if (!entry?.l) return { entry: undefined, liveValid: false };
    const secret = await unwrapLiveSecret(entry.l.x, live.ticketRef);
    return { entry, liveValid: (await verifyLiveCode(secret, raw, at)).valid };
  }

  /** Judges a scan with no network: the manifest plus what this device already let in. */
  async judge(raw: string, queue: QueuedScan[], at: Date = new Date()): Promise<{ verdict: DoorVerdict; hash: string | null }> {
    const via = scanVia(raw);
    let entry: DoorManifestEntry | undefined;
    let liveValid = false;
    if (via === "live") {
      if (!this.manifest) return { verdict: { outcome: "unknown" }, hash: null };
      ({ entry, liveValid } = await this.judgeLive(raw.trim(), at));
    } else {
      const lookup = scannedLookup(raw);
      if (!lookup || !this.manifest) return { verdict: { outcome: "unknown" }, hash: null };
      const hash = lookup.kind === "code" ? await this.hashOf(lookup.value) : await this.shortHashOf(lookup.value);
      entry = hash ? (lookup.kind === "code" ? this.byCode.get(hash) : this.byShort.get(hash)) : undefined;
    }
    const mine = entry ? queue.find((q) => q.acceptedOffline && q.hash === entry.k) : undefined;
    const verdict = judgeOffline(entry, this.manifest, mine ? { at: mine.scannedAt, door: mine.door } : undefined, { via, liveValid, at });
    return { verdict, hash: entry?.k ?? null };
  }
}

// ---------------------------------------------------------------------------
// GraphQL, as the door screen's client component.

type GraphQLAnswer<T> = { data?: T | null; errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[] };

async function graphql<T>(query: string, variables: Record<string, unknown>, timeoutMs = 6000): Promise<T> {
  const body = await graphqlAnswer<T>(query, variables, timeoutMs);
  if (body.errors?.length) throw answeredError(body.errors[0]);
  return body.data as T;
}

function answeredError(error: { message: string; extensions?: { code?: string } }) {
  return Object.assign(new Error(error.message), { code: error.extensions?.code, answered: true });
}

/** The whole answer, data and errors, for operations that answer some items and refuse others. */
async function graphqlAnswer<T>(query: string, variables: Record<string, unknown>, timeoutMs: number): Promise<GraphQLAnswer<T>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch("/api/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query, variables }),
      credentials: "same-origin",
      signal: controller.signal,
    });
    return (await response.json()) as GraphQLAnswer<T>;
  } finally {
    clearTimeout(timer);
  }
}

/** A failure of the network (no answer), as opposed to an answer that refused. */
export function isNetworkFailure(error: unknown): boolean {
  return !(error as { answered?: boolean })?.answered;
}

export interface ServerAnswer extends DoorVerdict {
  scanId: string;
  outcome: DoorOutcome;
}

const ANSWER_FIELDS = "scanId outcome holderName holderDocument ticketTypeName seatLabel eventDateStartsAt redeemedAt redeemedDoor otherEventName productKind";

export async function redeemOnline(slug: string, scan: { code: string; scanId: string; door: string; deviceId: string }, mode: DeviceMode = "door"): Promise<ServerAnswer> {
  const data = await graphql<{ redeemProduct: ServerAnswer }>(`mutation($input: RedeemProductInput!) { redeemProduct(input: $input) { ${ANSWER_FIELDS} } }`, {
    input: { eventSlug: slug, ...scan, mode },
  });
  return data.redeemProduct;
}

/**
 * Sends the queue; answers every scan the server settled. A scan it refused
 * on its own (an impossible time: BAD_USER_INPUT at its index) is settled too,
 * as `unknown`: sending it again would be refused again, and keeping it would
 * resend it forever. Any other error leaves the whole queue for next time.
 */
export async function syncQueue(slug: string, deviceId: string, scans: QueuedScan[], mode: DeviceMode = "door"): Promise<ServerAnswer[]> {
  const body = await graphqlAnswer<{ syncDoorScans: (ServerAnswer | null)[] }>(
    `mutation($input: SyncDoorScansInput!) { syncDoorScans(input: $input) { ${ANSWER_FIELDS} } }`,
    { input: { eventSlug: slug, deviceId, mode, scans: scans.map(({ scanId, code, scannedAt, acceptedOffline, door }) => ({ scanId, code, scannedAt, acceptedOffline, door })) } },
    15000,
  );
  const answers = body.data?.syncDoorScans;
  if (!answers) throw answeredError(body.errors?.[0] ?? { message: "Sin respuesta" });
  const refused = new Set((body.errors ?? []).filter((e) => e.extensions?.code === "BAD_USER_INPUT" && e.path?.[0] === "syncDoorScans").map((e) => e.path?.[1]));
  return answers.flatMap((answer, i): ServerAnswer[] => (answer ? [answer] : refused.has(i) ? [{ scanId: scans[i].scanId, outcome: "unknown" }] : []));
}

export async function fetchManifest(slug: string, since: string | null, mode: DeviceMode = "door"): Promise<{ payload: string; signature: string }> {
  const data = await graphql<{ doorManifest: { payload: string; signature: string } }>(`query($slug: String!, $since: String, $mode: String) { doorManifest(eventSlug: $slug, since: $since, mode: $mode) { payload signature } }`, { slug, since, mode }, 15000);
  return data.doorManifest;
}
